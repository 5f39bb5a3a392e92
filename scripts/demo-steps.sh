#!/bin/sh
# The main job's steps on the memwork fixture trace, with the commands in BIN:
#   demo-steps.sh BIN TRACES SYMFS OUTDIR
# TRACES holds memwork.replay and its two raw SPE files, SYMFS the traced
# program (memwork-pie).  scripts/demo.sh runs it on the source tree;
# `cmake --install` puts it beside the fixture in PREFIX/share/spekit/demo/,
# where demo.sh runs it with the installed commands.
set -eu
bin=$1 traces=$2 symfs=$3 out=$4
mkdir -p "$out"
rm -f "$out/memwork.data" "$out/memwork.db"

step() { printf '\n== %s\n' "$*"; }

step "spe-record --replay: fixture trace -> perf.data"
"$bin/spe-record" --replay="$traces/memwork.replay" -o "$out/memwork.data"

step "spe-dump --records (first 5 records)"
"$bin/spe-dump" --records "$out/memwork.data" > "$out/records.txt"
head -n 5 "$out/records.txt"

step "spe-load: perf.data -> SQLite, symbols from $symfs"
"$bin/spe-load" "$out/memwork.data" -o "$out/memwork.db" --symfs="$symfs"

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

# memwork.c: beside the trace when installed, one folder up in the source tree
step "spe-report --annotate=chase: the hottest function, line by line"
"$bin/spe-report" -d "$out/memwork.db" --annotate=chase --symfs="$symfs" --source-dir="$traces" \
  --source-dir="$traces/.."

step "spe-report --html: the whole story as one page"
"$bin/spe-report" -d "$out/memwork.db" --html="$out/memwork.html" --symfs="$symfs" --source-dir="$traces" \
  --source-dir="$traces/.."

printf '\nThe database is %s; try: %s/spe-query -d %s "SELECT * FROM spe_sample LIMIT 10"\n' \
  "$out/memwork.db" "$bin" "$out/memwork.db"
printf 'The report is %s (open it in a browser)\n' "$(cd "$out" && pwd)/memwork.html"
