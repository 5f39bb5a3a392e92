#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# The selection of spe-report and spe-export (--pid, --tid, --comm, -C, --time, --dso,
# --symbol; docs/spe-report.1.md, SELECTION) against perf 6.1 filtering the same
# perf.data the same way: per selection, the records spe-report counts and spe-export
# exports equal the samples `perf script --itrace=i1i` prints with perf's own options
# (one instruction sample per SPE record), and the hot symbols' samples equal `perf
# report -F sample,sym`'s rows.  Percent windows: perf reads them against the header's
# SAMPLE_TIME, which these files lack, so ours are checked against perf given the
# absolute window computed here from the first and last time perf prints.  Then: a
# selection that chooses nothing exits 65 and says so; bad values exit 64; `spe-report
# FILE.data` prints what -d DB of the same file prints.
#   cli_select.sh RECORD LOAD QUERY REPORT EXPORT FIXTURES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 export=$5 fx=$6
scratch_dir cli-select
run() { ${SPE_RUN:-} "$@"; }
if ! command -v perf >/dev/null || [ -n "${SPE_RUN:-}" ]; then
	echo "skipped: perf 6.1 is the oracle (not installed, or cross-compiled)"
	exit 77
fi
for w in memwork datawork; do
	run "$record" --replay="$fx/workloads/traces/$w.replay" -o "$tmp/$w.data" >/dev/null 2>&1 || { echo "FAIL replay $w"; exit 1; }
	run "$load" "$tmp/$w.data" -o "$tmp/$w.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load $w"; exit 1; }
done

