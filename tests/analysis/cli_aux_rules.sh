#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# The rules of the AUX stream layer (docs/aux-api.md) through every command that
# reads AUX data: spe-load (with and without --jobs) and spe-dump agree.
#   - an AUXTRACE cpu beyond HEADER_NRCPUS or 4096, or negative other than -1, is
#     bad data: exit 65, "FILE: offset 0xOFF: AUXTRACE cpu VALUE ...", nothing
#     created.  Before the layer, cpu 5000 made spe-load say "out of memory" and
#     spe-load --jobs=2 load every record as cpu 0; cpu 4096 exited 74; cpu
#     0xfffffffe loaded as cpu 0; spe-dump printed all three.
#   - cpu -1 (per-thread) is valid: records attributed to the AUXTRACE tid;
#   - a perf.data without Arm SPE data: spe-dump exits 65 as spe-load does
#     (it printed nothing and exited 0);
#   - a packet cut between two contiguous AUXTRACE buffers is joined by both
#     commands (spe-dump did not), except under spe-dump --perf-compat=6.1;
#   - --jobs=N is still accepted and loads the same rows.
# The SPE bytes: two records, each a PC packet (0xb0, 8 bytes; top byte 0x80 =
# EL0, NS) and END (0x01), wrapped into perf.data by wrap_raw.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
wrap=$1 load=$2 dump=$3 query=$4 fixtures=$5
scratch_dir cli-aux-rules
query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r'
}

printf '\260\000\020\000\000\000\000\000\200\001\260\004\020\000\000\000\000\000\200\001' >"$tmp/two.bin"
wrap() { # NAME wrap_raw-options...
	name=$1; shift
	${SPE_RUN:-} "$wrap" "$tmp/two.bin" "$tmp/$name.data" "$@" || { echo "FAIL wrap_raw $name"; exit 1; }
}
wrap good --cpu=7 --nr-cpus=8
# the AUXTRACE record's offset: the files below differ from this one only in its cpu field
off=$(${SPE_RUN:-} "$dump" -q "$tmp/good.data" | sed -n 's/^\(0x[0-9a-f]*\) \[0x30\]: PERF_RECORD_AUXTRACE.*/\1/p')
[ -n "$off" ] || { echo "FAIL no AUXTRACE line in spe-dump's output"; exit 1; }

${SPE_RUN:-} "$load" "$tmp/good.data" -o "$tmp/good.db" 2>/dev/null
expect good_rc $? 0
expect good_rows "$(query "$tmp/good.db" "SELECT cpu, count(*) AS n FROM spe_record GROUP BY cpu")" "cpu,n
7,2"

bad_cpu() { # NAME MESSAGE wrap_raw-options...
	name=$1 message=$2; shift 2
	wrap "$name" "$@"
	want="$tmp/$name.data: offset $off: $message"
	for jobs in --jobs=1 --jobs=2; do
		${SPE_RUN:-} "$load" "$jobs" "$tmp/$name.data" -o "$tmp/$name.db" 2>"$tmp/err"
		expect "${name}_load_rc$jobs" $? 65
		has "${name}_load_message$jobs" "$(cat "$tmp/err")" "spe-load: $want; $tmp/$name.db not created"
		[ ! -e "$tmp/$name.db" ] || { echo "FAIL ${name}_created$jobs"; fail=1; }
	done
	for format in dump json records; do
		${SPE_RUN:-} "$dump" -q --format=$format "$tmp/$name.data" >/dev/null 2>"$tmp/err"
		expect "${name}_dump_rc_$format" $? 65
		expect "${name}_dump_message_$format" "$(cat "$tmp/err")" "spe-dump: $want"
	done
}
bad_cpu cpu5000 "AUXTRACE cpu 5000 is beyond the 8 CPUs of the file's HEADER_NRCPUS" --cpu=5000 --nr-cpus=8
bad_cpu cpu4096 "AUXTRACE cpu 4096 is beyond the 4096 CPUs spekit reads" --cpu=4096 --nr-cpus=8192
bad_cpu cpu_fffffffe "AUXTRACE cpu 0xfffffffe is neither -1 (per-thread) nor a CPU number" --cpu=0xfffffffe

# per-thread: valid; no CONTEXT and no switches, so the AUXTRACE tid names the thread
wrap perthread --cpu=-1 --tid=4242
${SPE_RUN:-} "$load" "$tmp/perthread.data" -o "$tmp/perthread.db" 2>/dev/null
expect perthread_load_rc $? 0
expect perthread_rows "$(query "$tmp/perthread.db" "SELECT tid, count(*) AS n FROM spe_record GROUP BY tid")" "tid,n
4242,2"
expect perthread_dump "$(${SPE_RUN:-} "$dump" -q --records "$tmp/perthread.data")" \
"0x00000000 cpu=-1 pc=0x1000 el=0
0x0000000a cpu=-1 pc=0x1004 el=0"

# chunks of 8 bytes cut every PC packet: spe-dump and spe-load join them (2 records, no bad
# bytes); spe-dump --perf-compat=6.1 decodes each AUXTRACE buffer on its own, as perf does
wrap chunked --chunk=8
expect chunked_dump "$(${SPE_RUN:-} "$dump" --records "$tmp/chunked.data" 2>&1 | sed -n 's/^spe-dump: \([^;]*\);.*/\1/p')" \
	"2 records, 0 bad bytes, 0 skipped bytes, 0 partial records"
${SPE_RUN:-} "$dump" -q --perf-compat=6.1 --records "$tmp/chunked.data" >/dev/null
expect chunked_dump_perf_rc $? 1
${SPE_RUN:-} "$load" "$tmp/chunked.data" -o "$tmp/chunked.db" 2>/dev/null
expect chunked_load "$(query "$tmp/chunked.db" "SELECT records, bad_bytes FROM load_stats")" "records,bad_bytes
2,0"

# not SPE: spe-dump refuses it as spe-load does
nospe=$fixtures/perfdata/cpu-clock-true.data
${SPE_RUN:-} "$dump" "$nospe" >"$tmp/out" 2>"$tmp/err"
expect nospe_dump_rc $? 65
has nospe_dump_message "$(cat "$tmp/err")" "spe-dump: $nospe: no Arm SPE data: no AUXTRACE_INFO of kind arm_spe and no AUX data"
expect nospe_dump_output "$(cat "$tmp/out")" ""

# --jobs is accepted and changes nothing
${SPE_RUN:-} "$load" --jobs=2 "$tmp/good.data" -o "$tmp/jobs.db" 2>/dev/null
expect jobs_rc $? 0
expect jobs_rows "$(query "$tmp/jobs.db" "SELECT id, cpu, pc FROM spe_record ORDER BY id")" \
"$(query "$tmp/good.db" "SELECT id, cpu, pc FROM spe_record ORDER BY id")"

[ $fail = 0 ] && echo "all cli_aux_rules checks passed"
exit $fail
