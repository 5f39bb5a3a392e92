#!/usr/bin/env bash
# The main job end to end on the embedded default: the memwork fixture trace
# (two Neoverse N1 CPUs, SPE records pointing into a real aarch64 program in
# fixtures/elf/) is replayed through spe-record's AUX-ring path into a
# perf.data, decoded, loaded into SQLite with symbols and disassembly, queried
# and reported; then the datawork pair (data objects, huge pages, NUMA,
# prefetch, before/after); last, the HTML pages, whose paths it prints.
# Works on any Linux machine; no Arm hardware needed.
#   scripts/demo.sh [OUTDIR]      (default: build/demo)
# The steps are scripts/demo-steps.sh; after `cmake --install`,
# PREFIX/share/spekit/demo/demo.sh runs them with the installed commands.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh build/plain >/dev/null
exec sh scripts/demo-steps.sh build/plain/cli fixtures/workloads/traces fixtures/elf "${1:-build/demo}"
