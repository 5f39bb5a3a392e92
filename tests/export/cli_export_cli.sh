#!/bin/sh
# spe-export's command line (docs/spe-export.1.md): inputs (a database, a
# perf.data or raw file loaded on the fly), filters, exit codes, and the
# output rules (spe/outfile.h): a user's file is replaced only by a complete
# export, never truncated by a failure or a mistyped option; non-regular
# outputs are refused, except streams for the text formats.
#   cli_export_cli.sh RECORD LOAD QUERY EXPORT FIXTURES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 export=$4 fixtures=$5
. "$(dirname "$0")/export_lib.sh"
scratch_dir export-cli
db=$tmp/memwork.db
demo_db "$db"
folded=$(export_ -d "$db" --format=folded 2>/dev/null)
expect folded_nonempty "$(echo "$folded" | wc -l)" 5

# usage errors: exit 64, nothing written
export_ -d "$db" 2>"$tmp/err"; expect no_format $? 64
has no_format_msg "$(cat "$tmp/err")" "--format is required"
export_ -d "$db" --format=svg 2>"$tmp/err"; expect bad_format $? 64
has bad_format_msg "$(cat "$tmp/err")" "--format=svg: use pprof, folded, bolt or autofdo"
export_ -d "$db" --format=folded --by=data 2>"$tmp/err"; expect by_not_pprof $? 64
export_ -d "$db" --format=pprof --weight=samples -o "$tmp/x" 2>"$tmp/err"; expect weight_not_folded $? 64
export_ -d "$db" --format=pprof --binary=/bin/sh -o "$tmp/x" 2>"$tmp/err"; expect binary_not_bolt $? 64
export_ -d "$db" --format=pprof 2>"$tmp/err"; expect pprof_stdout $? 64
has pprof_stdout_msg "$(cat "$tmp/err")" "the pprof format is binary: give -o FILE.pb.gz"
export_ -d "$db" --format=folded --cpu=x 2>"$tmp/err"; expect bad_cpu $? 64
[ ! -e "$tmp/x" ] || { echo "FAIL a usage error created -o"; fail=1; }

# a bad --where: 64 with SQLite's message; one expression only
export_ -d "$db" --format=folded --where="no_such_column = 1" 2>"$tmp/err"; expect where_bad_column $? 64
has where_bad_column_msg "$(cat "$tmp/err")" "--where: no such column: no_such_column"
export_ -d "$db" --format=folded --where="1)); DROP TABLE symbol; --" 2>"$tmp/err"; expect where_injection $? 64
expect where_injection_db "$(query "$db" "SELECT count(*) FROM symbol")" 4

# inputs: missing (66), not a database (65), a recording loaded on the fly, raw SPE bytes
export_ -d "$tmp/missing.db" --format=folded 2>/dev/null; expect missing_db $? 66
echo "not sqlite" >"$tmp/junk.db"
export_ -d "$tmp/junk.db" --format=folded 2>/dev/null; expect junk_db $? 65
mkdir "$tmp/t"
expect recording "$(TMPDIR=$tmp/t export_ --format=folded --symfs="$fixtures/elf" "$tmp/memwork.data" 2>/dev/null)" "$folded"
expect recording_cleaned "$(ls -A "$tmp/t")" ""
raw=$(export_ --format=folded --weight=samples --raw --midr=neoverse-n1 "$fixtures/workloads/traces/memwork-cpu1.bin" 2>/dev/null)
expect raw "$raw" "$(printf '[unknown];[unknown];0x%s 75\n' aaaaab00089c aaaaab0008a4 | sort)"
export_ --format=folded --raw "$tmp/memwork.data" 2>/dev/null; expect raw_without_midr $? 64

