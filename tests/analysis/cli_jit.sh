#!/usr/bin/env bash
# JIT code, spe-load against perf 6.1 record by record.  SPE captures (our perf.data writer,
# gen_jit_capture) put records on the code of the files node v20 and java 17 wrote
# (fixtures/jit): the perf maps of processes that exist nowhere (pids above the kernel's
# PID_MAX_LIMIT, 4194304, so perf finds no such process to ask its namespace, and no other
# test's file), placed in /tmp where perf reads them and removed at exit; node's jitdump
# under a private directory, which perf inject --jit turns into ELF files perf script reads.
#   cli_jit.sh GEN_JIT_CAPTURE SPE_LOAD SPE_QUERY FIXTURES_JIT_DIR
# Exit 77 (skip) without perf, or under an emulator (SPE_RUN).
set -u
gen=$1 load=$2 query=$3 fx=$4
if ! command -v perf >/dev/null || [ -n "${SPE_RUN:-}" ]; then
  echo "SKIP: perf not installed (or cross-compiled)"; exit 77
fi
tmp=$(mktemp -d /tmp/spe-test-jit-XXXXXX)
made=()
# KEEP=1 keeps the directory to look at (the maps in /tmp go whatever happens)
cleanup() { if [ -n "${KEEP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi; rm -f "${made[@]}"; }
trap cleanup EXIT
fail=0 pass=0
check() {
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi
}
# a perf map of pid $1 in /tmp, from file $2 (refused if one is there: not ours)
place_map() {
  local f=/tmp/perf-$1.map
  [ -e "$f" ] && { echo "FAIL /tmp/perf-$1.map exists"; exit 1; }
  cp "$2" "$f" && made+=("$f")
}
# "TID PC SYMBOL" per record: spe-load's rows in order, perf script's samples (one CPU: the same order)
ours() {
  "$query" -d "$1" --format=csv \
    "SELECT tid || ' ' || printf('%x', pc_value) || ' ' || coalesce(symbol, '[unknown]') FROM spe_sample ORDER BY id" |
    tail -n +2 | tr -d '\r' | sed -e 's/^"\(.*\)"$/\1/' -e 's/""/"/g'
}
theirs() { PAGER=cat perf script -i "$1" --itrace=i1i -F tid,ip,sym 2>/dev/null | awk '{ $1 = $1; print }'; }
same_lines() { paste -d '\n' "$1" "$2" | paste -d '|' - - | awk -F'|' '$1 == $2' | wc -l; }

base=$((4194305 + ($$ % 100000) * 16))
P=$base C=$((base + 1)) J=$((base + 2)) H=$((base + 3)) U=$((base + 4)) T=$((base + 5)) N=$((base + 6))
L=$((base + 7)) O=$((base + 8)) D=$((base + 9))
nodemap=$fx/node-perf-basic-prof.map javamap=$fx/java-DumpPerfMapAtExit.map

# ---- perf-PID.map ----------------------------------------------------------------------
first=$(awk '$3 ~ /^JS:/ { print $1; exit }' "$nodemap")
place_map $P "$nodemap"
printf '%s 40 WRONG:the-child-s-file\n7e0000001000 100 JS:*childOwn /c.js:1:1\n' "$first" >"$tmp/child.map"
place_map $C "$tmp/child.map"          # names the parent's address too: perf uses the parent's file there
place_map $J "$javamap"
place_map $H "$javamap"                # [heap] executable
place_map $U "$javamap"                # /anon_hugepage
place_map $T "$javamap"                # a file mapped with MAP_HUGETLB
head -c -1 "$javamap" >"$tmp/nonl.map" # the last line without its newline
place_map $L "$tmp/nonl.map"
printf '7d0000001000 100 old code\n7d0000001040 20 new code\n7d0000002000 10 alone\n' >"$tmp/overlap.map"
place_map $O "$tmp/overlap.map"
lastline=$(tail -n 1 "$javamap")
lastpc=$(printf '%x' "$(echo "$lastline" | awk '{ print $1 }')")
{
  echo "comm $P $P 10 node";   "$gen" regions $P 100 //anon "$nodemap"
  echo "fork $C $P $C $P 200"
  echo "mmap2 $C $C 300 7e0000000000 10000 0 5 22 //anon"
  echo "comm $J $J 10 java";   "$gen" regions $J 100 //anon "$javamap"
  echo "comm $H $H 10 heapjit"; "$gen" regions $H 100 '[heap]' "$javamap"
  echo "comm $U $U 10 hugejit"; "$gen" regions $U 100 '/anon_hugepage (deleted)' "$javamap"
  echo "comm $T $T 10 hugefile"; "$gen" regions $T 100 /dev/hugepages/jit "$javamap" | sed 's/ 5 22 / 5 40001 /'
  echo "comm $N $N 10 nomap";  "$gen" regions $N 100 //anon "$javamap"
  echo "comm $L $L 10 nonl";   "$gen" regions $L 100 //anon "$javamap"
  echo "comm $O $O 10 overlap"; echo "mmap2 $O $O 100 7d0000000000 10000 0 5 22 //anon"
  "$gen" pcs $P 1000 "$nodemap"
  "$gen" pcs $J 1000 "$javamap"
  for pid in $H $U $T $N; do "$gen" pcs $pid 1000 "$javamap" | head -30; done
  echo "record $C $first 1000"; echo "record $C 7e0000001010 1000"; echo "record $C 7e0000002000 1000"
  echo "record $L $lastpc 1000"
  for pc in 7d0000001000 7d0000001045 7d0000001070 7d0000002004; do echo "record $O $pc 1000"; done
} >"$tmp/maps.plan"
check plan "$gen" plan "$tmp/maps.data" <"$tmp/maps.plan"
"$load" "$tmp/maps.data" -o "$tmp/maps.db" 2>"$tmp/maps.err"
check load-maps test $? = 0
ours "$tmp/maps.db" >"$tmp/maps.ours"
theirs "$tmp/maps.data" >"$tmp/maps.perf"
records=$(grep -c '^record' "$tmp/maps.plan")
check maps-every-record test "$(wc -l <"$tmp/maps.ours")" = "$records" -a "$(wc -l <"$tmp/maps.perf")" = "$records"
# Every record agrees but the two differences docs/symbols.md ("JIT code") names: the last line without its newline
# (perf drops its last character) and an address two map lines hold (perf takes either).
grep -v "^$L \|^$O " "$tmp/maps.ours" >"$tmp/a"
grep -v "^$L \|^$O " "$tmp/maps.perf" >"$tmp/b"
agree=$(same_lines "$tmp/a" "$tmp/b")
echo "perf-PID.map: $agree of $(wc -l <"$tmp/a") records name the same symbol as perf script ($records in all)"
check maps-same-as-perf test "$agree" = "$(wc -l <"$tmp/a")" -a "$agree" -gt 1000
diff "$tmp/a" "$tmp/b" | head -5
# the child names the parent's code from the parent's file, its own code from its own
check child-inherits grep -q "^$C [0-9a-f]* JS:~" "$tmp/maps.ours"
check child-own grep -q "^$C 7e0000001010 JS:\*childOwn /c.js:1:1" "$tmp/maps.ours"
check child-not-its-file test "$(grep -c WRONG "$tmp/maps.ours" "$tmp/maps.perf" | awk -F: '{ s += $2 } END { print s }')" = 0
# [heap], /anon_hugepage and MAP_HUGETLB name too; a process without a file does not
for pid in $H $U $T; do check "named-$pid" test "$(grep "^$pid " "$tmp/maps.ours" | grep -vc unknown)" = 30; done
check no-file-no-name test "$(grep "^$N " "$tmp/maps.ours" | grep -vc unknown)" = 0
check no-file-said grep -q "pid $N: anonymous executable memory unnamed: /tmp/perf-$N.map: .*No such file" "$tmp/maps.err"
check no-file-said-once test "$(grep -c "pid $N:" "$tmp/maps.err")" = 1
# the last line without a newline: read whole here, one character short in perf
name=$(echo "$lastline" | cut -d' ' -f3-)
check nonl-ours grep -qxF "$L $lastpc $name" "$tmp/maps.ours"
check nonl-perf grep -qxF "$L $lastpc ${name%?}" "$tmp/maps.perf"
check nonl-said grep -q "pid $L: /tmp/perf-$L.map: .*the last line has no newline" "$tmp/maps.err"
# overlapping lines: the later one names the overlap here
check overlap-later test "$(grep "^$O " "$tmp/maps.ours" | cut -d' ' -f3- | tr '\n' '|')" = \
  "old code|new code|old code|alone|"
echo "overlapping perf-map lines, perf script: $(grep "^$O " "$tmp/maps.perf" | cut -d' ' -f3- | tr '\n' '|')"
check jit-counts grep -q "in JIT code, .* of them without symbol" "$tmp/maps.err"

# --jit-maps=DIR: the same names from copies, none in /tmp
mkdir -p "$tmp/copied"
cp "/tmp/perf-$J.map" "$tmp/copied/perf-$J.map"
rm -f "/tmp/perf-$J.map"
"$load" "$tmp/maps.data" -o "$tmp/copied.db" --jit-maps="$tmp/copied" 2>"$tmp/copied.err"
check load-jit-maps test $? = 0
check jit-maps-names test "$(ours "$tmp/copied.db" | grep "^$J " | md5sum)" = "$(grep "^$J " "$tmp/maps.ours" | md5sum)"
check jit-maps-said grep -q "pid $P: anonymous executable memory unnamed: $tmp/copied/perf-$P.map" "$tmp/copied.err"
"$load" "$tmp/maps.data" -o "$tmp/x.db" --jit-maps="$tmp/copied/perf-$J.map" 2>/dev/null
check jit-maps-not-a-dir test $? = 66

# ---- jitdump: perf record -k 1 ------------------------------------------------------------
mkdir -p "$tmp/dump"
"$gen" repid "$fx/node-perf-prof.dump" "$tmp/dump/jit-$D.dump" $D
"$gen" loads "$tmp/dump/jit-$D.dump" >"$tmp/loads"
t0=$(head -n 1 "$tmp/loads" | awk '{ print $3 }')
tend=$(awk '{ t = $3 } END { print t }' "$tmp/loads")
dump_plan() { # $1: clock line or nothing, $2: the marker's path
  [ -n "$1" ] && echo "$1"
  echo "comm $D $D $((t0 - 3000000)) node"
  echo "mmap2 $D $D $((t0 - 3000000)) b72000 1a8c000 772000 5 2 /nonexistent/node" # builtins load over it
  "$gen" regions $D $((t0 - 2000000)) //anon "$tmp/loads" | grep -v ' 18c'
  echo "mmap2 $D $D $((t0 - 1000000)) 7f0000000000 1000 0 5 2 $2"
  "$gen" pcs $D $((t0 - 500000)) "$tmp/loads" | head -6                  # before any load: the //anon
  "$gen" pcs $D $((tend + 1000)) "$tmp/loads"
  "$gen" lines "$tmp/dump/jit-$D.dump" | awk 'length($1) <= 12' >"$tmp/lines"
  "$gen" pcs $D $((tend + 1000)) "$tmp/lines"
}
dump_plan "clock monotonic" "$tmp/dump/jit-$D.dump" >"$tmp/dump.plan"
check dump-plan "$gen" plan "$tmp/dump.data" <"$tmp/dump.plan"
"$load" "$tmp/dump.data" -o "$tmp/dump.db" 2>"$tmp/dump.err"
check load-dump test $? = 0
perf inject --jit -i "$tmp/dump.data" -o "$tmp/dump.jit.data" 2>"$tmp/inject.err"
check perf-inject test $? = 0
ours "$tmp/dump.db" >"$tmp/dump.ours"
theirs "$tmp/dump.jit.data" >"$tmp/dump.perf"
n=$(wc -l <"$tmp/dump.ours")
agree=$(same_lines "$tmp/dump.ours" "$tmp/dump.perf")
echo "jitdump: $agree of $n records name the same symbol as perf script after perf inject --jit"
check dump-same-as-perf test "$agree" = "$n" -a "$n" -gt 100
diff "$tmp/dump.ours" "$tmp/dump.perf" | head -5
check dump-fib grep -q "^$D [0-9a-f]* JS:\*fib /tmp/jitx/fib.js:1:13" "$tmp/dump.ours"
check dump-before-load test "$(head -n 6 "$tmp/dump.ours" | grep -c unknown)" = 6
check dump-one-mapping test "$("$query" -d "$tmp/dump.db" --format=csv "SELECT count(*) FROM mapping WHERE path LIKE '%.dump'" | tail -n 1 | tr -d '\r')" = 1
# Source lines: binutils' addr2line on the ELF perf inject wrote (code at 0x80, GEN_ELF_TEXT_OFFSET).
# perf's line tables end at a load's last DEBUG_INFO entry: from there on it has no line, spe-load
# keeps the last entry's to the code's end (counted, not compared).
PAGER=cat perf script -i "$tmp/dump.jit.data" --itrace=i1i -F ip,sym,symoff,dso 2>/dev/null |
  sed -e 's/^ *\([0-9a-f]*\) .*+0x\([0-9a-f]*\) (\(.*\))$/\1 \2 \3/' -e 't' -e 's/^ *\([0-9a-f]*\) .*/\1/' |
  while read -r ip off dso; do
    if [ -n "${dso:-}" ]; then
      echo "$ip $(addr2line -e "$dso" "$(printf '0x%x' $((0x$off + 0x80)))" | head -n 1)"
    else
      echo "$ip ??:?"
    fi
  done >"$tmp/lines.perf"
"$query" -d "$tmp/dump.db" --format=csv \
  "SELECT printf('%x', pc_value) || ' ' || coalesce(src_file || ':' || src_line, '??:?') FROM spe_sample ORDER BY id" |
  tail -n +2 | tr -d '\r' >"$tmp/lines.ours"
# per PC: both name it (must agree), perf only from the broken DEBUG_INFO of fib (raw-byte file
# names: fixtures/jit/README.md; dropped here), here only past a load's last entry, else a failure
paste -d '|' "$tmp/lines.ours" "$tmp/lines.perf" | LC_ALL=C awk -F'|' '
  $2 !~ /\?\?/ && $1 !~ /\?\?/ { both++; same += $1 == $2; next }
  $2 !~ /\?\?/ && $2 ~ /[\200-\377]/ { broken++; next }
  $2 ~ /\?\?/ && $1 !~ /\?\?/ { tail++; next }
  $2 !~ /\?\?/ { lost++ }
  END { printf "%d %d %d %d %d\n", both, same, broken, tail, lost }' >"$tmp/lines.counts"
read -r both same broken tail lost <"$tmp/lines.counts"
echo "jitdump lines: $same of $both PCs both name have the same file:line; $tail past a load's last entry have" \
  "a line here only (perf's tables end there); $broken perf names from V8's broken DEBUG_INFO, none here"
check lines-same test "$same" = "$both" -a "$both" -gt 50
check lines-none-lost test "$lost" = 0
check lines-broken-dropped test "$broken" -gt 0
check broken-debug-said grep -q "2 debug infos not of the next load's code" "$tmp/dump.err"

# ---- jitdump: no -k 1: the times cannot be related ------------------------------------------
dump_plan "" "$tmp/dump/jit-$D.dump" >"$tmp/nok.plan"
"$gen" plan "$tmp/nok.data" <"$tmp/nok.plan"
"$load" "$tmp/nok.data" -o "$tmp/nok.db" 2>"$tmp/nok.err"
check load-nok test $? = 0
check nok-said grep -q "pid $D: .*jit-$D.dump: 24 code loads; its times (CLOCK_MONOTONIC) cannot be related.*perf record -k 1" "$tmp/nok.err"
perf inject --jit -i "$tmp/nok.data" -o "$tmp/nok.jit.data" >"$tmp/nok.inject" 2>&1
check perf-refuses-too grep -q "jitted code must be sampled with perf record -k 1" "$tmp/nok.inject"
# no two loads share an address in this dump: every name is known without times, but the records
# before any load now fall in code placed from the marker on
ours "$tmp/nok.db" | tail -n +7 >"$tmp/nok.ours"
tail -n +7 "$tmp/dump.ours" >"$tmp/k.ours"
check nok-names-same cmp -s "$tmp/nok.ours" "$tmp/k.ours"

# ---- jitdump: elsewhere, and missing --------------------------------------------------------
dump_plan "clock monotonic" "/nonexistent/.debug/jit/run/jit-$D.dump" >"$tmp/moved.plan"
"$gen" plan "$tmp/moved.data" <"$tmp/moved.plan"
"$load" "$tmp/moved.data" -o "$tmp/moved.db" 2>"$tmp/moved.err"
check missing-dump-loads test $? = 0
check missing-dump-said grep -q "pid $D: /nonexistent/.debug/jit/run/jit-$D.dump: .*No such file" "$tmp/moved.err"
"$load" "$tmp/moved.data" -o "$tmp/moved2.db" --jit-maps="$tmp/dump" 2>"$tmp/moved2.err"
check dump-under-jit-maps test "$(ours "$tmp/moved2.db" | md5sum)" = "$(md5sum <"$tmp/dump.ours")"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
