#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-report on the datawork fixtures (fixtures/workloads/gen_datatraces.c:
# globals, heap, a 1 GiB scatter, a shared counter, physical addresses on two
# NUMA nodes, late prefetches; the after trace has heap_scan() faster), read
# back with an XML parser (xmllint):
#   - the memory section: data objects, pages and the huge-page hint, the
#     NUMA node matrix, shared lines and late prefetches equal the views
#     through spe-query, and its sentences are the text report's;
#   - the before/after page (--diff A B --html): well-formed, self-contained,
#     every part present; each row's numbers equal --format=json's, in the
#     same order (by impact); heap_scan and its load and its 64 MiB region
#     are faster, everything else noise, and the bars say so (colour,
#     whisker); two databases as well as two sources; --top; the output
#     file is kept when the comparison fails; the option conflicts.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 fx=$5
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 (reads the JSON) is not installed"; exit 77; }
scratch_dir cli-html-data
run() { ${SPE_RUN:-} "$@"; }
query() {
	run "$query" -d "$db" --format=csv "$1" | tr -d '\r"' | tail -n +2
}
. "$(dirname "$0")/xml_lib.sh"
# Rows of a JSON array of spe-report --diff --format=json, formatted as the page shows them.
json_rows() { # file key [limit]
	sqlite3 :memory: "SELECT printf('%s,%+.0f,[%+.0f, %+.0f],%s,%d,%d,%d,%d,%+.1f,[%+.1f, %+.1f]%s,%s,%s%s',
	    json_extract(value, '\$.name'), json_extract(value, '\$.latency_change'),
	    json_extract(value, '\$.latency_interval[0]'), json_extract(value, '\$.latency_interval[1]'),
	    json_extract(value, '\$.verdict'), json_extract(value, '\$.a.total_latency'),
	    json_extract(value, '\$.b.total_latency'), json_extract(value, '\$.a.samples'),
	    json_extract(value, '\$.b.samples'), 100 * json_extract(value, '\$.share_change'),
	    100 * json_extract(value, '\$.share_interval[0]'), 100 * json_extract(value, '\$.share_interval[1]'),
	    CASE WHEN json_extract(value, '\$.share_significant') THEN ' *' ELSE '' END,
	    coalesce(json_extract(value, '\$.a.p99'), ''), coalesce(json_extract(value, '\$.b.p99'), ''),
	    CASE WHEN json_extract(value, '\$.p99_significant') THEN ' *' ELSE '' END)
	  FROM json_each(readfile('$1'), '\$.diff.$2') LIMIT ${3:--1}"
}
page_rows() { # file table-id
	col "$1" "$2" name "/span[@class='mono']" >"$tmp/names"
	table "$1" "$2" latency_change latency_interval verdict latency_a latency_b samples_a samples_b share_change \
		share_interval p99_a p99_b >"$tmp/rest"
	paste -d, "$tmp/names" "$tmp/rest"
}

for side in datawork datawork-after; do
	run "$record" --replay="$fx/workloads/traces/$side.replay" -o "$tmp/$side.data" >/dev/null 2>&1 ||
		{ echo "FAIL replay $side"; exit 1; }
	run "$load" "$tmp/$side.data" -o "$tmp/$side.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load $side"; exit 1; }
done
run "$load" "$tmp/datawork.data" "$tmp/datawork-after.data" -o "$tmp/both.db" --symfs="$fx/elf" 2>/dev/null ||
	{ echo "FAIL load both"; exit 1; }

# ---- the memory section of the before capture
db=$tmp/datawork.db
page=$tmp/datawork.html
run "$report" -d "$db" --html="$page" --top 30 2>/dev/null
expect html_rc $? 0
xmllint --noout "$page" 2>"$tmp/xml.err"
expect well_formed "$?,$(head -3 "$tmp/xml.err")" "0,"
expect data_objects "$(table "$page" data-objects kind name type declared samples loads stores total_latency p99 latency_share)" \
	"$(query "SELECT kind, name, coalesce(type, '–'), coalesce(src_file || ':' || src_line, '–'), samples, loads, stores,
	          total_latency, p99, latency_share FROM hot_data_object LIMIT 30")"
