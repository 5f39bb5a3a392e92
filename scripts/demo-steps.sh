#!/bin/sh
# The main job's steps on the fixture traces, with the commands in BIN:
#   demo-steps.sh BIN TRACES SYMFS OUTDIR
# memwork (pointer chases, false sharing, streaming, mispredicts): the code
# story; datawork before and after heap_scan() got faster (data objects,
# huge pages, NUMA, late prefetches): the memory story and a before/after
# comparison.  TRACES holds the replay manifests and their raw SPE files,
# SYMFS the traced programs (memwork-pie, datawork-pie).  scripts/demo.sh
# runs it on the source tree; `cmake --install` puts it beside the fixtures
# in PREFIX/share/spekit/demo/, where demo.sh runs it with the installed
# commands.
set -eu
bin=$1 traces=$2 symfs=$3 out=$4
mkdir -p "$out"
rm -f "$out/memwork.data" "$out/memwork.db" "$out/datawork.data" "$out/datawork.db" "$out/datawork-after.data" \
  "$out/datawork-after.db"

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

step "spe-record --replay, spe-load: datawork before and after heap_scan() got faster"
for side in datawork datawork-after; do
  "$bin/spe-record" --replay="$traces/$side.replay" -o "$out/$side.data"
  "$bin/spe-load" "$out/$side.data" -o "$out/$side.db" --symfs="$symfs"
done

step "spe-query: which data the latency goes to"
"$bin/spe-query" -d "$out/datawork.db" \
  "SELECT kind, name, type, samples, total_latency, p99, levels FROM hot_data_object LIMIT 6"

step "spe-report: the huge-page hint and NUMA of datawork (its memory section)"
"$bin/spe-report" -d "$out/datawork.db" | grep -E '^(Huge pages|NUMA): '

step "spe-report --diff: what changed, beyond sampling noise"
"$bin/spe-report" --diff "$out/datawork.db" "$out/datawork-after.db" --top 3

step "spe-report --html: the whole story as pages"
"$bin/spe-report" -d "$out/memwork.db" --html="$out/memwork.html" --symfs="$symfs" --source-dir="$traces" \
  --source-dir="$traces/.."
"$bin/spe-report" -d "$out/datawork.db" --html="$out/datawork.html" --symfs="$symfs" --source-dir="$traces" \
  --source-dir="$traces/.."
"$bin/spe-report" --diff "$out/datawork.db" "$out/datawork-after.db" --html="$out/datawork-diff.html"

printf '\nThe database is %s; try: %s/spe-query -d %s "SELECT * FROM spe_sample LIMIT 10"\n' \
  "$out/memwork.db" "$bin" "$out/memwork.db"
dir=$(cd "$out" && pwd)
printf 'The reports are %s (code), %s (memory) and %s (before/after): open them in a browser\n' \
  "$dir/memwork.html" "$dir/datawork.html" "$dir/datawork-diff.html"
