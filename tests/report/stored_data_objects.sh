#!/bin/sh
# hot_data_object from what the loads counted per data object (data_object_stat,
# data_object_level) against the view, which groups every record with a data
# object: the same rows, values (p99 included) and order, through spe-query, on
# gen_bench captures: memory_bound (bench/bench_shapes.sh: one [heap] object), then
# busy_host's many processes appended, each with its own data objects (two sources).
# A database made before the tables, and one whose older source has none of their
# rows (appended to), read the view: the reports say the same either way.
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
gen=$1 load=$2 query=$3 report=$4 sqltext=$5
scratch_dir report-stored-data-objects
query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r'
}
# the report's query of the data objects, reading the stored counts ($1 = 4) or the view (0), every row
sql() {
	${SPE_RUN:-} "$sqltext" hot_data_object "$1" | sed 's/?1/-1/g'
}
# the stored counts as hot_data_object's every column: the report query's subquery
stored_view() {
	s=$(sql 4)
	s="(${s#*FROM (}"
	printf '%s\n' "${s% ORDER BY total_latency DESC, samples DESC, name*}"
}

check_db() { # label db objects
	expect "$1 objects counted" "$(query "$2" "SELECT count(*) FROM data_object_stat" | tail -1)" "$3"
	view=$(query "$2" "SELECT * FROM hot_data_object")
	expect "$1 every column" "$(query "$2" "SELECT * FROM $(stored_view)")" "$view"
	expect "$1 report query" "$(query "$2" "$(sql 4)")" "$(query "$2" "$(sql 0)")"
	# not vacuous: rows, p99s and levels there to compare
	[ "$(printf '%s\n' "$view" | wc -l)" -gt "$3" ] || { echo "FAIL $1: fewer rows than objects"; fail=1; }
	expect "$1 p99 and levels" "$(query "$2" "SELECT count(*) = count(p99), count(levels) > 0,
		count(DISTINCT p99) > 1 OR count(*) = 1 FROM hot_data_object" | tail -1)" "1,1,1"
}

# memory_bound: random words of 20,000 pages in one [heap] mapping
${SPE_RUN:-} "$gen" --perf-data="$tmp/mem.data" "$tmp" 200000 --data-pages=20000 --tlb-walk=50 --data-mapping 2000 200 \
	>/dev/null || { echo "FAIL gen_bench memory_bound"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/mem.data" -o "$tmp/t.db" --symfs="$tmp" 2>/dev/null || { echo "FAIL load"; exit 1; }
check_db one_source "$tmp/t.db" 1
cp "$tmp/t.db" "$tmp/before.db"

# 200 processes, each its two data regions mapped ([heap] and [heap] again: 400 objects), appended
mkdir -p "$tmp/busy"
${SPE_RUN:-} "$gen" --perf-data="$tmp/busy.data" "$tmp/busy" 100000 5000 500 200 4 --data-mapping >/dev/null ||
	{ echo "FAIL gen_bench busy_host"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/busy.data" -o "$tmp/t.db" --symfs="$tmp/busy" --append 2>/dev/null ||
	{ echo "FAIL append"; exit 1; }
objects=$(query "$tmp/t.db" "SELECT count(DISTINCT data_object_id) FROM _spe_record" | tail -1)
[ "$objects" -gt 100 ] || { echo "FAIL busy_host: $objects data objects"; fail=1; }
check_db two_sources "$tmp/t.db" "$objects"
expect two_sources "$(query "$tmp/t.db" "SELECT count(DISTINCT source_id) FROM data_object_stat" | tail -1)" 2

# the reports on the stored counts, and on the same database without them (the view): the same text, JSON and page
# (but its Queries appendix)
mkdir -p "$tmp/old" && cp "$tmp/t.db" "$tmp/old/t.db"
for t in data_object_stat data_object_level; do
	${SPE_RUN:-} "$query" -d "$tmp/old/t.db" --write "DROP TABLE $t" || { echo "FAIL drop $t"; fail=1; }
done
new_text=$(${SPE_RUN:-} "$report" -d "$tmp/t.db" 2>&1)
has text_objects "$new_text" "Hot data objects by total latency"
expect old_text "$(${SPE_RUN:-} "$report" -d "$tmp/old/t.db" 2>&1)" "$new_text"
expect old_json "$(${SPE_RUN:-} "$report" -d "$tmp/old/t.db" --format=json 2>&1)" \
	"$(${SPE_RUN:-} "$report" -d "$tmp/t.db" --format=json 2>&1)"
${SPE_RUN:-} "$report" -d "$tmp/old/t.db" --html="$tmp/old.html" 2>/dev/null || { echo "FAIL old page"; fail=1; }
${SPE_RUN:-} "$report" -d "$tmp/t.db" --html="$tmp/new.html" 2>/dev/null || { echo "FAIL page"; fail=1; }
has new_page_stored "$(cat "$tmp/new.html")" "FROM data_object_stat"
has old_page_view "$(cat "$tmp/old.html")" "FROM hot_data_object ORDER BY"
expect old_page "$(sed '/<section id="queries">/,$d' "$tmp/old.html")" "$(sed '/<section id="queries">/,$d' "$tmp/new.html")"

# a source loaded before the tables, then one appended: the older source has no rows, so the reports read the view
for t in data_object_stat data_object_level; do
	${SPE_RUN:-} "$query" -d "$tmp/before.db" --write "DELETE FROM $t" || { echo "FAIL delete $t"; fail=1; }
done
${SPE_RUN:-} "$load" "$tmp/busy.data" -o "$tmp/before.db" --symfs="$tmp/busy" --append 2>/dev/null ||
	{ echo "FAIL append to before"; exit 1; }
${SPE_RUN:-} "$report" -d "$tmp/before.db" --html="$tmp/mixed.html" 2>/dev/null || { echo "FAIL mixed page"; fail=1; }
has mixed_page_view "$(cat "$tmp/mixed.html")" "FROM hot_data_object ORDER BY"
expect mixed_text "$(${SPE_RUN:-} "$report" -d "$tmp/before.db" 2>&1 | sed 's/before\.db/t.db/g')" "$new_text"
exit $fail
