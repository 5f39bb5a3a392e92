#!/bin/sh
# The annotated functions' loads by PC and memory level (the page's query
# levels_by_symbol) from what the loads counted (pc_level_stat) against the
# query over spe_record it replaces: the same rows for every function, through
# spe-query, on gen_bench captures (many PCs in many functions; then a busy host's
# processes appended: two sources).  A database made before the table, and one
# whose older source has no rows there, read the records: the page and
# --annotate say the same either way.
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
gen=$1 load=$2 query=$3 report=$4 sqltext=$5
scratch_dir report-stored-pc-levels
query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r'
}
# the page's query reading pc_level_stat ($1 = 8) or the records (0), for every function
sql() {
	${SPE_RUN:-} "$sqltext" levels_by_symbol "$1" | sed 's/?1/(SELECT json_group_array(id) FROM symbol)/g'
}

check_db() { # label db
	scan=$(query "$2" "SELECT * FROM ($(sql 0)) ORDER BY 1, 2, 3" | tail -n +2)
	stored=$(query "$2" "SELECT * FROM ($(sql 8)) ORDER BY 1, 2, 3" | tail -n +2)
	expect "$1 levels_by_symbol" "$stored" "$scan"
	# not vacuous: many PCs, several levels, loads without a level among them or not, the counts of every load
	expect "$1 rows" "$(printf '%s\n' "$stored" | awk -F, '{ pcs[$2] = 1; lv[$3] = 1; n += $4 }
		END { print (length(pcs) > 1000), (length(lv) >= 4), (n > 10000) }')" "1 1 1"
}

# 20,000 PCs in 2,000 functions
${SPE_RUN:-} "$gen" --perf-data="$tmp/pcs.data" "$tmp" 200000 20000 2000 >/dev/null || { echo "FAIL gen_bench"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/pcs.data" -o "$tmp/t.db" --symfs="$tmp" 2>/dev/null || { echo "FAIL load"; exit 1; }
check_db one_source "$tmp/t.db"
cp "$tmp/t.db" "$tmp/before.db"

# 200 processes mapping the binary 4 times each, appended
mkdir -p "$tmp/busy"
${SPE_RUN:-} "$gen" --perf-data="$tmp/busy.data" "$tmp/busy" 100000 5000 500 200 4 >/dev/null ||
	{ echo "FAIL gen_bench busy_host"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/busy.data" -o "$tmp/t.db" --symfs="$tmp/busy" --append 2>/dev/null ||
	{ echo "FAIL append"; exit 1; }
check_db two_sources "$tmp/t.db"
expect two_sources "$(query "$tmp/t.db" "SELECT count(DISTINCT source_id) FROM pc_level_stat" | tail -1)" 2

# the page and --annotate on the stored rows, and on the same database without them (the records)
mkdir -p "$tmp/old" && cp "$tmp/t.db" "$tmp/old/t.db"
${SPE_RUN:-} "$query" -d "$tmp/old/t.db" --write "DROP TABLE pc_level_stat" || { echo "FAIL drop"; fail=1; }
${SPE_RUN:-} "$report" -d "$tmp/old/t.db" --html="$tmp/old.html" 2>/dev/null || { echo "FAIL old page"; fail=1; }
${SPE_RUN:-} "$report" -d "$tmp/t.db" --html="$tmp/new.html" 2>/dev/null || { echo "FAIL page"; fail=1; }
has new_page_stored "$(cat "$tmp/new.html")" "FROM pc_level_stat"
has old_page_records "$(cat "$tmp/old.html")" "GROUP BY symbol_id, pc, mem_level"
expect old_page "$(sed '/<section id="queries">/,$d' "$tmp/old.html")" "$(sed '/<section id="queries">/,$d' "$tmp/new.html")"
fn=$(query "$tmp/t.db" "SELECT symbol FROM hot_symbol LIMIT 1" | tail -1)
new_ann=$(${SPE_RUN:-} "$report" -d "$tmp/t.db" --annotate="$fn" 2>&1)
has annotate_levels "$new_ann" "L1D"
expect old_annotate "$(${SPE_RUN:-} "$report" -d "$tmp/old/t.db" --annotate="$fn" 2>&1)" "$new_ann"

# a source loaded before the table, then one appended: the older source has no rows, so the page reads the records
${SPE_RUN:-} "$query" -d "$tmp/before.db" --write "DELETE FROM pc_level_stat" || { echo "FAIL delete"; fail=1; }
${SPE_RUN:-} "$load" "$tmp/busy.data" -o "$tmp/before.db" --symfs="$tmp/busy" --append 2>/dev/null ||
	{ echo "FAIL append to before"; exit 1; }
${SPE_RUN:-} "$report" -d "$tmp/before.db" --html="$tmp/mixed.html" 2>/dev/null || { echo "FAIL mixed page"; fail=1; }
has mixed_page_records "$(cat "$tmp/mixed.html")" "GROUP BY symbol_id, pc, mem_level"
# a received database whose counts are not a JSON array: the page stops, 65, naming the query (no page written)
cp "$tmp/t.db" "$tmp/bad.db"
${SPE_RUN:-} "$query" -d "$tmp/bad.db" --write "UPDATE pc_level_stat SET loads = '[[1,2'" || { echo "FAIL edit"; fail=1; }
${SPE_RUN:-} "$report" -d "$tmp/bad.db" --html="$tmp/bad.html" 2>"$tmp/bad.err"
expect bad_json_status "$?" 65
has bad_json_message "$(cat "$tmp/bad.err")" "levels_by_symbol: malformed JSON"
expect bad_json_no_page "$(test -e "$tmp/bad.html" && echo written || echo none)" none
exit $fail
