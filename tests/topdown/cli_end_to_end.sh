#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# The cross-ISA report on a real spe-load database: the memwork fixture trace
# (fixtures/workloads) replayed and loaded, an Arm N2 topdown run and an Intel
# SPR run imported into the same file under workload "memwork".
# Ground truth of the trace (tests/analysis/test_end_to_end.c, from the
# generator): 1200 records; chase() 400 samples and the top latency; 240 DRAM
# loads; 134 TLB walks among 1000 loads/stores; branchy() 200 branches, 50
# mispredicted.  The report's latency sums must equal the analysis views'.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
replay=$1 load=$2 query=$3 td=$4 report=$5 manifest=$6 elf=$7 fx=$8
scratch_dir td-e2e

${SPE_RUN:-} "$replay" --replay="$manifest" -o "$tmp/memwork.data" >/dev/null 2>&1 || { echo "FAIL replay"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/memwork.data" -o "$tmp/memwork.db" --symfs="$elf" 2>/dev/null || { echo "FAIL load"; exit 1; }
${SPE_RUN:-} "$td" import "$fx/raw_neoverse-n2_perf.txt" -d "$tmp/memwork.db" --run n2 --workload memwork \
	--spe-source=memwork.data >/dev/null || fail=1
${SPE_RUN:-} "$td" import "$fx/perf-6.5_spr-csv.txt" -d "$tmp/memwork.db" --run spr --workload memwork >/dev/null || fail=1
# another workload's Arm run, of no capture in this database
${SPE_RUN:-} "$td" import "$fx/perf-arm_neoverse-v2-TopdownL1-std.txt" -d "$tmp/memwork.db" --run v2 --workload other \
	>/dev/null || fail=1
err=$(${SPE_RUN:-} "$td" import "$fx/perf-6.5_spr-csv.txt" -d "$tmp/memwork.db" --spe-source=9 2>&1)
expect bad_source_exit "$?" 65
has bad_source_msg "$err" "--spe-source=9: no SPE source of that id or file"

# the analysis tools still accept the database, and see the topdown view
out=$(${SPE_RUN:-} "$query" -d "$tmp/memwork.db" --format=csv "SELECT run, isa, backend_bound FROM topdown_l1 WHERE workload = 'memwork' ORDER BY run_id" | tr -d "\r")
expect query_topdown "$out" "run,isa,backend_bound
n2,aarch64,0.37
spr,x86_64,0.701"

view_dram=$(${SPE_RUN:-} "$query" -d "$tmp/memwork.db" --format=csv "SELECT total_latency FROM mem_level_summary WHERE mem_level = 'DRAM'" | tail -1 | tr -d "\r")
view_chase=$(${SPE_RUN:-} "$query" -d "$tmp/memwork.db" --format=csv "SELECT total_latency FROM hot_symbol WHERE symbol = 'chase'" | tail -1 | tr -d "\r")

out=$(${SPE_RUN:-} "$report" -d "$tmp/memwork.db" --cross-isa --workload memwork --format=json)
has runs "$out" '"runs": [{"run": "n2", "scope": "all", "isa": "aarch64", "vendor": "Arm", "cpu": "neoverse-n2", "method": "arm_topdown"'
# the replayed capture ran on a Neoverse N1 (its MIDR, in spe-load's cpu table), not on the N2 the run names
has cpu_check "$out" '"spe_source": 1, "spe_cpu": "neoverse-n1", "cpu_check": "mismatch", "spe_evidence": {"spe_source": 1, '
has cpu_warning "$out" '"warnings": ["WARNING: n2 was measured on neoverse-n2 but its SPE capture (source 1) ran on neoverse-n1: the SPE evidence does not explain this run'"'"'s numbers"]'
has l1 "$out" '{"node": "backend_bound", "level": 1, "basis": "slots", "values": [0.3700, 0.7010], "note": null}'
has l2 "$out" '{"node": "memory_bound", "level": 2, "basis": "slots", "values": [null, 0.5050], "note": "n2: no equivalent on aarch64 (no level 2 slot tree)"}'
has spe_records "$out" '"spe_records": 1200, "mem_levels": '
has dram "$out" "{\"mem_level\": \"DRAM\", \"loads\": 240, \"total_latency\": $view_dram, "
has chase "$out" "\"hot_symbols\": [{\"symbol\": \"chase\", \"file\": \"./memwork.c\", \"line\": 34, \"samples\": 400, \"total_latency\": $view_chase, "
has tlb "$out" '"tlb_walk": {"samples": 1000, "walks": 134, '
has mispredicts "$out" '"mispredicts": [{"symbol": "branchy", "file": "./memwork.c", "line": 66, "branches": 200, "mispredicts": 50, "rate": 0.2500}]'

# the SPE evidence appears under the workload whose capture it is, and only there
out=$(${SPE_RUN:-} "$report" -d "$tmp/memwork.db" --cross-isa)
expect evidence_once "$(printf '%s\n' "$out" | grep -c '^SPE evidence for')" 1
has evidence_memwork "$out" "SPE evidence for run n2 (1200 records of SPE source 1 $tmp/memwork.data, CPU neoverse-n1)"
has evidence_other "$out" "Workload other: 1 run"
expect evidence_other_none "$(printf '%s\n' "$out" | sed -n '/^Workload other/,$p' | grep -c '^No SPE evidence: no run of this workload is linked')" 1

out=$(${SPE_RUN:-} "$report" -d "$tmp/memwork.db")
has spe_report "$out" "SPE records: 1200"
has spe_report_tlb "$out" "TLB walks: 134 of 1000 load/store samples (13.4%)"

# every command opens the database through the same application_id / schema version check
${SPE_RUN:-} "$td" import "$fx/raw_neoverse-n2_perf.txt" -d "$tmp/td-first.db" --run n2 >/dev/null || fail=1
# (the same ids as the database spe-load wrote above)
out=$(${SPE_RUN:-} "$query" -d "$tmp/td-first.db" --format=csv "PRAGMA application_id; PRAGMA user_version" | tr -d "\r")
want=$(${SPE_RUN:-} "$query" -d "$tmp/memwork.db" --format=csv "PRAGMA application_id; PRAGMA user_version" | tr -d "\r")
has td_created_app_id "$out" "1397769547"
expect td_created_ids "$out" "$want"
${SPE_RUN:-} "$load" --append "$tmp/memwork.data" -o "$tmp/td-first.db" --symfs="$elf" 2>/dev/null
expect load_append_exit "$?" 0
out=$(${SPE_RUN:-} "$query" -d "$tmp/td-first.db" --format=csv "SELECT COUNT(*) AS n FROM spe_record; SELECT COUNT(*) AS runs FROM topdown_run" | tr -d "\r")
expect load_append_rows "$out" "n
1200
runs
1"

cp "$tmp/td-first.db" "$tmp/v7.db"
${SPE_RUN:-} "$query" -d "$tmp/v7.db" --write "PRAGMA user_version = 99" >/dev/null || fail=1
before=$(cksum < "$tmp/v7.db")
err=$(${SPE_RUN:-} "$report" -d "$tmp/v7.db" --cross-isa 2>&1)
expect v7_report_exit "$?" 65
has v7_report_msg "$err" "database schema version 99 is not supported"
err=$(${SPE_RUN:-} "$report" -d "$tmp/v7.db" 2>&1)
expect v7_spe_report_exit "$?" 65
err=$(${SPE_RUN:-} "$td" import "$fx/perf-6.5_spr-csv.txt" -d "$tmp/v7.db" 2>&1)
expect v7_import_exit "$?" 65
has v7_import_msg "$err" "spe-topdown import: $tmp/v7.db: database schema version 99 is not supported"
expect v7_unchanged "$(cksum < "$tmp/v7.db")" "$before"

[ $fail = 0 ] && echo "cli_end_to_end: all passed"
exit $fail
