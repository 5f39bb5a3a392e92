#!/usr/bin/env bash
# The main job end to end on the embedded default trace: build, then decode
# a fixture trace with spe-dump.  (Extended by later stages: replay through
# spe-record, load into SQLite, query and report.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh build/plain >/dev/null
bin=build/plain/cli
trace=fixtures/public/quipper-test_neoverse_2records.bin
echo "== spe-dump --raw $trace --records"
"$bin/spe-dump" --raw --midr=0x410fd0c0 --records "$trace"
