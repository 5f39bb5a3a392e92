#!/bin/sh
# tests/clickhouse/progress_load.sh LOAD GEN_BENCH: spe-load --clickhouse's progress line
# (cli/common/progress.h) on a terminal -- util-linux's script(1) gives one -- against a real
# clickhouse-server on loopback (cluster.sh; 77 where none can run): the line is drawn, its
# share rising, then erased before the counts; in a pipe nothing is drawn.
set -u
load=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") gen=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
ch_conf_dir=$(cd "$(dirname "$0")" && pwd)
. "$ch_conf_dir/cluster.sh"
command -v script >/dev/null || { echo "no script(1): skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spe-ch-progress.XXXXXX")
trap 'ch_cluster_stop "$tmp/ch"; rm -rf "$tmp"' EXIT
ch_cluster_start "$tmp/ch" || exit $?
fail=0
check() { # CONDITION-STATUS WHAT
	if [ "$1" = 0 ]; then echo "ok   $2"; else echo "FAIL $2"; fail=1; fi
}
cd "$tmp" || exit 1
"$gen" --perf-data=t.data . 300000 2000 200 >/dev/null || exit 1
SPE_PROGRESS_DELAY=0 script -qec "${SPE_RUN:-} '$load' t.data --symfs=. --clickhouse=${CH_URL1}?database=tty" \
	/dev/null >tty.out 2>&1
check $? "spe-load --clickhouse on a terminal exits 0"
# the lines drawn after carriage returns
tr '\r' '\n' <tty.out >tty.lines
grep -q '^spe-load: t.data: [0-9]*%, .* records/s, .* left' tty.lines
check $? "the line: share, records/s, time left"
grep -q '^spe-load: t.data: 100%, 300.0 k records; writing the summaries' tty.lines
check $? "then the end-of-load step"
shares=$(sed -n 's/^spe-load: t.data: \([0-9]*\)%.*/\1/p' tty.lines | tr '\n' ' ')
sorted=$(printf '%s\n' $shares | sort -n | tr '\n' ' ')
[ -n "$shares" ] && [ "$shares" = "$sorted" ]
check $? "the share rises ($shares)"
# erased (CR, blanks, CR) right before the counts
LC_ALL=C grep -q "$(printf '\r') *$(printf '\r')spe-load: t.data: 300000 records;" tty.out
check $? "erased before the counts"
grep -q "^spe-load: t.data: source [0-9]* in " tty.lines
check $? "the capture committed"
SPE_PROGRESS_DELAY=0 ${SPE_RUN:-} "$load" t.data --symfs=. --clickhouse="${CH_URL1}?database=pipe" 2>pipe.err
st=$?
! LC_ALL=C grep -q "$(printf '\r')" pipe.err && ! grep -q 'records/s' pipe.err && [ $st = 0 ] &&
	grep -q '^spe-load: t.data: 300000 records;' pipe.err
check $? "in a pipe: no line, the same counts"
# the servers stop with the test (the trap once named the wrong directory and left both running)
pids=$(cat "$tmp/ch/s1/pid" "$tmp/ch/s2/pid")
ch_cluster_stop "$tmp/ch"
alive=0
for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
check $alive "both servers stopped"
exit $fail
