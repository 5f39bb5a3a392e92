#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-topdown decode: worked values (see test_perf_metrics.c for the arithmetic).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
td=$1
scratch_dir td-decode
tmp_err=$tmp/err

out=$(${SPE_RUN:-} "$td" decode --slots 1000 --metrics 0x4026140a654d1a33)
expect level1 "$out" "retiring=0.2000
bad_speculation=0.1020
frontend_bound=0.3020
backend_bound=0.3961"

out=$(${SPE_RUN:-} "$td" decode --slots 1000 --metrics 0x4026140a654d1a33 --level=2)
expect level2 "$out" "retiring=0.2000
bad_speculation=0.1020
frontend_bound=0.3020
backend_bound=0.3961
heavy_operations=0.0392
light_operations=0.1608
branch_mispredicts=0.0784
machine_clears=0.0235
fetch_latency=0.1490
fetch_bandwidth=0.1529
memory_bound=0.2510
core_bound=0.1451"

out=$(${SPE_RUN:-} "$td" decode --slots 1000,3000 --metrics 0x3300003333333366,0x4422112255442244 --format=json)
expect region_json "$out" '{"retiring": 0.2000, "bad_speculation": 0.1000, "frontend_bound": 0.3000, "backend_bound": 0.4000}'

${SPE_RUN:-} "$td" decode --slots 3000,1000 --metrics 0x33,0x33 >/dev/null 2>&1
expect reset_between_reads_exit "$?" 65
${SPE_RUN:-} "$td" decode --slots 1000 >/dev/null 2>&1
expect missing_metrics_exit "$?" 64
${SPE_RUN:-} "$td" decode --slots 1000 --metrics 0x33 --level=3 >/dev/null 2>&1
expect bad_level_exit "$?" 64

# checks: level 2 on a CPU without it is said, not printed as zeros
out=$(${SPE_RUN:-} "$td" decode --slots 1000 --metrics 0x654d1a33 --level=2 2>"$tmp_err")
expect no_level2_values "$out" "retiring=0.2000
bad_speculation=0.1020
frontend_bound=0.3020
backend_bound=0.3961"
has no_level2_note "$(cat "$tmp_err")" "note: level 2: bytes 4..7 are zero, so this CPU reports level 1 only"
# bytes PERF_METRICS cannot hold: a warning, and --strict refuses with exit 65 and no output
${SPE_RUN:-} "$td" decode --slots 1000 --metrics 0x10101010 >/dev/null 2>"$tmp_err"
expect bad_sum_exit "$?" 0
has bad_sum_warning "$(cat "$tmp_err")" "warning: level 1 bytes sum to 64, not 0xff (255) within rounding (252..257)"
out=$(${SPE_RUN:-} "$td" decode --slots 1000 --metrics 0x80000000654d1a34 --strict 2>"$tmp_err")
expect child_strict_exit "$?" 65
expect child_strict_out "$out" ""
has child_strict_msg "$(cat "$tmp_err")" "error: memory_bound byte (0x80) is above its parent backend_bound (0x65)"
out=$(${SPE_RUN:-} "$td" decode --slots 100000000,100100000 --metrics 0x654d1a33,0x644e1a33 --format=json 2>/dev/null)
has short_region_json "$out" '"warnings": ["the region is 100000 slots, shorter than SLOTS/255 at the second read: with 8-bit steps of 392157 and 392549 slots at the two reads, each node is uncertain by up to 784.7 percentage points of the region; reset the counters more often"]'
${SPE_RUN:-} "$td" decode --slots 100000000,100100000 --metrics 0x654d1a33,0x644e1a33 --strict >/dev/null 2>&1
expect short_region_strict_exit "$?" 65

[ $fail = 0 ] && echo "cli_decode: all passed"
exit $fail
