#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# A recording cut short (disk full, perf killed): the file ends before the data section its header
# announces.  spe-load loads the whole records before the cut, says where and how much was cut
# (stderr and load_stats) and exits 1 (partial data); spe-dump prints the same records, spe-query
# and spe-export given the recording read them, all exiting 1.
# A file cut inside its header has nothing usable: 65, nothing created.
# perf 6.1 on such files (checked by hand, linux-perf 6.1 on Debian 12, a datawork capture cut at
# 51552 bytes, inside its first AUXTRACE data): `perf report -D` and `perf script` print the packets
# up to the cut (2344 packet lines) and die of SIGBUS (exit 135) reading past the end of the mapped
# file; cut between records, `perf report -D` says "failed to process sample" and exits 0; cut in
# the header, "incompatible file format" (255).  docs/loading.md says so.
# usage: cli_cut_file.sh SPE_RECORD SPE_LOAD SPE_QUERY SPE_DUMP SPE_EXPORT FIXTURES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 dump=$4 export=$5 fixtures=$6
scratch_dir cli-cut
query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r' | sed 1d
}

${SPE_RUN:-} "$record" --replay="$fixtures/workloads/traces/memwork.replay" -o "$tmp/full.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay memwork"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/full.data" -o "$tmp/full.db" 2>/dev/null
expect full_rc $? 0
# where the data section should end: the header's data offset + size (bytes 40..55)
data_end=$(od -An -t u8 -j 40 -N 16 "$tmp/full.data" | awk '{ print $1 + $2 }')
full_records=$(query "$tmp/full.db" "SELECT records FROM load_stats")
expect full_records "$full_records" 1200

# cut at 30000 bytes: inside the first AUXTRACE record's data (the file is 78 KB, two AUXTRACE records)
head -c 30000 "$tmp/full.data" >"$tmp/cut.data"
${SPE_RUN:-} "$load" "$tmp/cut.data" -o "$tmp/cut.db" 2>"$tmp/err"
expect cut_rc $? 1
has cut_summary "$(cat "$tmp/err")" "; the file is cut short at offset 0x"
has cut_missing "$(cat "$tmp/err")" ", $((data_end - 30000)) bytes missing (the records before are loaded)"
has cut_what "$(cat "$tmp/err")" "spe-load: $tmp/cut.data: offset 0x"
has cut_what_record "$(cat "$tmp/err")" "the file ends inside a "
stats=$(query "$tmp/cut.db" "SELECT records, cut_offset IS NOT NULL, cut_bytes, cut LIKE '%AUXTRACE record%' FROM load_stats")
records=${stats%%,*}
expect cut_stats "${stats#*,}" "1,$((data_end - 30000)),1"
[ "$records" -gt 0 ] && [ "$records" -lt "$full_records" ] ||
	{ echo "FAIL cut_records: $records of $full_records loaded"; fail=1; }
