#!/usr/bin/env bash
# scripts/build.sh DIR [cmake options...]: configure and build into DIR with
# -Wall -Wextra -Werror.  Quiet on success but for CMake's warnings; prints the
# build log on failure.
set -euo pipefail
dir=$1; shift
mkdir -p "$dir"
# SPE_SQLITE_LINK=source: every build of this checkout shares one copy of SQLite's source
export SPE_SQLITE_CACHE=${SPE_SQLITE_CACHE:-$(cd "$(dirname "$0")/.." && pwd)/build/sqlite-source}
log="$dir/build.log"
if ! { cmake -S "$(dirname "$0")/.." -B "$dir" -DSPE_WERROR=ON "$@" &&
       cmake --build "$dir" -j"$(nproc)"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "build failed in $dir (log: $log)" >&2
  exit 1
fi
# Configure-time warnings (e.g. SPE_SQLITE_LINK=source falling back to the system library) are shown.
sed -n '/^CMake Warning/,/^$/p' "$log" >&2
