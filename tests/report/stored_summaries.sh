#!/bin/sh
# The report's queries that read what the loads stored (page_region_stat: the
# huge-page hint, the page's 2 MiB regions and 4 KiB pages and its TLB totals;
# level_latency_bucket: the loads' latencies by memory level) against the
# queries they replace, which scan page_stat through data_page: the same rows,
# through spe-query, on gen_bench captures of the memory_bound shape
# (bench/bench_shapes.sh), one source and then two (a busy_host capture
# appended: many processes).  The SQL is the report's own (report_sql_text).
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
gen=$1 load=$2 query=$3 report=$4 sqltext=$5
scratch_dir report-stored-summaries
query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r'
}
# the report's SQL of query $1 reading the summaries $2 (0: none), its top ?1 of 25
sql() {
	${SPE_RUN:-} "$sqltext" "$1" "$2" | sed 's/?1/25/g'
}

# a latency's log2 bucket by its lowest latency (0, 1, 2, 4, ...: latency_bucket's latency_lo)
lo="CASE WHEN l < 1 THEN 0"
k=0
while [ $k -lt 32 ]; do
	lo="$lo WHEN l < $((1 << (k + 1))) THEN $((1 << k))"
	k=$((k + 1))
done
lo="$lo END"

check_db() { # label db
	expect "$1 regions stored" "$(query "$2" "SELECT count(*) > 0 FROM page_region_stat" | tail -1)" 1
	for q in huge_page_hint data_page tlb_totals; do
		scan=$(query "$2" "$(sql $q 0)" | tail -n +2)
		stored=$(query "$2" "$(sql $q 1)" | tail -n +2)
		expect "$1 $q" "$stored" "$scan"
		[ -n "$stored" ] || { echo "FAIL $1 $q: no rows"; fail=1; }
	done
	# the loads' latencies by level: each scanned load in its log2 bucket (latency_lo, as the page buckets
	# them again) against the stored counts
	scan=$(query "$2" "SELECT mem_level, $lo AS lo, sum(c) FROM ($(sql latency_by_level 0 |
		sed 's/total_latency, 1/total_latency AS l, 1 AS c/')) GROUP BY 1, 2 ORDER BY 1, 2" | tail -n +2)
	stored=$(query "$2" "SELECT * FROM ($(sql latency_by_level 2)) ORDER BY 1, 2" | tail -n +2)
	expect "$1 latency_by_level" "$stored" "$scan"
	[ "$(printf "%s\n" "$stored" | cut -d, -f1 | sort -u | wc -l)" -ge 4 ] || { echo "FAIL $1 latency_by_level: not every level"; fail=1; }
	# not vacuous: regions the hint counts (all 40 of memory_bound's: every one has walked pages)
	expect "$1 counted regions" "$(query "$2" "$(sql huge_page_hint 1)" | tail -1 | cut -d, -f1)" 40
	# the text report's sentence says the stored row's numbers (gen_bench's translation latency exceeds its
	# total latency: the sentence that says so, with both)
	row=$(query "$2" "$(sql huge_page_hint 1)" | tail -1)
	text=$(${SPE_RUN:-} "$report" -d "$2" 2>&1)
	has "$1 hint" "$text" "translation latency ($(echo "$row" | cut -d, -f4) cycles) exceeds the records' total latency ($(echo "$row" | cut -d, -f5) cycles)"
}

# memory_bound: 2,000 PCs, random words of 20,000 pages (80 MB: 40 regions of 2 MiB), half walking the TLB
${SPE_RUN:-} "$gen" --perf-data="$tmp/mem.data" "$tmp" 200000 --data-pages=20000 --tlb-walk=50 --data-mapping 2000 200 \
	>/dev/null || { echo "FAIL gen_bench memory_bound"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/mem.data" -o "$tmp/t.db" --symfs="$tmp" 2>/dev/null || { echo "FAIL load"; exit 1; }
check_db one_source "$tmp/t.db"
# the regions are page_stat's rows added up: every page in one region, the sums equal
expect region_sums "$(query "$tmp/t.db" "SELECT sum(accesses), sum(tlb_walks), sum(translation_latency), count(*)
	FROM page_stat" | tail -1)" "$(query "$tmp/t.db" "SELECT sum(accesses), sum(tlb_walks), sum(translation_latency),
	sum(pages_4k) FROM page_region_stat" | tail -1)"

# past a page budget (spe-load --page-budget): page_region_stat still counts every page, so the stored queries
# answer as without a budget, while the scans over page_stat (data_page) leave out the pages past it
${SPE_RUN:-} "$load" "$tmp/mem.data" -o "$tmp/budget.db" --symfs="$tmp" --page-budget=1000 2>/dev/null ||
	{ echo "FAIL load --page-budget"; exit 1; }
for q in huge_page_hint tlb_totals; do
	expect "budget $q stored" "$(query "$tmp/budget.db" "$(sql $q 1)" | tail -n +2)" \
		"$(query "$tmp/t.db" "$(sql $q 1)" | tail -n +2)"
done
scan=$(query "$tmp/budget.db" "$(sql tlb_totals 0)" | tail -n +2)
[ "$scan" != "$(query "$tmp/budget.db" "$(sql tlb_totals 1)" | tail -n +2)" ] ||
	{ echo "FAIL budget: the scan over page_stat counts every page ($scan)"; fail=1; }
has "budget note" "$(${SPE_RUN:-} "$report" -d "$tmp/budget.db" 2>&1)" "past --page-budget are counted in their 2 MiB regions only"

# a database made before the tables (dropped from a copy, the same name): the reports scan as before, and say
# the same, the page but its Queries appendix (the SQL and times differ)
mkdir -p "$tmp/old" && cp "$tmp/t.db" "$tmp/old/t.db"
for t in page_region_stat level_latency_bucket; do
	${SPE_RUN:-} "$query" -d "$tmp/old/t.db" --write "DROP TABLE $t" || { echo "FAIL drop $t"; fail=1; }
done
expect old_text "$(${SPE_RUN:-} "$report" -d "$tmp/old/t.db" 2>&1)" "$(${SPE_RUN:-} "$report" -d "$tmp/t.db" 2>&1)"
${SPE_RUN:-} "$report" -d "$tmp/old/t.db" --html="$tmp/old.html" 2>/dev/null || { echo "FAIL old page"; fail=1; }
${SPE_RUN:-} "$report" -d "$tmp/t.db" --html="$tmp/new.html" 2>/dev/null || { echo "FAIL page"; fail=1; }
has old_page_scans "$(cat "$tmp/old.html")" "FROM data_page WHERE page_size = 2097152"
has new_page_stored "$(cat "$tmp/new.html")" "FROM page_region_stat"
expect old_page "$(sed '/<section id="queries">/,$d' "$tmp/old.html")" "$(sed '/<section id="queries">/,$d' "$tmp/new.html")"

# busy_host appended: 200 processes mapping the binary 4 times each, their pages apart
mkdir -p "$tmp/busy"
${SPE_RUN:-} "$gen" --perf-data="$tmp/busy.data" "$tmp/busy" 100000 5000 500 200 4 >/dev/null ||
	{ echo "FAIL gen_bench busy_host"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/busy.data" -o "$tmp/t.db" --symfs="$tmp/busy" --append 2>/dev/null ||
	{ echo "FAIL append"; exit 1; }
check_db two_sources "$tmp/t.db"
expect two_sources "$(query "$tmp/t.db" "SELECT count(DISTINCT source_id), count(DISTINCT pid) > 100 FROM page_region_stat" |
	tail -1)" "2,1"
exit $fail
