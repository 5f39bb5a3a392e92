#!/usr/bin/env bash
# perf 6.1 on what the spe-record binary writes: replay the memwork fixture
# (fixtures/workloads) and check that `perf script --itrace=i1i` synthesizes
# one sample per SPE record (the count spe-dump --records reports for the same
# file) and that every sample resolves to a symbol of fixtures/elf.
#   cli_perf_script.sh RECORD_BINARY DUMP_BINARY FIXTURES_DIR
# Exit 77 (skip) without perf, or under an emulator (SPE_RUN).
set -u
rec=$1 dump=$2 fx=$3
if ! command -v perf >/dev/null || [ -n "${SPE_RUN:-}" ]; then
  echo "SKIP: perf not installed (or cross-compiled)"; exit 77
fi
tmp=$(mktemp -d /tmp/spe-test-perfscript-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0 pass=0
check() {
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi
}

"$rec" --replay="$fx/workloads/traces/memwork.replay" -o "$tmp/mw.data" 2>"$tmp/err"
check replay test $? = 0
"$dump" --records "$tmp/mw.data" >"$tmp/records.txt" 2>"$tmp/dump.err"
check dump test $? = 0
records=$(sed -n 's/^spe-dump: \([0-9]*\) records.*/\1/p' "$tmp/dump.err")
check dump-count test "${records:-0}" -gt 0 -a "$(wc -l <"$tmp/records.txt")" = "${records:-x}"

symfs=$(cd "$fx/elf" && pwd)
PAGER=cat perf script -i "$tmp/mw.data" --symfs="$symfs" --itrace=i1i -F comm,ip,sym \
  >"$tmp/script.txt" 2>"$tmp/script.err"
check perf-script test $? = 0
samples=$(wc -l <"$tmp/script.txt")
check samples-equal-records test "$samples" = "${records:-x}" || echo "  perf script: $samples samples, spe-dump: $records records"
# Every sample names a function: three fields, the last not [unknown].
unresolved=$(awk 'NF != 3 || $3 == "[unknown]"' "$tmp/script.txt" | wc -l)
check symbols-resolve test "$unresolved" = 0 || head -3 "$tmp/script.txt"
check symbols-known test "$(awk '{print $3}' "$tmp/script.txt" | sort -u | tr '\n' ' ')" = \
  "branchy bump_shared chase stream_sum "

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
