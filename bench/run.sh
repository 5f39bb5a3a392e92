#!/usr/bin/env bash
# bench/run.sh [MiB]: full benchmark (default 64 MiB) on an optimised build.
# Builds build/bench-release if needed, then runs spe_bench once.
set -euo pipefail
cd "$(dirname "$0")/.."
mib=${1:-64}
dir=build/bench-release
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DSPE_WITH_ANALYSIS=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)" --target spe_bench spe-dump >/dev/null
"$dir/bench/spe_bench" --mib="$mib" --spe-dump="$dir/cli/spe-dump" --dir="${TMPDIR:-/tmp}"
