#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-topdown import and spe-report --cross-isa through the CLI: summary
# lines, error messages naming file and line, exit codes, JSON values.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
td=$1
report=$2
fx=$3
scratch_dir td-cli
db=$tmp/t.db

out=$(${SPE_RUN:-} "$td" import "$fx/perf-6.5_spr-json.txt" -d "$db" --run intel-spr --workload stream)
expect import_intel "$out" "run 1: intel-spr from $fx/perf-6.5_spr-json.txt (perf-stat-json), 1 intervals, 12 values, isa x86_64, cpu unknown, method perf_metrics"
out=$(${SPE_RUN:-} "$td" import "$fx/raw_neoverse-n2_perf.txt" -d "$db" --run arm-n2 --workload stream)
expect import_arm "$out" "run 2: arm-n2 from $fx/raw_neoverse-n2_perf.txt (perf-stat-csv), 1 intervals, 4 values, isa aarch64, cpu neoverse-n2, method arm_topdown"
out=$(${SPE_RUN:-} "$td" import "$fx/raw_westmere_libpmc.txt" -d "$db" --cpu westmere --workload old)
has import_wsm "$out" "method wsm_approx (approximation)"

printf 'retiring,bad speculation,frontend bound,backend bound,\n18.0,16.1,x,25.5,\n' > "$tmp/bad.csv"
err=$(${SPE_RUN:-} "$td" import "$tmp/bad.csv" -d "$db" 2>&1)
expect bad_value_exit "$?" 65
expect bad_value_msg "$err" "spe-topdown import: $tmp/bad.csv:2: column 3: 'x' is not a number"
err=$(${SPE_RUN:-} "$td" import "$fx/raw_westmere_libpmc.txt" -d "$db" 2>&1)
expect no_cpu_exit "$?" 65
err=$(${SPE_RUN:-} "$td" import "$fx/raw_skylake.txt" -d "$db" --cpu pentium4 2>&1)
expect unknown_cpu_exit "$?" 69
${SPE_RUN:-} "$td" import "$tmp/missing.txt" -d "$db" 2>/dev/null
expect missing_exit "$?" 66
${SPE_RUN:-} "$td" import -d "$db" 2>/dev/null
expect no_file_exit "$?" 64

# the report reads back what was imported
out=$(${SPE_RUN:-} "$report" -d "$db" --cross-isa --workload stream --format=json)
has json_l1 "$out" '{"node": "backend_bound", "level": 1, "basis": "slots", "values": [0.3700, 0.6995], "note": null}'
has json_runs "$out" '{"run": "arm-n2", "scope": "all", "isa": "aarch64", "vendor": "Arm", "cpu": "neoverse-n2", "method": "arm_topdown", "approx": false, "host": "-", "intervals": 1, "weight": "slots", "weighting": "single interval", "elapsed_s": null, "slots": 5000000, "cycles": 1000000, "instructions": null, "ipc": null, "width": 5, "width_from": "cpu", "spe_source": null, "spe_evidence": null}'
# IPC from the counts perf printed: 38620409 instructions / 48433482 cycles
has json_ipc "$out" '"cycles": 48433482, "instructions": 38620409, "ipc": 0.7974'
has json_no_l2 "$out" '"values": [null, 0.5022], "note": "arm-n2: no equivalent on aarch64 (no level 2 slot tree)"'
has json_no_spe "$out" '"spe_evidence": null'
out=$(${SPE_RUN:-} "$report" -d "$db" --cross-isa --workload old)
has table_wsm_header "$out" "  node                       raw_westmere_libpmc.txt"
has table_wsm "$out" "  L1 retiring                                 ~50.0%  raw_westmere_libpmc.txt: approximation (wsm_approx)"
${SPE_RUN:-} "$report" -d "$db" --cross-isa --workload none >/dev/null 2>&1
expect unknown_workload_exit "$?" 65
${SPE_RUN:-} "$report" -d "$db" >/dev/null 2>&1
expect no_spe_exit "$?" 65
${SPE_RUN:-} "$report" -d "$tmp/nope.db" --cross-isa >/dev/null 2>&1
expect missing_db_exit "$?" 66
${SPE_RUN:-} "$report" -d "$db" --format=xml >/dev/null 2>&1
expect bad_format_exit "$?" 64

# perf <= 6.3 without recovery bubbles: "backend bound/bad spec", compared with the sum of the two
out=$(${SPE_RUN:-} "$td" import "$fx/perf-5.x_no-recovery-bubbles.csv" -d "$db" --run old --workload bbs)
has import_bbs "$out" "1 intervals, 5 values, isa x86_64"
${SPE_RUN:-} "$td" import "$fx/perf-6.5_spr-csv.txt" -d "$db" --run spr --workload bbs >/dev/null
out=$(${SPE_RUN:-} "$report" -d "$db" --cross-isa --workload bbs)
has bbs_row "$out" "  L1 backend_bound_bad_speculation"
has bbs_sum "$out" "45.0%              72.8%  spr: backend_bound + bad_speculation"
has bbs_part "$out" "old: only backend_bound + bad_speculation together (perf <= 6.3 without recovery bubbles)"

