#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# Real perf captures (fixtures/perfdata/real/, written by perf record 6.1 on x86-64: README.md there)
# against perf 6.1's own reading of them: the text perf printed when they were recorded, kept beside
# them (*.perf-6.1.*.txt), and perf itself where it is installed.
#  - every record the reader returns, as "0xOFFSET [0xSIZE]: event: TYPE", is one perf report -D
#    processes (the same multiset): the records inside COMPRESSED records with the offset of the
#    compressed record that completed them, the HEADER_TRACING_DATA of a pipe with its bytes skipped;
#  - the COMM, FORK, EXIT, MMAP and MMAP2 records the AUX layer hands spe-load are those perf script
#    --show-task-events --show-mmap-events prints, field for field;
#  - the -z capture has a record straddling two compressed records (perfdata_rewrite --stats
#    decompresses with libzstd alone); re-cut into 300-byte pieces (many straddles) it reads the
#    same; rewrapped as COMPRESSED2 (perf 7.x; perf 6.1 refuses it) every record decodes the same,
#    in the stream as through a pipe;
#  - with its NUMA_TOPOLOGY corrupted it reads the same, with one warning (perf 6.1 cannot read it);
#  - an SPE capture (the memwork replay) whose sideband is compressed (COMPRESSED, COMPRESSED2)
#    loads into the same rows as the plain one, and spe-dump's perf-compatible dump of it is perf's;
#    with its HEADER_AUXTRACE index corrupted it loads the same, spe-load and spe-dump warning once.
# usage: real_captures.sh PERF_EVENTS PERFDATA_REWRITE SPE_DUMP TEST_PERF_DIFF SPE_RECORD SPE_LOAD SPE_QUERY FIXTURES
#        real_captures.sh --perf-events FILE | --perf-sideband FILE      perf's text (make.sh keeps it)
set -u

# perf 6.1's view of FILE, sorted (a pipe-mode file through a pipe, as perf reads a stream)
is_pipe() {
	[ "$(od -An -t u8 -j 8 -N 8 "$1" | tr -d ' ')" = 16 ]
}
perf_of() { # perf_of FILE COMMAND...
	f=$1
	shift
	if is_pipe "$f"; then
		cat "$f" | PAGER=cat "$@" -i - 2>/dev/null
	else
		PAGER=cat "$@" -i "$f" 2>/dev/null
	fi
}
perf_events() {
	perf_of "$1" perf report -f -D | grep -E '^(0x[0-9a-f]+|0)@[^ ]* \[0x[0-9a-f]+\]: event: [0-9]+$' |
		sed 's/@[^ ]* \[/ [/' | LC_ALL=C sort
}
perf_sideband() {
	perf_of "$1" perf script -f --show-task-events --show-mmap-events | grep -o 'PERF_RECORD_.*' | LC_ALL=C sort
}
case "${1:-}" in
--perf-events) perf_events "$2"; exit 0 ;;
--perf-sideband) perf_sideband "$2"; exit 0 ;;
esac

. "$(dirname "$0")/../lib/testlib.sh"
events=$1 rewrite=$2 dump=$3 perf_diff=$4 record=$5 load=$6 query=$7 fixtures=$8
real=$fixtures/perfdata/real
scratch_dir real-captures
have_perf=0
perf version >/dev/null 2>&1 && have_perf=1
[ $have_perf = 1 ] || echo "perf not installed: compared with the perf 6.1 text recorded in $real only"

# ours: the reader's records (sorted), and "end: ..." kept apart; FILE '-' reads standard input
ours() { # ours MODE FILE
	${SPE_RUN:-} "$events" "$1" "$2" >"$tmp/ours.raw"
	sed -n 's/^end: //p' "$tmp/ours.raw" >"$tmp/ours.end"
	sed -n 's/^warning: //p' "$tmp/ours.raw" >"$tmp/ours.warn"
	grep -v -e '^end: ' -e '^warning: ' "$tmp/ours.raw" | LC_ALL=C sort
}
no_offsets() { sed 's/^[0-9a-fx]* //'; }
nospe="no Arm SPE data: no AUXTRACE_INFO of kind arm_spe and no AUX data"

