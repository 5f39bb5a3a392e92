#!/usr/bin/env bash
# spe-record live paths through the CLI on a machine without SPE: the "no SPE"
# exit 69, --sideband-only recording of a command (its exit status), SIGINT and
# SIGTERM ending a system-wide recording with a file perf reads, a live disk-full
# stop, a refused -a (exit 77), usage errors.  Runs as any user: what needs -a is
# skipped when this user may not record system-wide.
#   cli_record.sh RECORD_BINARY      (SPE_RUN: emulator prefix, may be empty)
set -u
rec=$1
tmp=$(mktemp -d /tmp/spe-test-clirec-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0 pass=0 skip=0 a_status= live_ok=
run_rec() { ${SPE_RUN:-} "$rec" "$@"; }
check() {
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi
}
run() {
  run_rec "${@:2}" >"$tmp/out" 2>"$tmp/err"
  local st=$?
  if [ "$st" != "$1" ]; then echo "  exit $st, expected $1: spe-record ${*:2}"; sed 's/^/  | /' "$tmp/err"; return 1; fi
}
has() { grep -qF -- "$1" "$tmp/err" || { echo "  stderr lacks: $1"; sed 's/^/  | /' "$tmp/err"; return 1; }; }
not_has() { ! grep -qF -- "$1" "$tmp/err" || { echo "  stderr has: $1"; return 1; }; }
have_perf() { command -v perf >/dev/null && [ -z "${SPE_RUN:-}" ]; }

# 1. No arm_spe PMU here: exit 69, naming the architecture and the two ways out.
if ls /sys/bus/event_source/devices 2>/dev/null | grep -q '^arm_spe'; then
  echo "  (this machine has SPE: the no-SPE checks are skipped)"; skip=$((skip + 1))
else
  arch=$(${SPE_RUN:-} /bin/sh -c 'uname -m' 2>/dev/null || uname -m)
  check no-spe run 69 -o "$tmp/x.data" -- true
  # spe doctor's first failing check (on x86, the architecture), its fix, and where to look.
  check no-spe-msg has "spe-record: cannot record: "
  if [ "$(cat /proc/sys/kernel/arch 2>/dev/null || uname -m)" = x86_64 ]; then
    check no-spe-arch has "spe-record: cannot record: arch: x86_64: SPE is a feature of 64-bit Arm CPUs"
  fi
  check no-spe-doctor has "'spe doctor' (or spe-record --check) shows every check and its evidence"
  check no-spe-dryrun has "--dry-run --cpu=NAME"
  check no-spe-replay has "--replay=FILE"
  check no-spe-nofile test ! -e "$tmp/x.data"
  check no-spe-a run 69 -a -o "$tmp/x.data"
fi

# 2. Usage errors.
check two-targets run 64 -a -p 1
check two-targets-msg has "-a, -C, -p and a command each choose what to record: give one"
check no-command run 64 --sideband-only --
check replay-live run 64 --replay=/dev/null -a
check profile-live run 64 --cpu=neoverse-n1 -a
check aux-live run 64 --aux-size=64K -a
check bad-pages run 64 -m 3 -a
check bad-duration run 64 --duration=soon -a

# Checks of system-wide recording (-a), run when this user may record it.
system_wide_checks() {
  for sig in INT TERM; do
    # Started directly (not through a function) so $! is spe-record itself;
    # --duration bounds the test if the signal were ignored.
    ${SPE_RUN:-} "$rec" --sideband-only -a --duration=20 -o "$tmp/$sig.data" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    sleep 1
    kill -$sig $pid
    wait $pid
    check "sig$sig-status" test $? = 0
    check "sig$sig-msg" has "(stopped by signal)"
    if have_perf; then
      PAGER=cat perf report -D -i "$tmp/$sig.data" >"$tmp/d.txt" 2>&1
      check "sig$sig-perf-reads" test $? = 0
      check "sig$sig-perf-comm" grep -q 'PERF_RECORD_COMM' "$tmp/d.txt"
    fi
  done
  check duration run 0 --sideband-only -a --duration=0.3 -o "$tmp/d.data"

  # Disk full (a 16 KiB file-size limit) in a live recording: exit 74, the
  # message names the offset of the write that failed (the first byte that
  # did not land, which is the file's size), the summary counts what the
  # sealed file holds, and perf reads it.
  ( ulimit -f 16; ${SPE_RUN:-} "$rec" --sideband-only -a --duration=1 -o "$tmp/full.data" ) \
    >"$tmp/out" 2>"$tmp/err"
  check live-full-status test $? = 74
  check live-full-msg has "spe-record: $tmp/full.data: write failed at offset 0x"
  check live-full-why has "File too large"
  local off size
  off=$(sed -n 's/.*write failed at offset 0x\([0-9a-f]*\):.*/\1/p' "$tmp/err" | head -1)
  size=$(stat -c %s "$tmp/full.data")
  check live-full-offset test "$((0x${off:-0}))" = "$size"
  check live-full-holds has "$tmp/full.data is incomplete but readable up to the failure: it holds 0 bytes of SPE data and "
  check live-full-no-wrote not_has "wrote $tmp/full.data"
  if have_perf; then
    PAGER=cat perf report -D -i "$tmp/full.data" >"$tmp/d.txt" 2>&1
    check live-full-perf-reads test $? = 0
    # perf's per-type totals of the kernel's sideband records = the count reported.
    local held perf_n
    held=$(sed -n 's/.*it holds 0 bytes of SPE data and \([0-9]*\) sideband records.*/\1/p' "$tmp/err")
    perf_n=$(awk '/^Aggregated stats:/ { on = 1; next }
      on && / events:/ && $1 !~ /^(TOTAL|AUXTRACE_INFO|TIME_CONV|AUXTRACE|AUX)$/ { n += $3 }
      END { print n + 0 }' "$tmp/d.txt")
    check live-full-count test "${held:-x}" = "$perf_n"
  fi
}

# 3. Live sideband recording (the dummy tracking event) -- needs perf_event_open.
run_rec --sideband-only -o "$tmp/probe.data" -- true >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" = 69 ] || [ "$st" = 77 ]; then
  echo "  (perf_event_open unavailable here: $(head -1 "$tmp/err"); live checks skipped)"
  skip=$((skip + 1))
else
  live_ok=1
  check cmd-status run 3 --sideband-only -o "$tmp/s.data" -- /bin/sh -c '/bin/true; exit 3'
  check cmd-msg has "wrote $tmp/s.data: 0 bytes of SPE data"
  check cmd-notfound run 127 --sideband-only -o "$tmp/n.data" -- /nonexistent/cmd
  check cmd-notfound-msg has "cannot run '/nonexistent/cmd': No such file or directory"
  # The SIGXFSZ spe-record ignores is not the command's (bit 24 of SigIgn is signal 25).
  check cmd-sigxfsz run 0 --sideband-only -o "$tmp/x.data" -- /bin/sh -c 'grep SigIgn /proc/self/status'
  ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "$tmp/out")
  check cmd-sigxfsz-dfl test -n "$ign" -a $(( 0x${ign:-1000000} & 0x1000000 )) = 0
  check pid-gone run 66 --sideband-only -p 2147483647 -o "$tmp/g.data"
  check pid-gone-msg has "perf_event_open(dummy) on CPU "
  check pid-gone-why has ": No such process: the process to record is gone"
  check pid-gone-nofile test ! -e "$tmp/g.data"
  # -p of a running process: its executable's build-id (read from the file) in the BUILD_ID feature.
  sleep_bin=$(readlink -f "$(command -v sleep)")
  "$sleep_bin" 5 &
  spid=$!
  sleep 0.2
  check pid-record run 0 --sideband-only -p "$spid" --duration=0.2 -o "$tmp/p.data"
  kill "$spid"; wait "$spid" 2>/dev/null
  if have_perf; then
    want=$(perf buildid-list -i "$sleep_bin" 2>/dev/null)
    check pid-buildid-known test -n "$want"
    perf buildid-list -i "$tmp/p.data" >"$tmp/bids.txt" 2>&1
    check pid-buildid grep -qxF "$want $sleep_bin" "$tmp/bids.txt" || sed 's/^/  | /' "$tmp/bids.txt"
  fi
  if have_perf; then
    PAGER=cat perf report -D -i "$tmp/s.data" >"$tmp/d.txt" 2>&1
    check cmd-perf-comm grep -q 'PERF_RECORD_COMM exec: true:' "$tmp/d.txt"
    check cmd-perf-mmap2 grep -q 'PERF_RECORD_MMAP2 .* r-xp .*/true' "$tmp/d.txt"
    check cmd-perf-fork grep -q 'PERF_RECORD_FORK(' "$tmp/d.txt"
    check cmd-perf-exit grep -q 'PERF_RECORD_EXIT(' "$tmp/d.txt"
    check cmd-perf-switch grep -q 'PERF_RECORD_SWITCH' "$tmp/d.txt"
    check cmd-all-written not_has "not written"
    # A live file describes this machine.
    perf report --header-only -i "$tmp/s.data" >"$tmp/h.txt" 2>&1
    check cmd-arch grep -qxF "# arch : $(uname -m)" "$tmp/h.txt"
    check cmd-hostname grep -qxF "# hostname : $(uname -n)" "$tmp/h.txt"
    check cmd-osrelease grep -qxF "# os release : $(uname -r)" "$tmp/h.txt"
  fi

  # 4. System-wide (-a) needs perf privileges (perf_event_paranoid <= 0 or
  #    CAP_PERFMON); without them the checks that need it are skipped.
  run_rec --sideband-only -a --duration=0.1 -o "$tmp/a.data" >"$tmp/out" 2>"$tmp/err"
  a_status=$?
  if [ "$a_status" = 77 ]; then
    echo "  (-a refused here: $(head -1 "$tmp/err"); system-wide checks skipped)"
    skip=$((skip + 1))
  else
    system_wide_checks
  fi
fi

# 5. A refused -a: the permission message and exit 77.  As root, run it as
#    nobody; as another user, -a is refused by itself unless perf_event_paranoid
#    allows it.
as_user=()
if [ "$(id -u)" = 0 ]; then
  if command -v setpriv >/dev/null; then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    chmod 755 "$tmp"
  else
    as_user=(none)
  fi
fi
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
if [ -z "$live_ok" ]; then
  : # perf_event_open unavailable: said above
elif [ "${as_user[0]:-}" = none ]; then
  echo "  (running as root without setpriv: refused -a not checked)"; skip=$((skip + 1))
elif [ "$paranoid" -le 0 ] || { [ ${#as_user[@]} = 0 ] && [ "$a_status" != 77 ]; }; then
  echo "  (perf_event_paranoid=$paranoid lets this user record -a: refused -a not checked)"; skip=$((skip + 1))
else
  "${as_user[@]}" ${SPE_RUN:-} "$rec" --sideband-only -a --duration=0.1 -o "$tmp/refused.data" \
    >"$tmp/out" 2>"$tmp/err"
  check refused-a-status test $? = 77
  check refused-a-msg has "spe-record: perf_event_open(dummy) on CPU "
  check refused-a-why has "Recording needs perf privileges: run as root or give the binary CAP_PERFMON"
  check refused-a-paranoid has "/proc/sys/kernel/perf_event_paranoid (now $paranoid)"
  check refused-a-nofile test ! -e "$tmp/refused.data"
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
