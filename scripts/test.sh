#!/usr/bin/env bash
# Run every test: a plain -Werror build, the same suite under ASan+UBSan,
# then each libFuzzer target for a bounded time, then the aarch64 cross build
# under qemu-user.  Prints ctest's summary
# for each pass and exits non-zero if any pass failed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh

jobs=$(nproc)
status=0

echo "== plain build (-Wall -Wextra -Werror)"
scripts/build.sh build/plain -DCMAKE_BUILD_TYPE=RelWithDebInfo
(cd build/plain && ctest --output-on-failure -j"$jobs" -LE '^fuzz$') || status=1

echo "== ASan + UBSan build"
# SQLite compiled in from source (SPE_SQLITE_LINK=source, the release builds' way): AddressSanitizer
# then sees our memory errors inside SQLite too (a freed buffer bound SQLITE_STATIC), and the option stays tested
scripts/build.sh build/asan -DCMAKE_BUILD_TYPE=Debug -DSPE_SANITIZE=ON -DSPE_SQLITE_LINK=source
(cd build/asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
   ctest --output-on-failure -j"$jobs" -LE '^(fuzz|bench)$') || status=1

echo "== libFuzzer targets (${SPE_FUZZ_SECONDS:-30}s each)"
CC=clang scripts/build.sh build/fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
  -DSPE_SANITIZE=ON -DSPE_FUZZ=ON -DSPE_FUZZ_SECONDS="${SPE_FUZZ_SECONDS:-30}"
(cd build/fuzz && ctest --output-on-failure -j"$jobs" -L '^fuzz$') || status=1  # one core a target

echo "== aarch64 cross build, tests under qemu-user"
scripts/test-arm64.sh build/arm64 || status=1

exit $status
