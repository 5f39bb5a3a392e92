#!/usr/bin/env bash
# scripts/build.sh DIR [cmake options...]: configure and build into DIR with
# -Wall -Wextra -Werror.  Quiet on success; prints the build log on failure.
set -euo pipefail
dir=$1; shift
mkdir -p "$dir"
log="$dir/build.log"
if ! { cmake -S "$(dirname "$0")/.." -B "$dir" -DSPE_WERROR=ON "$@" &&
       cmake --build "$dir" -j"$(nproc)"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "build failed in $dir (log: $log)" >&2
  exit 1
fi
