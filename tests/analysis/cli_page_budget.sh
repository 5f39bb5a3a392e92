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
#   - the data_page view's 2 MiB rows are whole (page_region_stat's): the
#     same as without a budget and as SQL over spe_record, its 4 KiB rows
#     those of the listed pages; a file without page_region_stat (made
#     before it, version 7) or without a source's rows there groups
#     page_stat as the view did before (db_trust.c);
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
# data_page's rows, a row's data object names sorted (their order follows the ids': it differs once pages moved)
view_cols="source_id, pid, page_size, page, page_value, accesses, total_latency, mean_latency, tlb_walks,
  translation_latency, translation_share, pages_4k, walked_pages_4k, $(cat <<'EOF'
(SELECT group_concat(value) FROM (SELECT value FROM json_each('["' || replace(data_objects, ',', '","') || '"]')
  ORDER BY value)) AS names
EOF
)"
# the 2 MiB rows by their definition over spe_record (data_page's, docs/schema.md): each process's 2 MiB regions
view_ref="WITH x AS (SELECT source_id, sum(translation_latency) AS total FROM spe_record WHERE data_va IS NOT NULL
    GROUP BY 1),
o AS (SELECT source_id, pid, region, group_concat(n) AS names FROM (SELECT DISTINCT r.source_id, r.pid,
    r.data_va >> 21 AS region, d.name AS n FROM spe_record r JOIN data_object d ON d.id = r.data_object_id
    WHERE r.data_va IS NOT NULL ORDER BY 1, 2, 3, 4) GROUP BY 1, 2, 3),
q AS (SELECT source_id, pid, data_va >> 21 AS region, count(*) AS accesses, sum(total_latency) AS total_latency,
    count(total_latency) AS timed, sum(tlb_walk) AS tlb_walks, sum(translation_latency) AS translation_latency,
    count(DISTINCT data_va >> 12) AS pages_4k, count(DISTINCT CASE WHEN tlb_walk THEN data_va >> 12 END) AS walked
  FROM spe_record WHERE data_va IS NOT NULL GROUP BY 1, 2, 3)
SELECT q.source_id, q.pid, 2097152, printf('0x%x', q.region << 21), q.region << 21, q.accesses, q.total_latency,
  round(1.0 * q.total_latency / nullif(q.timed, 0), 2), q.tlb_walks, q.translation_latency,
  round(100.0 * q.translation_latency / nullif(x.total, 0), 2), q.pages_4k, q.walked, o.names
FROM q JOIN x ON x.source_id = q.source_id
LEFT JOIN o ON o.source_id = q.source_id AND o.pid IS q.pid AND o.region = q.region"
regions_of() { # db: data_page's 2 MiB rows
	query "$1" "SELECT $view_cols FROM data_page WHERE page_size = 2097152 ORDER BY 1, 2, 5"
}

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
	view=$(regions_of "$4")
	expect "$1 data_page regions = without budget" "$view" "$(regions_of "$3")"
	expect "$1 data_page regions = records" "$view" "$(query "$4" "$view_ref ORDER BY 1, 2, 5")"
	# its 4 KiB rows: the listed pages', as without a budget (the share of the source's whole latency)
	query "$4" "SELECT * FROM data_page WHERE page_size = 4096" | LC_ALL=C sort >"$tmp/pages_b"
	query "$3" "SELECT * FROM data_page WHERE page_size = 4096" | LC_ALL=C sort >"$tmp/pages_all"
	expect "$1 data_page pages: as without budget" "$(LC_ALL=C comm -23 "$tmp/pages_b" "$tmp/pages_all")" ""
	expect "$1 data_page pages: page_stat's" "$(wc -l <"$tmp/pages_b")" "$(query "$4" "SELECT count(*) FROM page_stat")"
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

# a file without page_region_stat (made before it: version 7, the table dropped from a copy) or without a
# source's rows there (loaded before it, then --append): data_page groups page_stat, as it did before the table
# (a view naming the missing table would fail at its first read); both leave the pages past the budget out
page_view_cols="source_id, pid, page_size, page, page_value, accesses, total_latency, mean_latency, tlb_walks,
  translation_latency, pages_4k, walked_pages_4k, data_objects"
