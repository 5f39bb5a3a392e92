#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# The selection (--pid, --tid, -C, --time, --comm, --symbol) on the HTML page and --annotate
# (docs/spe-report.1.md, SELECTION), against perf 6.1 filtering the same perf.data the same
# way, on the memwork capture and a three-process one made from it (its replay with the two
# bumper threads given processes of their own):
#   - the page's record count (its sources table) equals the samples `perf script
#     --itrace=i1i` prints with perf's own options, its hot functions' samples perf script's
#     per function, and its memory levels the text report's selection of the same database
#     (counted from the records by SQL, where the page reads the load's summaries);
#   - the header names the selection; -d DB reads the capture again and gives the same page;
#   - --annotate's instruction samples equal perf script's per PC under the selection;
#   - nothing chosen exits 65 with no page; -d DB whose file is gone 66, changed 65, two
#     sources chosen 64, each saying to give the capture itself.
#   cli_select_page.sh RECORD LOAD REPORT FIXTURES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 report=$3 fx=$4
scratch_dir cli-select-page
run() { ${SPE_RUN:-} "$@"; }
if ! command -v perf >/dev/null || [ -n "${SPE_RUN:-}" ]; then
	echo "skipped: perf 6.1 is the oracle (not installed, or cross-compiled)"
	exit 77
