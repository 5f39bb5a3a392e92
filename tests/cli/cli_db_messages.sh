#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# What spe-load says when another process made the database (a locked
# database read by a report: tests/report/test_snapshot.c):
#  - two loads creating one database (--append to a missing file), the second
#    finishing first: the loser says the file was made by another process
#    meanwhile, not "not created" (the file exists), and leaves it as the winner
#    made it.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
bin=$1 fx=$2
scratch_dir cli-db-messages
run() { ${SPE_RUN:-} "$@"; }
run "$bin/spe-record" --replay="$fx/workloads/traces/datawork.replay" -o "$tmp/d.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }

# two creating loads: A (a larger file, 300 copies of the trace) starts first, B makes the file meanwhile
big_recording "$bin/spe-record" "$fx" "$tmp/big.data" || { echo "FAIL big replay"; exit 1; }
# A is stopped (SIGSTOP) once its temporary database exists, so B finishes first however
# fast A is on this machine, then A goes on (SIGCONT).
${SPE_RUN:-} "$bin/spe-load" --append -o "$tmp/new.db" "$tmp/big.data" >/dev/null 2>"$tmp/a.err" &
a=$!
tries=0
until ls "$tmp"/new.db.*.tmp >/dev/null 2>&1; do
	tries=$((tries + 1))
	[ $tries -lt 3000 ] && kill -0 $a 2>/dev/null || { echo "FAIL: load A made no temporary database"; exit 1; }
	sleep 0.01
done
kill -STOP $a
run "$bin/spe-load" --append -o "$tmp/new.db" "$tmp/d.data" 2>/dev/null
expect winner_rc $? 0
cp "$tmp/new.db" "$tmp/winner.db"
kill -CONT $a
wait $a
expect loser_rc $? 64
has loser_says "$(cat "$tmp/a.err")" "left as another process made it meanwhile"
case "$(cat "$tmp/a.err")" in *"not created"*) echo "FAIL loser_not_created: $(cat "$tmp/a.err")"; fail=1 ;; esac
cmp -s "$tmp/new.db" "$tmp/winner.db"
expect loser_left_winner $? 0
exit $fail
