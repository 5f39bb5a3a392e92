#!/usr/bin/env bash
# Issue 11 through the commands' own command lines: nothing a user already
# has is lost, read-only is read-only, hostile inputs are bounded, and
# conflicting modes are refused.  Every case runs under `timeout`: a hang is
# a failure (exit 124), counted apart.
#   cli_safe_io.sh BIN_DIR FIXTURES_DIR
# BIN_DIR holds spe-record, spe-load, spe-query, spe-report, spe-topdown and
# spe-dump (pointing it at another build's binaries shows which cases that
# build fails).  SPE_RUN: the cross-compiling emulator command, empty natively.
set -u
bin=$(cd "$1" && pwd) fx=$(cd "$2" && pwd)
. "$(dirname "$0")/../lib/testlib.sh"
scratch_dir safe-io
export TMPDIR=$tmp/tmpdir # spe-query's private databases go here
mkdir -p "$TMPDIR"
hangs=0
declare -A cases=()

# run NAME WANT_STATUS PROG ARGS...: stdout in $tmp/out, stderr in $tmp/err.
run() {
	local name=$1 want=$2 prog=$3
	shift 3
	timeout 20 ${SPE_RUN:-} "$bin/$prog" "$@" >"$tmp/out" 2>"$tmp/err"
	local st=$?
	cases[$prog]=$((${cases[$prog]:-0} + 1))
	if [ "$st" = 124 ]; then
		hangs=$((hangs + 1))
		echo "HANG $name: $prog $*"
	fi
	expect "$name-status" "$st" "$want"
	[ "$st" = "$want" ] || sed 's/^/  | /' "$tmp/err" | head -5
}
err_has() { has "$1" "$(cat "$tmp/err")" "$2"; }
same() { cmp -s "$2" "$3" || { echo "FAIL $1: $3 changed"; fail=1; }; }
gone() { [ ! -e "$2" ] || { echo "FAIL $1: $2 exists"; fail=1; }; }
no_temporaries() {
	local left
	left=$(find "$tmp" "$TMPDIR" -name '*.tmp' | head -3)
	expect "$1-no-temporaries" "$left" ""
}
is_chr() { [ -c "$2" ] || { echo "FAIL $1: $2 is no longer a character device"; fail=1; }; }

# The inputs: a perf.data replayed from the memwork fixture, its database.
run setup-record 0 spe-record --replay="$fx/workloads/traces/memwork.replay" -o "$tmp/m.data"
run setup-load 0 spe-load "$tmp/m.data" -o "$tmp/m.db" --symfs="$fx/elf"
[ -s "$tmp/m.db" ] || { echo "FAIL setup"; exit 1; }
cp "$tmp/m.data" "$tmp/keep.data"
cp "$tmp/m.db" "$tmp/keep.db"
# A device node of our own to offer as -o: as root a faulty command could
# unlink it, so /dev/null is offered only to a user who cannot.
if mknod "$tmp/node" c 1 3 2>/dev/null; then
	node=$tmp/node
elif [ "$(id -u)" != 0 ]; then
	node=/dev/null
else
	node=
	echo "  (root without mknod: the device-node cases are skipped)"
fi
mkdir "$tmp/adir"
mkfifo "$tmp/fifo"

# ---- 1. Outputs -----------------------------------------------------------
# A usage error found late (--aux-size) must not touch an existing -o.
run aux-size 64 spe-record --replay="$fx/replay/two-records.bin" -o "$tmp/keep.data" --aux-size=5000
err_has aux-size-msg "AUX size 5000 is not a power of two"
same aux-size-kept "$tmp/m.data" "$tmp/keep.data"
gone aux-size-no-old "$tmp/keep.data.old"
# Non-regular outputs are refused (64) and left alone; a FIFO is not waited on.
if [ -n "$node" ]; then
	run record-node 64 spe-record --replay="$fx/replay/two-records.bin" -o "$node"
	err_has record-node-msg "is a character device; give the name of a regular file"
	is_chr record-node-kept "$node"
	run load-force-node 64 spe-load --force "$tmp/m.data" -o "$node"
	is_chr load-force-node-kept "$node"
