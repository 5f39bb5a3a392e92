#!/usr/bin/env bash
# Install the Debian packages spekit needs to build and test, if missing.
# Used by the README commands and by CI; safe to run again.
set -euo pipefail

packages=(
  build-essential cmake pkg-config            # build
  libcapstone-dev libdw-dev libelf-dev        # analysis: disassembly, symbols
  libsqlite3-dev sqlite3                      # analysis: database
  tcl                                         # SPE_SQLITE_LINK=source: tclsh makes SQLite's amalgamation (scripts/sqlite-source.sh)
  clang libclang-rt-14-dev                    # libFuzzer and sanitizer runtimes
  linux-perf                                  # perf 6.1: the independent oracle in tests
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross # real aarch64 ELF fixtures
  qemu-user                                   # aarch64 unit tests
  zlib1g-dev                                  # filters: spe doctor reads /proc/config.gz
  lowdown man-db groff debhelper dpkg-dev fakeroot lintian # man pages from docs/*.md, the .deb and its tests (tests/install)
  libprotobuf-c-dev protobuf-c-compiler       # spe-export: pprof's profile.proto (gzip: zlib1g-dev above)
  golang-go                                   # spe-export tests: go tool pprof reads the pprof output
  bolt-16                                     # spe-export tests: perf2bolt/llvm-bolt 16 read the BOLT profile
  llvm-14                                     # spe-export tests: llvm-profdata-14 reads the AutoFDO profile
  libjson-c-dev                               # spe-report: reads the cross-ISA JSON, writes --annotate JSON
  nettle-dev                                  # spe-report --html: SHA-256 hashes of the page's style and script (its CSP); HMAC-SHA256 seals of kept directories (cli/common/kept_dirs.c)
  chromium libxml2-utils libpng-dev           # spe-report --html tests: rendering, XML parse, screenshot check
  libcurl4-openssl-dev clickhouse-server      # --clickhouse: HTTP to ClickHouse; tests/clickhouse starts a 2-shard cluster
  libzstd-dev                                 # perf record -z: PERF_RECORD_COMPRESSED(2) records are zstd frames
  libxxhash-dev                               # file_digest: XXH3-128 of captures
  xxhash                                      # tests: xxhsum -H2, the oracle of the digests (test_file_digest.c)
  libdebuginfod-dev debuginfod                # debuginfod client (bounded fetches); the server for loopback tests
)
# npm: the build needs it for spe-report's page (analysis/report/html/page/page_assets.sh fetches
# d3-flame-graph, npm pack, SHA-512 pinned, once into the build tree); tests/report/page_browser.sh
# fetches puppeteer-core and tests/clickhouse/chdb_fetch.sh a current ClickHouse engine with it.
# A machine's own Node.js (a nodejs that brings npm) is kept; without any npm, Debian's npm package.
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
