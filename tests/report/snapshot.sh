#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# test_snapshot over a real load (the datawork replay): every report in one
# read transaction, checked with a writer committing between two of its
# statements (tests/report/test_snapshot.c says how).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 snapshot=$3 fx=$4
scratch_dir report-snapshot
${SPE_RUN:-} "$record" --replay="$fx/workloads/traces/datawork.replay" -o "$tmp/d.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/d.data" -o "$tmp/d.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }
${SPE_RUN:-} "$snapshot" "$tmp/d.db"
