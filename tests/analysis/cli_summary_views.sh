#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# Every view that reads the summaries the loader counts (mem_level_summary,
# latency_histogram, branch_mispredict, tlb_hotspot, cacheline_sharing,
# data_page, numa_traffic, prefetch: docs/schema.md, "Summaries") against its
# definition computed from the
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
# branch_mispredict's order: mispredicted DESC, branches DESC, then (pc, insn_id) DESC, NULLs last
branch_order="SELECT * FROM ($(printf '%s' "$branch_ref" | sed 's/r.pc AS pc_value/r.pc AS pc_value, r.insn_id AS k_insn/'))
  ORDER BY mispredicted IS NULL, mispredicted DESC, branches DESC, pc_value IS NULL, pc_value DESC, k_insn IS NULL, k_insn DESC"
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
data_page_ref="WITH r AS (SELECT source_id, pid, data_va, total_latency, translation_latency, data_object_id, tlb_walk
  FROM spe_record WHERE data_va IS NOT NULL),
x AS (SELECT source_id, sum(translation_latency) AS total FROM r GROUP BY source_id),
z(shift) AS (VALUES (12), (21))
SELECT r.source_id, r.pid, 1 << z.shift AS page_size, printf('0x%x', (r.data_va >> z.shift) << z.shift) AS page,
  (r.data_va >> z.shift) << z.shift AS page_value, count(*) AS accesses,
  sum(r.total_latency) AS total_latency, round(avg(r.total_latency), 2) AS mean_latency,
  sum(r.tlb_walk) AS tlb_walks, sum(r.translation_latency) AS translation_latency,
  round(100.0 * sum(r.translation_latency) / nullif(x.total, 0), 2) AS translation_share,
  count(DISTINCT r.data_va >> 12) AS pages_4k,
  count(DISTINCT CASE WHEN r.tlb_walk THEN r.data_va >> 12 END) AS walked_pages_4k,
  group_concat(DISTINCT d.name) AS data_objects
FROM r CROSS JOIN z JOIN x ON x.source_id = r.source_id
LEFT JOIN data_object d ON d.id = r.data_object_id
GROUP BY r.source_id, r.pid, z.shift, r.data_va >> z.shift"
numa_ref="SELECT r.source_id, nc.node AS cpu_node, nm.node AS memory_node,
  CASE WHEN r.data_pa IS NULL THEN 'data source' ELSE 'physical address' END AS basis,
  CASE WHEN r.data_pa IS NULL THEN df.remote WHEN nm.node IS NULL OR nc.node IS NULL THEN NULL
    ELSE nm.node != nc.node END AS remote,
  count(*) AS loads, sum(r.total_latency) AS total_latency,
  round(avg(r.total_latency), 2) AS mean_latency, sum(r.remote_access) AS remote_access_events
FROM spe_record r
LEFT JOIN cpu c ON c.source_id = r.source_id AND c.cpu = r.cpu
LEFT JOIN spe_data_source_fact df ON df.part = c.part AND df.code = r.data_source
LEFT JOIN numa_cpu nc ON nc.source_id = r.source_id AND nc.cpu = r.cpu
LEFT JOIN numa_memory nm ON nm.source_id = r.source_id AND r.data_pa >= nm.start AND r.data_pa < nm.end
WHERE r.op_class = 'load' AND r.data_va IS NOT NULL
GROUP BY 1, 2, 3, 4, 5"
prefetch_ref="SELECT CASE WHEN r.pc IS NULL THEN NULL ELSE printf('0x%x', r.pc) END AS pc, s.name AS symbol,
  r.pc - s.start AS symbol_offset, d.name AS data_object, count(*) AS loads, sum(r.late) AS late_prefetch,
  round(100.0 * sum(r.late) / count(*), 1) AS late_rate, sum(r.recently_fetched) AS recently_fetched,
  sum(CASE WHEN r.late THEN r.total_latency END) AS late_latency,
  sum(r.total_latency) AS total_latency, round(avg(r.total_latency), 2) AS mean_latency,
  r.pc AS pc_value, r.data_object_id
FROM (SELECT r.*, CASE WHEN pf.late_prefetch_bit IS NULL THEN NULL
        ELSE (r.events >> pf.late_prefetch_bit) & 1 END AS late
      FROM spe_record r
      LEFT JOIN cpu c ON c.source_id = r.source_id AND c.cpu = r.cpu
      LEFT JOIN spe_part_fact pf ON pf.part = c.part
      WHERE r.op_class = 'load') r
LEFT JOIN symbol s ON s.id = r.symbol_id
LEFT JOIN data_object d ON d.id = r.data_object_id
GROUP BY r.pc, r.data_object_id
HAVING late_prefetch > 0 OR recently_fetched > 0"
# group_concat's order is the scan's: compare the names as sorted lists
sorted() { # column
	echo "(SELECT group_concat(value) FROM (SELECT value FROM json_each('[\"' || replace($1, ',', '\",\"') || '\"]')
	  ORDER BY value)) AS $1"
}
cacheline_cols="source_id, pid, line, line_value, accesses, loads, stores, cpus, threads, offsets, snooped, hitm,
  peer_hits, total_latency, $(sorted symbols), atomics, writes, modified_events, modified_sources, remote_hits,
  $(sorted data_objects)"

