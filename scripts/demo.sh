#!/usr/bin/env bash
# The main job end to end on the embedded default: the memwork fixture trace
# (two Neoverse N1 CPUs, SPE records pointing into a real aarch64 program in
# fixtures/elf/) is replayed through spe-record's AUX-ring path into a
# perf.data, decoded, loaded into SQLite with symbols and disassembly, queried
# and reported: last, the whole story as one HTML page, whose path it prints.
# Works on any Linux machine; no Arm hardware needed.
#   scripts/demo.sh [OUTDIR]      (default: build/demo)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh build/plain >/dev/null
bin=build/plain/cli
out=${1:-build/demo}
mkdir -p "$out"
rm -f "$out/memwork.data" "$out/memwork.db"

step() { printf '\n== %s\n' "$*"; }

step "spe-record --replay: fixture trace -> perf.data"
"$bin/spe-record" --replay=fixtures/workloads/traces/memwork.replay -o "$out/memwork.data"

step "spe-dump --records (first 5 records)"
"$bin/spe-dump" --records "$out/memwork.data" > "$out/records.txt"
head -n 5 "$out/records.txt"

step "spe-load: perf.data -> SQLite, symbols from fixtures/elf"
"$bin/spe-load" "$out/memwork.data" -o "$out/memwork.db" --symfs=fixtures/elf

step "spe-query: the hottest instructions"
"$bin/spe-query" -d "$out/memwork.db" \
  "SELECT pc, symbol, src_line, mnemonic, operands, samples, total_latency, p99 FROM hot_pc LIMIT 5"

step "spe-query: where the loads were served from"
"$bin/spe-query" -d "$out/memwork.db" "SELECT * FROM mem_level_summary"

step "spe-query: false sharing"
"$bin/spe-query" -d "$out/memwork.db" \
  "SELECT line, symbols, threads, stores, hitm, peer_hits FROM cacheline_sharing LIMIT 3"

step "spe-report"
"$bin/spe-report" -d "$out/memwork.db"

step "spe-report --annotate=chase: the hottest function, line by line"
"$bin/spe-report" -d "$out/memwork.db" --annotate=chase --symfs=fixtures/elf --source-dir=fixtures/workloads

step "spe-report --html: the whole story as one page"
"$bin/spe-report" -d "$out/memwork.db" --html="$out/memwork.html" --symfs=fixtures/elf --source-dir=fixtures/workloads

printf '\nThe database is %s; try: %s/spe-query -d %s "SELECT * FROM spe_sample LIMIT 10"\n' \
  "$out/memwork.db" "$bin" "$out/memwork.db"
printf 'The report is %s (open it in a browser)\n' "$(cd "$out" && pwd)/memwork.html"
