#!/usr/bin/env bash
# bench/run.sh [MiB] [REPS]: full benchmark (default 64 MiB, 3 runs of each
# command) on an optimised build.  Builds build/bench-release if needed, then
# runs spe_bench once: a synthetic and a realistic stream, spe-dump and
# perf report -D to /dev/null and to a file, medians of REPS interleaved runs.
set -euo pipefail
cd "$(dirname "$0")/.."
mib=${1:-64}
reps=${2:-3}
dir=build/bench-release
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DSPE_WITH_ANALYSIS=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)" --target spe_bench spe-dump >/dev/null
"$dir/bench/spe_bench" --mib="$mib" --spe-dump="$dir/cli/spe-dump" --reps="$reps" --dir="${TMPDIR:-/tmp}"
