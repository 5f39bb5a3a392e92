#!/bin/sh
# realcap_score on hand-written inputs (truth.tsv, perf.txt, spe-*.csv):
#   run.sh REALCAP_SCORE DIR
# spe-pass.csv is right where the truth says (an alias and a perf-map
# name with spaces included; record 1 is one where perf names the wrong
# function; record 3 is a raw address nobody can name); spe-fail.csv is
# unknown where perf is right (records 0 and 2), wrong (record 1) and
# misses record 3.  The scorer must pass the first and fail
# the second, naming each problem.
set -u
. "$(dirname "$0")/../../lib/testlib.sh"
score=$1 dir=$2
out=$($SPE_RUN "$score" --name=selftest --truth="$dir/truth.tsv" --perf="$dir/perf.txt" --spe="$dir/spe-pass.csv")
expect "pass: exit status" "$?" 0
has "pass: verdict" "$out" "verdict: pass (spe-load wrong 0, unknown where perf is right 0, records missing 0, rows extra 0)"
has "pass: perf names g's address f" "$out" "#1 line 2 1000000200 0x1010 sym: g | f | g"
has "pass: sym row" "$out" "  sym        3      0             0             1           1             1               1"
out=$($SPE_RUN "$score" --name=selftest --truth="$dir/truth.tsv" --perf="$dir/perf.txt" --spe="$dir/spe-fail.csv")
expect "fail: exit status" "$?" 1
has "fail: unknown where perf is right" "$out" "#0 line 1 1000000100 0x1000 sym: f|f_alias | f_alias | NULL  <- spe-load unknown, perf right"
has "fail: wrong" "$out" "#1 line 2 1000000200 0x1010 sym: g | f | f  <- spe-load WRONG"
has "fail: missing row" "$out" "#3 line 4 1000000400 0x2000 pid: 12 | 12 | (no row)  <- spe-load unknown, perf right"
has "fail: verdict" "$out" "verdict: FAIL (spe-load wrong 1, unknown where perf is right 4, records missing 1, rows extra 0)"
$SPE_RUN "$score" --name=x --truth="$dir/missing.tsv" --perf="$dir/perf.txt" --spe="$dir/spe-pass.csv" 2>/dev/null
expect "unreadable truth: exit status" "$?" 65
exit $fail
