#!/usr/bin/env bash
# spe-record --replay through the CLI: output, exact loss report, every exit
# code with its message, a disk-full stop that leaves a readable file.
#   cli_replay.sh RECORD_BINARY FIXTURES_DIR PUBLIC_DATA_DIR
# SPE_RUN: the cross-compiling emulator command (set by CMake), empty natively.
set -u
rec=$1 fx=$2
run_rec() { ${SPE_RUN:-} "$rec" "$@"; }
tmp=$(mktemp -d /tmp/spe-test-cli-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0 pass=0
check() { # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi
}
run() { # run EXPECTED_STATUS ARGS... ; stderr in $tmp/err
  run_rec "${@:2}" >"$tmp/out" 2>"$tmp/err"
  local st=$?
  if [ "$st" != "$1" ]; then echo "  exit $st, expected $1: $rec ${*:2}"; sed 's/^/  | /' "$tmp/err"; return 1; fi
}
has() { grep -qF -- "$1" "$tmp/err" || { echo "  stderr lacks: $1"; sed 's/^/  | /' "$tmp/err"; return 1; }; }
magic() { [ "$(head -c 8 "$1")" = "PERFILE2" ]; }

# 1. A manifest replays into a perf.data.
check manifest run 0 --replay="$fx/two-records.replay" -o "$tmp/a.data"
check manifest-msg has "wrote $tmp/a.data: 128 bytes of SPE data from 1 CPU in 1 AUXTRACE records"
check manifest-magic magic "$tmp/a.data"

# 2. Truncation, worked out by hand: 2048 copies of the 128-byte pair of records
#    (262144 bytes) in bursts of 8192 bytes into a 4096-byte area, drained after
#    each burst: each of the 32 bursts keeps 4096 bytes (32 whole records) and loses 4096.
cp "$fx/two-records.bin" "$tmp/big.bin"
for i in $(seq 11); do cat "$tmp/big.bin" "$tmp/big.bin" >"$tmp/x.bin"; mv "$tmp/x.bin" "$tmp/big.bin"; done
check trunc run 0 --replay="$tmp/big.bin" --aux-size=4K --replay-burst=8K -o "$tmp/t.data"
check trunc-msg has "32 AUX buffers truncated, 131072 bytes lost; try a larger --aux-size"
check trunc-bytes has "wrote $tmp/t.data: 131072 bytes of SPE data"
check lossless run 0 --replay="$tmp/big.bin" --aux-size=4K -o "$tmp/l.data"
check lossless-bytes has "wrote $tmp/l.data: 262144 bytes of SPE data from 1 CPU in 128 AUXTRACE records"

# 3. Exit codes and messages.
printf 'spekit-replay 1\nfrob 1\naux x\n' >"$tmp/bad.replay"
check bad-manifest run 65 --replay="$tmp/bad.replay" -o "$tmp/b.data"
check bad-manifest-msg has "$tmp/bad.replay:2: unknown directive 'frob'"
printf 'spekit-replay 1\naux missing.bin\n' >"$tmp/missing.replay"
check missing-aux run 66 --replay="$tmp/missing.replay" -o "$tmp/m.data"
check missing-aux-msg has "$tmp/missing.bin: cannot open: No such file or directory"
check missing-aux-nofile test ! -e "$tmp/m.data"
check missing-input run 66 --replay="$tmp/nope.bin" -o "$tmp/n.data"
check missing-input-msg has "$tmp/nope.bin: cannot open: No such file or directory"
check bad-aux-size run 64 --replay="$tmp/big.bin" --aux-size=5000 -o "$tmp/s.data"
check bad-aux-size-msg has "AUX size 5000 is not a power of two of at least 4096 bytes"
check bad-size-syntax run 64 --replay="$tmp/big.bin" --aux-size=lots
check cpu-with-manifest run 64 --replay="$fx/two-records.replay" --cpu=3
check unwritable run 74 --replay="$fx/two-records.replay" -o /nonexistent/dir/x.data
check unwritable-msg has "-o /nonexistent/dir/x.data: cannot create files in /nonexistent/dir: No such file or directory"

# Inputs refused before the output is created: a directory, an unreadable file
# (as root every file is readable: checked only for other users), an output
# that is the input itself or a manifest's aux file.
mkdir "$tmp/dir"
check dir-input run 66 --replay="$tmp/dir" -o "$tmp/dir.data"
check dir-input-msg has "spe-record: $tmp/dir: is a directory, not a regular file"
check dir-input-nofile test ! -e "$tmp/dir.data"
check dev-input run 66 --replay=/dev/null -o "$tmp/dev.data"
check dev-input-msg has "spe-record: /dev/null: is a character device, not a regular file"
check dev-input-nofile test ! -e "$tmp/dev.data"
printf 'spekit-replay 1\naux dir\n' >"$tmp/dir.replay"
check dir-aux run 66 --replay="$tmp/dir.replay" -o "$tmp/dira.data"
check dir-aux-msg has "spe-record: $tmp/dir: is a directory"
check dir-aux-nofile test ! -e "$tmp/dira.data"
if [ "$(id -u)" != 0 ]; then
  cp "$fx/two-records.bin" "$tmp/noread.bin"; chmod 0 "$tmp/noread.bin"
  check noread run 66 --replay="$tmp/noread.bin" -o "$tmp/nr.data"
  check noread-msg has "$tmp/noread.bin: cannot open: Permission denied"
  check noread-nofile test ! -e "$tmp/nr.data"
fi
cp "$fx/two-records.bin" "$tmp/self.bin"
check self-output run 64 --replay="$tmp/self.bin" -o "$tmp/self.bin"
check self-output-msg has "spe-record: -o $tmp/self.bin: is the replay input $tmp/self.bin; give another output file"
check self-output-intact cmp -s "$fx/two-records.bin" "$tmp/self.bin"
ln "$tmp/self.bin" "$tmp/self-link.bin"
check self-hardlink run 64 --replay="$tmp/self.bin" -o "$tmp/self-link.bin"
printf 'spekit-replay 1\naux self.bin\n' >"$tmp/self.replay"
check self-aux run 64 --replay="$tmp/self.replay" -o "$tmp/self.bin"
check self-aux-intact cmp -s "$fx/two-records.bin" "$tmp/self.bin"

# Header of a replay: ARCH is the traced machine's (aarch64); HOSTNAME and
# OSRELEASE come from the manifest, and are left out without it (never this host's).
printf 'spekit-replay 1\nhostname tracedbox\nosrelease 6.1.0-spe\naux %s\n' "$fx/two-records.bin" >"$tmp/host.replay"
check host-manifest run 0 --replay="$tmp/host.replay" -o "$tmp/host.data"
printf 'spekit-replay 1\nhostname a\nhostname b\naux x\n' >"$tmp/host2.replay"
check host-twice run 65 --replay="$tmp/host2.replay" -o "$tmp/host2.data"
check host-twice-msg has "$tmp/host2.replay:3: hostname given twice"
if command -v perf >/dev/null; then
  perf report --header-only -i "$tmp/host.data" >"$tmp/h.txt" 2>&1
  check host-hostname grep -qx '# hostname : tracedbox' "$tmp/h.txt"
  check host-osrelease grep -qx '# os release : 6.1.0-spe' "$tmp/h.txt"
  check host-arch grep -qx '# arch : aarch64' "$tmp/h.txt"
  perf report --header-only -i "$tmp/a.data" >"$tmp/h.txt" 2>&1
  check nohost-arch grep -qx '# arch : aarch64' "$tmp/h.txt"
  check nohost-hostname test "$(grep -c '^# hostname\|^# os release' "$tmp/h.txt")" = 0
fi

# 4. Disk full (a 64 KiB file-size limit): exit 74, a clear message, and no
#    file: the recording went to a temporary that is removed; a perf.data
#    that was there is left byte for byte (and no .old is made).
( ulimit -f 64; run_rec --replay="$tmp/big.bin" --aux-size=16K -o "$tmp/full.data" ) >"$tmp/out" 2>"$tmp/err"
check diskfull-status test $? = 74
check diskfull-msg has "$tmp/full.data: write failed"
check diskfull-why has "File too large"
check diskfull-msg2 has "$tmp/full.data not created"
check diskfull-nofile test ! -e "$tmp/full.data"
check diskfull-notmp test -z "$(ls "$tmp" | grep '\.tmp$')"
cp "$tmp/a.data" "$tmp/keep.data"
( ulimit -f 64; run_rec --replay="$tmp/big.bin" --aux-size=16K -o "$tmp/keep.data" ) >"$tmp/out" 2>"$tmp/err"
check diskfull-keep-status test $? = 74
check diskfull-keep-msg has "$tmp/keep.data left as it was"
check diskfull-keep-same cmp "$tmp/a.data" "$tmp/keep.data"
check diskfull-keep-noold test ! -e "$tmp/keep.data.old"
check diskfull-keep-notmp test -z "$(ls "$tmp" | grep '\.tmp$')"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