old_regions="SELECT source_id, pid, page >> 9 << 21, sum(accesses), count(*) FROM page_stat GROUP BY 1, 2, 3"
for f in all b1000; do
	cp "$tmp/$f.db" "$tmp/$f-v7.db" && cp "$tmp/$f.db" "$tmp/$f-norows.db"
	${SPE_RUN:-} "$query" -d "$tmp/$f-v7.db" --write "DROP TABLE page_region_stat; DROP TABLE level_latency_bucket;
		UPDATE meta SET value = '7' WHERE key = 'schema_version'; PRAGMA user_version = 7" >/dev/null ||
		{ echo "FAIL crafting $f-v7.db"; fail=1; }
	${SPE_RUN:-} "$query" -d "$tmp/$f-norows.db" --write "DELETE FROM page_region_stat" >/dev/null ||
		{ echo "FAIL crafting $f-norows.db"; fail=1; }
	expect "$f v7: version 7" "$(query "$tmp/$f-v7.db" "SELECT user_version FROM pragma_user_version")" 7
	for g in v7 norows; do
		expect "$f $g: data_page groups page_stat" "$(query "$tmp/$f-$g.db" "SELECT source_id, pid, page_value,
			accesses, pages_4k FROM data_page WHERE page_size = 2097152 ORDER BY 1, 2, 3")" \
			"$(query "$tmp/$f-$g.db" "$old_regions ORDER BY 1, 2, 3")"
		# (their translation_share of the listed pages' latency, as before: not compared)
		expect "$f $g: its 4 KiB rows" "$(query "$tmp/$f-$g.db" "SELECT $page_view_cols FROM data_page
			WHERE page_size = 4096 ORDER BY 1, 2, 5")" "$(query "$tmp/$f.db" "SELECT $page_view_cols FROM data_page
			WHERE page_size = 4096 ORDER BY 1, 2, 5")"
	done
done
# without a budget the grouping is the regions: the whole view the same, row for row (ties in any order)
expect "v7 without budget: data_page" "$(query "$tmp/all-v7.db" "SELECT * FROM data_page ORDER BY 3, 1, 2, 5")" \
	"$(query "$tmp/all.db" "SELECT * FROM data_page ORDER BY 3, 1, 2, 5")"
[ "$(regions_of "$tmp/b1000-v7.db")" != "$(regions_of "$tmp/b1000.db")" ] ||
	{ echo "FAIL v7 past the budget: the regions whole without page_region_stat"; fail=1; }

# busy_host: 200 processes, most pages seen once; a second source appended (the note adds both up)
mkdir -p "$tmp/busy"
${SPE_RUN:-} "$gen" --perf-data="$tmp/busy.data" "$tmp/busy" 40000 5000 500 200 4 >/dev/null ||
	{ echo "FAIL gen_bench busy_host"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/busy.data" -o "$tmp/busy_all.db" --symfs="$tmp/busy" 2>/dev/null || { echo "FAIL load busy"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/busy.data" -o "$tmp/busy_b.db" --symfs="$tmp/busy" --page-budget=1000 2>/dev/null ||
	{ echo "FAIL load busy --page-budget"; exit 1; }
check "busy_host budget 1000" "$tmp/busy.data" "$tmp/busy_all.db" "$tmp/busy_b.db"
# two sources, the first without region rows (loaded before the table) and the second past its budget: the
# first's regions grouped from its pages (whole: no budget), the second's from its regions (whole)
cp "$tmp/all.db" "$tmp/mixed.db"
${SPE_RUN:-} "$query" -d "$tmp/mixed.db" --write "DELETE FROM page_region_stat" >/dev/null || { echo "FAIL mixed"; fail=1; }
${SPE_RUN:-} "$load" "$tmp/busy.data" -o "$tmp/mixed.db" --symfs="$tmp/busy" --page-budget=1000 --append 2>/dev/null ||
	{ echo "FAIL append busy"; exit 1; }
expect "mixed: two sources" "$(query "$tmp/mixed.db" "SELECT count(DISTINCT source_id) FROM page_region_stat") $(query \
	"$tmp/mixed.db" "SELECT count(*) FROM source")" "1 2"
expect "mixed: data_page regions" "$(regions_of "$tmp/mixed.db")" "$(query "$tmp/mixed.db" "$view_ref ORDER BY 1, 2, 5")"
exit $fail