# the levels bar names its counts (the view's list) when pointed at
expect data_object_levels "$(col "$page" data-objects levels /@title)" \
	"$(query "SELECT coalesce(levels, 'no loads') FROM hot_data_object LIMIT 30")"
# each kind of object the fixture touches is named: globals with their DWARF type, the function static,
# the heap, the stack, the two anonymous regions
for o in "variable,table,double[65536]" "variable,weights,const int[64]" "variable,histogram,long int[256]" \
	"variable,sum_table::calls,long int" "variable,shared_counter,atomic_long" "heap,[heap],–" "stack,[stack],–" \
	"anon,//anon,–"; do
	has "object_$o" "$(table "$page" data-objects kind name type)" "$o"
done
# sizes as a reader takes them in: the 1 GiB scatter region, the 64 MiB + 4 KiB malloc, table's 512 KiB
expect sizes "$(table "$page" data-objects name size | grep -E '^(//anon|table),' | sort -u | tr '\n' ' ')" \
	"//anon,1 GiB //anon,64.0 MiB table,512 KiB "
# the huge-page hint: the scatter's 1 GiB region, advised in the library's words (as the text report)
text=$(run "$report" -d "$db")
hint=$(xmllint --xpath "string(//p[@id='huge-page-hint'])" "$page")
expect hint_as_text "Huge pages: $hint" "$(printf '%s\n' "$text" | grep '^Huge pages: ')"
has hint_advises "$hint" "7 regions of 2 MiB take"
expect regions_2m "$(table "$page" regions-2m region accesses tlb_walks translation_latency translation_share pages walked_pages data_objects)" \
	"$(query "SELECT page, accesses, tlb_walks, translation_latency, translation_share, pages_4k, walked_pages_4k, data_objects
	          FROM data_page WHERE page_size = 2097152 ORDER BY translation_latency DESC, tlb_walks DESC, accesses DESC LIMIT 30")"