fi
run record-dir 64 spe-record --replay="$fx/replay/two-records.bin" -o "$tmp/adir"
run record-fifo 64 spe-record --replay="$fx/replay/two-records.bin" -o "$tmp/fifo"
[ -p "$tmp/fifo" ] || { echo "FAIL record-fifo-kept"; fail=1; }
run load-append-fifo 64 spe-load --append "$tmp/m.data" -o "$tmp/fifo"
run load-dir 64 spe-load --force "$tmp/m.data" -o "$tmp/adir"
# Replacing a perf.data keeps the previous one as .old (as perf does).
run record-old 0 spe-record --replay="$fx/replay/two-records.bin" -o "$tmp/keep.data"
same record-old-kept "$tmp/m.data" "$tmp/keep.data.old"
run record-old-valid 0 spe-dump -q "$tmp/keep.data"
cp "$tmp/m.data" "$tmp/keep.data"
rm "$tmp/keep.data.old"
# A temporary left by a killed writer (its pid is gone) is removed by the next run.
sh -c 'exit 0' &
dead=$!
wait $dead
echo stale >"$tmp/keep.data.spe-record.$dead.0.tmp"
echo stale >"$tmp/new.db.spe-db.$dead.0.tmp"
echo stale >"$TMPDIR/spe-query.db.spe-db.$dead.0.tmp"
run stale-record 0 spe-record --replay="$fx/replay/two-records.bin" -o "$tmp/keep.data"
gone stale-record-removed "$tmp/keep.data.spe-record.$dead.0.tmp"
run stale-load 0 spe-load "$tmp/m.data" -o "$tmp/new.db"
gone stale-load-removed "$tmp/new.db.spe-db.$dead.0.tmp"
run stale-query 0 spe-query "$tmp/m.data" "SELECT count(*) FROM spe_sample"
gone stale-query-removed "$TMPDIR/spe-query.db.spe-db.$dead.0.tmp"
no_temporaries stale
cp "$tmp/m.data" "$tmp/keep.data"
rm -f "$tmp/keep.data.old"
# spe-load: a full disk (ulimit -f) leaves the database as it was, and no
# summary line is printed for a load that did not land.
rm -f "$tmp/full.db"
(
	ulimit -f 64
	timeout 20 ${SPE_RUN:-} "$bin/spe-load" --force "$tmp/m.data" -o "$tmp/keep.db" >"$tmp/out" 2>"$tmp/err"
	echo $? >"$tmp/st"
)
expect load-full-status "$(cat "$tmp/st")" 74
same load-full-kept "$tmp/m.db" "$tmp/keep.db"
has load-full-msg "$(cat "$tmp/err")" "$tmp/keep.db left unchanged"
expect load-full-no-summary "$(grep -c ' records; ' "$tmp/err")" 0
no_temporaries load-full
# Ctrl-C while spe-query loads FILE.data: its private database goes too.
timeout 20 ${SPE_RUN:-} "$bin/spe-query" "$tmp/m.data" \
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c" \
	>"$tmp/out" 2>"$tmp/err" &
qpid=$!
sleep 0.5
kill -INT $qpid
wait $qpid
expect query-sigint-status $? 130
no_temporaries query-sigint

# ---- 2. Read-only databases -----------------------------------------------
# A writer killed inside its transaction, after pages reached the file: a hot journal.
cp "$tmp/m.db" "$tmp/hot.db"
${SPE_RUN:-} "$bin/spe-query" --write -d "$tmp/hot.db" \
	"PRAGMA cache_size = 1; BEGIN; DELETE FROM _spe_record;
	 WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c" \
	>/dev/null 2>&1 &
wpid=$!
# kill it once the journal exists and pages are in the file (slow under an emulator)
for _ in $(seq 200); do [ -s "$tmp/hot.db-journal" ] && break; sleep 0.05; done
sleep 0.3
kill -KILL $wpid
wait $wpid 2>/dev/null
if [ -e "$tmp/hot.db-journal" ]; then
	cp "$tmp/hot.db" "$tmp/hot2.db"
	cp "$tmp/hot.db-journal" "$tmp/hot2.db-journal"
	run hot-journal-query 0 spe-query -d "$tmp/hot.db" --format=csv "SELECT count(*) AS n FROM spe_sample"
	expect hot-journal-rows "$(tr -d '\r' <"$tmp/out")" "n