# check_capture LABEL FILE GOLDEN_PREFIX: events and sideband as perf reads them
check_capture() {
	label=$1 file=$2 golden=$3
	got=$(ours --events "$file")
	expect "$label events end" "$(cat "$tmp/ours.end")" eos
	expect "$label: no warning" "$(cat "$tmp/ours.warn")" ""
	expect "$label events = perf 6.1's (recorded)" "$got" "$(cat "$golden.perf-6.1.events.txt")"
	[ $have_perf = 0 ] || [ "$file" = - ] || expect "$label events = perf's" "$got" "$(perf_events "$file")"
	got=$(ours --sideband "$file")
	has "$label sideband end" "$(cat "$tmp/ours.end")" "$nospe" # read to the end; x86 captures hold no SPE
	expect "$label sideband = perf script's (recorded)" "$got" "$(cat "$golden.perf-6.1.sideband.txt")"
	[ $have_perf = 0 ] || [ "$file" = - ] || expect "$label sideband = perf script's" "$got" "$(perf_sideband "$file")"
}

for c in z-ls pipe-sched-switch pipe-z; do
	check_capture "$c" "$real/$c.data" "$real/$c"
	[ "$c" = z-ls ] || check_capture "$c through a pipe" - "$real/$c" <"$real/$c.data"
done
# what the captures are made of: compressed records, a tracing-data record, tracepoint samples
has "pipe-sched-switch has TRACING_DATA" "$(cat "$real/pipe-sched-switch.perf-6.1.events.txt")" "]: event: 66"
has "pipe-z has compressed records" "$(ours --decoded "$real/pipe-z.data")" " compressed 1 "

# the -z capture: records straddle its compressed records (libzstd alone says so)
stats=$(${SPE_RUN:-} "$rewrite" --stats "$real/z-ls.data")
straddling=$(echo "$stats" | sed -n 's/.* straddling \([0-9]*\) .*/\1/p')
[ "${straddling:-0}" -ge 1 ] || { echo "FAIL z-ls.data: no record straddles two compressed records: $stats"; fail=1; }
has "z-ls ends between records" "$stats" " tail 0"

# re-cut into 300-byte pieces: many more straddle; the same records, at other offsets
${SPE_RUN:-} "$rewrite" --rechunk=300 "$real/z-ls.data" "$tmp/rechunk.data" || { echo "FAIL rechunk"; exit 1; }
stats=$(${SPE_RUN:-} "$rewrite" --stats "$tmp/rechunk.data")
straddling=$(echo "$stats" | sed -n 's/.* straddling \([0-9]*\) .*/\1/p')
[ "${straddling:-0}" -ge 10 ] || { echo "FAIL rechunk.data: $stats"; fail=1; }
got=$(ours --events "$tmp/rechunk.data")
expect "rechunk events end" "$(cat "$tmp/ours.end")" eos
expect "rechunk: the records of z-ls" "$(echo "$got" | no_offsets | LC_ALL=C sort)" \
	"$(no_offsets <"$real/z-ls.perf-6.1.events.txt" | LC_ALL=C sort)"
[ $have_perf = 0 ] || expect "rechunk events = perf's" "$got" "$(perf_events "$tmp/rechunk.data")"
expect "rechunk sideband" "$(ours --sideband "$tmp/rechunk.data")" "$(cat "$real/z-ls.perf-6.1.sideband.txt")"

# COMPRESSED2, as perf 7.x writes it: every record decodes the same as from COMPRESSED
for f in "$real/z-ls.data" "$tmp/rechunk.data" "$real/pipe-z.data"; do
	name=$(basename "$f")
	${SPE_RUN:-} "$rewrite" --to-compressed2 "$f" "$tmp/c2.data" || { echo "FAIL to-compressed2 $name"; exit 1; }
	has "$name as COMPRESSED2" "$(${SPE_RUN:-} "$rewrite" --stats "$tmp/c2.data")" "compressed 0 compressed2 "
	want=$(ours --decoded "$f")
	expect "$name COMPRESSED2 decodes the same" "$(ours --decoded "$tmp/c2.data")" "$want"
	expect "$name COMPRESSED2 end" "$(cat "$tmp/ours.end")" eos
	if is_pipe "$f"; then
		expect "$name COMPRESSED2 through a pipe" "$(ours --decoded - <"$tmp/c2.data")" "$want"
	fi
	expect "$name COMPRESSED2 sideband" "$(ours --sideband "$tmp/c2.data")" "$(ours --sideband "$f")"
done
if [ $have_perf = 1 ]; then # why the 83 files are checked against their 81 twin: perf 6.1 cannot read them
	has "perf 6.1 refuses COMPRESSED2" "$(perf report -f -D -i "$tmp/c2.data" 2>&1 </dev/null | tr -d '\0')" \
		"failed to process type: 83"
fi

# an optional feature that lies (NUMA_TOPOLOGY's node count): skipped with a warning, all else read
${SPE_RUN:-} "$rewrite" --corrupt-feature=14 "$real/z-ls.data" "$tmp/badnuma.data" || { echo "FAIL corrupt"; exit 1; }
expect "bad NUMA_TOPOLOGY: the records of z-ls" "$(ours --events "$tmp/badnuma.data")" \
	"$(cat "$real/z-ls.perf-6.1.events.txt")"
