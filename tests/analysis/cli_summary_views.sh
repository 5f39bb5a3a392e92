#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# Every view that reads the summaries the loader counts (mem_level_summary,
# latency_histogram, branch_mispredict, tlb_hotspot: docs/schema.md,
# "Summaries") against its definition computed from the records of
# spe_record, row for row: on a generated trace of many PCs (one source),
# then with the data-object fixture (several processes' threads, data
# addresses, NUMA) and the generated trace again appended (three sources:
# the views add up the sources' rows).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
gen=$1 record=$2 load=$3 query=$4 fixtures=$5
scratch_dir cli-summary-views
query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r'
}

# The definitions: what each view meant when it scanned spe_record.
mem_level_ref="SELECT mem_level, count(*) AS loads, sum(total_latency) AS total_latency,
  round(avg(total_latency), 2) AS mean_latency,
  round(100.0 * sum(total_latency) /
    nullif((SELECT sum(total_latency) FROM spe_record WHERE op_class = 'load'), 0), 2) AS latency_share
FROM spe_record WHERE op_class = 'load' GROUP BY mem_level"
histogram_ref="SELECT op_class, lo AS latency_lo, CASE WHEN lo = 0 THEN 0 ELSE 2 * lo - 1 END AS latency_hi,
  count(*) AS samples, sum(total_latency) AS total_latency
FROM (SELECT op_class, total_latency, CASE WHEN total_latency < 1 THEN 0 ELSE
  (SELECT max(p) FROM (WITH RECURSIVE k(p) AS (SELECT 1 UNION ALL SELECT p * 2 FROM k WHERE p * 2 <= total_latency)
   SELECT p FROM k)) END AS lo
  FROM spe_record WHERE total_latency IS NOT NULL)
GROUP BY op_class, lo"
branch_ref="SELECT CASE WHEN r.pc IS NULL THEN NULL ELSE printf('0x%x', r.pc) END AS pc, s.name AS symbol,
  r.pc - s.start AS symbol_offset, i.file AS src_file, i.line AS src_line, i.mnemonic, i.operands,
  count(*) AS branches, sum(r.mispredicted) AS mispredicted,
  round(1.0 * sum(r.mispredicted) / count(*), 3) AS mispredict_rate, sum(r.not_taken) AS not_taken, r.pc AS pc_value
FROM spe_record r LEFT JOIN insn i ON i.id = r.insn_id LEFT JOIN symbol s ON s.id = r.symbol_id
WHERE r.op_class = 'branch' GROUP BY r.pc, r.insn_id"
tlb_ref="SELECT source_id, pid, printf('0x%x', page << 12) AS page, page << 12 AS page_value,
  count(*) AS accesses, sum(tlb_walk) AS tlb_walks, round(1.0 * sum(tlb_walk) / count(*), 3) AS walk_ratio,
  sum(translation_latency) AS translation_latency,
  round(avg(translation_latency), 2) AS mean_translation_latency
FROM (SELECT source_id, pid, data_va >> 12 AS page, tlb_walk, translation_latency
      FROM spe_record WHERE data_va IS NOT NULL)
GROUP BY source_id, pid, page"

check_view() { # label db view reference
	# the same rows (in any order: ties in the views' ORDER BY are unordered)
	got=$(query "$2" "SELECT * FROM $3" | tail -n +2 | LC_ALL=C sort)
	ref=$(query "$2" "$4" | tail -n +2 | LC_ALL=C sort)
	expect "$1 $3" "$got" "$ref"
	[ -n "$got" ] || { echo "FAIL $1 $3: no rows"; fail=1; }
}

check_all() { # label db
	check_view "$1" "$2" mem_level_summary "$mem_level_ref"
	check_view "$1" "$2" latency_histogram "$histogram_ref"
	check_view "$1" "$2" branch_mispredict "$branch_ref"
	check_view "$1" "$2" tlb_hotspot "$tlb_ref"
}

# 40,000 records over 3,000 PCs in 300 functions
${SPE_RUN:-} "$gen" "$tmp" 40000 3000 300 >/dev/null || { echo "FAIL gen_bench"; exit 1; }
${SPE_RUN:-} "$record" --replay="$tmp/bench.replay" -o "$tmp/trace.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
${SPE_RUN:-} "$record" --replay="$fixtures/workloads/traces/datawork.replay" -o "$tmp/data.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay datawork"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/trace.data" -o "$tmp/t.db" --symfs="$tmp" 2>/dev/null || { echo "FAIL load"; exit 1; }
check_all one_source "$tmp/t.db"
# not vacuous: every level, many branch PCs and pages
expect levels "$(query "$tmp/t.db" "SELECT count(*) FROM mem_level_summary" | tail -1)" 4
n=$(query "$tmp/t.db" "SELECT (SELECT count(*) FROM branch_mispredict) > 500, (SELECT count(*) FROM tlb_hotspot) > 1000" |
	tail -1)
expect many_rows "$n" "1,1"

${SPE_RUN:-} "$load" "$tmp/data.data" -o "$tmp/t.db" --symfs="$fixtures/elf" --append 2>/dev/null ||
	{ echo "FAIL append datawork"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/trace.data" -o "$tmp/t.db" --symfs="$tmp" --append 2>/dev/null ||
	{ echo "FAIL append"; exit 1; }
check_all three_sources "$tmp/t.db"
expect sources "$(query "$tmp/t.db" "SELECT count(DISTINCT source_id) FROM tlb_hotspot" | tail -1)" 3

[ $fail -eq 0 ] && echo "ok cli_summary_views"
exit $fail
