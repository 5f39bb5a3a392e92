#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# AUX data the kernel flagged (PERF_RECORD_AUX: truncated, partial, collision) and sideband events it
# lost (PERF_RECORD_LOST) are normal in real captures: perf only warns ("AUX data lost N times out of
# M!"), and so do spe-load, spe-query FILE.data and spe-export FILE.data: exit 0, the counts on
# stderr, once, and in load_stats (lost_aux = truncated + lost events).  Exit 1 stays for data that
# could not be decoded (cli_load.sh: bad bytes; cli_cut_file.sh: a file cut short).
# Where perf is installed its own counts on the same file are the oracle.
# usage: cli_aux_flags.sh WRAP_RAW SPE_LOAD SPE_QUERY SPE_EXPORT FIXTURES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
wrap=$1 load=$2 query=$3 export=$4 fixtures=$5
scratch_dir cli-aux-flags

# the two public quipper records, with AUX records flagged T, none, P, C, T|P, and a LOST of 3 events
${SPE_RUN:-} "$wrap" "$fixtures/public/quipper-test_neoverse_2records.bin" "$tmp/aux.data" --sideband \
	--aux-flags=1,0,4,8,5 || { echo "FAIL wrap_raw"; exit 1; }
want="warning: AUX data lost 2 times out of 5 (truncated: SPE records were dropped there; the data recorded is loaded)
warning: AUX data had gaps in it 2 times out of 5 (a record across a gap may be cut)
warning: AUX data detected collision 1 time out of 5 (samples were not taken there)
warning: the kernel lost 3 sideband events (PERF_RECORD_LOST): threads or mappings may be missing"
warnings() {
	sed -n "s|^$1: $tmp/aux.data: \(warning: .*\)|\1|p" "$tmp/err"
}

${SPE_RUN:-} "$load" "$tmp/aux.data" -o "$tmp/aux.db" 2>"$tmp/err"
expect load_rc $? 0
expect load_warnings "$(warnings spe-load)" "$want"
has load_counts "$(cat "$tmp/err")" "spe-load: $tmp/aux.data: 2 records; 0 bad bytes, 0 partial records, 5 lost,"
expect load_stats "$(${SPE_RUN:-} "$query" -d "$tmp/aux.db" --format=csv "SELECT records, lost_aux FROM load_stats" |
	tr -d '\r')" "records,lost_aux
2,5"

${SPE_RUN:-} "$query" "$tmp/aux.data" --format=csv "SELECT count(*) AS n FROM spe_record" >"$tmp/out" 2>"$tmp/err"
expect query_rc $? 0
expect query_rows "$(tr -d '\r' <"$tmp/out")" "n
2"
expect query_warnings "$(warnings spe-query)" "$want"

${SPE_RUN:-} "$export" --format=folded --weight=samples "$tmp/aux.data" -o "$tmp/folded" 2>"$tmp/err"
expect export_rc $? 0
expect export_warnings "$(warnings spe-export)" "$want"
[ -s "$tmp/folded" ] || { echo "FAIL export wrote nothing"; fail=1; }

# perf 6.1 on the same file: the same counts (perf report's end-of-run warnings)
if perf version >/dev/null 2>&1; then
	PAGER=cat perf report -f --stdio -i "$tmp/aux.data" >/dev/null 2>"$tmp/perf.err"
	expect perf_counts "$(grep -E '^AUX data|lost 1 chunks' "$tmp/perf.err" | tr -s ' ')" \
		"Processed 27 events and lost 1 chunks!
AUX data lost 2 times out of 5!
AUX data had gaps in it 2 times out of 5!
AUX data detected collision 1 times out of 5!"
else
	echo "perf not installed: perf's own counts not compared"
fi
exit $fail
