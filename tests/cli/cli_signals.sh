#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# Stop signals (cli/common/cli_signals.h): every command that writes a file --
# spe-load (a new database, --force over one, --append to one), spe-report
# (-o and --html), spe-export -o, spe-record --replay -o, spe-query --write and
# spe-topdown import -- killed with SIGINT, SIGTERM, SIGHUP and SIGQUIT, each
# sent twice at once (as timeout(1) and a terminal do), at several moments of a
# large job.  Whatever the moment: no temporary and no journal left beside the
# file, and either the command finished (exit 0, the new file complete) or it
# stopped (exit 128 + the signal's number) with the user's previous file
# byte for byte as it was, or never made.  spe-record keeps what it recorded
# (a stop is how a recording ends): no temporary, exit 0 (1: a replay cut short).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
bin=$1 fx=$2
scratch_dir cli-signals
run() { ${SPE_RUN:-} "$@"; }
run "$bin/spe-record" --replay="$fx/workloads/traces/datawork.replay" -o "$tmp/d.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
# a large job: the datawork trace 300 times over (606,000 records, 39 MB), recorded and loaded
big_recording "$bin/spe-record" "$fx" "$tmp/big.data" || { echo "FAIL big replay"; exit 1; }
run "$bin/spe-load" -o "$tmp/big.db" "$tmp/big.data" 2>/dev/null || { echo "FAIL big load"; exit 1; }
run "$bin/spe-load" -o "$tmp/small.db" "$tmp/d.data" 2>/dev/null || { echo "FAIL small load"; exit 1; }
mkdir -p "$tmp/out"
num() { case $1 in INT) echo 2 ;; TERM) echo 15 ;; HUP) echo 1 ;; QUIT) echo 3 ;; esac; }
runs=0 stopped=0

# attempt NAME SIGNAL DELAY TARGET [keep|made|record] -- COMMAND...: TARGET holds the user's file (a copy of
# it is compared after), or does not exist (made: it must then not appear unless the command finished)
attempt() {
	name=$1 sig=$2 delay=$3 target=$4 kind=$5
	shift 6
	dir=$(dirname "$target")
	[ -e "$target" ] && cp "$target" "$tmp/saved" || rm -f "$tmp/saved"
	${SPE_RUN:-} "$@" >/dev/null 2>"$tmp/err" &
	pid=$!
	sleep "$delay"
	kill -s "$sig" $pid 2>/dev/null
	kill -s "$sig" $pid 2>/dev/null
	wait $pid
	rc=$?
	runs=$((runs + 1))
	left=$(ls -a "$dir" | grep -E '\.tmp$|-journal$|\.spe-[a-z]+\.[0-9]' | tr '\n' ' ')
	expect "$name $sig $delay: no temporary" "$left" ""
	want=$((128 + $(num "$sig")))
	if [ "$kind" = record ] && [ "$rc" -le 1 ]; then
		: # the recording ended by the signal and kept: 0, or 1 when the replay was cut short (spe-record(1))
	elif [ "$rc" -eq "$want" ]; then
		stopped=$((stopped + 1))
		if [ -e "$tmp/saved" ]; then
			cmp -s "$tmp/saved" "$target"
			expect "$name $sig $delay: the previous file as it was" $? 0
		else
			expect "$name $sig $delay: nothing made" "$(test -e "$target" && echo made)" ""
		fi
	else
		expect "$name $sig $delay: status (0 when it finished first, or $want) $(head -c 200 "$tmp/err")" "$rc" 0
	fi
}

for sig in INT TERM HUP QUIT; do
	for delay in 0.05 0.3 0.8; do
		cp "$tmp/small.db" "$tmp/user.db"
		attempt load-force "$sig" "$delay" "$tmp/user.db" keep -- "$bin/spe-load" --force -o "$tmp/user.db" "$tmp/big.data"
		rm -f "$tmp/out/new.db"
		attempt load-new "$sig" "$delay" "$tmp/out/new.db" made -- "$bin/spe-load" -o "$tmp/out/new.db" "$tmp/big.data"
		rm -f "$tmp/out/new.db"
		cp "$tmp/small.db" "$tmp/user.db"
		attempt load-append "$sig" "$delay" "$tmp/user.db" keep -- "$bin/spe-load" --append -o "$tmp/user.db" "$tmp/big.data"
		echo "the user's report" >"$tmp/out/report.txt"
		attempt report "$sig" "$delay" "$tmp/out/report.txt" keep -- "$bin/spe-report" -d "$tmp/big.db" -o "$tmp/out/report.txt"
		echo "the user's page" >"$tmp/out/page.html"
		attempt report-html "$sig" "$delay" "$tmp/out/page.html" keep -- "$bin/spe-report" -d "$tmp/big.db" --html="$tmp/out/page.html"
		echo "the user's stacks" >"$tmp/out/stacks.txt"
		attempt export "$sig" "$delay" "$tmp/out/stacks.txt" keep -- "$bin/spe-export" -d "$tmp/big.db" --format=folded -o "$tmp/out/stacks.txt"
		cp "$tmp/small.db" "$tmp/user.db"
		attempt query-write "$sig" "$delay" "$tmp/user.db" keep -- "$bin/spe-query" -d "$tmp/user.db" --write \
			"CREATE TABLE t AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 20000000) SELECT x FROM r"
		cp "$tmp/small.db" "$tmp/user.db"
		attempt topdown-import "$sig" "$delay" "$tmp/user.db" keep -- "$bin/spe-topdown" import \
			"$fx/topdown/raw_neoverse-n2_perf.txt" -d "$tmp/user.db" --run n2 --workload w
		echo "the user's recording" >"$tmp/out/rec.data"
		attempt record "$sig" "$delay" "$tmp/out/rec.data" record -- "$bin/spe-record" \
			--replay="$tmp/big.replay" -o "$tmp/out/rec.data"
	done
done
echo "$runs runs, $stopped stopped by the signal"
# the moments chosen must catch some commands mid-write, or this test says nothing
expect some_stopped "$((stopped >= 20))" 1
exit $fail