expect "bad NUMA_TOPOLOGY end" "$(cat "$tmp/ours.end")" eos
has "bad NUMA_TOPOLOGY warning" "$(cat "$tmp/ours.warn")" \
	"$tmp/badnuma.data: offset 0x"
has "bad NUMA_TOPOLOGY warning says what" "$(cat "$tmp/ours.warn")" \
	": feature NUMA_TOPOLOGY (14) skipped: NUMA_TOPOLOGY announces 4294967295 nodes (at most 4096)"
expect "one warning" "$(wc -l <"$tmp/ours.warn" | tr -d ' ')" 1
if [ $have_perf = 1 ]; then # perf 6.1 stops at that feature, so never reads HEADER_COMPRESSED
	has "perf 6.1 cannot read it" "$(perf report -f -D -i "$tmp/badnuma.data" 2>&1 </dev/null)" \
		"Couldn't decompress data"
fi

# SPE data with compressed sideband: the memwork replay, its kernel records compressed in 100-byte
# pieces (straddling), as COMPRESSED and COMPRESSED2; spe-load makes the same rows of all three
${SPE_RUN:-} "$record" --replay="$fixtures/workloads/traces/memwork.replay" -o "$tmp/mw.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay memwork"; exit 1; }
${SPE_RUN:-} "$rewrite" --compress=100 "$tmp/mw.data" "$tmp/mwz.data" &&
	${SPE_RUN:-} "$rewrite" --to-compressed2 "$tmp/mwz.data" "$tmp/mwz2.data" || { echo "FAIL compress"; exit 1; }
stats=$(${SPE_RUN:-} "$rewrite" --stats "$tmp/mwz.data")
straddling=$(echo "$stats" | sed -n 's/.* straddling \([0-9]*\) .*/\1/p')
[ "${straddling:-0}" -ge 1 ] || { echo "FAIL mwz.data: $stats"; fail=1; }
rows() {
	for sql in "SELECT tid, pid, comm FROM thread ORDER BY tid" \
		"SELECT pid, path, build_id, start, end, pgoff, time, prot FROM mapping ORDER BY id" \
		"SELECT records, bad_bytes, partial_records, lost_aux, no_mapping, cut FROM load_stats" \
		"SELECT * FROM spe_record ORDER BY id"; do
		${SPE_RUN:-} "$query" -d "$1" --format=csv "$sql" | tr -d '\r'
	done
}
for f in mw mwz mwz2; do
	${SPE_RUN:-} "$load" --no-symbols "$tmp/$f.data" -o "$tmp/$f.db" 2>"$tmp/err"
	expect "spe-load $f.data" $? 0
done
want=$(rows "$tmp/mw.db")
has "memwork rows" "$want" "4243,4242,bumper"
expect "compressed sideband: the same rows" "$(rows "$tmp/mwz.db")" "$want"
expect "COMPRESSED2 sideband: the same rows" "$(rows "$tmp/mwz2.db")" "$want"
# its HEADER_AUXTRACE index lying (a count of 2^64 - 1): skipped with one warning from spe-load and
# spe-dump, exit 0, the same rows
${SPE_RUN:-} "$rewrite" --corrupt-feature=18 "$tmp/mwz.data" "$tmp/badidx.data" || { echo "FAIL corrupt 18"; exit 1; }
warning="warning: $tmp/badidx.data: offset 0x"
what="feature AUXTRACE (18) skipped: AUXTRACE index announces 18446744073709551615 entries but holds 2"
${SPE_RUN:-} "$load" --no-symbols "$tmp/badidx.data" -o "$tmp/badidx.db" 2>"$tmp/err"
expect "spe-load with a bad index" $? 0
expect "spe-load warns once" "$(grep -c "^spe-load: $warning.*: $what\$" "$tmp/err")" 1
expect "bad index: the same rows" "$(rows "$tmp/badidx.db")" "$want"
${SPE_RUN:-} "$dump" -q "$tmp/badidx.data" >/dev/null 2>"$tmp/err"
expect "spe-dump with a bad index" $? 0
expect "spe-dump warns once" "$(grep -c "^spe-dump: $warning.*: $what\$" "$tmp/err")" 1
if [ $have_perf = 1 ]; then
	${SPE_RUN:-} "$perf_diff" --file "$dump" "$tmp/mwz.data" >"$tmp/diff.out"
	expect "spe-dump --perf-compat=6.1 = perf report -D on mwz.data" $? 0
	cat "$tmp/diff.out"
fi
exit $fail