# cacheline_sharing's names in the order the load first saw them (cacheline_stat's ids), a name two symbol or
# data_object rows share once, as group_concat(DISTINCT name) over the ids gives.  The reference: each name's first
# record, for the lines of the sources the load kept (the view's record half orders them as its scan goes).
first_seen() { # column (symbol, data_object): source_id, pid, line_value and the names of every kept line that has some
	join="s ON s.id = r.symbol_id" && [ "$1" = data_object ] && join="d ON d.id = r.data_object_id"
	echo "WITH k AS (SELECT source_id, pid, line FROM cacheline_stat),
f AS (SELECT r.source_id, r.pid, r.data_va >> 6 AS line, ${join%% *}.name AS name, min(r.id) AS first
  FROM spe_record r JOIN k ON k.source_id = r.source_id AND k.pid IS r.pid AND k.line = r.data_va >> 6
  JOIN $1 $join GROUP BY 1, 2, 3, 4)
SELECT DISTINCT source_id, pid, line << 6 AS line_value, group_concat(name) OVER (PARTITION BY source_id, pid, line ORDER BY first
  ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS names FROM f"
}
check_first_seen() { # label db
	for c in symbol data_object; do
		got=$(query "$2" "SELECT source_id, pid, line_value, ${c}s FROM cacheline_sharing WHERE ${c}s IS NOT NULL
		  AND source_id IN (SELECT source_id FROM load_stats WHERE NOT cacheline_scan)" | tail -n +2 | LC_ALL=C sort)
		ref=$(query "$2" "$(first_seen $c)" | tail -n +2 | LC_ALL=C sort)
		expect "$1 ${c}s in first-seen order" "$got" "$ref"
	done
}

check_view() { # label db view reference [columns [empty-ok]]
	# the same rows (in any order: ties in the views' ORDER BY are unordered)
	got=$(query "$2" "SELECT ${5:-*} FROM $3" | tail -n +2 | LC_ALL=C sort)
	ref=$(query "$2" "SELECT ${5:-*} FROM ($4)" | tail -n +2 | LC_ALL=C sort)
	expect "$1 $3" "$got" "$ref"
	[ -n "$got" ] || [ -n "${6:-}" ] || { echo "FAIL $1 $3: no rows"; fail=1; }
}

data_page_cols="source_id, pid, page_size, page, page_value, accesses, total_latency, mean_latency, tlb_walks,
  translation_latency, translation_share, pages_4k, walked_pages_4k, $(sorted data_objects)"

check_all() { # label db
	# each load's count of its records (spe-report's whole-capture count) is the rows it inserted
	expect "$1 load_stats.records" "$(query "$2" "SELECT source_id, records FROM load_stats ORDER BY 1" | tail -n +2)" \
		"$(query "$2" "SELECT source_id, count(*) FROM spe_record GROUP BY 1 ORDER BY 1" | tail -n +2)"
	# and its span (spe-report --html's): the least and greatest time and raw timestamp of those rows
	expect "$1 load_stats span" "$(query "$2" "SELECT source_id, timed_records, first_time, last_time, first_ts, last_ts
		FROM load_stats ORDER BY 1" | tail -n +2)" "$(query "$2" "SELECT source_id, count(time), min(time), max(time),
		min(ts), max(ts) FROM spe_record GROUP BY 1 ORDER BY 1" | tail -n +2)"
	check_view "$1" "$2" mem_level_summary "$mem_level_ref"
	check_view "$1" "$2" latency_histogram "$histogram_ref"
	check_view "$1" "$2" branch_mispredict "$branch_ref"
	got=$(query "$2" "SELECT * FROM branch_mispredict" | tail -n +2)
	ref=$(query "$2" "SELECT pc, symbol, symbol_offset, src_file, src_line, mnemonic, operands, branches, mispredicted,
	  mispredict_rate, not_taken, pc_value FROM ($branch_order)" | tail -n +2)
	expect "$1 branch_mispredict order" "$got" "$ref"
	check_view "$1" "$2" tlb_hotspot "$tlb_ref"
	check_view "$1" "$2" cacheline_sharing "$cacheline_ref" "$cacheline_cols"
	check_first_seen "$1" "$2"
	check_view "$1" "$2" data_page "$data_page_ref" "$data_page_cols"
	check_view "$1" "$2" numa_traffic "$numa_ref"
	check_view "$1" "$2" prefetch "$prefetch_ref" "*" "${3:-}"
}

# 40,000 records over 3,000 PCs in 300 functions
${SPE_RUN:-} "$gen" "$tmp" 40000 3000 300 >/dev/null || { echo "FAIL gen_bench"; exit 1; }
${SPE_RUN:-} "$record" --replay="$tmp/bench.replay" -o "$tmp/trace.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
${SPE_RUN:-} "$record" --replay="$fixtures/workloads/traces/datawork.replay" -o "$tmp/data.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay datawork"; exit 1; }
${SPE_RUN:-} "$load" "$tmp/trace.data" -o "$tmp/t.db" --symfs="$tmp" 2>/dev/null || { echo "FAIL load"; exit 1; }
check_all one_source "$tmp/t.db" empty-ok # gen_bench's loads have no prefetch events
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
# lines touched by several functions (gen_bench's), by several data objects (datawork's)
n=$(query "$tmp/t.db" "SELECT sum(symbols LIKE '%,%') > 20, sum(data_objects LIKE '%,%') > 0 FROM cacheline_sharing" |
	tail -1)
expect several_names "$n" "1,1"
# NUMA both ways (a physical address's node, a data source's facts), named data pages, late prefetches
n=$(query "$tmp/t.db" "SELECT (SELECT count(DISTINCT basis) = 2 AND sum(remote = 1) > 0 AND
	sum(memory_node IS NOT NULL) > 0 FROM numa_traffic), (SELECT sum(data_objects IS NOT NULL) > 0 FROM data_page),
	(SELECT sum(late_prefetch > 0) > 0 FROM prefetch)" | tail -1)
expect memory_views "$n" "1,1,1"

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
