#!/bin/sh
# spe-export --format=autofdo read by llvm-profdata (LLVM's sample-profile
# text reader, what clang -fprofile-sample-use uses):
#   - the memwork fixture (no previous-branch targets: each record is one
#     sample of its PC) gives, per function, its lines' record counts at
#     line minus declaration line, bump() under its inlined call site in
#     bump_shared(); the expected profile is built from SQL counts, the
#     declaration lines grepped from memwork.c and the call line from binutils'
#     addr2line -i (not from libdw, which spe-export uses);
#   - the branch fixture (gen_branches.c, with PBTs) gives a profile that
#     llvm-profdata reads back unchanged, whose heads and call targets are the
#     database's counts of calls from main.
#   cli_export_autofdo.sh RECORD LOAD QUERY EXPORT FIXTURES GEN_BRANCHES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 export=$4 fixtures=$5 gen=$6
. "$(dirname "$0")/export_lib.sh"
profdata=$(command -v llvm-profdata-14 || command -v llvm-profdata) || { echo "SKIP: llvm-profdata is not installed"; exit 77; }
command -v aarch64-linux-gnu-addr2line >/dev/null || { echo "SKIP: binutils-aarch64-linux-gnu is not installed"; exit 77; }
scratch_dir export-autofdo
db=$tmp/memwork.db
demo_db "$db"
src=$fixtures/workloads/memwork.c
elf=$fixtures/elf/memwork-pie

export_ -d "$db" --format=autofdo --symfs="$fixtures/elf" -o "$tmp/m.afdo" 2>"$tmp/err"
expect export_rc $? 0
"$profdata" merge --sample --text "$tmp/m.afdo" -o "$tmp/m.txt"
expect profdata_rc $? 0

decl() { grep -n "[ *]$1(.*)\$" "$src" | head -1 | cut -d: -f1; } # the line declaring function $1
line_count() { query "$db" "SELECT count(*) FROM spe_sample WHERE $1"; }
chase_line=$(query "$db" "SELECT DISTINCT src_line FROM spe_sample WHERE symbol = 'chase'")
bump_pc=$(query "$db" "SELECT DISTINCT printf('0x%x', pc_value - 0xaaaaab000000) FROM spe_sample WHERE inline_function = 'bump' LIMIT 1")
call_line=$(aarch64-linux-gnu-addr2line -i -e "$elf" "$bump_pc" | sed -n 2p | sed 's/.*://')
bump_line=$(aarch64-linux-gnu-addr2line -i -e "$elf" "$bump_pc" | sed -n 1p | sed 's/.*://')
body() { # FUNCTION: " OFFSET: COUNT" for its (not inlined) records
	query "$db" "SELECT ' ' || (src_line - $(decl "$1")) || ': ' || count(*) FROM spe_sample
		     WHERE symbol = '$1' AND inline_function IS NULL GROUP BY src_line ORDER BY src_line"
}
n() { line_count "symbol = '$1'"; }
expected="chase:$(n chase):0
$(body chase)
bump_shared:$(n bump_shared):0
 $((call_line - $(decl bump_shared))): bump:$(n bump_shared)
  $((bump_line - $(decl bump))): $(line_count "inline_function = 'bump'")
stream_sum:$(n stream_sum):0
$(body stream_sum)
branchy:$(n branchy):0
$(body branchy)"
# llvm-profdata orders functions by their totals; ours already are
expect memwork_profile "$(cat "$tmp/m.txt")" "$expected"
expect memwork_unchanged "$(cat "$tmp/m.afdo")" "$(cat "$tmp/m.txt")"
expect fixture_shape "$chase_line $call_line $bump_line" "35 58 51"
# show (another reader path) agrees on a total
has profdata_show "$("$profdata" show --sample --all-functions "$tmp/m.afdo")" "Function: chase: $(n chase), 0, 1 sampled lines"

# the branch fixture: ranges from previous-branch targets, calls from main
${SPE_RUN:-} "$gen" "$fixtures/elf/memwork-relocs" "$tmp" 2>/dev/null || { echo "FAIL gen_branches"; exit 1; }
${SPE_RUN:-} "$record" --replay="$tmp/branches.replay" -o "$tmp/b.data" >/dev/null 2>&1 || { echo "FAIL replay"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/b.data" -o "$tmp/b.db" --symfs="$fixtures/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }
export_ -d "$tmp/b.db" --format=autofdo --symfs="$fixtures/elf" -o "$tmp/b.afdo" 2>/dev/null
expect branches_rc $? 0
"$profdata" merge --sample --text "$tmp/b.afdo" -o "$tmp/b.txt"
expect branches_unchanged "$(cat "$tmp/b.txt")" "$(cat "$tmp/b.afdo")"
calls() { # CALLEE: taken branches from main to its entry
	query "$tmp/b.db" "SELECT count(*) FROM spe_record r JOIN symbol s ON s.id = r.symbol_id JOIN symbol t ON t.name = '$1'
			   WHERE s.name = 'main' AND r.branch_target = t.start AND r.not_taken = 0"
}
for f in chase stream_sum branchy; do
	c=$(calls $f)
	has "head_$f" "$(cat "$tmp/b.afdo")" "
$f:"
	expect "head_$f" "$(grep "^$f:" "$tmp/b.afdo" | cut -d: -f3)" "$c"
	expect "call_target_$f" "$(grep -c "^ [0-9]*: [0-9]* .*$f:$c\\b" "$tmp/b.afdo")" 1
done
expect branches_functions "$(grep -c '^[a-z_]*:[0-9]*:[0-9]*$' "$tmp/b.afdo")" \
	"$(query "$tmp/b.db" "SELECT count(DISTINCT symbol_id) FROM spe_record")"
exit $fail
