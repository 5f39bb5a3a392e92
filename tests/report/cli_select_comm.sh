#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# --comm matches the name a thread has at the record's time (thread_comm; docs/spe-report.1.md,
# SELECTION), as perf 6.1 does: the memwork capture with two threads renamed mid-capture
# (perfdata_rewrite --rename: a COMM without the exec flag, as prctl(PR_SET_NAME) writes) -- 4243
# "bumper" becomes "renamed" between its 75th and 76th record, 4242 "memwork" becomes "later" in
# the middle of its records.  Per name, the records spe-report counts and spe-export exports equal
# the samples `perf script --comms` prints on the same perf.data, and the hot symbols equal
# `perf report --comms`'s; each name chooses some but not all of its thread's records.
# And the table thread_comm holds the COMM records perf script --show-task-events prints; a
# source without rows there (a database of this version loaded before the table) is matched by
# the thread's last name, thread.comm, in a database with other sources or alone.
#   cli_select_comm.sh RECORD LOAD QUERY REPORT EXPORT REWRITE FIXTURES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 export=$5 rewrite=$6 fx=$7
scratch_dir cli-select-comm
run() { ${SPE_RUN:-} "$@"; }
if ! command -v perf >/dev/null || [ -n "${SPE_RUN:-}" ]; then
	echo "skipped: perf 6.1 is the oracle (not installed, or cross-compiled)"
	exit 77
fi
run "$record" --replay="$fx/workloads/traces/memwork.replay" -o "$tmp/memwork.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
# 4243's 75th record is at 1.043338120, its 76th at 1.043384040 (perf script's times); 4242's run to 1.0866
run "$rewrite" --rename=4243,1043360000,renamed "$tmp/memwork.data" "$tmp/one.data" || { echo "FAIL rename 4243"; exit 1; }
run "$rewrite" --rename=4242,1060000000,later "$tmp/one.data" "$tmp/renamed.data" || { echo "FAIL rename 4242"; exit 1; }
run "$load" "$tmp/renamed.data" -o "$tmp/renamed.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }

perf_n() { PAGER=cat perf script -i "$tmp/renamed.data" --itrace=i1i --symfs="$fx/elf" -F tid "$@" 2>/dev/null | wc -l | tr -d ' '; }
perf_tid_n() { PAGER=cat perf script -i "$tmp/renamed.data" --itrace=i1i -F tid 2>/dev/null | awk -v t="$1" '$1 == t' | wc -l | tr -d ' '; }
ours_n() { run "$report" -d "$tmp/renamed.db" --format=json "$@" | sed -n 's/^{"spe_records": \([0-9]*\),.*/\1/p'; }
exported_n() {
	run "$export" -d "$tmp/renamed.db" --format=folded --weight=samples "$@" 2>/dev/null | awk '{ s += $NF } END { print s + 0 }'
}
# compare NAME TID: ours equal perf's, and perf chooses some but not all of the thread's records
compare() {
	want=$(perf_n --comms="$1")
	expect "report --comm=$1" "$(ours_n --comm="$1")" "$want"
	expect "export --comm=$1" "$(exported_n --comm="$1")" "$want"
	all=$(perf_tid_n "$2")
	[ "$want" -gt 0 ] && [ "$want" -lt "$all" ] ||
		{ echo "FAIL --comm=$1: perf chooses $want of tid $2's $all (the case proves nothing)"; fail=1; }
}
compare renamed 4243
compare later 4242
compare memwork 4242
# bumper: 4244's 150 records and 4243's before the rename
want=$(perf_n --comms=bumper)
expect "report --comm=bumper" "$(ours_n --comm=bumper)" "$want"
expect "export --comm=bumper" "$(exported_n --comm=bumper)" "$want"
expect "perf: bumper is 4244's and 4243's first 75" "$want" 225
# two names, a name and a window
expect "report --comm=renamed,later" "$(ours_n --comm=renamed,later)" "$(perf_n --comms=renamed,later)"
expect "report --comm=memwork --time" "$(ours_n --comm=memwork --time=1.05,1.07)" \
	"$(perf_n --comms=memwork --time=1.05,1.07)"

# per function: perf report's samples under the same --comm (its rows keyed by comm too, as cli_select.sh says)
hot() { run "$report" -d "$tmp/renamed.db" --top 50 "$@" | awk '/^Hot symbols/ { on = 1; getline; next } on && !NF { exit } on { print $1, $2 }' | sort; }
perf_hot() {
	PAGER=cat perf report -i "$tmp/renamed.data" --itrace=i1i --symfs="$fx/elf" --stdio -F sample,comm,sym "$@" 2>/dev/null |
		awk '!/^#/ && NF >= 3 && $(NF - 1) == "[.]" { n[$NF] += $1 } END { for (s in n) print s, n[s] }' | sort
}
for c in renamed later bumper; do
	theirs=$(perf_hot --comms=$c)
	[ -n "$theirs" ] || { echo "FAIL perf report --comms=$c shows no symbols"; fail=1; }
	expect "hot symbols --comm=$c" "$(hot --comm=$c)" "$theirs"
done

# the table: one row per COMM, at its time, as perf prints them (no FORK in this capture)
theirs=$(PAGER=cat perf script -i "$tmp/renamed.data" --show-task-events -F tid,time --ns 2>/dev/null |
	sed -n 's/^ *\([0-9]*\) *\([0-9.]*\): PERF_RECORD_COMM[^:]*: \([^:]*\):.*/\1 \2 \3/p' | sort)
ours=$(run "$query" -d "$tmp/renamed.db" --format=csv \
	"SELECT tid || ' ' || printf('%d.%09d', time / 1000000000, time % 1000000000) || ' ' || comm FROM thread_comm" |
	sed 1d | tr -d '\r' | sort)
expect "thread_comm = perf's COMM records" "$ours" "$theirs"
has "thread_comm: the rename" "$ours" "4243 1.043360000 renamed"

# a second source whose rows are gone, as one loaded before thread_comm existed: its threads match
# their last name (the original memwork.data: no rename, so perf's count), the first source as before
run "$load" "$tmp/memwork.data" -o "$tmp/renamed.db" --append --symfs="$fx/elf" 2>/dev/null || { echo "FAIL append"; exit 1; }
run "$query" -d "$tmp/renamed.db" --write "DELETE FROM thread_comm WHERE source_id = 2" >/dev/null ||
	{ echo "FAIL delete"; exit 1; }
before=$(PAGER=cat perf script -i "$tmp/memwork.data" --itrace=i1i -F tid --comms=bumper 2>/dev/null | wc -l | tr -d ' ')
expect "old source: last name" "$(ours_n --source=2 --comm=bumper)" "$before"
expect "old source: no history" "$(ours_n --source=2 --comm=renamed 2>/dev/null)" ""
expect "new source beside it: bumper" "$(ours_n --source=1 --comm=bumper)" "$(perf_n --comms=bumper)"
expect "new source beside it: renamed" "$(ours_n --source=1 --comm=renamed)" "$(perf_n --comms=renamed)"
expect "both sources" "$(ours_n --comm=bumper)" "$(($(perf_n --comms=bumper) + before))"
# no table at all (a database of this version written before it): every source by its last name
run "$query" -d "$tmp/renamed.db" --write "DROP TABLE thread_comm" >/dev/null || { echo "FAIL drop"; exit 1; }
expect "no table: the last name" "$(ours_n --source=1 --comm=renamed)" "$(perf_tid_n 4243)"
exit $fail