# filters: --source among several loads, --pid, --cpu; no record left is exit 65.
# A second recording of the same trace (another -o: another command line in its header, so another
# file: spe-load refuses the same file twice).
${SPE_RUN:-} "$record" --replay="$fixtures/workloads/traces/memwork.replay" -o "$tmp/memwork-again.data" >/dev/null 2>&1
${SPE_RUN:-} "$load" --append "$tmp/memwork-again.data" -o "$db" --symfs="$fixtures/elf" 2>/dev/null
expect source_2 "$(export_ -d "$db" --format=folded --source=2 2>/dev/null)" "$folded"
expect all_sources_doubled "$(export_ -d "$db" --format=folded --weight=samples 2>/dev/null | awk '{ s += $NF } END { print s }')" 2400
expect cpu_1 "$(export_ -d "$db" --format=folded --weight=samples --cpu=1 --source=1 2>/dev/null | awk '{ s += $NF } END { print s }')" \
	"$(query "$db" "SELECT count(*) FROM spe_record WHERE cpu = 1 AND source_id = 1")"
export_ -d "$db" --format=folded --pid=1 2>"$tmp/err"; expect no_records $? 65
has no_records_msg "$(cat "$tmp/err")" "no records to export (0 passed the filters)"

# outputs: an existing file survives every failure byte for byte...
echo "precious" >"$tmp/keep.txt"
export_ -d "$db" --format=folded --where="nonsense(" -o "$tmp/keep.txt" 2>/dev/null; expect keep_bad_where $? 64
export_ -d "$db" --format=folded --pid=1 -o "$tmp/keep.txt" 2>/dev/null; expect keep_no_records $? 65
export_ -d "$tmp/missing.db" --format=folded -o "$tmp/keep.txt" 2>/dev/null; expect keep_missing_db $? 66
expect keep_content "$(cat "$tmp/keep.txt")" precious
expect no_temporaries "$(ls "$tmp" | grep -c 'keep.txt.')" 0
# ... and a successful export replaces it whole
export_ -d "$db" --format=folded --source=1 -o "$tmp/keep.txt" 2>/dev/null; expect replace $? 0
expect replaced "$(cat "$tmp/keep.txt")" "$folded"
# through a symbolic link: the file it names is replaced, the link stays
ln -s keep.txt "$tmp/link.txt"
export_ -d "$db" --format=folded --source=1 --weight=samples -o "$tmp/link.txt" 2>/dev/null
[ -L "$tmp/link.txt" ] || { echo "FAIL the link was replaced"; fail=1; }
has through_link "$(cat "$tmp/keep.txt")" "chase;./memwork.c:35;+0xc ldr x0, [x0] 400"
# non-regular outputs are refused before any work; text may go to a stream (a FIFO with a reader)
mkfifo "$tmp/fifo"
export_ -d "$db" --format=pprof -o "$tmp/fifo" 2>"$tmp/err"; expect fifo_pprof $? 64
has fifo_pprof_msg "$(cat "$tmp/err")" "is a FIFO (pipe); give the name of a regular file to write"
export_ -d "$db" --format=pprof -o "$tmp" 2>/dev/null; expect directory $? 64
cat "$tmp/fifo" >"$tmp/from_fifo" &
reader=$!
# spe-export refuses a FIFO no one reads yet (74, "a FIFO with no reader") rather than hang:
# until cat has opened it (a busy machine starts it late), try again; never leave cat waiting
tries=0
while :; do
	export_ -d "$db" --format=folded --source=1 -o "$tmp/fifo" 2>"$tmp/err"
	rc=$?
	[ $rc = 74 ] && [ $tries -lt 50 ] && grep -q "a FIFO with no reader" "$tmp/err" || break
	tries=$((tries + 1))
	sleep 0.2
done
expect fifo_text $rc 0
[ $rc = 0 ] || kill $reader 2>/dev/null
wait $reader
expect fifo_text_content "$(cat "$tmp/from_fifo")" "$folded"
# a directory that does not exist: 74 before any work
export_ -d "$db" --format=folded -o "$tmp/no/such/dir/out" 2>/dev/null; expect missing_dir $? 74
exit $fail
