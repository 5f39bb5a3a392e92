#!/bin/sh
# spe-export --format=bolt read by Debian's BOLT 16 (the real consumer): an
# SPE trace of branch records for fixtures/elf/memwork-relocs (built with
# --emit-relocs; records synthesized by fixtures/workloads/gen_branches.c for
# every direct branch, with previous-branch targets) is exported, perf2bolt
# aggregates it with no invalid trace, its fdata holds every taken branch and
# every not-taken fall-through with the database's counts and mispredictions
# (functions and offsets resolved by BOLT from the ELF, ours from the
# database), and llvm-bolt reports a profile for exactly the sampled functions.
#   cli_export_bolt.sh RECORD LOAD QUERY EXPORT FIXTURES GEN_BRANCHES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 export=$4 fixtures=$5 gen=$6
. "$(dirname "$0")/export_lib.sh"
bolt_dir=/usr/lib/llvm-16/bin # perf2bolt-16 in /usr/bin does not act as perf2bolt: BOLT picks its mode by name
[ -x "$bolt_dir/perf2bolt" ] && [ -x "$bolt_dir/llvm-bolt" ] || { echo "SKIP: bolt-16 is not installed"; exit 77; }
scratch_dir export-bolt
elf=$fixtures/elf/memwork-relocs
${SPE_RUN:-} "$gen" "$elf" "$tmp" 2>/dev/null || { echo "FAIL gen_branches"; exit 1; }
${SPE_RUN:-} "$record" --replay="$tmp/branches.replay" -o "$tmp/b.data" >/dev/null 2>&1 || { echo "FAIL replay"; exit 1; }
db=$tmp/b.db
${SPE_RUN:-} "$load" "$tmp/b.data" -o "$db" --symfs="$fixtures/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }

export_ -d "$db" --format=bolt --symfs="$fixtures/elf" -o "$tmp/b.pa" 2>"$tmp/err"
expect export_rc $? 0
has export_summary "$(cat "$tmp/err")" "$(query "$db" "SELECT count(*) FROM spe_record") records"
# the binary chosen by path or by build-id gives the same profile
export_ -d "$db" --format=bolt --binary="$elf" -o "$tmp/by-path.pa" 2>/dev/null
expect by_path "$(cat "$tmp/by-path.pa")" "$(cat "$tmp/b.pa")"
export_ -d "$db" --format=bolt --symfs="$fixtures/elf" --build-id="$(query "$db" "SELECT build_id FROM mapping")" -o "$tmp/by-id.pa" 2>/dev/null
expect by_build_id "$(cat "$tmp/by-id.pa")" "$(cat "$tmp/b.pa")"
# without the file, no ELF addresses: refused with the way out
export_ -d "$db" --format=bolt -o "$tmp/none.pa" 2>"$tmp/err"
expect nobinary_rc $? 66
has nobinary_message "$(cat "$tmp/err")" "/memwork-relocs: cannot read the binary (give --binary=PATH or --symfs=DIR)"
[ ! -e "$tmp/none.pa" ] || { echo "FAIL nobinary left a file"; fail=1; }

"$bolt_dir/perf2bolt" -pa -p "$tmp/b.pa" "$elf" -o "$tmp/b.fdata" >"$tmp/p2b" 2>&1
expect perf2bolt_rc $? 0
p2b=$(cat "$tmp/p2b")
has perf2bolt_read "$p2b" "read $(wc -l <"$tmp/b.pa") aggregated LBR entries"
has perf2bolt_valid "$p2b" "traces mismatching disassembled function contents: 0 (0.0%)"
has perf2bolt_in_range "$p2b" "Out of range traces involving unknown regions: 0 (0.0%)"

# fdata: 1 FROM-FUNC FROM-OFF 1 TO-FUNC TO-OFF MISPREDICTS COUNT (offsets hex)
taken=$(query "$db" "SELECT '1 ' || s.name || ' ' || printf('%x', r.pc - s.start) || ' 1 ' || t.name || ' ' ||
			printf('%x', r.branch_target - t.start) || ' ' || sum(r.mispredicted) || ' ' || count(*) AS line
		FROM spe_record r JOIN symbol s ON s.id = r.symbol_id
		JOIN symbol t ON r.branch_target >= t.start AND r.branch_target < t.start + t.size
		WHERE r.op_class = 'branch' AND r.not_taken = 0 GROUP BY r.pc, r.branch_target")
fallthrough=$(query "$db" "SELECT '1 ' || s.name || ' ' || printf('%x', r.pc - s.start) || ' 1 ' || s.name || ' ' ||
			printf('%x', r.pc + 4 - s.start) || ' 0 ' || count(*) AS line
		FROM spe_record r JOIN symbol s ON s.id = r.symbol_id
		WHERE r.op_class = 'branch' AND r.not_taken = 1 GROUP BY r.pc")
# 21 direct branches in the five functions (objdump -d), 13 of them conditional
expect fixture_taken "$(echo "$taken" | wc -l)" 21
expect fixture_fallthrough "$(echo "$fallthrough" | wc -l)" 13
missing=$(printf '%s\n%s\n' "$taken" "$fallthrough" | while read -r line; do
	grep -qxF "$line" "$tmp/b.fdata" || echo "$line"
done)
expect fdata_has_every_branch "$missing" ""
# calls from main land on the callees' entries
has fdata_call "$(cat "$tmp/b.fdata")" " 1 chase 0 "

"$bolt_dir/llvm-bolt" "$elf" -o "$tmp/memwork.bolt" -data="$tmp/b.fdata" >"$tmp/bolt" 2>&1
expect llvm_bolt_rc $? 0
functions=$(query "$db" "SELECT count(DISTINCT symbol_id) FROM spe_record")
has llvm_bolt_profile "$(cat "$tmp/bolt")" "BOLT-INFO: $functions out of "
has llvm_bolt_profile_tail "$(cat "$tmp/bolt")" "functions in the binary"
grep -q "have non-empty execution profile" "$tmp/bolt" || { echo "FAIL llvm-bolt reports no profile"; fail=1; }
[ -s "$tmp/memwork.bolt" ] || { echo "FAIL llvm-bolt wrote no binary"; fail=1; }
# the pre-aggregated file straight into llvm-bolt (no perf2bolt step) gives the same count
"$bolt_dir/llvm-bolt" "$elf" -o "$tmp/memwork2.bolt" -pa -p "$tmp/b.pa" >"$tmp/bolt2" 2>&1
has llvm_bolt_pa "$(cat "$tmp/bolt2")" "BOLT-INFO: $functions out of "
exit $fail
