#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-topdown decode: worked values (see test_perf_metrics.c for the arithmetic).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
td=$1

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

[ $fail = 0 ] && echo "cli_decode: all passed"
exit $fail
