#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-load through its command line (docs/spe-load.1.md): exit codes, messages
# and options that the library tests cannot see.
#   - --kallsyms: kernel PCs of a perf.data resolve to fixtures/kallsyms symbols;
#   - bad bytes in the AUX data: rc 1 and the bad-byte count in the summary;
#   - a perf.data without Arm SPE data (fixtures/perfdata/cpu-clock-true.data):
#     rc 65, a message saying so, and the database untouched.
# The SPE bytes are written here with printf: a PC packet (0xb0, 8 bytes, the top
# byte 0xa0 = EL1, NS) and END (0x01) per record; 0x03 is not a packet header.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 fixtures=$4
scratch_dir cli-load
query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r'
}

# two EL1 records: PCs 0xffff800008010840 (do_page_fault+0x40) and 0xffff800008010404 (el0_svc+0x404)
printf '\260\100\010\001\010\000\200\377\240\001\260\004\004\001\010\000\200\377\240\001' >"$tmp/kernel.bin"
${SPE_RUN:-} "$record" --replay="$tmp/kernel.bin" --midr=0x410fd0c0 -o "$tmp/kernel.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay kernel.bin"; exit 1; }

# --kallsyms
${SPE_RUN:-} "$load" "$tmp/kernel.data" -o "$tmp/kernel.db" --kallsyms="$fixtures/kallsyms/arm64-small.kallsyms" 2>"$tmp/err"
expect kallsyms_rc $? 0
expect kallsyms_symbols "$(query "$tmp/kernel.db" "SELECT pc, symbol, symbol_offset, mapping FROM spe_sample ORDER BY id")" \
"pc,symbol,symbol_offset,mapping
0xffff800008010840,do_page_fault,64,[kernel.kallsyms]
0xffff800008010404,el0_svc,1028,[kernel.kallsyms]"
# without it, kernel PCs stay unresolved (NULL, not guessed)
${SPE_RUN:-} "$load" "$tmp/kernel.data" -o "$tmp/nokallsyms.db" 2>/dev/null
expect no_kallsyms "$(query "$tmp/nokallsyms.db" "SELECT count(*) AS n FROM spe_record WHERE symbol_id IS NULL")" "n
2"

# bad bytes: the first record, two bytes that are no packet, then a lone END.
# The END closes the broken record, which is dropped and counted as partial.
printf '\260\100\010\001\010\000\200\377\240\001\003\003\001' >"$tmp/bad.bin"
${SPE_RUN:-} "$record" --replay="$tmp/bad.bin" --midr=0x410fd0c0 -o "$tmp/bad.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay bad.bin"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/bad.data" -o "$tmp/bad.db" 2>"$tmp/err"
expect bad_bytes_rc $? 1
has bad_bytes_message "$(cat "$tmp/err")" "$tmp/bad.data: 1 records; 2 bad bytes, 1 partial records,"
expect bad_bytes_stats "$(query "$tmp/bad.db" "SELECT records, bad_bytes, partial_records FROM load_stats")" "records,bad_bytes,partial_records
1,2,1"

# not SPE: refused, nothing created
nospe=$fixtures/perfdata/cpu-clock-true.data
${SPE_RUN:-} "$load" "$nospe" -o "$tmp/nospe.db" 2>"$tmp/err"
expect nospe_rc $? 65
has nospe_message "$(cat "$tmp/err")" "$nospe: no Arm SPE data: no AUXTRACE_INFO of kind arm_spe and no AUX data"
has nospe_not_created "$(cat "$tmp/err")" "$tmp/nospe.db not created"
[ ! -e "$tmp/nospe.db" ] || { echo "FAIL nospe_created: $tmp/nospe.db exists"; fail=1; }
# ... and an --append to a database leaves it byte for byte as it was
cp "$tmp/kernel.db" "$tmp/before.db"
${SPE_RUN:-} "$load" --append "$nospe" -o "$tmp/kernel.db" 2>"$tmp/err"
expect nospe_append_rc $? 65
has nospe_append_message "$(cat "$tmp/err")" "$tmp/kernel.db left unchanged"
cmp -s "$tmp/before.db" "$tmp/kernel.db" || { echo "FAIL nospe_append: database changed"; fail=1; }
# one bad file among good ones fails the whole invocation
${SPE_RUN:-} "$load" "$tmp/kernel.data" "$nospe" -o "$tmp/mixed.db" 2>/dev/null
expect nospe_mixed_rc $? 65
[ ! -e "$tmp/mixed.db" ] || { echo "FAIL nospe_mixed: $tmp/mixed.db exists"; fail=1; }

[ $fail = 0 ] && echo "all cli_load checks passed"
exit $fail
