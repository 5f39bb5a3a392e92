#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# Names someone put in a database reach the terminal as text (util/visible.h): in
# every text output -- the SPE report with its memory section, --annotate,
# --diff, --cross-isa and spe-query's table -- a name holding ESC sequences
# (the window title, clear screen), BEL, a newline (a faked row), a carriage
# return, a C1 control (CSI as U+009B) or bytes that are not UTF-8 prints as
# visible escapes: no control byte but the lines' own newlines, no C1 control,
# well-formed UTF-8 throughout, the columns still aligned.  JSON keeps its
# own escapes (\u001b), unchanged.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 td=$5 fx=$6
scratch_dir report-terminal
run() { ${SPE_RUN:-} "$@"; }
run "$record" --replay="$fx/workloads/traces/datawork.replay" -o "$tmp/d.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
run "$load" "$tmp/d.data" -o "$tmp/d.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }
cp "$tmp/d.db" "$tmp/h.db"
# char(27) ESC, char(7) BEL, char(10) newline, x'c29b' CSI as a C1 control, x'ff' not UTF-8
run "$query" -d "$tmp/h.db" --write "
	UPDATE symbol SET name = CASE name
		WHEN 'scatter' THEN char(27) || ']0;PWNED' || char(7) || 'scatter'
		WHEN 'heap_scan' THEN 'heap_scan' || char(10) || '  fake_row 999'
		WHEN 'walk_list' THEN 'walk' || char(27) || '[2J' || char(13) || 'list'
		WHEN 'sum_table' THEN cast(x'c29b324a' AS TEXT) || 'sum_table'
		WHEN 'stack_work' THEN cast(x'ff' AS TEXT) || 'stack' || char(127) ELSE name END;
	UPDATE symbol SET file = 'x' || char(27) || '[31my.c' WHERE file IS NOT NULL;
	UPDATE data_object SET name = 'obj' || char(27) || '[H' || char(10) || 'row';
	UPDATE insn SET mnemonic = 'ld' || char(27) || '[5m', operands = 'x0' || char(10) || 'x1',
	                inline_function = 'inl' || cast(x'c285' AS TEXT);
	DELETE FROM meta WHERE key LIKE 'load.%'; -- no binary read: the crafted insn rows are shown" >/dev/null || { echo "FAIL crafting"; exit 1; }
run "$td" import "$fx/topdown/raw_neoverse-n2_perf.txt" -d "$tmp/h.db" --run "$(printf 'n2\033]0;T\007')" \
	--workload "$(printf 'mem\nwork')" --spe-source=d.data >/dev/null 2>&1 || { echo "FAIL topdown import"; exit 1; }

# Each output: no control byte but newline (tabs neither), no DEL, no C1 control, well-formed UTF-8.
clean() { # NAME FILE
	expect "$1 no_control" "$(LC_ALL=C tr -d '\n' <"$2" | LC_ALL=C grep -c '[[:cntrl:]]')" 0
	expect "$1 no_c1" "$(LC_ALL=C grep -cP '\xc2[\x80-\x9f]' "$2")" 0
	iconv -f UTF-8 -t UTF-32 <"$2" >/dev/null 2>&1
	expect "$1 utf8" $? 0
}
run "$report" -d "$tmp/h.db" --top 20 >"$tmp/text" 2>"$tmp/text.err"
expect text_rc $? 0
clean text "$tmp/text"
has text_esc "$(cat "$tmp/text")" '\x1b]0;PWNED\x07scatter'
has text_nl "$(cat "$tmp/text")" 'heap_scan\n  fake_row'
has text_c1 "$(cat "$tmp/text")" '\xc2\x9b2Jsum_table'
has text_bad "$(cat "$tmp/text")" '\xffstack\x7f'
has text_file "$(cat "$tmp/text")" 'x\x1b[31my.c:'
has text_object "$(cat "$tmp/text")" 'obj\x1b[H\nrow'
# no faked row: the hot symbols section has one row a symbol, each with its share where the others have it
rows=$(sed -n '/^Hot symbols/,/^$/p' "$tmp/text" | sed '1,2d;/^$/d')
expect text_rows "$(printf '%s\n' "$rows" | wc -l | tr -d ' ')" "$(run "$query" -d "$tmp/h.db" --format=csv \
	"SELECT count(DISTINCT s.name) FROM pc_latency p LEFT JOIN symbol s ON s.id = p.symbol_id" | tail -1 | tr -d "\r")"
expect text_aligned "$(printf '%s\n' "$rows" | awk '{ print index($0, "%") }' | sort -u | wc -l | tr -d ' ')" 1

# JSON: its own escapes, as before
run "$report" -d "$tmp/h.db" --format=json >"$tmp/json" 2>/dev/null
has json_escape "$(cat "$tmp/json")" '\u001b]0;PWNED\u0007scatter'
has json_newline "$(cat "$tmp/json")" 'heap_scan\n  fake_row'

# --annotate: the function, its file, instructions and inline function
name=$(printf '\033]0;PWNED\007scatter')
run "$report" -d "$tmp/h.db" --annotate="$name" --color=never >"$tmp/ann" 2>"$tmp/ann.err"
expect annotate_rc "$?,$(cat "$tmp/ann.err")" "0,"
clean annotate "$tmp/ann"
has annotate_name "$(head -1 "$tmp/ann")" '\x1b]0;PWNED\x07scatter'
has annotate_insn "$(cat "$tmp/ann")" 'ld\x1b[5m x0\nx1'

# --diff of the crafted database and the plain one
run "$report" --diff "$tmp/h.db" "$tmp/d.db" >"$tmp/diff" 2>"$tmp/diff.err"
expect diff_rc "$?,$(cat "$tmp/diff.err")" "0,"
clean diff "$tmp/diff"
has diff_name "$(cat "$tmp/diff")" '\x1b]0;PWNED\x07scatter'

# --cross-isa: the run and workload names
run "$report" -d "$tmp/h.db" --cross-isa >"$tmp/cross" 2>"$tmp/cross.err"
expect cross_rc "$?,$(cat "$tmp/cross.err")" "0,"
clean cross "$tmp/cross"
has cross_workload "$(cat "$tmp/cross")" 'Workload mem\nwork:'
has cross_run "$(cat "$tmp/cross")" 'n2\x1b]0;T\x07'

# spe-query's table (CSV keeps RFC 4180 quoting: the newline inside quotes)
run "$query" -d "$tmp/h.db" "SELECT name, file FROM symbol ORDER BY name" >"$tmp/q" 2>/dev/null
clean query "$tmp/q"
has query_name "$(cat "$tmp/q")" '\x1b]0;PWNED\x07scatter'
width=$(awk 'NR > 2 { print index($0, "x\\x1b[31my.c") }' "$tmp/q" | grep -v '^0$' | sort -u | wc -l | tr -d ' ')
expect query_aligned "$width" 1
csv=$(run "$query" -d "$tmp/h.db" --format=csv "SELECT name FROM symbol WHERE name LIKE 'heap%'")
expect query_csv "$csv" "$(printf 'name\r\n"heap_scan\n  fake_row 999"\r')"
exit $fail
