#!/bin/sh
# spe-load --page-budget: past it the coldest pages leave page_stat for their
# 2 MiB regions (record_summary.c, evict_pages).  On gen_bench captures with
# many pages (memory_bound and busy_host shapes, bench/bench_shapes.sh), loaded
# with small budgets (1: every page leaves at each new one; 1000: many
# rounds) and without one:
#   - every page_stat row is its page's exact counts, from spe_record and from
#     perf script's data addresses (perf 6.1 on the same file, when present);
#   - page_region_stat is the same, row for row, as the load without a budget
#     and as SQL over spe_record (counts, pages_4k, walked_pages_4k, objects);
#   - load_stats.pages_unlisted / unlisted_page_records are the pages without
#     a row and their records; spe-load's summary, the text report and the
#     HTML page say so;
#   - every other table is the same as without a budget;
#   - a budget the capture just fits (its distinct pages) changes nothing.
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
gen=$1 load=$2 query=$3 report=$4
scratch_dir page-budget
query() { # db sql: the rows without the header (the SQL on one line: the header is its text)
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$(printf '%s' "$2" | tr '\n\t' '  ')" | tr -d '\r' | tail -n +2
}
page_cols="source_id, pid, page, accesses, tlb_walks, translated, translation_latency, timed, total_latency"
page_ref="SELECT source_id, pid, data_va >> 12, count(*), sum(tlb_walk), count(translation_latency),
  sum(translation_latency), count(total_latency), sum(total_latency) FROM spe_record WHERE data_va IS NOT NULL
  GROUP BY 1, 2, 3"
# a row's data object ids as a sorted list (their order differs once pages moved: schema.md)
region_cols="source_id, pid, region, accesses, tlb_walks, translated, translation_latency, timed, total_latency,
  pages_4k, walked_pages_4k, (SELECT group_concat(value) FROM (SELECT value FROM json_each(data_object_ids)
  ORDER BY value)) AS ids"
region_ref="WITH o AS (SELECT source_id, pid, region, group_concat(o) AS ids FROM (SELECT DISTINCT source_id, pid,
    data_va >> 21 AS region, data_object_id AS o FROM spe_record WHERE data_va IS NOT NULL AND data_object_id IS NOT NULL
    ORDER BY 1, 2, 3, 4) GROUP BY 1, 2, 3)
SELECT q.*, o.ids FROM (SELECT source_id, pid, data_va >> 21 AS region, count(*), sum(tlb_walk),
  count(translation_latency), sum(translation_latency), count(total_latency), sum(total_latency),
  count(DISTINCT data_va >> 12), count(DISTINCT CASE WHEN tlb_walk THEN data_va >> 12 END)
  FROM spe_record WHERE data_va IS NOT NULL GROUP BY 1, 2, 3) q