1200"
	same hot-journal-rolled-back "$tmp/m.db" "$tmp/hot.db"
	# A reader who cannot write the directory cannot roll back: told what to run.
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		mkdir "$tmp/ro"
		cp "$tmp/hot2.db" "$tmp/hot2.db-journal" "$tmp/ro/"
		chmod 755 "$tmp" "$tmp/ro"
		chmod 644 "$tmp/ro/"*
		timeout 20 setpriv --reuid=65534 --regid=65534 --clear-groups ${SPE_RUN:-} "$bin/spe-query" \
			-d "$tmp/ro/hot2.db" "SELECT 1" >"$tmp/out" 2>"$tmp/err"
		expect hot-journal-readonly-status $? 74
		err_has hot-journal-readonly-msg "run spe-query --write -d $tmp/ro/hot2.db 'SELECT 1' as a user who can write"
		cmp -s "$tmp/hot2.db" "$tmp/ro/hot2.db" || { echo "FAIL hot-journal-readonly: changed"; fail=1; }
	fi
	run hot-journal-report 0 spe-report -d "$tmp/hot2.db"
else
	echo "FAIL hot-journal: the killed writer left no journal"
	fail=1
fi
# VACUUM INTO, CREATE TEMP and writable ATTACH on a read-only database: refused, nothing created.
(cd "$tmp" && timeout 20 ${SPE_RUN:-} "$bin/spe-query" -d m.db "VACUUM INTO 'copy.db'" >"$tmp/out" 2>"$tmp/err")
expect vacuum-into-status $? 65
gone vacuum-into-no-file "$tmp/copy.db"
has vacuum-into-msg "$(cat "$tmp/err")" "open read-only and this statement writes: VACUUM INTO"
has vacuum-into-hint "$(cat "$tmp/err")" "(spe-query --write to allow it)"
run create-temp 65 spe-query -d "$tmp/m.db" "CREATE TEMP TABLE t(x)"
(cd "$tmp" && timeout 20 ${SPE_RUN:-} "$bin/spe-query" -d m.db "ATTACH 'file:att.db?mode=rwc' AS a" >"$tmp/out" 2>"$tmp/err")
expect attach-rwc-status $? 65
has attach-rwc-hint "$(cat "$tmp/err")" "file: URI with mode=ro) (spe-query --write to allow it)"
gone attach-rwc-no-file "$tmp/att.db"
same read-only-unchanged "$tmp/m.db" "$tmp/keep.db"
# spe-query --write on a full disk (a tmpfs of the database and 1 MB, when mount works): 74, the
# database byte for byte as it was, no journal left; a statement's own error stays 65.
mkdir -p "$tmp/full"
if mount -t tmpfs -o size=$(($(stat -c %s "$tmp/m.db") + 1000000)) tmpfs "$tmp/full" 2>/dev/null; then
	cp "$tmp/m.db" "$tmp/full/f.db"
	run write-full 74 spe-query -d "$tmp/full/f.db" --write \
		"CREATE TABLE big AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 2000) SELECT randomblob(1000) FROM r"
	err_has write-full-msg "database or disk is full"
	same write-full-unchanged "$tmp/full/f.db" "$tmp/m.db"
	gone write-full-no-journal "$tmp/full/f.db-journal"
	run write-constraint 65 spe-query -d "$tmp/full/f.db" --write "INSERT INTO meta VALUES('schema_version', 'x')"
	umount "$tmp/full"
else
	echo "SKIP full disk: cannot mount a tmpfs here"
fi
# Bounded queries: an endless recursive CTE and a 900 MB blob.
start=$(date +%s)
run timeout 69 spe-query -d "$tmp/m.db" --timeout=1 \
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
err_has timeout-msg "ran past --timeout=1 seconds"
[ $(($(date +%s) - start)) -le 15 ] || { echo "FAIL timeout-took-too-long"; fail=1; }
expect timeout-no-partial-table "$(cat "$tmp/out")" ""
run max-memory 69 spe-query -d "$tmp/m.db" --max-memory=64M "SELECT length(randomblob(900000000))"
err_has max-memory-msg "needs more than --max-memory=67108864 bytes"
run max-memory-default 69 spe-query -d "$tmp/m.db" "SELECT length(randomblob(900000000))"
# Ctrl-C stops a running statement.
timeout 20 ${SPE_RUN:-} "$bin/spe-query" -d "$tmp/m.db" --timeout=0 \
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c" \
	>"$tmp/out" 2>"$tmp/err" &
