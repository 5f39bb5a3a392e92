#!/usr/bin/env bash
# Cross-compile the whole project for aarch64 and run its tests under qemu-user.
#   scripts/test-arm64.sh [BUILD_DIR]        (default build/arm64)
# Self-sufficient on a fresh Debian: first installs what is missing (arm64
# multiarch, the cross compiler, qemu-user, the :arm64 -dev packages that
# analysis/ links against).  Builds with -Werror, then runs ctest; ctest starts
# each test binary through CMAKE_CROSSCOMPILING_EMULATOR, and every built
# program a test starts itself goes through $SPE_RUN (tests/lib/run.h), which
# ctest sets.  Host tools such as the installed x86 perf run natively.  Tests
# that need perf_event_open or SPE hardware exit 77 (SKIP) with the reason.
# Prints the elapsed times.  No binfmt_misc needed.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/arm64}
start=$(date +%s)

host_packages=(cmake pkg-config gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
arm64_packages=(libzstd-dev:arm64   # libspe: perf record -z data
                libsqlite3-dev:arm64 libdw-dev:arm64 libelf-dev:arm64 libcapstone-dev:arm64
                zlib1g-dev:arm64   # zlib: filters (spe doctor), spe-export, analysis (.gnu_debuglink CRC)
                libjson-c-dev:arm64 # json-c: spe-report
                libxxhash-dev:arm64) # xxhash: file digests (analysis/store/file_digest.c)
arm64_packages+=(libprotobuf-c-dev:arm64 protobuf-c-compiler) # spe-export (protoc-c runs on the host)
arm64_packages+=(libdebuginfod-dev:arm64) # analysis: the debuginfod client (resolve/debuginfod_fetch.c)
arm64_packages+=(nettle-dev:arm64) # spe-report: SHA-256 of the page's style sheet and script (its CSP); spe-load, spe-report: HMAC seals of kept directories
missing=()
for p in "${host_packages[@]}" "${arm64_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "test-arm64: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# SQLite: the default links libsqlite3-dev:arm64's libsqlite3.a; a build dir configured with
# SPE_SQLITE_LINK=source shares one copy of SQLite's source with scripts/build.sh's builds
export SPE_SQLITE_CACHE=${SPE_SQLITE_CACHE:-$PWD/build/sqlite-source}
cmake -S . -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64-linux-gnu.cmake" \
  -DSPE_WERROR=ON -DSPE_WITH_ANALYSIS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j"$(nproc)"
built=$(date +%s)
status=0
# fuzz (libFuzzer, not built here) and bench (timings mean nothing under an
# emulator) are left out; the fuzz-seeds replays and the perf oracles run.
# native-only: tests of how the commands meet the host (a terminal's progress line, signals at every
# stage, hostile databases through SQLite, injected I/O faults) whose many
# large runs take 5 to 15 minutes each under qemu and test qemu's emulation
# of signals and syscalls more than this code; the plain and ASan passes run them.
(cd "$dir" && ctest --output-on-failure --timeout 300 -j"$(nproc)" -LE '^(fuzz|bench|native-only)$') || status=1
end=$(date +%s)
echo "test-arm64: build $((built - start)) s, tests $((end - built)) s, total $((end - start)) s"
exit $status
