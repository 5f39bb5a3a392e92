#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] [TARGET...]: a longer libFuzzer campaign than CI's
# 30 s per target.  Builds build/fuzz (clang, ASan+UBSan), then runs each
# target (default: all) for SECONDS (default 300) on a scratch corpus in
# build/fuzz-campaign/<target>/ seeded from fixtures/fuzz/<x>/, which it
# never writes to.  Crash inputs land in build/fuzz-campaign/<target>/;
# keep each as fixtures/fuzz/<x>/regress-<what>.data with a README line,
# so the seed-replay tests hold the fix.  Exits 1 if any target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-300}
shift || true
scripts/deps.sh
CC=clang scripts/build.sh build/fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
  -DSPE_SANITIZE=ON -DSPE_FUZZ=ON
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(find build/fuzz -type f -name 'fuzz_*' -perm -u+x -printf '%f\n' | sort)
fi
status=0
for name in "${targets[@]}"; do
  bin=$(find build/fuzz -type f -name "$name" -perm -u+x | head -1)
  [ -n "$bin" ] || { echo "fuzz.sh: no target $name" >&2; exit 64; }
  work=build/fuzz-campaign/$name
  mkdir -p "$work/corpus"
  echo "== $name, ${secs}s"
  if (cd "$work" && "$OLDPWD/$bin" -max_total_time="$secs" -rss_limit_mb=4096 -timeout=10 \
        corpus "$OLDPWD/fixtures/fuzz/${name#fuzz_}" > log.txt 2>&1); then
    grep -E '^(#[0-9]+ +DONE|Done)' "$work/log.txt" | tail -1 || true
  else
    status=1
    echo "$name: crashed; see $work/log.txt and $work/crash-*" >&2
  fi
done
exit $status
