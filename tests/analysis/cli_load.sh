#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-load through its command line (docs/spe-load.1.md): exit codes, messages
# and options that the library tests cannot see.
#   - --kallsyms: kernel PCs of a perf.data resolve to fixtures/kallsyms symbols;
#   - bad bytes in the AUX data: rc 1 and the bad-byte count in the summary;
#   - a perf.data without Arm SPE data (fixtures/perfdata/cpu-clock-true.data):
#     rc 65, a message saying so, and the database untouched;
#   - a file-size limit while writing the database: rc 74 and the reason.
# The SPE bytes are written here with printf: a PC packet (0xb0, 8 bytes, the top
# byte 0xa0 = EL1, NS) and END (0x01) per record; 0x03 is not a packet header.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 fixtures=$4
scratch_dir cli-load
query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r'
}

# two EL1 records: PCs 0xffff800008010840 (do_page_fault+0x40) and 0xffff800008010404 (in the data
# object some_data, which ends el0_svc: no function)
printf '\260\100\010\001\010\000\200\377\240\001\260\004\004\001\010\000\200\377\240\001' >"$tmp/kernel.bin"
${SPE_RUN:-} "$record" --replay="$tmp/kernel.bin" --midr=0x410fd0c0 -o "$tmp/kernel.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay kernel.bin"; exit 1; }

# --kallsyms
${SPE_RUN:-} "$load" "$tmp/kernel.data" -o "$tmp/kernel.db" --kallsyms="$fixtures/kallsyms/arm64-small.kallsyms" 2>"$tmp/err"
expect kallsyms_rc $? 0
expect kallsyms_symbols "$(query "$tmp/kernel.db" "SELECT pc, symbol, symbol_offset, mapping FROM spe_sample ORDER BY id")" \
"pc,symbol,symbol_offset,mapping
0xffff800008010840,do_page_fault,64,[kernel.kallsyms]
0xffff800008010404,,,[kernel.kallsyms]"
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

# the same file twice into one database (--append): recognised by its digest (size and 128-bit hash,
# under any name), refused with 65 naming the file and the earlier source, the database unchanged
cp "$tmp/kernel.data" "$tmp/kernel-copy.data"
${SPE_RUN:-} "$load" "$tmp/kernel.data" -o "$tmp/twice.db" 2>/dev/null
cp "$tmp/twice.db" "$tmp/before.db"
${SPE_RUN:-} "$load" --append "$tmp/kernel-copy.data" -o "$tmp/twice.db" 2>"$tmp/err"
expect twice_rc $? 65
has twice_message "$(cat "$tmp/err")" \
	"$tmp/kernel-copy.data is already loaded as source 1 (file $tmp/kernel.data, loaded "
has twice_hint "$(cat "$tmp/err")" "--replace loads it again in its place; $tmp/twice.db left unchanged"
cmp -s "$tmp/before.db" "$tmp/twice.db" || { echo "FAIL twice: database changed"; fail=1; }
# ... and in one invocation: the second name of the same bytes, nothing created
${SPE_RUN:-} "$load" "$tmp/kernel.data" "$tmp/kernel-copy.data" -o "$tmp/twice-one-go.db" 2>/dev/null
expect twice_one_go_rc $? 65
[ ! -e "$tmp/twice-one-go.db" ] || { echo "FAIL twice_one_go: database created"; fail=1; }
# another file (bad.data) is still appended
${SPE_RUN:-} "$load" --append "$tmp/bad.data" -o "$tmp/before.db" 2>/dev/null
expect other_file_append_rc $? 1
expect other_file_sources "$(query "$tmp/before.db" "SELECT count(*) AS n FROM source")" "n
2"
# --replace: the earlier source's rows go, the file comes again under a new id, counted once
${SPE_RUN:-} "$load" --replace "$tmp/kernel-copy.data" -o "$tmp/twice.db" 2>"$tmp/err"
expect replace_rc $? 0
expect replace_rows "$(query "$tmp/twice.db" "SELECT (SELECT group_concat(id || ':' || file) FROM source) AS sources,
	(SELECT count(*) FROM spe_record) AS records, (SELECT count(*) FROM _spe_record WHERE source_id = 1) AS old,
	(SELECT count(*) FROM load_stats) AS stats, (SELECT count(*) FROM mapping WHERE source_id = 1) AS old_maps,
	(SELECT sum(samples) FROM hot_pc) AS hot")" "sources,records,old,stats,old_maps,hot
2:$tmp/kernel-copy.data,2,0,1,0,2"
expect replace_digest "$(query "$tmp/twice.db" "SELECT digest FROM source")" "digest
$(wc -c <"$tmp/kernel.data" | tr -d ' ')-$(query "$tmp/before.db" "SELECT digest FROM source WHERE id = 1" | sed 1d | cut -d- -f2)"
# --replace leaves no room for --force
${SPE_RUN:-} "$load" --replace --force "$tmp/kernel.data" -o "$tmp/twice.db" 2>"$tmp/err"
expect replace_force_rc $? 64
has replace_force_message "$(cat "$tmp/err")" "--append and --replace exclude --force"

# a file-size limit (ulimit -f: a full disk, as write(2) sees it) when SQLite writes the
# database: rc 74, the database named with what was being written and the system's reason,
# nothing created (the small database stays in SQLite's cache until the commit writes it)
(ulimit -f 100 && exec ${SPE_RUN:-} "$load" "$tmp/kernel.data" -o "$tmp/full.db") 2>"$tmp/err"
expect file_limit_rc $? 74
has file_limit_message "$(cat "$tmp/err")" "spe-load: $tmp/full.db: committing: disk I/O error (File too large); $tmp/full.db not created"
[ -z "$(ls "$tmp" | grep '^full\.db')" ] || { echo "FAIL file_limit: left $(ls "$tmp" | grep '^full\.db')"; fail=1; }

[ $fail = 0 ] && echo "all cli_load checks passed"
exit $fail