expect regions_marked "$(xmllint --xpath "count(//table[@id='regions-2m']//td[@data-col='hint']/span)" "$page")" \
	"$(query "SELECT count(*) FROM (SELECT walked_pages_4k FROM data_page WHERE page_size = 2097152
	          ORDER BY translation_latency DESC, tlb_walks DESC, accesses DESC LIMIT 30) WHERE walked_pages_4k >= 2")"
expect pages_4k "$(table "$page" pages-4k page accesses total_latency tlb_walks data_objects)" \
	"$(query "SELECT page, accesses, total_latency, tlb_walks, data_objects FROM data_page WHERE page_size = 4096
	          ORDER BY total_latency DESC, accesses DESC LIMIT 30")"
# NUMA: physical addresses on two nodes; the matrix holds numa_traffic's loads, remote off the diagonal
numa=$(xmllint --xpath "string(//p[@id='numa-summary'])" "$page")
expect numa_as_text "NUMA: $numa" "$(printf '%s\n' "$text" | grep '^NUMA: ')"
has numa_remote "$numa" "of load latency comes from memory of another NUMA node"
cells=$(xmllint --xpath "//table[@id='numa-matrix']//td[@data-loads != '0']" "$page" |
	sed 's/.*data-cpu-node="\([0-9]*\)" data-memory-node="\([0-9]*\)" data-loads="\([0-9]*\)".*/\1,\2,\3/' | sort)
expect numa_matrix "$cells" "$(query "SELECT cpu_node, memory_node, sum(loads) FROM numa_traffic
	WHERE basis = 'physical address' GROUP BY 1, 2 ORDER BY 1, 2")"
has numa_remote_cell "$(xmllint --xpath "string(//table[@id='numa-matrix']//td[@data-cpu-node='0'][@data-memory-node='1'])" "$page")" \
	"(remote)"
expect numa_rows "$(table "$page" numa-traffic cpu_node memory_node basis remote loads total_latency)" \
	"$(query "SELECT cpu_node, memory_node, basis, remote, loads, total_latency FROM numa_traffic")"
# late prefetches of heap_scan's load in its 64 MiB region; the N1's late-prefetch bit named
expect prefetch "$(table "$page" prefetch pc symbol data_object loads late_prefetch late_rate late_latency)" \
	"$(query "SELECT pc, symbol || '+' || symbol_offset, data_object, loads, late_prefetch, late_rate, late_latency
	          FROM prefetch LIMIT 30")"
has prefetch_heap_scan "$(col "$page" prefetch symbol)" "heap_scan+"
expect parts "$(xmllint --xpath "string(//ul[@id='memory-parts']/li)" "$page")" \
	"$(printf '%s\n' "$text" | sed -n 's/^  \(neoverse-n1: \)/\1/p')"
has parts_late_bit "$(xmllint --xpath "string(//ul[@id='memory-parts']/li)" "$page")" "late prefetch is IMPDEF bit 12"
# the counter's line, shared by the two counter threads, with the objects on it
expect sharing "$(table "$page" cacheline-sharing line cpus writes hitm peer_hits remote_hits data_objects)" \
	"$(query "SELECT line, cpus, writes, hitm, peer_hits, remote_hits, data_objects FROM cacheline_sharing LIMIT 30")"
has sharing_counter "$(col "$page" cacheline-sharing data_objects)" "shared_counter"

# ---- the before/after page: two sources of one database
db=$tmp/both.db
diff=$tmp/diff.html
err=$(run "$report" -d "$db" --diff 1 2 --html="$diff" 2>&1)
expect diff_rc $? 0
expect diff_msg "$err" "spe-report: wrote $diff"
xmllint --noout "$diff" 2>"$tmp/xml.err"
expect diff_well_formed "$?,$(head -3 "$tmp/xml.err")" "0,"
ext=$(grep -Eoi '(src|href)="[^#"][^"]*"|url\(|@import|<link' "$diff" | head -3)
expect diff_self_contained "$ext" ""
for s in diff-summary diff-functions diff-instructions diff-data-objects; do
	expect "diff_section_$s" "$(xmllint --xpath "count(//section[@id='$s']/h2)" "$diff")" 1
done
expect diff_how "$(xmllint --xpath "count(//section[@id='diff-summary']/p[@class='how'])" "$diff")" 1
has diff_title "$(xmllint --xpath "string(//h1)" "$diff")" "both.db, sources 1 and 2"
run "$report" -d "$db" --diff 1 2 --format=json >"$tmp/diff.json" || fail=1
has side_a "$(xmllint --xpath "string(//div[@id='side-a'])" "$diff")" "2020samples in A: source 1 (datawork.data)"
has side_b "$(xmllint --xpath "string(//div[@id='side-b'])" "$diff")" "2020samples in B: source 2 (datawork-after.data)"
# every row's numbers are the JSON's, in its order (the first 10 of each kind: --top's default)
expect diff_functions "$(page_rows "$diff" diff-functions-table)" "$(json_rows "$tmp/diff.json" functions 10)"
expect diff_instructions "$(page_rows "$diff" diff-instructions-table)" "$(json_rows "$tmp/diff.json" instructions 10)"
expect diff_data_objects "$(page_rows "$diff" diff-data-objects-table)" "$(json_rows "$tmp/diff.json" data_objects 10)"
has diff_more "$(xmllint --xpath "string(//section[@id='diff-instructions'])" "$diff")" "2 more (0 of them changed beyond noise)"
# sorted by impact: |change| never grows down a table
for k in functions instructions data-objects; do
	expect "diff_sorted_$k" "$(col "$diff" "diff-$k-table" latency_change | tr -d '+-' | sort -rn | tr '\n' ' ')" \
		"$(col "$diff" "diff-$k-table" latency_change | tr -d '+-' | tr '\n' ' ')"
done
# only heap_scan changed: its row, its load and its region faster, every other row noise
verdicts() { # table-id
	xmllint --xpath "//table[@id='$1']/tbody/tr/@data-verdict" "$diff" | tr -d ' ' | sed 's/data-verdict=//; s/"//g' |
		sort | uniq -c | tr '\n' ' ' | tr -s ' '
}
expect functions_verdicts "$(verdicts diff-functions-table)" " 1 faster 6 noise "
expect faster_function "$(xmllint --xpath "string(//table[@id='diff-functions-table']/tbody/tr[@data-verdict='faster']/td[@data-col='name']/span[@class='mono'])" "$diff")" heap_scan
expect faster_insn "$(xmllint --xpath "string(//table[@id='diff-instructions-table']/tbody/tr[@data-verdict='faster']/td[@data-col='name']/span[@class='mono'])" "$diff")" "heap_scan+0x14"
expect faster_object "$(xmllint --xpath "string(//table[@id='diff-data-objects-table']/tbody/tr[@data-verdict='faster']/td[@data-col='name']/span[@class='mono'])" "$diff")" "//anon 64 MiB"
expect summary_counts "$(xmllint --xpath "string(//div[@data-kind='diff-functions']/b)" "$diff")" "1 faster, 0 slower"
# the bar: green and solid for the faster row, left of the zero line; grey and faint for noise;
# the whisker spans the interval and the zero line is outside it only for the faster row
svg="*[local-name()='svg']"
bar=$(xmllint --xpath "//table[@id='diff-functions-table']/tbody/tr[1]//$svg" "$diff")
has bar_faster_colour "$bar" 'fill="#43a047" fill-opacity="1"'
bar_x=$(printf '%s' "$bar" | sed -n 's/.*<rect x="\([0-9.]*\)" y="4" width="\([0-9.]*\)".*/\1 \2/p')
expect bar_left_of_zero "$(echo "$bar_x" | awk 'NF == 2 { print ($1 < 120 && $1 + $2 == 120) }')" 1
whisker=$(printf '%s' "$bar" | sed -n 's/.*<line x1="\([0-9.]*\)" y1="9.0" x2="\([0-9.]*\)".*/\1 \2/p')
expect whisker_excludes_zero "$(echo "$whisker" | awk 'NF == 2 { print ($1 < 120 && $2 < 120) }')" 1
noise_bar=$(xmllint --xpath "//table[@id='diff-functions-table']/tbody/tr[2]//$svg" "$diff")
has bar_noise_colour "$noise_bar" 'fill="#9e9e9e" fill-opacity="0.5"'
whisker=$(printf '%s' "$noise_bar" | sed -n 's/.*<line x1="\([0-9.]*\)" y1="9.0" x2="\([0-9.]*\)".*/\1 \2/p')
expect whisker_spans_zero "$(echo "$whisker" | awk 'NF == 2 { print ($1 < 120 && $2 > 120) }')" 1

# two databases: the same rows as their JSON; --top 3; -o with --format=html is --html
run "$report" --diff "$tmp/datawork.db" "$tmp/datawork-after.db" -o "$tmp/dbs.html" --format=html --top 3 2>/dev/null
expect dbs_rc $? 0
run "$report" --diff "$tmp/datawork.db" "$tmp/datawork-after.db" --format=json >"$tmp/dbs.json" || fail=1
expect dbs_functions "$(page_rows "$tmp/dbs.html" diff-functions-table)" "$(json_rows "$tmp/dbs.json" functions 3)"
expect dbs_objects "$(page_rows "$tmp/dbs.html" diff-data-objects-table)" "$(json_rows "$tmp/dbs.json" data_objects 3)"
has dbs_title "$(xmllint --xpath "string(//h1)" "$tmp/dbs.html")" "datawork.db and datawork-after.db"

# the output: kept when the comparison fails; conflicting options are usage errors that touch nothing
printf 'precious\n' >"$tmp/keep.html"
err=$(run "$report" -d "$db" --diff 1 1 --html="$tmp/keep.html" 2>&1)
expect same_sides_rc $? 64
expect same_sides_kept "$(cat "$tmp/keep.html")" precious
err=$(run "$report" -d "$db" --diff 1 2 --html="$tmp/keep.html" -o "$tmp/other.html" 2>&1)
expect two_outputs_rc $? 64
has two_outputs_msg "$err" "name two outputs"
err=$(run "$report" -d "$db" --diff 1 2 --html="$tmp/keep.html" --format=json 2>&1)
expect html_json_rc $? 64
err=$(run "$report" -d "$db" --diff 1 2 --annotate=heap_scan 2>&1)
expect annotate_rc $? 64
expect conflicts_kept "$(cat "$tmp/keep.html")" precious
# the text and JSON go to -o as well, written whole
run "$report" -d "$db" --diff 1 2 --format=json -o "$tmp/keep.html" 2>/dev/null
expect json_to_file "$(cmp -s "$tmp/keep.html" "$tmp/diff.json"; echo $?)" 0
expect no_temporaries "$(ls -A "$tmp" | grep '\.tmp$' | head -3)" ""

[ $fail = 0 ] && echo "cli_html_data: all passed"
exit $fail