# perf's spelling of our options: --comm, --dso and --symbol are perf's --comms, --dsos, --symbols
# (one argument per line: a --time value may hold spaces)
perf_args() { [ $# = 0 ] || printf '%s\n' "$@" | sed 's/^--comm=/--comms=/; s/^--dso=/--dsos=/; s/^--symbol=/--symbols=/'; }
perf_n() {
	w=$1
	shift
	perf_args "$@" >"$tmp/args"
	(
		set --
		while IFS= read -r arg; do set -- "$@" "$arg"; done <"$tmp/args"
		PAGER=cat perf script -i "$tmp/$w.data" --itrace=i1i --symfs="$fx/elf" -F tid "$@" 2>/dev/null
	) | wc -l | tr -d ' '
}
ours_n() {
	w=$1
	shift
	run "$report" -d "$tmp/$w.db" --format=json "$@" | sed -n 's/^{"spe_records": \([0-9]*\),.*/\1/p'
}
exported_n() {
	w=$1
	shift
	run "$export" -d "$tmp/$w.db" --format=folded --weight=samples "$@" 2>/dev/null | awk '{ s += $NF } END { print s + 0 }'
}
# compare WORKLOAD ARGS...: the three counts agree, and the selection is not everything or nothing
compare() {
	w=$1
	shift
	want=$(perf_n "$w" "$@")
	expect "report $w $*" "$(ours_n "$w" "$@")" "$want"
	expect "export $w $*" "$(exported_n "$w" "$@")" "$want"
	all=$(perf_n "$w")
	[ "$want" -gt 0 ] && [ "$want" -lt "$all" ] || [ "${whole:-0}" = 1 ] ||
		{ echo "FAIL $w $*: perf chooses $want of $all (the case proves nothing)"; fail=1; }
}

compare memwork --tid=4243,4244
compare memwork -C 1
compare memwork --comm=bumper
compare memwork --comm=memwork
compare memwork -C 0 --comm=bumper
compare memwork --time=1.046,1.080
compare memwork --time=,1.046670120
compare memwork --time=1.079628920,
compare memwork "--time=1.04,1.045 1.08,1.081"
compare memwork --symbol=chase
compare memwork --symbol=chase,bump_shared
# an option given twice adds to its list (perf keeps the last): perf is asked with the whole list
want=$(perf_n memwork --symbol=stream_sum,branchy)
expect "report --symbol twice" "$(ours_n memwork --symbol=stream_sum --symbol=branchy)" "$want"
expect "export --symbol twice" "$(exported_n memwork --symbol=stream_sum --symbol=branchy)" "$want"
compare memwork --tid=4242 --symbol=chase
whole=1 compare memwork --dso=memwork-pie
whole=1 compare memwork --dso=/memwork-pie
whole=1 compare memwork --pid=4242
# no selection: the count each load stored (load_stats.records) and the memory levels of its
# summary (mem_level_stat) are those counted from the records of a selection of everything
for w in memwork:--pid=4242 datawork:--pid=5151; do
	sel=${w#*:} w=${w%%:*}
	expect "report $w whole count" "$(ours_n "$w")" "$(perf_n "$w")"
	expect "report $w --pid: everything" "$(ours_n "$w" "$sel")" "$(perf_n "$w")"
	levels() { run "$report" -d "$tmp/$w.db" --format=json "$@" | sed -n 's/.*\("mem_levels": \[[^]]*\]\).*/\1/p'; }
	stored=$(levels)
	has "report $w mem_levels: rows" "$stored" '"loads": '
	expect "report $w mem_levels stored = counted" "$stored" "$(levels "$sel")"
done
compare datawork --tid=5152
compare datawork --pid=5151 -C 1-2
compare datawork -C 0,2
compare datawork --comm=counter --time=1.041,1.0435
# a DSO and a symbol nothing has: none, as perf
expect "dso none" "$(perf_n memwork --dso=libc.so.6)" 0
run "$report" -d "$tmp/memwork.db" --dso=libc.so.6 >/dev/null 2>"$tmp/err"
expect "dso none: exit" $? 65

# percent windows: perf's own filter over the window computed from the records' span
PAGER=cat perf script -i "$tmp/memwork.data" --itrace=i1i --ns -F time 2>/dev/null | tr -d ' :' >"$tmp/times"
first=$(head -1 "$tmp/times") last=$(tail -1 "$tmp/times")
window() { awk -v f="$first" -v l="$last" -v a="$1" -v b="$2" 'BEGIN {
	fs = f * 1e9; span = l * 1e9 - fs
	lo = int(span * a + 1e-6); hi = b >= 1 ? span : int(span * b + 1e-6)
	printf "%.9f,%.9f", (fs + lo) / 1e9, (fs + hi) / 1e9 }'; }
for pc in "10%/2 0.1 0.2" "0%-25% 0 0.25" "50%-100% 0.5 1" "25%/4 0.75 1"; do
	set -- $pc
	want=$(perf_n memwork --time="$(window "$2" "$3")")
	[ "$want" -gt 100 ] || { echo "FAIL --time=$1: perf chooses $want"; fail=1; }
	expect "report --time=$1" "$(ours_n memwork --time="$1")" "$want"
	expect "export --time=$1" "$(exported_n memwork --time="$1")" "$want"
done

# per symbol: perf report's samples of each function under the same selection.  perf report
# applies --tid, --comm and --dso to its rows (a row holds the first sample's thread), not to
# samples, so its rows are keyed by that dimension too (its key "pid" is the thread) and
# added up per function here.
hot() { run "$report" -d "$tmp/memwork.db" --top 50 "$@" | awk '/^Hot symbols/ { on = 1; getline; next } on && !NF { exit } on { print $1, $2 }' | sort; }
perf_hot() {
	keys=$1
	shift
	# shellcheck disable=SC2046
	PAGER=cat perf report -i "$tmp/memwork.data" --itrace=i1i --symfs="$fx/elf" --stdio -F "sample,$keys,sym" \
		$(perf_args "$@") 2>/dev/null |
		awk '!/^#/ && NF >= 3 && $(NF - 1) == "[.]" { n[$NF] += $1 } END { for (s in n) print s, n[s] }' | sort
}
expect "hot symbols --tid=4243" "$(hot --tid=4243)" "$(perf_hot pid --tid=4243)"
expect "hot symbols -C 0" "$(hot -C 0)" "$(perf_hot cpu -C 0)"
expect "hot symbols --comm=memwork --time" "$(hot --comm=memwork --time=1.05,1.07)" \
	"$(perf_hot comm --comm=memwork --time=1.05,1.07)"
expect "hot symbols --dso --time" "$(hot --dso=memwork-pie --time=1.04,1.05)" \
	"$(perf_hot dso --dso=memwork-pie --time=1.04,1.05)"
has "hot symbols --tid=4243: a row" "$(hot --tid=4243)" "bump_shared 150"
[ "$(perf_hot cpu -C 0 | wc -l)" -ge 3 ] || { echo "FAIL perf report shows no symbols"; fail=1; }

# the header says what was chosen and of how many; the memory part says it is the whole capture
out=$(run "$report" -d "$tmp/memwork.db" --tid=4243 -C 1)
has header "$out" "SPE records: 150 of 1200, selected by tid 4243; cpu 1"
has memory_note "$out" "The memory sections below are of the whole capture"
json=$(run "$report" -d "$tmp/memwork.db" --comm=bumper --format=json)
has json_selection "$json" '"selection": {"options": "comm bumper", "records_in_database": 1200, "memory_sections": "whole capture"}'

# nothing chosen: 65 and the reason, from both commands
run "$report" -d "$tmp/memwork.db" --pid=1 >"$tmp/out" 2>"$tmp/err"
expect "none: exit" $? 65
has "none: message" "$(cat "$tmp/err")" "no record matches the selection (pid 1) among the 1200 records"
expect "none: no output" "$(cat "$tmp/out")" ""
run "$export" -d "$tmp/memwork.db" --format=folded --comm=nosuch >/dev/null 2>"$tmp/err"
expect "export none: exit" $? 65
has "export none: message" "$(cat "$tmp/err")" "no record matches the selection (comm nosuch)"

# bad values and combinations: 64, naming the option
for bad in "--time=abc" "--time=1.5" "--time=2,1" "--time=1.1234567891," "--time=10%/0" "--time=50%-10%" \
	"--cpu=3-1" "--pid=x" "--tid=" "--cpu=5000"; do
	run "$report" -d "$tmp/memwork.db" "$bad" >/dev/null 2>"$tmp/err"
	expect "usage $bad" $? 64
	has "usage $bad: names it" "$(cat "$tmp/err")" "${bad%%=*}"
done
# (the page and --annotate with a selection: cli_select_page.sh)

# a comm with a quote and SQL in it is a value, never SQL
run "$report" -d "$tmp/memwork.db" "--comm=x') OR 1=1 --" >/dev/null 2>"$tmp/err"
expect "comm is a value: exit" $? 65

# spe-report FILE.data: loaded privately, the same report as -d DB of that file
run "$report" -d "$tmp/memwork.db" --format=json --tid=4243 >"$tmp/db.json"
run "$report" "$tmp/memwork.data" --symfs="$fx/elf" --format=json --tid=4243 >"$tmp/file.json"
expect "FILE.data: exit" $? 0
expect "FILE.data: same report" "$(cat "$tmp/file.json")" "$(cat "$tmp/db.json")"
run "$report" "$tmp/memwork.data" -d "$tmp/memwork.db" >/dev/null 2>&1
expect "FILE.data and -d" $? 64
exit $fail
