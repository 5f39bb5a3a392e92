#!/usr/bin/env bash
# scripts/build.sh DIR [cmake options...]: configure and build into DIR.
set -euo pipefail
dir=$1; shift
cmake -S "$(dirname "$0")/.." -B "$dir" -DSPE_WERROR=ON "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