LEFT JOIN o ON o.source_id = q.source_id AND o.pid IS q.pid AND o.region = q.region"
# the tables other than the pages' and load_stats (and source: its load time), as SQL text
others() {
	for t in $(query "$1" "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT IN
		('page_stat', 'page_region_stat', 'load_stats', 'source') AND name NOT LIKE 'sqlite%' ORDER BY 1"); do
		echo "== $t"
		query "$1" "SELECT * FROM \"$t\" ORDER BY rowid" 2>/dev/null || query "$1" "SELECT * FROM \"$t\" ORDER BY 1"
	done
}

check() { # label data db-without-budget db-with-budget
	got=$(query "$4" "SELECT $page_cols FROM page_stat ORDER BY 1, 2, 3")
	expect "$1 page_stat rows exact" "$(query "$4" "SELECT $page_cols FROM page_stat INTERSECT $page_ref ORDER BY 1, 2, 3")" "$got"
	[ -n "$got" ] || { echo "FAIL $1: no page_stat row"; fail=1; }
	expect "$1 page_stat data objects" "$(query "$4" "SELECT source_id, pid, page, (SELECT group_concat(value) FROM
		json_each(data_object_ids)) FROM page_stat ORDER BY 1, 2, 3")" "$(query "$4" "SELECT source_id, pid, page,
		(SELECT group_concat(o) FROM (SELECT data_object_id AS o FROM spe_record r WHERE r.source_id = p.source_id
		AND r.pid IS p.pid AND r.data_va >> 12 = p.page AND o IS NOT NULL GROUP BY o ORDER BY min(r.id)))
		FROM page_stat p ORDER BY 1, 2, 3")"
	regions=$(query "$4" "SELECT $region_cols FROM page_region_stat ORDER BY 1, 2, 3")
	expect "$1 regions = without budget" "$regions" "$(query "$3" "SELECT $region_cols FROM page_region_stat ORDER BY 1, 2, 3")"
	expect "$1 regions = records" "$regions" "$(query "$4" "$region_ref ORDER BY 1, 2, 3")"
	unlisted=$(query "$4" "SELECT pages_unlisted, unlisted_page_records FROM load_stats")
	expect "$1 unlisted counts" "$unlisted" "$(query "$4" "SELECT
		(SELECT count(*) FROM (SELECT DISTINCT pid, data_va >> 12 FROM spe_record WHERE data_va IS NOT NULL))
		  - (SELECT count(*) FROM page_stat),
		(SELECT count(*) FROM spe_record WHERE data_va IS NOT NULL) - (SELECT sum(accesses) FROM page_stat)")"
	pages=${unlisted%,*} records=${unlisted#*,}
	[ "$pages" -gt 0 ] || { echo "FAIL $1: no page past the budget"; fail=1; }
	expect "$1 without budget: none unlisted" "$(query "$3" "SELECT pages_unlisted, unlisted_page_records FROM load_stats")" "0,0"
	expect "$1 other tables" "$(others "$4")" "$(others "$3")"
	note="$pages pages ($records records) past --page-budget are counted in their 2 MiB regions only"
	has "$1 text report" "$(${SPE_RUN:-} "$report" -d "$4" 2>&1)" "Pages: $note"
	${SPE_RUN:-} "$report" -d "$4" --html="$tmp/page.html" 2>/dev/null || { echo "FAIL $1 page"; fail=1; }
	has "$1 html note" "$(cat "$tmp/page.html")" "<p id=\"page-budget\" class=\"note\">$note"
	case "$(${SPE_RUN:-} "$report" -d "$3" 2>&1)" in
	*page-budget*) echo "FAIL $1: a note without pages past the budget"; fail=1 ;;
	esac
	# perf's own data addresses: each listed page's records (perf script -F pid,addr, one sample a record)
	if command -v perf >/dev/null && [ -z "${SPE_RUN:-}" ]; then
		PAGER=cat perf script -i "$2" --itrace=i1i -F pid,addr 2>/dev/null |
			awk '$2 != "0" && length($2) > 3 { print $1 "," substr($2, 1, length($2) - 3) }' | LC_ALL=C sort |
			uniq -c | awk '{ print $2 "," $1 }' >"$tmp/perf_pages"
		query "$4" "SELECT pid, printf('%x', page), accesses FROM page_stat" | LC_ALL=C sort >"$tmp/listed"
		expect "$1 listed pages as perf counts them" "$(LC_ALL=C comm -23 "$tmp/listed" "$tmp/perf_pages")" ""
		expect "$1 pages without a row, by perf" "$(($(wc -l <"$tmp/perf_pages") - $(wc -l <"$tmp/listed")))" "$pages"
		expect "$1 their records, by perf" "$(($(awk -F, '{ n += $3 } END { print n }' "$tmp/perf_pages") -
			$(awk -F, '{ n += $3 } END { print n }' "$tmp/listed")))" "$records"
	fi
}

