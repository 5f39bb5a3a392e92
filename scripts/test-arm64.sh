#!/usr/bin/env bash
# Cross-compile the project for aarch64 and run its unit tests under qemu-user.
#   scripts/test-arm64.sh [BUILD_DIR]        (default build/arm64)
# Needs gcc-aarch64-linux-gnu and qemu-user (scripts/deps.sh).  analysis/ needs
# arm64 sqlite3/libdw/capstone -dev packages (multiarch); without them it is
# left out (-DSPE_WITH_ANALYSIS=OFF).  Tests that need perf or a kernel
# feature qemu-user lacks (perf_event_open) exit 77 (SKIP).  Prints the elapsed time.
# Tests that run built executables themselves (shell scripts, popen) must
# prefix them with $SPE_RUN, which CMake sets from CMAKE_CROSSCOMPILING_EMULATOR
# (see tests/recorder/CMakeLists.txt and cli_*.sh); ctest adds the emulator
# only to a test's own COMMAND.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/arm64}
start=$(date +%s)

for tool in aarch64-linux-gnu-gcc qemu-aarch64; do
  command -v "$tool" >/dev/null || { echo "test-arm64: $tool not installed (apt-get install gcc-aarch64-linux-gnu qemu-user)" >&2; exit 69; }
done

analysis=OFF
if PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig pkg-config --exists sqlite3 libdw libelf capstone 2>/dev/null; then
  analysis=ON
fi

cmake -S . -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64-linux-gnu.cmake" \
  -DSPE_WERROR=ON -DSPE_WITH_ANALYSIS=$analysis -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j"$(nproc)"
built=$(date +%s)
status=0
# perf on the host is an x86 binary: the interop tests stay on x86 CI (label perf).
(cd "$dir" && ctest --output-on-failure -j"$(nproc)" -LE 'fuzz|bench|perf') || status=1
end=$(date +%s)
echo "test-arm64: analysis=$analysis, build $((built - start)) s, tests $((end - built)) s, total $((end - start)) s"
exit $status