# the records loaded are the full file's first ones, column for column (queue order: ids alike).
# Not mem_level: the features perf writes after the data (CPUID: the part) are gone with the cut, so
# data sources stay codes (data_source), unnamed (mem_level NULL), as spe-load(1) says.
same=$(query "$tmp/cut.db" "ATTACH '$tmp/full.db' AS f;
	SELECT count(*) FROM spe_record c JOIN f.spe_record w USING (id)
	WHERE c.pc IS w.pc AND c.ts IS w.ts AND c.total_latency IS w.total_latency AND c.cpu IS w.cpu
	  AND c.data_va IS w.data_va AND c.op IS w.op AND c.data_source IS w.data_source")
expect cut_records_same "$same" "$records"
# --midr names the part the cut took with it: the data sources get their levels back, as in the whole file
${SPE_RUN:-} "$load" "$tmp/cut.data" -o "$tmp/cut-midr.db" --midr=neoverse-n1 2>/dev/null
expect cut_midr_rc $? 1
expect cut_levels_unnamed "$(query "$tmp/cut.db" "SELECT count(*) FROM spe_record WHERE mem_level IS NOT NULL")" 0
levels=$(query "$tmp/cut-midr.db" "ATTACH '$tmp/full.db' AS f;
	SELECT count(*), sum(c.mem_level IS w.mem_level) FROM spe_record c JOIN f.spe_record w USING (id)
	WHERE w.mem_level IS NOT NULL")
[ "${levels%%,*}" -gt 0 ] || { echo "FAIL cut_midr_levels: no record with a level in the loaded part"; fail=1; }
expect cut_midr_levels_same "${levels#*,}" "${levels%%,*}"
expect cut_midr_part "$(query "$tmp/cut-midr.db" "SELECT DISTINCT part FROM cpu")" "neoverse-n1"
# a whole file is not cut
expect full_not_cut "$(query "$tmp/full.db" "SELECT cut_offset IS NULL, cut_bytes, cut IS NULL FROM load_stats")" "1,0,1"

# spe-dump: the same records, exit 1, the same words
${SPE_RUN:-} "$dump" --format=records "$tmp/cut.data" >"$tmp/cut-all.txt" 2>"$tmp/err"
expect dump_cut_rc $? 1
grep -v '^error' "$tmp/cut-all.txt" >"$tmp/cut.txt" # the last record's bytes, cut: "packet cut by the end of the data"
expect dump_cut_lines "$(wc -l <"$tmp/cut.txt" | tr -d ' ')" "$records"
has dump_cut_summary "$(cat "$tmp/err")" "$records records,"
has dump_cut_missing "$(cat "$tmp/err")" "; the file is cut short at offset 0x"
${SPE_RUN:-} "$dump" --format=records "$tmp/full.data" 2>/dev/null | head -n "$(wc -l <"$tmp/cut.txt")" >"$tmp/full-head.txt"
cmp -s "$tmp/cut.txt" "$tmp/full-head.txt" || { echo "FAIL dump_cut_prefix: the cut file's records differ"; fail=1; }

# cut between records (at the second AUXTRACE record): the first queue whole, exit 1
second=$(${SPE_RUN:-} "$dump" "$tmp/full.data" 2>/dev/null | awk '/PERF_RECORD_AUXTRACE/ { n++; if (n == 2) { print $1; exit } }')
if [ -n "$second" ]; then
	head -c $((second)) "$tmp/full.data" >"$tmp/cut2.data"
	${SPE_RUN:-} "$load" "$tmp/cut2.data" -o "$tmp/cut2.db" 2>"$tmp/err"
	expect cut_between_rc $? 1
	expect cut_between_stats "$(query "$tmp/cut2.db" "SELECT cut_offset, cut_bytes FROM load_stats")" \
		"$((second)),$((data_end - second))"
	has cut_between_what "$(cat "$tmp/err")" "the file ends inside a record header"
fi

# spe-query and spe-export on the recording itself: the same records, the same words, exit 1
${SPE_RUN:-} "$query" --format=csv "$tmp/cut.data" "SELECT count(*) AS n FROM spe_record" >"$tmp/out" 2>"$tmp/err"
expect query_cut_rc $? 1
expect query_cut_rows "$(tr -d '\r' <"$tmp/out")" "n
$records"
has query_cut_what "$(cat "$tmp/err")" "the file ends inside a "
has query_cut_read "$(cat "$tmp/err")" "; the $records records before the cut are read"
${SPE_RUN:-} "$export" --format=folded --weight=samples "$tmp/cut.data" >"$tmp/out" 2>"$tmp/err"
expect export_cut_rc $? 1
expect export_cut_samples "$(awk '{ s += $NF } END { print s }' "$tmp/out")" "$records"

# --append of a cut file commits what it holds, beside a whole one
cp "$tmp/full.db" "$tmp/both.db"
${SPE_RUN:-} "$load" --append "$tmp/cut.data" -o "$tmp/both.db" 2>/dev/null
expect append_cut_rc $? 1
expect append_cut_sources "$(query "$tmp/both.db" "SELECT count(*), sum(cut_offset IS NOT NULL) FROM load_stats")" "2,1"

# cut inside the file header: nothing usable, 65, nothing created
head -c 100 "$tmp/full.data" >"$tmp/header.data"
${SPE_RUN:-} "$load" "$tmp/header.data" -o "$tmp/header.db" 2>"$tmp/err"
expect header_rc $? 65
has header_what "$(cat "$tmp/err")" "$tmp/header.data: offset 0x0: file ends inside the perf.data header"
[ ! -e "$tmp/header.db" ] || { echo "FAIL header: $tmp/header.db created"; fail=1; }
${SPE_RUN:-} "$dump" "$tmp/header.data" >/dev/null 2>&1
expect dump_header_rc $? 65

[ $fail = 0 ] && echo "all cli_cut_file checks passed"
exit $fail