# memory_bound: 20,000 pages in 40 regions, half the accesses walking the TLB, data objects
mkdir -p "$tmp/mem"
${SPE_RUN:-} "$gen" --perf-data="$tmp/mem.data" "$tmp/mem" 40000 --data-pages=20000 --tlb-walk=50 --data-mapping 2000 200 \
	>/dev/null || { echo "FAIL gen_bench memory_bound"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/mem.data" -o "$tmp/all.db" --symfs="$tmp/mem" 2>/dev/null || { echo "FAIL load"; exit 1; }
for budget in 1000 1; do
	out=$(${SPE_RUN:-} "$load" "$tmp/mem.data" -o "$tmp/b$budget.db" --symfs="$tmp/mem" --page-budget=$budget 2>&1) ||
		{ echo "FAIL load --page-budget=$budget"; exit 1; }
	check "memory_bound budget $budget" "$tmp/mem.data" "$tmp/all.db" "$tmp/b$budget.db"
	has "memory_bound budget $budget summary" "$out" \
		"$(query "$tmp/b$budget.db" "SELECT pages_unlisted || ' pages (' || unlisted_page_records || ' records) past --page-budget'
		  FROM load_stats")"
done
# one thread: the same
${SPE_RUN:-} "$load" "$tmp/mem.data" -o "$tmp/j1.db" --symfs="$tmp/mem" --page-budget=1000 --jobs=1 2>/dev/null ||
	{ echo "FAIL load --jobs=1"; exit 1; }
expect "jobs=1 page_stat" "$(query "$tmp/j1.db" "SELECT * FROM page_stat")" "$(query "$tmp/b1000.db" "SELECT * FROM page_stat")"
expect "jobs=1 regions" "$(query "$tmp/j1.db" "SELECT * FROM page_region_stat")" \
	"$(query "$tmp/b1000.db" "SELECT * FROM page_region_stat")"
# the budget the capture just fits: no page leaves, the same rows as without a budget; one less: some do
n=$(query "$tmp/all.db" "SELECT count(*) FROM page_stat")
${SPE_RUN:-} "$load" "$tmp/mem.data" -o "$tmp/fit.db" --symfs="$tmp/mem" --page-budget=$n 2>/dev/null || { echo "FAIL fit"; exit 1; }
expect "fits: page_stat" "$(query "$tmp/fit.db" "SELECT * FROM page_stat")" "$(query "$tmp/all.db" "SELECT * FROM page_stat")"
expect "fits: regions" "$(query "$tmp/fit.db" "SELECT * FROM page_region_stat")" \
	"$(query "$tmp/all.db" "SELECT * FROM page_region_stat")"
expect "fits: none unlisted" "$(query "$tmp/fit.db" "SELECT pages_unlisted FROM load_stats")" 0
${SPE_RUN:-} "$load" "$tmp/mem.data" -o "$tmp/less.db" --symfs="$tmp/mem" --page-budget=$((n - 1)) 2>/dev/null ||
	{ echo "FAIL fit - 1"; exit 1; }
[ "$(query "$tmp/less.db" "SELECT pages_unlisted FROM load_stats")" -gt 0 ] || { echo "FAIL one less: none unlisted"; fail=1; }

# busy_host: 200 processes, most pages seen once; a second source appended (the note adds both up)
mkdir -p "$tmp/busy"
${SPE_RUN:-} "$gen" --perf-data="$tmp/busy.data" "$tmp/busy" 40000 5000 500 200 4 >/dev/null ||
	{ echo "FAIL gen_bench busy_host"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/busy.data" -o "$tmp/busy_all.db" --symfs="$tmp/busy" 2>/dev/null || { echo "FAIL load busy"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/busy.data" -o "$tmp/busy_b.db" --symfs="$tmp/busy" --page-budget=1000 2>/dev/null ||
	{ echo "FAIL load busy --page-budget"; exit 1; }
check "busy_host budget 1000" "$tmp/busy.data" "$tmp/busy_all.db" "$tmp/busy_b.db"
exit $fail
