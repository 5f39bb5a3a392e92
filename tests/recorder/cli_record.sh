#!/usr/bin/env bash
# spe-record live paths through the CLI on a machine without SPE: the "no SPE"
# exit 69, --sideband-only recording of a command (its exit status), SIGINT and
# SIGTERM ending a system-wide recording with a file perf reads, usage errors.
#   cli_record.sh RECORD_BINARY      (SPE_RUN: emulator prefix, may be empty)
set -u
rec=$1
tmp=$(mktemp -d /tmp/spe-test-clirec-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0 pass=0 skip=0
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
  check no-spe-msg has "spe-record: no Arm SPE PMU on this machine ("
  check no-spe-arch has "/sys/bus/event_source/devices has no arm_spe_N device."
  check no-spe-dryrun has "use --dry-run"
  check no-spe-replay has "use --replay=FILE"
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

# 3. Live sideband recording (the dummy tracking event) -- needs perf_event_open.
run_rec --sideband-only -o "$tmp/probe.data" -- true >"$tmp/out" 2>"$tmp/err"
if [ $? = 69 ] || [ $? = 77 ]; then
  echo "  (perf_event_open unavailable here: $(head -1 "$tmp/err"); live checks skipped)"
  skip=$((skip + 1))
else
  check cmd-status run 3 --sideband-only -o "$tmp/s.data" -- /bin/sh -c '/bin/true; exit 3'
  check cmd-msg has "wrote $tmp/s.data: 0 bytes of SPE data"
  check cmd-notfound run 127 --sideband-only -o "$tmp/n.data" -- /nonexistent/cmd
  check cmd-notfound-msg has "cannot run '/nonexistent/cmd': No such file or directory"
  if have_perf; then
    PAGER=cat perf report -D -i "$tmp/s.data" >"$tmp/d.txt" 2>&1
    check cmd-perf-comm grep -q 'PERF_RECORD_COMM exec: true:' "$tmp/d.txt"
    check cmd-perf-mmap2 grep -q 'PERF_RECORD_MMAP2 .* r-xp .*/true' "$tmp/d.txt"
    check cmd-perf-fork grep -q 'PERF_RECORD_FORK(' "$tmp/d.txt"
    check cmd-perf-exit grep -q 'PERF_RECORD_EXIT(' "$tmp/d.txt"
    check cmd-perf-switch grep -q 'PERF_RECORD_SWITCH' "$tmp/d.txt"
    check cmd-all-written not_has "not written"
  fi
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
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
