#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-report --annotate on the memwork fixture against golden files reviewed
# by eye (tests/report/golden/): the four functions with --symfs and
# --source-dir (every instruction from the ELF, Capstone's text, DWARF lines,
# the inlined bump() named), then branchy without them (the sampled
# instruction only, and notes saying why); the JSON of chase.  Then the
# numbers against spe-query: each sampled instruction's samples, mean and
# p99 equal hot_pc's, the function's equal hot_symbol's.  An unknown name
# exits 65; --annotate with --html is a usage error.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 fx=$5 golden=$6
scratch_dir cli-annotate
run() { ${SPE_RUN:-} "$@"; }
query() {
	run "$query" -d "$db" --format=csv "$1" | tr -d '\r' | tail -n +2
}
run "$record" --replay="$fx/workloads/traces/memwork.replay" -o "$tmp/memwork.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
run "$load" "$tmp/memwork.data" -o "$tmp/memwork.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }
db=$tmp/memwork.db

for f in chase bump_shared stream_sum branchy; do
	run "$report" -d "$db" --annotate=$f --symfs="$fx/elf" --source-dir="$fx/workloads" || fail=1
	echo
done >"$tmp/annotate.txt"
# without them: spe-load's --symfs kept in the database dropped first (spe-report would use it)
run "$query" -d "$db" --write "DELETE FROM meta WHERE key LIKE 'load.%'" >/dev/null || fail=1
run "$report" -d "$db" --annotate=branchy >>"$tmp/annotate.txt" || fail=1
if ! diff -u "$golden/memwork-annotate.txt" "$tmp/annotate.txt"; then
	echo "FAIL annotate_text (golden/memwork-annotate.txt)"
	fail=1
fi
# (from the source tree, so source_path reads as in the golden file)
(cd "$fx/.." && run "$report" -d "$db" --annotate=chase --format=json --symfs=fixtures/elf \
	--source-dir=fixtures/workloads) >"$tmp/chase.json"
expect json_rc $? 0
if ! diff -u "$golden/memwork-annotate-chase.json" "$tmp/chase.json"; then
	echo "FAIL annotate_json (golden/memwork-annotate-chase.json)"
	fail=1
fi
# --color=always shades the hot rows (red from 5 % of the function's latency), never the cold ones
out=$(run "$report" -d "$db" --annotate=chase --symfs="$fx/elf" --color=always)
expect color_rows "$(printf '%s\n' "$out" | grep -c "$(printf '\033')\[31m")" 2

# the sampled instructions' numbers are hot_pc's, the function's hot_symbol's
for f in chase bump_shared stream_sum branchy; do
	got=$(run "$report" -d "$db" --annotate=$f --symfs="$fx/elf" |
		awk '$5 ~ /^0x/ && $2 > 0 { print $5 "," $2 "," $3 "," $4 }' | tr -d ':' | sort)
	want=$(query "SELECT pc, samples, printf('%.2f', mean_latency), p99 FROM hot_pc WHERE symbol = '$f'" | sort)
	expect "insns_$f" "$got" "$want"
	got=$(run "$report" -d "$db" --annotate=$f | sed -n 2p)
	want=$(query "SELECT samples || ' samples, total latency ' || total_latency || ' (' || latency_share ||
	              '% of all), mean ' || printf('%.2f', mean_latency) || ', p50 ' || p50 || ', p90 ' || p90 ||
	              ', p99 ' || p99 AS line FROM hot_symbol WHERE symbol = '$f'" | tr -d '"')
	expect "function_$f" "$got" "  $want"
done

err=$(run "$report" -d "$db" --annotate=nosuchfunction 2>&1)
expect unknown_rc $? 65
has unknown_msg "$err" "no function named 'nosuchfunction' in the database"
# and names the hottest functions, as hot_symbol ranks them
hot=$(query "SELECT group_concat(symbol, ', ') FROM (SELECT symbol FROM hot_symbol WHERE symbol IS NOT NULL LIMIT 5)" |
	tr -d '"')
has unknown_hint "$err" "(the hottest: $hot; spe-query \"SELECT symbol FROM hot_symbol\" lists all)"
err=$(run "$report" -d "$db" --annotate=chase --html="$tmp/x.html" 2>&1)
expect with_html_rc $? 64
expect with_html_nofile "$(ls "$tmp" | grep -c x.html)" 0
err=$(run "$report" -d "$db" --annotate=chase --cross-isa 2>&1)
expect with_cross_rc $? 64

[ $fail = 0 ] && echo "cli_annotate: all passed"
exit $fail
