#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spt_vs_perf.sh SPE_FIXTURE WRAP_RAW FIXTURE.spt...
# Oracle check: each fixture's bytes, wrapped into a perf.data, must dump in
# `perf report -D` (the installed perf 6.1) exactly as libspe's PERF_6_1 dialect
# dumps them.  The fixtures' own .exp blocks pin libspe's text by hand; this
# ties that text to perf.  Exits 77 without perf.
fixture_tool=$1
wrap_raw=$2
shift 2
command -v perf >/dev/null 2>&1 || { echo "SKIP: perf not installed"; exit 77; }
perf version 2>/dev/null | grep -q '^perf version 6\.1\.' || { echo "SKIP: perf is not 6.1"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
checked=0
for spt in "$@"; do
	name=$(basename "$spt" .spt)
	${SPE_RUN:-} "$fixture_tool" compile "$spt" "$tmp/raw" || { echo "FAIL $name: cannot compile"; status=1; continue; }
	# perf.data pads AUXTRACE data to 8 bytes; pad here so both sides see the same bytes
	size=$(wc -c < "$tmp/raw")
	pad=$(( (8 - size % 8) % 8 ))
	[ "$pad" -gt 0 ] && head -c "$pad" /dev/zero >> "$tmp/raw"
	${SPE_RUN:-} "$wrap_raw" "$tmp/raw" "$tmp/perf.data" >/dev/null || { echo "FAIL $name: wrap_raw"; status=1; continue; }
	PAGER=cat perf report -f -D -i "$tmp/perf.data" 2>/dev/null > "$tmp/report.txt"
	grep -E '^\.  [0-9a-f]{8}:  ' "$tmp/report.txt" > "$tmp/perf.txt"
	# perf aligns alignment pads on the mapped file's address: the trace bytes start
	# 0x30 bytes after the AUXTRACE record, whose file offset the report prints
	rec=$(sed -n 's/.* \(0x[0-9a-f]*\) \[0x30\]: PERF_RECORD_AUXTRACE .*/\1/p' "$tmp/report.txt" | head -1)
	[ -n "$rec" ] || { echo "FAIL $name: no AUXTRACE record in perf's report"; status=1; continue; }
	${SPE_RUN:-} "$fixture_tool" show "$spt" dump dialect=perf-6.1 pad8=1 from0=1 align=$((rec + 48)) > "$tmp/ours.txt"
	if [ ! -s "$tmp/ours.txt" ]; then
		continue # a fixture of no bytes
	fi
	if diff -u "$tmp/perf.txt" "$tmp/ours.txt" > "$tmp/diff"; then
		checked=$((checked + 1))
	else
		echo "FAIL $name: perf 6.1 and libspe (PERF_6_1) differ:"
		head -20 "$tmp/diff"
		status=1
	fi
done
echo "$checked fixtures dump exactly as perf 6.1 does"
exit $status
