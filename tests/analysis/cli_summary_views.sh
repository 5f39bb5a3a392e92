#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# Every view that reads the summaries the loader counts (mem_level_summary,
# latency_histogram, branch_mispredict, tlb_hotspot, cacheline_sharing:
# docs/schema.md, "Summaries") against its definition computed from the
# records of spe_record, row for row: on a generated trace of many PCs (one source),
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
cacheline_ref="SELECT source_id, pid, printf('0x%x', line << 6) AS line, line << 6 AS line_value,
  count(*) AS accesses, sum(op_class = 'load') AS loads, sum(op_class = 'store') AS stores,
  count(DISTINCT cpu) AS cpus, count(DISTINCT tid) AS threads, count(DISTINCT data_va & 63) AS offsets,
  sum(data_snooped) AS snooped,
  sum(op_class = 'load' AND (cache_data_modified = 1 OR modified_source = 1)) AS hitm,
  sum(op_class = 'load' AND peer = 1) AS peer_hits, sum(total_latency) AS total_latency,
  group_concat(DISTINCT symbol) AS symbols, sum(atomic) AS atomics, sum(op_class = 'store' OR atomic) AS writes,
  sum(cache_data_modified) AS modified_events, sum(modified_source) AS modified_sources,
  sum(op_class = 'load' AND remote = 1) AS remote_hits, group_concat(DISTINCT data_object) AS data_objects
FROM (SELECT r.source_id, r.pid, r.data_va >> 6 AS line, r.op_class, r.cpu, r.tid, r.data_va,
        r.data_snooped, r.cache_data_modified, r.total_latency, s.name AS symbol,
        ' ' || r.op || ' ' LIKE '% AT %' AS atomic, df.peer, df.modified AS modified_source,
        df.remote, d.name AS data_object
      FROM spe_record r
      LEFT JOIN cpu c ON c.source_id = r.source_id AND c.cpu = r.cpu
      LEFT JOIN spe_data_source_fact df ON df.part = c.part AND df.code = r.data_source
      LEFT JOIN symbol s ON s.id = r.symbol_id
      LEFT JOIN data_object d ON d.id = r.data_object_id
      WHERE r.data_va IS NOT NULL)
GROUP BY source_id, pid, line
HAVING writes > 0 AND (threads > 1 OR cpus > 1)"
# group_concat's order is the scan's: compare the names as sorted lists
sorted() { # column
	echo "(SELECT group_concat(value) FROM (SELECT value FROM json_each('[\"' || replace($1, ',', '\",\"') || '\"]')
	  ORDER BY value)) AS $1"
}
cacheline_cols="source_id, pid, line, line_value, accesses, loads, stores, cpus, threads, offsets, snooped, hitm,
  peer_hits, total_latency, $(sorted symbols), atomics, writes, modified_events, modified_sources, remote_hits,
  $(sorted data_objects)"

check_view() { # label db view reference [columns]
	# the same rows (in any order: ties in the views' ORDER BY are unordered)
	got=$(query "$2" "SELECT ${5:-*} FROM $3" | tail -n +2 | LC_ALL=C sort)
	ref=$(query "$2" "SELECT ${5:-*} FROM ($4)" | tail -n +2 | LC_ALL=C sort)
	expect "$1 $3" "$got" "$ref"
	[ -n "$got" ] || { echo "FAIL $1 $3: no rows"; fail=1; }
}

check_all() { # label db
	check_view "$1" "$2" mem_level_summary "$mem_level_ref"
	check_view "$1" "$2" latency_histogram "$histogram_ref"
	check_view "$1" "$2" branch_mispredict "$branch_ref"
	check_view "$1" "$2" tlb_hotspot "$tlb_ref"
	check_view "$1" "$2" cacheline_sharing "$cacheline_ref" "$cacheline_cols"
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
# the same records in another file (a byte past the end of the perf.data, which readers ignore:
# another digest; spe-load refuses the same file twice); cheaper than a second recording under qemu
{ cat "$tmp/trace.data"; printf a; } >"$tmp/trace-again.data"
${SPE_RUN:-} "$load" "$tmp/trace-again.data" -o "$tmp/t.db" --symfs="$tmp" --append 2>/dev/null ||
	{ echo "FAIL append"; exit 1; }
check_all three_sources "$tmp/t.db"
expect sources "$(query "$tmp/t.db" "SELECT count(DISTINCT source_id) FROM tlb_hotspot" | tail -1)" 3
# shared lines named by functions and by data objects (the datawork source), and lines with atomics
n=$(query "$tmp/t.db" "SELECT count(DISTINCT source_id) > 1, sum(symbols IS NOT NULL) > 0,
	sum(data_objects IS NOT NULL) > 0, sum(atomics > 0) > 0 FROM cacheline_sharing" | tail -1)
expect shared_lines "$n" "1,1,1,1"

# a source with more lines than the budget keeps none: the view computes its rows from the records
{ cat "$tmp/trace.data"; printf b; } >"$tmp/trace-budget.data"
${SPE_RUN:-} "$load" "$tmp/trace-budget.data" -o "$tmp/t.db" --symfs="$tmp" --append --line-budget=100 2>/dev/null ||
	{ echo "FAIL append over the line budget"; exit 1; }
expect scanned "$(query "$tmp/t.db" "SELECT group_concat(source_id) FROM load_stats WHERE cacheline_scan" | tail -1)" 4
expect none_kept "$(query "$tmp/t.db" "SELECT count(*) FROM cacheline_stat WHERE source_id = 4" | tail -1)" 0
check_view four_sources "$tmp/t.db" cacheline_sharing "$cacheline_ref" "$cacheline_cols"
# the same trace as source 1, whose lines were kept: the same rows
expect from_records "$(query "$tmp/t.db" "SELECT (SELECT count(*) FROM cacheline_sharing WHERE source_id = 4),
	(SELECT count(*) FROM cacheline_sharing WHERE source_id = 1) > 0,
	(SELECT count(*) FROM cacheline_sharing WHERE source_id = 1)" | tail -1 | sed 's/^\([0-9]*\),1,\1$/same/')" same
${SPE_RUN:-} "$load" "$tmp/trace.data" -o "$tmp/t.db" --line-budget=0 2>/dev/null
expect bad_budget $? 64

[ $fail -eq 0 ] && echo "ok cli_summary_views"
exit $fail