qpid=$!
sleep 0.3
kill -INT $qpid
wait $qpid
expect query-interrupt-status $? 130

# ---- 3. Inputs -------------------------------------------------------------
run topdown-zero 66 spe-topdown import /dev/zero -d "$tmp/td.db"
err_has topdown-zero-msg "/dev/zero: is a character device, not a regular file"
run topdown-fifo 66 spe-topdown import "$tmp/fifo" -d "$tmp/td.db"
gone topdown-no-db "$tmp/td.db"
awk 'BEGIN { printf "# "; for (i = 0; i < 1100000; i++) printf "x"; print "" }' >"$tmp/long.csv"
run topdown-long-line 65 spe-topdown import "$tmp/long.csv" -d "$tmp/td.db"
err_has topdown-long-line-msg "long.csv:1: a line of 1100002 bytes, more than the 1048576 a line may have"
run load-fifo 66 spe-load "$tmp/fifo" -o "$tmp/f.db"
run query-fifo 66 spe-query -d "$tmp/fifo" "SELECT 1"
err_has query-fifo-msg "fifo: is a FIFO, not a database"
run report-fifo 66 spe-report -d "$tmp/fifo"
run query-version 0 spe-query -d "$tmp/adir/../m.db" "PRAGMA user_version" # a real database still opens
run replay-fifo 66 spe-record --replay="$tmp/fifo" -o "$tmp/f.data"
run dump-fifo 65 spe-dump "$tmp/fifo" # a stream reader: no writer reads as empty, not a hang
run kallsyms-missing 66 spe-load "$tmp/m.data" -o "$tmp/k.db" --kallsyms="$tmp/none"
err_has kallsyms-missing-msg "--kallsyms: $tmp/none: cannot open: No such file or directory"
run kallsyms-dir 66 spe-load "$tmp/m.data" -o "$tmp/k.db" --kallsyms="$tmp/adir"
err_has kallsyms-dir-msg "is a directory, not a regular file"
run kallsyms-fifo 66 spe-load "$tmp/m.data" -o "$tmp/k.db" --kallsyms="$tmp/fifo"
gone kallsyms-no-db "$tmp/k.db"
# sysfs copies: a FIFO attribute, a type past 2^31, a negative caps value as written.
mk_pmu() {
	rm -rf "$tmp/sys"
	cp -r "$fx/sysfs/n1-v1p1-linux6.1" "$tmp/sys"
}
mk_pmu
rm "$tmp/sys/type"
mkfifo "$tmp/sys/type"
run sysfs-fifo 66 spe-record --dry-run --sysfs="$tmp/sys"
err_has sysfs-fifo-msg "type: is a FIFO (pipe), not a regular file"
mk_pmu
echo 4294967296 >"$tmp/sys/type"
run sysfs-type 66 spe-record --dry-run --sysfs="$tmp/sys"
err_has sysfs-type-msg "type: 4294967296 is not a PMU type (0 to 2147483647)"
mk_pmu
echo -256 >"$tmp/sys/caps/min_interval"
run sysfs-negative 66 spe-record --dry-run --sysfs="$tmp/sys"
err_has sysfs-negative-msg "caps/min_interval: '-256' is not a number from 0 to 2^64 - 1"

# ---- 4. Modes --------------------------------------------------------------
run replay-dry-run 64 spe-record --replay="$fx/replay/two-records.bin" --dry-run --cpu=neoverse-n1 -o "$tmp/dr.data"
gone replay-dry-run-nothing "$tmp/dr.data"
run dry-run-list 64 spe-record --dry-run --list-filters --cpu=neoverse-n1
run dry-run-command 64 spe-record --dry-run --cpu=neoverse-n1 -- true
run kernel-2.6 64 spe-record --dry-run --cpu=neoverse-n1 --kernel=2.6
err_has kernel-2.6-msg "no Linux release before 4.15 has the arm_spe_pmu driver"
run query-write-file 64 spe-query --write "$tmp/m.data" "SELECT 1"

no_temporaries end
same end-keep-data "$tmp/m.data" "$tmp/keep.data"
expect hangs "$hangs" 0
summary=""
for c in "${!cases[@]}"; do summary="$summary $c ${cases[$c]},"; done
echo "cli_safe_io: runs:$summary hangs $hangs"
exit $fail