# columns are as wide as the run names (and node labels) they carry: nothing truncated
${SPE_RUN:-} "$td" import "$fx/raw_neoverse-n2_perf.txt" -d "$db" --workload long >/dev/null
${SPE_RUN:-} "$td" import "$fx/perf-5.x_no-recovery-bubbles.csv" -d "$db" --run old --workload long >/dev/null
out=$(${SPE_RUN:-} "$report" -d "$db" --cross-isa --workload long)
has wide_header "$out" "
  node                             raw_neoverse-n2_perf.txt                old
  isa                                               aarch64             x86_64
"
has wide_row "$out" "
  L1 backend_bound                                    37.0%                  -  old: only"
has wide_node "$out" "
  L1 backend_bound_bad_speculation                    45.0%              45.0%  raw_neoverse-n2_perf.txt: backend_bound + bad_speculation"

# intervals weighted by their slots (docs/topdown-formulas.md §8): 20% of 1e9 slots and 60% of 3e9 slots
# are 50% (a plain mean would say 40%); a run without counts is a plain mean, said so
${SPE_RUN:-} "$td" import "$fx/perf-6.13_unequal-slots-interval.csv" -d "$db" --run slots --workload weighted >/dev/null
${SPE_RUN:-} "$td" import "$fx/perf-6.2_metric-only.json" -d "$db" --run nocounts --workload weighted >/dev/null
out=$(${SPE_RUN:-} "$report" -d "$db" --cross-isa --workload weighted --format=json)
has weighted_runs "$out" '"intervals": 2, "weight": "slots", "weighting": "slot-weighted", "elapsed_s": 2.000200, "slots": 4000000000'
has weighted_be "$out" '{"node": "backend_bound", "level": 1, "basis": "slots", "values": [0.5000, 0.3490]'
has weighted_ret "$out" '{"node": "retiring", "level": 1, "basis": "slots", "values": [0.5000, 0.1245]'
out=$(${SPE_RUN:-} "$report" -d "$db" --cross-isa --workload weighted)
has weighted_row "$out" "  weighting                       slot-weighted         plain mean"
has weighted_note "$out" "plain mean: the input has no slot or cycle counts"

# hybrid: one column per PMU scope; cpu_core printed nan (NULL) for three nodes
${SPE_RUN:-} "$td" import "$fx/perf-6.5_adl-csv.txt" -d "$db" --run adl --workload hybrid >/dev/null
out=$(${SPE_RUN:-} "$report" -d "$db" --cross-isa --workload hybrid)
has hybrid_header "$out" "Workload hybrid: 1 run in 2 columns (one per scope)"
has hybrid_cols "$out" "  node                            adl[cpu_atom]      adl[cpu_core]"
has hybrid_row "$out" "  L1 retiring                              5.4%                  -  adl[cpu_core]: not measured"
has hybrid_bs "$out" "  L1 bad_speculation                      13.8%               0.0%"

# several runs in one file: one run each (NAME#1, NAME#2, or --run once per run), never merged
out=$(${SPE_RUN:-} "$td" import "$fx/perf-6.x_neoverse-v3ae-repeat-std.txt" -d "$db" --run fs --workload agi)
has multi_first "$out" "run 11: fs#1 from $fx/perf-6.x_neoverse-v3ae-repeat-std.txt line 3 (perf-stat), 1 intervals, 4 values, isa aarch64"
has multi_second "$out" "run 12: fs#2 from $fx/perf-6.x_neoverse-v3ae-repeat-std.txt line 27 (perf-stat), 1 intervals, 4 values"
out=$(${SPE_RUN:-} "$td" import "$fx/perf-6.x_neoverse-v3ae-repeat-std.txt" -d "$db" --run shared --run padded --workload agi2)
has multi_named "$out" "run 14: padded from"
err=$(${SPE_RUN:-} "$td" import "$fx/perf-6.x_neoverse-v3ae-repeat-std.txt" -d "$db" --run a --run b --run c 2>&1)
expect multi_names_exit "$?" 64
has multi_names_msg "$err" "holds 2 runs but 3 --run names were given"
# skipped blocks are noted on stderr; a refusal names the file and line
err=$(${SPE_RUN:-} "$td" import "$fx/perf-6.2_neoverse-n2-TopDownL1-std.txt" -d "$db" --workload n2 2>&1 >/dev/null)
has note_skipped "$err" "note: lines 1-25: no topdown metrics (L2D_TLB, L2D_TLB_REFILL, L1I_TLB_REFILL, ...); skipped"
printf '                        TopdownL1                 #     17.5 %%  tma_backend_bound\n                        TopdownL1                 #     18.0 %%  tma_backend_bound\n' > "$tmp/twice.txt"
err=$(${SPE_RUN:-} "$td" import "$tmp/twice.txt" -d "$db" 2>&1)
expect twice_exit "$?" 65
has twice_msg "$err" "spe-topdown import: $tmp/twice.txt:2: a second backend_bound value (18%) for scope all in the same run; the first (17.5%) is on line 1"
# the failed import stored nothing: run ids go on from 15 (the N2 file)
out=$(${SPE_RUN:-} "$td" import "$fx/perf-6.5_spr-std.txt" -d "$db" --run after-failure --workload x)
has no_partial "$out" "run 16: after-failure"

[ $fail = 0 ] && echo "cli_import_report: all passed"
exit $fail