fi
command -v xmllint >/dev/null || { echo "SKIP: xmllint (reads the page) is not installed"; exit 77; }
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 (reads the JSON) is not installed"; exit 77; }
. "$(dirname "$0")/xml_lib.sh"
case $tmp in /*) ;; *) tmp=$PWD/$tmp ;; esac # the databases keep the files' paths: absolute

# memwork (one process, threads 4242-4244) and multi: 4243 and 4244 are processes 4300 and 4301
traces=$(cd "$fx/workloads/traces" && pwd)
sed -e "s#^aux #aux $traces/#" -e 's/^comm 4242 4243 /comm 4300 4243 /' -e 's/^comm 4242 4244 /comm 4301 4244 /' \
	-e '/^mmap2 4242 4242 /{p;s/^mmap2 4242 4242 /mmap2 4300 4243 /p;s/^mmap2 4300 4243 /mmap2 4301 4244 /}' \
	"$traces/memwork.replay" >"$tmp/multi.replay"
for w in memwork multi; do
	replay=$traces/$w.replay
	[ $w = multi ] && replay=$tmp/multi.replay
	run "$record" --replay="$replay" -o "$tmp/$w.data" >/dev/null 2>&1 || { echo "FAIL replay $w"; exit 1; }
	run "$load" "$tmp/$w.data" -o "$tmp/$w.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load $w"; exit 1; }
done
pids=$(PAGER=cat perf script -i "$tmp/multi.data" --itrace=i1i -F pid 2>/dev/null | tr -d ' ' | sort -un | tr '\n' ' ')
expect "multi: perf sees three processes" "$pids" "4242 4300 4301 "

# perf's samples under a selection (our option names are perf's but --comm/--symbol: --comms/--symbols)
perf_args() { [ $# = 0 ] || printf '%s\n' "$@" | sed 's/^--comm=/--comms=/; s/^--symbol=/--symbols=/'; }
perf_script() { # WORKLOAD FIELDS ARGS...
	w=$1 fields=$2
	shift 2
	perf_args "$@" >"$tmp/args"
	(
		set --
		while IFS= read -r arg; do set -- "$@" "$arg"; done <"$tmp/args"
		PAGER=cat perf script -i "$tmp/$w.data" --itrace=i1i --symfs="$fx/elf" -F "$fields" "$@" 2>/dev/null
	)
}
perf_n() { perf_script "$@" | wc -l | tr -d ' '; }
perf_symbols() { # "symbol,samples" sorted, as the page's hot-symbol rows
	w=$1
	shift
	perf_script "$w" ip,sym "$@" | awk '$2 != "" && $2 != "[unknown]" { n[$2]++ } END { for (s in n) print s "," n[s] }' | sort
}
page_symbols() { table "$1" hot-symbol symbol samples | sort; }
text_levels() { # the text report's memory levels of the selection over -d DB, as the page's rows
	w=$1
	shift
	run "$report" -d "$tmp/$w.db" --format=json "$@" >"$tmp/levels.json"
	sqlite3 :memory: "SELECT json_extract(value, '\$.mem_level') || ',' || json_extract(value, '\$.loads') || ',' ||
	    json_extract(value, '\$.total_latency') FROM json_each(readfile('$tmp/levels.json'), '\$.mem_levels')" | sort
}

# check WORKLOAD WORDS ARGS...: the pages of the selection ARGS (WORDS: how the header says it)
n_case=0
check() {
	w=$1 words=$2
	shift 2
	n_case=$((n_case + 1))
	page=$tmp/page$n_case.html
	run "$report" "$tmp/$w.data" --symfs="$fx/elf" --html="$page" --top 100 "$@" 2>"$tmp/err"
	expect "page $w $*: exit" $? 0
	xmllint --noout "$page" 2>/dev/null || { echo "FAIL page $w $*: not well-formed"; fail=1; return; }
	want=$(perf_n "$w" tid "$@")
	all=$(perf_n "$w" tid)
	[ "$want" -gt 0 ] && [ "$want" -lt "$all" ] ||
		{ echo "FAIL $w $*: perf chooses $want of $all (the case proves nothing)"; fail=1; }
	expect "page $w $*: records" "$(col "$page" sources records)" "$want"
	expect "page $w $*: hot functions" "$(page_symbols "$page")" "$(perf_symbols "$w" "$@")"
	expect "page $w $*: memory levels" "$(table "$page" mem-levels mem_level loads total_latency | sort)" \
		"$(text_levels "$w" "$@")"
	has "page $w $*: header" "$(xmllint --xpath "string(//header/p[@class='selection'])" "$page")" "selection: $words"
	# -d DB: the capture its source names, read again: the same numbers
	run "$report" -d "$tmp/$w.db" --html="$tmp/db.html" --top 100 "$@" 2>/dev/null
	expect "page -d $w $*: exit" $? 0
	for t in "sources source_id records no_mapping no_symbol" "hot-symbol symbol samples total_latency p99" \
		"hot-pc pc samples total_latency" "mem-levels mem_level loads total_latency"; do
		# shellcheck disable=SC2086
		expect "page -d $w $*: ${t%% *}" "$(table "$tmp/db.html" $t)" "$(table "$page" $t)"
	done
}

check multi "pid 4300" --pid=4300
check multi "pid 4242,4301" --pid=4242,4301
check multi "pid 4242; cpu 0" --pid=4242 -C 0
check memwork "tid 4243" --tid=4243
check memwork "cpu 0" -C 0
check memwork "time 1.046000000,1.080000000" --time=1.046,1.080
check memwork "comm bumper" --comm=bumper
check memwork "symbol chase,bump_shared" --symbol=chase,bump_shared
# a page without a selection says none
run "$report" -d "$tmp/memwork.db" --html="$tmp/all.html" 2>/dev/null
expect "no selection: no line" "$(xmllint --xpath "count(//header/p[@class='selection'])" "$tmp/all.html")" 0
expect "no selection: records" "$(col "$tmp/all.html" sources records)" "$(perf_n memwork tid)"

# --annotate: each instruction's samples are perf script's per PC of that function and selection
ann_pcs() { # "address samples" of the instructions sampled
	sqlite3 :memory: "SELECT substr(json_extract(value, '\$.address'), 3) || ' ' || json_extract(value, '\$.samples')
	    FROM json_each(readfile('$1'), '\$.instructions') WHERE json_extract(value, '\$.samples') > 0" | sort
}
perf_pcs() { # WORKLOAD FUNCTION ARGS...
	w=$1 fn=$2
	shift 2
	perf_script "$w" ip --symbol="$fn" "$@" | awk '{ n[$1]++ } END { for (p in n) print p, n[p] }' | sort
}
annotate_case() { # WORKLOAD FUNCTION WORDS ARGS...
	w=$1 fn=$2 words=$3
	shift 3
	run "$report" "$tmp/$w.data" --symfs="$fx/elf" --annotate="$fn" --format=json "$@" >"$tmp/ann.json" 2>"$tmp/err"
	expect "annotate $w $fn $*: exit" $? 0
	want=$(perf_pcs "$w" "$fn" "$@")
	[ -n "$want" ] && [ "$want" != "$(perf_pcs "$w" "$fn")" ] ||
		{ echo "FAIL annotate $w $fn $*: perf's PCs are all or none of the function's"; fail=1; }
	expect "annotate $w $fn $*: samples by PC" "$(ann_pcs "$tmp/ann.json")" "$want"
	expect "annotate $w $fn $*: selection" "$(sqlite3 :memory: "SELECT json_extract(readfile('$tmp/ann.json'), '\$.selection')")" "$words"
	run "$report" -d "$tmp/$w.db" --annotate="$fn" "$@" >"$tmp/ann.txt" 2>/dev/null
	expect "annotate -d $w $fn $*: first line" "$(head -1 "$tmp/ann.txt")" "selection: $words"
}
annotate_case multi bump_shared "pid 4301" --pid=4301
annotate_case memwork bump_shared "tid 4244" --tid=4244
annotate_case memwork chase "time 1.046000000,1.080000000" --time=1.046,1.080
annotate_case memwork stream_sum "time 1.050000000,1.070000000" --time=1.05,1.07

# nothing chosen: 65 and the reason, no page
run "$report" "$tmp/multi.data" --symfs="$fx/elf" --html="$tmp/none.html" --pid=1 >/dev/null 2>"$tmp/err"
expect "none: exit" $? 65
has "none: message" "$(cat "$tmp/err")" "no record matches the selection (pid 1) among the 1200 records"
[ ! -e "$tmp/none.html" ] || { echo "FAIL none: a page was written"; fail=1; }
run "$report" "$tmp/memwork.data" --symfs="$fx/elf" --annotate=chase --tid=4243 >/dev/null 2>"$tmp/err"
expect "annotate: none of the function: exit" $? 65
has "annotate: none of the function: message" "$(cat "$tmp/err")" \
	"no function named 'chase' in the records of the selection (tid 4243)"

# -d DB whose capture is gone, changed, or two of them chosen
cp "$tmp/memwork.data" "$tmp/moved.data"
run "$load" "$tmp/moved.data" -o "$tmp/moved.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load moved"; exit 1; }
printf x >>"$tmp/moved.data"
run "$report" -d "$tmp/moved.db" --html="$tmp/x.html" --tid=4243 >/dev/null 2>"$tmp/err"
expect "changed: exit" $? 65
has "changed: message" "$(cat "$tmp/err")" "is not the one loaded"
has "changed: advice" "$(cat "$tmp/err")" "spe-report FILE.data"
rm "$tmp/moved.data"
run "$report" -d "$tmp/moved.db" --annotate=chase --tid=4242 >/dev/null 2>"$tmp/err"
expect "gone: exit" $? 66
has "gone: message" "$(cat "$tmp/err")" "moved.data: No such file or directory"
has "gone: advice" "$(cat "$tmp/err")" "spe-report FILE.data"
[ ! -e "$tmp/x.html" ] || { echo "FAIL changed: a page was written"; fail=1; }
# a FIFO where the capture was (a database names any path): refused at once, not waited on
mkfifo "$tmp/moved.data"
# shellcheck disable=SC2086 # SPE_RUN is a command and its options
timeout 60 ${SPE_RUN:-} "$report" -d "$tmp/moved.db" --annotate=chase --tid=4242 >/dev/null 2>"$tmp/err"
expect "FIFO: exit" $? 66
has "FIFO: message" "$(cat "$tmp/err")" "moved.data: is a FIFO"
rm "$tmp/moved.data"
run "$load" "$tmp/memwork.data" "$tmp/multi.data" -o "$tmp/both.db" --symfs="$fx/elf" 2>/dev/null ||
	{ echo "FAIL load both"; exit 1; }
run "$report" -d "$tmp/both.db" --html="$tmp/x.html" --pid=4242 >/dev/null 2>"$tmp/err"
expect "two sources: exit" $? 64
has "two sources: advice" "$(cat "$tmp/err")" "give --source=ID"
run "$report" -d "$tmp/both.db" --html="$tmp/both.html" --pid=4242 --source=2 2>/dev/null
expect "one of two sources: exit" $? 0
expect "one of two sources: records" "$(col "$tmp/both.html" sources records)" "$(perf_n multi tid --pid=4242)"

# -d DB read again as it was loaded: the CPU part spe-load --midr gave a file that names none
# (the memory levels decoded as the database's), and a warning when the functions differ
grep -v '^midr ' "$tmp/multi.replay" >"$tmp/nomidr.replay"
run "$record" --replay="$tmp/nomidr.replay" -o "$tmp/nomidr.data" >/dev/null 2>&1 || { echo "FAIL replay nomidr"; exit 1; }
mkdir "$tmp/elf" && cp "$fx/elf/memwork-pie" "$tmp/elf/"
run "$load" "$tmp/nomidr.data" -o "$tmp/nomidr.db" --midr=neoverse-n1 --symfs="$tmp/elf" 2>/dev/null ||
	{ echo "FAIL load nomidr"; exit 1; }
run "$report" -d "$tmp/nomidr.db" --html="$tmp/nomidr.html" --pid=4242 2>"$tmp/err"
expect "--midr kept: exit" $? 0
levels=$(table "$tmp/nomidr.html" mem-levels mem_level loads total_latency | sort)
has "--midr kept: DRAM" "$levels" "DRAM,240,"
expect "--midr kept: memory levels" "$levels" "$(text_levels nomidr --pid=4242)"
expect "--midr kept: quiet" "$(cat "$tmp/err")" "spe-report: wrote $tmp/nomidr.html"
rm -r "$tmp/elf" # the load's --symfs: gone, so the functions are not found again
run "$report" -d "$tmp/nomidr.db" --html="$tmp/nomidr.html" --pid=4242 2>"$tmp/err"
expect "functions lost: exit" $? 0
has "functions lost: warning" "$(cat "$tmp/err")" "read again, 900 of the chosen records have no function, 0 in the database"
exit $fail
