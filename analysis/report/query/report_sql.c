/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report's SQL, all of it (report_sql.h).  Most sections read the views
 * of docs/schema.md as they are; the rest are plain SQL over spe_record and
 * pc_latency for what no view has yet: latency histograms per memory level
 * and the time x latency heatmap.  The memory sentences (huge pages, NUMA,
 * what each CPU part can show) run the analysis library's own queries
 * (spe/memory_report.h), so the text and HTML reports state the same rule.
 * Op-class names come from the facts table.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ana/fact_names.h" /* op_class_LOAD is "load" ... */
#include "report_sql.h"
#include "spe/clickhouse.h" /* SPE_CH_ROUNDED: SQL text only, no library */
#include "report/memory_report.h"
#include "spe/row_sink.h" /* SPE_CODES_*: the flame graphs group _spe_record on its integer codes */
#include "spe/spe.h"
#include "util/text.h"


/* Every id set is bound as a JSON array: "[1, 2, 3]" (ClickHouse: the tuple "(1, 2, 3)"). */
#define IDS(col) col " IN (SELECT value FROM json_each(?1))"
#define CH_IDS(col) col " IN ?1"
/* An integer as the views print addresses (analysis/store/views.c's HEX), for util_text_append. */
#define HEX(x) "CASE WHEN " x " IS NULL THEN NULL ELSE printf('0x%x', " x ") END"

/*
 * ClickHouse: the lowest latency of total_latency's log2 bucket
 * (report_latency_bucket), so the server counts per bucket and C, which
 * buckets that latency again, draws the same histogram from a few rows in
 * place of one per record.  log2 of an integer below 2^52 is exact enough
 * for floor().
 */
#define CH_BUCKET_LO "if(total_latency = 0, 0, bitShiftLeft(toInt64(1), toUInt8(floor(log2(total_latency)))))"

/*
 * ClickHouse: symbol rows with their mapping's columns (s_*, m_*), NULL
 * where the symbol has no mapping, as SQLite's LEFT JOIN: 18.16 joins by
 * USING on non-Nullable keys only, and fills unmatched rows with defaults,
 * which toNullable() makes NULL.
 */
#define CH_SYMBOL_MAPPING                                                                                   \
	"(SELECT * FROM (SELECT id AS s_id, name AS s_name, start AS s_start, size AS s_size, file AS s_file,\n" \
	"    line AS s_line, ifNull(mapping_id, 0) AS j_map FROM symbol) AS s\n"                                    \
	"  ANY LEFT JOIN (SELECT id AS j_map, toNullable(path) AS m_path, build_id AS m_build_id,\n"           \
	"    toNullable(start) AS m_start, toNullable(pgoff) AS m_pgoff FROM mapping) AS m USING j_map)"

/*
 * The ranked tables read a view in its own order (docs/schema.md) and then
 * by columns that tell its rows apart, so ties at the --top boundary keep
 * the same rows on either engine (a view's order is only its first keys;
 * ids are not the same on both, so they break no tie).
 */
#define THEN_BY_SYMBOL " symbol NULLS FIRST, mapping NULLS FIRST"
#define THEN_BY_PC " pc_value, symbol NULLS FIRST"

/* ClickHouse: `col IS ?N` (NULL-safe equality with a text parameter). */
#define CH_IS(col, param) "(" col " = " param " OR (isNull(" col ") AND isNull(" param ")))"

int report_latency_bucket(long long latency)
{
	int b = 0;
	while (latency > 0 && b < LATENCY_BUCKETS - 1) {
		latency >>= 1;
		b++;
	}
	return b;
}

long long report_latency_bucket_lo(int b)
{
	return b == 0 ? 0 : 1LL << (b - 1);
}

long long report_latency_bucket_hi(int b)
{
	return b == 0 ? 0 : (1LL << b) - 1;
}

/*
 * The heatmap and the per-level histograms stream their records to C, which
 * counts them into log2 buckets: a plain scan, where GROUP BY would sort
 * tens of millions of rows (4x the time on 10M records).
 */
static void append_heatmap(struct util_text *t, const char *clock, int ch)
{
	if (ch)
		util_text_appendf(t, "SELECT ifNull(cpu, 0) AS h_cpu, intDiv((%s - ?1) * ?3, ?2) AS h_slot,\n"
			       "  " CH_BUCKET_LO " AS h_lo, count()\n"
			       "FROM spe_record WHERE %s IS NOT NULL AND total_latency IS NOT NULL\n"
			       "GROUP BY h_cpu, h_slot, h_lo",
			    clock, clock);
	else
		util_text_appendf(t, "SELECT cpu, (%s - ?1) * ?3 / ?2, total_latency, 1\n"
			       "FROM spe_record WHERE %s IS NOT NULL AND total_latency IS NOT NULL",
			    clock, clock);
}

/*
 * The statement of @p q; @p ch: in ClickHouse's SQL where SQLite's is not
 * (the comment of each such case says what differs).
 */
static void build(enum report_query q, int ch, unsigned stored, struct util_text *t)
{
	switch (q) {
	case RQ_SOURCES:
	case RQ_SOURCES_BEFORE: {
		/* the counts load_stats gained within version 7: NULL (unknown) in a database written before */
		int later = q == RQ_SOURCES;
		if (ch) /* one JOIN, by USING */
			util_text_appendf(t, "SELECT id, file, kind, host, command_line, cpus, loaded_at, records, bad_bytes,\n"
				      "  skipped_bytes, partial_records, unknown_packets, lost_aux, no_mapping, no_symbol, no_time,\n"
				      "  %s\n"
				      "FROM source ANY LEFT JOIN (SELECT source_id AS id, records, bad_bytes, skipped_bytes,\n"
				      "  partial_records, unknown_packets, lost_aux, no_mapping, no_symbol, no_time%s FROM load_stats) AS ls\n"
				      "USING id ORDER BY host NULLS FIRST, file, id",
				      later ? "no_pid, kernel_no_symbol, out_of_order" : "NULL, NULL, NULL",
				      later ? ", no_pid, kernel_no_symbol, out_of_order" : "");
		else
			util_text_appendf(t, "SELECT s.id, s.file, s.kind, s.host, s.command_line, s.cpus, s.loaded_at, l.records,\n"
				      "  l.bad_bytes, l.skipped_bytes, l.partial_records, l.unknown_packets, l.lost_aux,\n"
				      "  l.no_mapping, l.no_symbol, l.no_time, %s\n"
				      "FROM source s LEFT JOIN load_stats l ON l.source_id = s.id\n"
				      "ORDER BY s.host NULLS FIRST, s.file, s.id",
				      later ? "l.no_pid, l.kernel_no_symbol, l.out_of_order" : "NULL, NULL, NULL");
		break;
	}
	case RQ_LOAD_COUNTS:
		if (ch)
			util_text_append(t, "SELECT count() FROM system.columns WHERE database = currentDatabase()\n"
				      "  AND table = 'load_stats' AND name = 'out_of_order'");
		else
			util_text_append(t, "SELECT count(*) FROM pragma_table_info('load_stats') WHERE name = 'out_of_order'");
		break;
	case RQ_CPUS:
		if (ch) /* no printf or group_concat: the hex padded by a 2^32 digit cut off, the CPUs sorted and joined */
			util_text_append(t, "SELECT part, concat('0x', lower(substring(hex(toUInt64(ifNull(midr, 0)) + 4294967296), 3)))\n"
				      "  AS midr_hex, spe_version, uniqExact(cpu),\n"
				      "  arrayStringConcat(arrayMap(x -> toString(x), arraySort(groupUniqArray(cpu))), ',')\n"
				      "FROM cpu GROUP BY part, midr, spe_version ORDER BY min(cpu)");
		else
			util_text_append(t, "SELECT part, printf('0x%08x', midr), spe_version, count(DISTINCT cpu),\n"
				      "  group_concat(DISTINCT cpu)\n"
				      "FROM (SELECT * FROM cpu ORDER BY cpu) GROUP BY part, midr ORDER BY min(cpu)");
		break;
	case RQ_SPAN:
		util_text_append(t, "SELECT count(*), min(time), max(time), count(time), min(ts), max(ts) FROM spe_record");
		break;
	case RQ_SPAN_STORED:
		/* what each load stored of its records (spe_loader_finish); NULL timed_records: an older load;
		   records said but none there (deleted by hand): not to be trusted */
		if (ch) /* ClickHouse keeps RQ_SPAN */
			util_text_append(t, "SELECT 0");
		else
			util_text_append(t, "SELECT count(*) > 0 AND count(l.timed_records) = count(*)\n"
				      "  AND (sum(l.records) > 0) = EXISTS (SELECT 1 FROM spe_record), sum(l.records),\n"
				      "  min(l.first_time), max(l.last_time), sum(l.timed_records), min(l.first_ts), max(l.last_ts)\n"
				      "FROM source s LEFT JOIN load_stats l ON l.source_id = s.id");
		break;
	case RQ_TOPDOWN_RUNS:
		if (ch) /* topdown runs are imported into SQLite only (spe-topdown import) */
			util_text_append(t, "SELECT 0");
		else
			util_text_append(t, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'topdown_run'");
		break;
	case RQ_MEM_LEVELS:
		util_text_append(t, "SELECT mem_level, loads, total_latency, mean_latency, latency_share FROM mem_level_summary");
		break;
	case RQ_LEVEL_LATENCY:
		if (stored & REPORT_STORED_LEVEL_LATENCY) /* counted per bucket by the loads: the same buckets */
			util_text_append(t, "SELECT ml.name AS mem_level, b.latency_lo, sum(b.samples) FROM level_latency_bucket b\n"
				      "LEFT JOIN spe_mem_level ml ON ml.code = b.mem_level GROUP BY b.mem_level, b.latency_lo");
		else if (ch) /* counted per bucket on the server */
			util_text_appendf(t, "SELECT mem_level, " CH_BUCKET_LO " AS lo, count() FROM spe_record\n"
				       "WHERE op_class = '%s' AND total_latency IS NOT NULL GROUP BY mem_level, lo",
				    op_class_LOAD);
		else
			util_text_appendf(t, "SELECT mem_level, total_latency, 1 FROM spe_record\n"
				       "WHERE op_class = '%s' AND total_latency IS NOT NULL",
				    op_class_LOAD);
		break;
	case RQ_HOT_SYMBOL:
		util_text_append(t, "SELECT symbol, mapping, src_file, src_line, samples, total_latency, mean_latency,\n"
			      "  p50, p90, p99, latency_share FROM hot_symbol\n"
			      "ORDER BY total_latency DESC, samples DESC," THEN_BY_SYMBOL " LIMIT ?1");
		break;
	case RQ_HOT_PC:
		util_text_append(t, "SELECT pc, symbol, symbol_offset, src_file, src_line, mnemonic, operands, samples,\n"
			      "  total_latency, mean_latency, p50, p90, p99, latency_share, pc_value, insn_id\n"
			      "FROM hot_pc ORDER BY total_latency DESC, samples DESC," THEN_BY_PC " LIMIT ?1");
		break;
	case RQ_PC_LATENCY_BY_PC:
		util_text_appendf(t, "SELECT pc, insn_id, total_latency, sum(samples) FROM pc_latency\n"
			       "WHERE %s GROUP BY pc, insn_id, total_latency",
			    ch ? CH_IDS("pc") : IDS("pc"));
		break;
	case RQ_PC_LATENCY_BY_SYMBOL:
		util_text_appendf(t, "SELECT symbol_id, pc, total_latency, sum(samples) FROM pc_latency\n"
			       "WHERE %s GROUP BY symbol_id, pc, total_latency",
			    ch ? CH_IDS("symbol_id") : IDS("symbol_id"));
		break;
	case RQ_LEVELS_BY_SYMBOL:
		if (stored & REPORT_STORED_PC_LEVELS) /* the loads counted per function by (PC, level): the same groups */
			util_text_append(t, "SELECT p.symbol_id, p.base_pc + json_extract(j.value, '$[0]') AS pc, ml.name AS mem_level,\n"
				      "  sum(json_extract(j.value, '$[2]')) FROM pc_level_stat p CROSS JOIN json_each(p.loads) j\n"
				      "LEFT JOIN spe_mem_level ml ON ml.code = json_extract(j.value, '$[1]')\n"
				      "WHERE " IDS("p.symbol_id") " GROUP BY 1, 2, 3");
		else
			util_text_appendf(t, "SELECT symbol_id, pc, mem_level, count(*) FROM spe_record\n"
			       "WHERE op_class = '%s' AND %s GROUP BY symbol_id, pc, mem_level",
			    op_class_LOAD, ch ? CH_IDS("symbol_id") : IDS("symbol_id"));
		break;
	case RQ_FUNCTION_COPIES:
		if (ch)
			util_text_append(t, "SELECT s_id, s_start, s_size, s_file, s_line, m_path, m_build_id, m_start, m_pgoff\n"
				      "FROM " CH_SYMBOL_MAPPING "\n"
				      "WHERE s_name = ?1 AND " CH_IS("m_path", "?2") " ORDER BY s_id");
		else
			util_text_append(t, "SELECT s.id, s.start, s.size, s.file, s.line, m.path, m.build_id, m.start, m.pgoff\n"
				      "FROM symbol s LEFT JOIN mapping m ON m.id = s.mapping_id\n"
				      "WHERE s.name = ?1 AND m.path IS ?2 ORDER BY s.id");
		break;
	case RQ_FUNCTION_BINARIES:
		/* each binary by its hottest copy of the function (by latency), then copies never sampled with latency */
		if (ch)
			util_text_append(t, "SELECT m_path FROM " CH_SYMBOL_MAPPING " AS sm\n"
				      "ANY LEFT JOIN (SELECT symbol_id AS s_id, toNullable(total_latency) AS st_total\n"
				      "  FROM symbol_summary) AS st USING s_id\n"
				      "WHERE s_name = ?1 GROUP BY m_path\n"
				      "ORDER BY max(ifNull(st_total, -1)) DESC, m_path NULLS FIRST");
		else
			util_text_append(t, "SELECT m.path FROM symbol s LEFT JOIN mapping m ON m.id = s.mapping_id\n"
				      "LEFT JOIN symbol_summary st ON st.symbol_id = s.id\n"
				      "WHERE s.name = ?1 GROUP BY m.path ORDER BY max(coalesce(st.total_latency, -1)) DESC, m.path");
		break;
	case RQ_INSN_BY_SYMBOL:
		util_text_appendf(t, "SELECT symbol_id, pc, mnemonic, operands, file, line, inline_function FROM insn\n"
			       "WHERE %s",
			    ch ? CH_IDS("symbol_id") : IDS("symbol_id"));
		break;
	case RQ_SYMBOL_SHARE:
		util_text_appendf(t, "SELECT latency_share FROM hot_symbol WHERE symbol = ?1 AND %s",
			    ch ? CH_IS("mapping", "?2") : "mapping IS ?2");
		break;
	case RQ_HEATMAP_TIME:
		append_heatmap(t, "time", ch);
		break;
	case RQ_HEATMAP_TS:
		append_heatmap(t, "ts", ch);
		break;
	case RQ_TLB_TOTALS:
		if (stored & REPORT_STORED_REGIONS) /* the regions' sums are their pages': NULL walks where every page's is */
			util_text_append(t, "SELECT sum(accesses), sum(tlb_walks), coalesce(sum(pages_4k), 0),\n"
				      "  CASE WHEN sum(tlb_walks) IS NOT NULL THEN sum(walked_pages_4k) END FROM page_region_stat");
		else
			util_text_append(t, "SELECT sum(accesses), sum(tlb_walks), count(*), sum(tlb_walks > 0) FROM tlb_hotspot");
		break;
	case RQ_TLB_HOTSPOT:
		util_text_append(t, "SELECT source_id, pid, page, accesses, tlb_walks, walk_ratio, translation_latency,\n"
			      "  mean_translation_latency FROM tlb_hotspot WHERE tlb_walks > 0\n"
			      "ORDER BY tlb_walks DESC, translation_latency DESC, accesses DESC, page_value, pid LIMIT ?1");
		break;
	case RQ_DATA_OBJECTS:
		util_text_appendf(t, "SELECT source_id, pid, kind, name, type, src_file, src_line, start, size, samples, loads,\n"
			       "  stores, total_latency, mean_latency, p99, latency_share, levels, data_object_id\n"
			       "FROM %s ORDER BY total_latency DESC, samples DESC, name, start NULLS FIRST, pid LIMIT ?1",
			    spe_hot_data_object_from(!!(stored & REPORT_STORED_DATA_OBJECTS)));
		break;
	case RQ_HUGE_PAGE_HINT:
		util_text_append(t, spe_huge_page_hint_sql(stored & REPORT_STORED_REGIONS));
		break;
	case RQ_PAGE_BUDGET: /* a ClickHouse load keeps every page (its data_page groups page_stat) */
		util_text_append(t, ch ? "SELECT 0, 0" : spe_page_budget_sql());
		break;
	case RQ_DATA_PAGES:
		/* one pass over data_page for both tables; ties by the page */
		if (stored & REPORT_STORED_REGIONS) /* data_page's order and columns, each part's top ?1 apart */
			util_text_append(t, "WITH x AS (SELECT source_id, sum(translation_latency) AS total FROM page_region_stat\n"
				      "  GROUP BY source_id),\n"
				      /* the regions: few (one a 2 MiB region touched), read whole */
				      "r AS (SELECT source_id, pid, region << 21 AS page_value, accesses, total_latency, timed, tlb_walks,\n"
				      "    translation_latency, pages_4k, walked_pages_4k, data_object_ids, 2097152 AS page_size\n"
				      "  FROM page_region_stat\n"
				      "  ORDER BY translation_latency DESC, tlb_walks DESC, accesses DESC, page_value, pid, source_id LIMIT ?1),\n"
				      /* the pages: one pass keeping the top ?1 (SQLite's sorter with a LIMIT), no grouping */
				      "p AS (SELECT source_id, pid, page << 12 AS page_value, accesses, total_latency, timed, tlb_walks,\n"
				      "    translation_latency, 1 AS pages_4k, CASE WHEN tlb_walks > 0 THEN 1 ELSE 0 END AS walked_pages_4k,\n"
				      "    data_object_ids, 4096 AS page_size\n"
				      "  FROM page_stat ORDER BY total_latency DESC, accesses DESC, page_value, pid, source_id LIMIT ?1),\n"
				      "u AS (SELECT * FROM r UNION ALL SELECT * FROM p)\n"
				      "SELECT u.source_id, u.pid, " HEX("u.page_value") " AS page, u.accesses, u.total_latency,\n"
				      "  round(1.0 * u.total_latency / nullif(u.timed, 0), 2) AS mean_latency, u.tlb_walks,\n"
				      "  u.translation_latency, round(100.0 * u.translation_latency / nullif(x.total, 0), 2) AS translation_share,\n"
				      "  u.pages_4k, u.walked_pages_4k,\n"
				      "  CASE WHEN u.data_object_ids IS NOT NULL THEN (SELECT group_concat(DISTINCT d.name)\n"
				      "    FROM json_each(u.data_object_ids) j JOIN data_object d ON d.id = j.value) END AS data_objects,\n"
				      "  (u.page_size = 2097152 AND u.walked_pages_4k >= 2) AS counted, u.page_size\n"
				      "FROM u JOIN x ON x.source_id = u.source_id\n"
				      "ORDER BY u.page_size DESC,\n"
				      "  CASE u.page_size WHEN 4096 THEN u.total_latency ELSE u.translation_latency END DESC,\n"
				      "  CASE u.page_size WHEN 4096 THEN u.accesses ELSE u.tlb_walks END DESC, u.accesses DESC,\n"
				      "  u.page_value, u.pid, u.source_id");
		else if (ch) /* no window functions: LIMIT n BY */
			util_text_append(t, "SELECT source_id, pid, page, accesses, total_latency, mean_latency, tlb_walks,\n"
				      "  translation_latency, translation_share, pages_4k, walked_pages_4k, data_objects,\n"
				      "  (" SPE_HUGE_PAGE_REGION_WHERE ") AS counted, page_size\n"
				      "FROM data_page\n"
				      "ORDER BY page_size DESC, if(page_size = 4096, toInt64(total_latency), toInt64(translation_latency)) DESC,\n"
				      "  if(page_size = 4096, toInt64(accesses), toInt64(tlb_walks)) DESC, accesses DESC, page_value, pid, source_id\n"
				      "LIMIT ?1 BY page_size");
		else
			util_text_append(t, "SELECT source_id, pid, page, accesses, total_latency, mean_latency, tlb_walks,\n"
				      "  translation_latency, translation_share, pages_4k, walked_pages_4k, data_objects, counted,\n"
				      "  page_size\n"
				      "FROM (SELECT *, (" SPE_HUGE_PAGE_REGION_WHERE ") AS counted,\n"
				      "        row_number() OVER (PARTITION BY page_size ORDER BY\n"
				      "          CASE page_size WHEN 4096 THEN total_latency ELSE translation_latency END DESC,\n"
				      "          CASE page_size WHEN 4096 THEN accesses ELSE tlb_walks END DESC, accesses DESC,\n"
				      "          page_value, pid, source_id) AS rank\n"
				      "      FROM data_page)\n"
				      "WHERE rank <= ?1 ORDER BY page_size DESC, rank");
		break;
	case RQ_NUMA_SUMMARY:
		util_text_append(t, spe_numa_summary_sql());
		break;
	case RQ_NUMA_TRAFFIC:
		util_text_append(t, "SELECT source_id, cpu_node, memory_node, basis, remote, loads, total_latency, mean_latency,\n"
			      "  remote_access_events FROM numa_traffic\n"
			      "ORDER BY total_latency DESC, loads DESC, cpu_node NULLS FIRST, memory_node NULLS FIRST, basis");
		break;
	case RQ_CACHELINE:
		util_text_append(t, "SELECT pid, line, accesses, loads, stores, cpus, threads, offsets, snooped, hitm,\n"
			      "  peer_hits, total_latency, symbols, writes, remote_hits, data_objects, source_id\n"
			      "FROM cacheline_sharing ORDER BY hitm + peer_hits + coalesce(snooped, 0) DESC, accesses DESC, line, pid\n"
			      "LIMIT ?1");
		break;
	case RQ_PREFETCH:
		util_text_append(t, "SELECT pc, symbol, symbol_offset, data_object, loads, late_prefetch, late_rate,\n"
			      "  recently_fetched, late_latency, total_latency, mean_latency FROM prefetch\n"
			      "ORDER BY coalesce(late_latency, 0) DESC, late_prefetch DESC, recently_fetched DESC," THEN_BY_PC " LIMIT ?1");
		break;
	case RQ_MEMORY_PARTS:
		if (ch) /* spe_memory_parts_sql()'s sentence: one JOIN per SELECT, no EXISTS, if() for CASE */
			util_text_append(t, "SELECT concat(p, ': ', if(ifNull(coherence, 0) != 0,\n"
				      "    'records the HITM and snoop events (SPEv1.4)',\n"
				      "    concat('no HITM or snoop events (SPE ', ifNull(version, '?'), ')')), '; ',\n"
				      "  if(modified > 0, 'data sources mark modified lines', 'data sources mark no modified line'), '; ',\n"
				      "  if(isNull(late_bit), 'no late-prefetch event',\n"
				      "    concat('late prefetch is IMPDEF bit ', toString(assumeNotNull(late_bit))))) AS part\n"
				      "FROM (SELECT * FROM (SELECT DISTINCT assumeNotNull(part) AS p FROM cpu WHERE part IS NOT NULL) AS c\n"
				      "  ANY LEFT JOIN (SELECT part AS p, coherence_events AS coherence, spe_version AS version,\n"
				      "    late_prefetch_bit AS late_bit FROM spe_part_fact) AS f USING p) AS cf\n"
				      "ANY LEFT JOIN (SELECT part AS p, max(modified) AS modified FROM spe_data_source_fact GROUP BY p) AS d\n"
				      "USING p ORDER BY p");
		else
			util_text_append(t, spe_memory_parts_sql());
		break;
	case RQ_MISPREDICT_BY_SYMBOL:
		if (ch) /* a sum's alias may not be its column's name; the rate rounded as SQLite's round() */
			util_text_append(t, "SELECT symbol, sum(branches) AS n_branches, sum(mispredicted) AS n_mispredicted,\n"
				      "  " SPE_CH_ROUNDED("n_mispredicted", "n_branches", "1000") " AS rate\n"
				      "FROM branch_mispredict GROUP BY symbol\n"
				      "ORDER BY n_mispredicted DESC, n_branches DESC, symbol NULLS FIRST LIMIT ?1");
		else
			util_text_append(t, "SELECT symbol, sum(branches) AS branches, sum(mispredicted) AS mispredicted,\n"
				      "  round(1.0 * sum(mispredicted) / sum(branches), 3) AS rate\n"
				      "FROM branch_mispredict GROUP BY symbol ORDER BY mispredicted DESC, branches DESC, symbol NULLS FIRST LIMIT ?1");
		break;
	case RQ_MISPREDICT_BY_PC:
		util_text_append(t, "SELECT pc, symbol, src_file, src_line, mnemonic, operands, branches, mispredicted,\n"
			      "  mispredict_rate FROM branch_mispredict ORDER BY mispredicted DESC, branches DESC," THEN_BY_PC " LIMIT ?1");
		break;
	/*
	 * The drill-down: the records with a data object grouped on the integer ids first (as the flame
	 * graphs, below), then named; a function is a name in a binary (path), as in hot_symbol, across
	 * processes; a data object of the functions' lists is a name and type, across processes.
	 */
	case RQ_DRILL_OBJECT_FUNCTIONS:
		util_text_append(t, "WITH r AS (SELECT data_object_id AS o, insn_id, count(*) AS n, sum(total_latency) AS lat\n"
			      "  FROM _spe_record WHERE data_object_id IS NOT NULL GROUP BY 1, 2),\n"
			      "g AS (SELECT r.o, s.name AS fn, m.path AS bin, sum(r.n) AS n, sum(r.lat) AS lat FROM r\n"
			      "  LEFT JOIN insn i ON i.id = r.insn_id LEFT JOIN symbol s ON s.id = i.symbol_id\n"
			      "  LEFT JOIN mapping m ON m.id = s.mapping_id GROUP BY 1, 2, 3),\n"
			      "k AS (SELECT *, row_number() OVER (PARTITION BY o ORDER BY lat DESC NULLS LAST, n DESC, fn, bin) AS k FROM g)\n"
			      "SELECT o, fn, bin, n, lat FROM k WHERE k <= ?1 ORDER BY o, k");
		break;
	case RQ_DRILL_FUNCTION_OBJECTS:
		util_text_append(t, "WITH r AS (SELECT insn_id, data_object_id AS o, count(*) AS n, sum(total_latency) AS lat\n"
			      "  FROM _spe_record WHERE data_object_id IS NOT NULL GROUP BY 1, 2),\n"
			      "g AS (SELECT s.name AS fn, m.path AS bin, d.name AS obj, d.type AS type, sum(r.n) AS n, sum(r.lat) AS lat\n"
			      "  FROM r JOIN data_object d ON d.id = r.o LEFT JOIN insn i ON i.id = r.insn_id\n"
			      "  LEFT JOIN symbol s ON s.id = i.symbol_id\n"
			      "  LEFT JOIN mapping m ON m.id = s.mapping_id GROUP BY 1, 2, 3, 4),\n"
			      "k AS (SELECT *, row_number() OVER (PARTITION BY fn, bin ORDER BY lat DESC NULLS LAST, n DESC, obj, type) AS k\n"
			      "  FROM g)\n"
			      "SELECT fn, bin, obj, type, n, lat FROM k WHERE k <= ?1 ORDER BY fn, bin, k");
		break;
	/*
	 * A shared line's functions and threads: the records of the line's address space (source, pid) whose data
	 * address is in it, as cacheline_sharing counts them (data_va >> 6).
	 */
	case RQ_DRILL_LINE_FUNCTIONS:
	case RQ_DRILL_LINE_THREADS: {
		int fns = q == RQ_DRILL_LINE_FUNCTIONS;
		/* one scan of the records, each tested against the few lines (a lookup), then matched: CROSS JOIN keeps
		   the records the outer loop (with l outside, a scan per line took 1.2 s at a million records) */
		util_text_appendf(t, "WITH l AS MATERIALIZED (SELECT json_extract(value, '$[0]') AS k, json_extract(value, '$[1]') AS src,\n"
			       "  json_extract(value, '$[2]') AS pid, json_extract(value, '$[3]') >> 6 AS line\n"
			       "  FROM json_each(?1)),\n"
			       "r AS (SELECT l.k, r.%s, count(*) AS n, sum(r.total_latency) AS lat FROM _spe_record r\n"
			       "  CROSS JOIN l ON r.source_id = l.src AND r.pid IS l.pid AND r.data_va >> 6 = l.line\n"
			       "  WHERE r.data_va >> 6 IN (SELECT line FROM l) GROUP BY %s),\n",
			    fns ? "insn_id" : "source_id, r.tid", fns ? "1, 2" : "1, 2, 3");
		if (fns)
			util_text_append(t, "g AS (SELECT r.k, coalesce(s.name, '(no symbol)') AS name, m.path AS detail, sum(r.n) AS n,\n"
				      "  sum(r.lat) AS lat FROM r LEFT JOIN insn i ON i.id = r.insn_id LEFT JOIN symbol s ON s.id = i.symbol_id\n"
				      "  LEFT JOIN mapping m ON m.id = s.mapping_id GROUP BY 1, 2, 3),\n");
		else
			util_text_append(t, "g AS (SELECT r.k, CASE WHEN r.tid IS NULL THEN '(unknown thread)' ELSE 'tid ' || r.tid END AS name,\n"
				      "  th.comm AS detail, sum(r.n) AS n, sum(r.lat) AS lat FROM r\n"
				      "  LEFT JOIN thread th ON th.source_id = r.source_id AND th.tid = r.tid GROUP BY 1, 2, 3),\n");
		util_text_append(t, "k AS (SELECT *, row_number() OVER (PARTITION BY k ORDER BY lat DESC NULLS LAST, n DESC, name, detail) AS kk\n"
			      "  FROM g)\n"
			      "SELECT k, name, detail, n, lat FROM k WHERE kk <= ?2 ORDER BY k, kk");
		break;
	}
	/* The annotation of any function (the instructions table's rows, by function) and an instruction's data. */
	case RQ_ANN_INSNS:
		util_text_append(t, "SELECT i.id, s.name, m.path, i.file, i.line FROM insn i LEFT JOIN symbol s ON s.id = i.symbol_id\n"
			      "LEFT JOIN mapping m ON m.id = s.mapping_id WHERE i.id IN (SELECT value FROM json_each(?1))");
		break;
	case RQ_PC_ADDRESSES:
		util_text_append(t, "WITH a AS (SELECT insn_id AS id, data_va AS va, data_object_id AS obj, count(*) AS n,\n"
			      "  sum(total_latency) AS lat FROM _spe_record\n"
			      "  WHERE insn_id IN (SELECT value FROM json_each(?1)) AND data_va IS NOT NULL GROUP BY 1, 2, 3),\n"
			      "g AS (SELECT id, 0 AS kind, printf('0x%x', va & ~4095) AS addr, sum(n) AS n, sum(lat) AS lat FROM a\n"
			      "  GROUP BY 1, 2, 3\n"
			      "  UNION ALL SELECT id, 1, printf('0x%x', va & ~63), sum(n), sum(lat) FROM a GROUP BY 1, 2, 3\n"
			      "  UNION ALL SELECT id, 2, printf('0x%x', va), sum(n), sum(lat) FROM a GROUP BY 1, 2, 3\n"
			      "  UNION ALL SELECT a.id, 3, d.name, sum(a.n), sum(a.lat) FROM a JOIN data_object d ON d.id = a.obj\n"
			      "  GROUP BY 1, 2, 3),\n"
			      "k AS (SELECT *, row_number() OVER (PARTITION BY id, kind\n"
			      "  ORDER BY lat DESC NULLS LAST, n DESC, CASE WHEN kind < 3 THEN length(addr) END, addr) AS k FROM g)\n"
			      "SELECT id, kind, addr, n, lat FROM k WHERE k <= ?2 ORDER BY id, kind, k");
		break;
	/*
	 * The flame graphs group the table under spe_record on its integer columns first (the view's joins per
	 * record cost seconds at a million records), then name the groups as the view would: the memory level
	 * from the codes' level bits, else the op class from the op bits (schema.c, spe_record).  An
	 * instruction under FLAME_MIN (1/2000) of the total would not be drawn: its latency comes as one row
	 * per function with NULL below (sorted first), so the rows to sort are about the functions' count.
	 */
	case RQ_FLAME_CODE:
	case RQ_FLAME_DATA: {
		int data = q == RQ_FLAME_DATA;
		const char *obj = data ? "data_object_id, " : "";
		util_text_appendf(t, "WITH r AS (SELECT %sinsn_id, codes & %u AS k, sum(total_latency) AS lat FROM _spe_record\n"
			       "  WHERE total_latency > 0%s GROUP BY %sinsn_id, k),\n"
			       "g AS (SELECT %sr.insn_id, coalesce(ml.name, oc.op_class, 'unknown') AS lvl, sum(r.lat) AS lat FROM r\n"
			       "  LEFT JOIN spe_mem_level ml ON ml.code = (r.k >> %d) & 31\n"
			       "  LEFT JOIN spe_op_code oc ON oc.code = r.k & %u GROUP BY %sr.insn_id, lvl),\n"
			       "p AS (SELECT %sinsn_id, sum(lat) AS lat FROM g GROUP BY %sinsn_id),\n"
			       "big AS (SELECT %sinsn_id FROM p WHERE lat >= (SELECT sum(lat) FROM p) / 2000.0)\n",
			    data ? "data_object_id, " : "",
			    (31u << SPE_CODES_MEM_LEVEL_SHIFT) | SPE_CODES_HAS_OP | SPE_CODES_OP_RAW_MASK,
			    data ? " AND data_object_id IS NOT NULL" : "", obj, data ? "r.data_object_id, " : "",
			    SPE_CODES_MEM_LEVEL_SHIFT, SPE_CODES_HAS_OP | SPE_CODES_OP_RAW_MASK, data ? "r.data_object_id, " : "",
			    obj, obj, obj);
		const char *insn_name = "CASE WHEN i.id IS NULL THEN '(no instruction)' ELSE printf('0x%x ', i.pc) || "
					"coalesce(i.mnemonic, '?') || ' ' || coalesce(i.operands, '') END";
		if (!data) {
			util_text_appendf(t,
				"SELECT coalesce(m.path, '(no mapping)'), coalesce(s.name, '(no symbol)'),\n"
				"  CASE WHEN i.file IS NULL THEN '(no line)' ELSE i.file || ':' || coalesce(i.line, '?') END,\n"
				"  %s, g.lvl, g.lat, (SELECT sum(lat) FROM p)\n"
				"FROM g JOIN big ON big.insn_id IS g.insn_id LEFT JOIN insn i ON i.id = g.insn_id\n"
				"LEFT JOIN symbol s ON s.id = i.symbol_id LEFT JOIN mapping m ON m.id = i.mapping_id\n"
				"UNION ALL\n"
				"SELECT coalesce(m.path, '(no mapping)'), coalesce(s.name, '(no symbol)'), NULL, NULL, NULL, sum(p.lat),\n"
				"  (SELECT sum(lat) FROM p)\n"
				"FROM p LEFT JOIN insn i ON i.id = p.insn_id LEFT JOIN symbol s ON s.id = i.symbol_id\n"
				"LEFT JOIN mapping m ON m.id = i.mapping_id\n"
				"WHERE NOT EXISTS (SELECT 1 FROM big WHERE big.insn_id IS p.insn_id)\n"
				"GROUP BY 1, 2 ORDER BY 1, 2, 3, 4, 5",
				insn_name);
		} else {
			util_text_appendf(t,
				"SELECT d.name || coalesce(' (' || d.type || ')', ''), coalesce(s.name, '(no symbol)'),\n"
				"  %s, g.lvl, g.lat, (SELECT sum(lat) FROM p)\n"
				"FROM g JOIN big ON big.data_object_id = g.data_object_id AND big.insn_id IS g.insn_id\n"
				"JOIN data_object d ON d.id = g.data_object_id LEFT JOIN insn i ON i.id = g.insn_id\n"
				"LEFT JOIN symbol s ON s.id = i.symbol_id\n"
				"UNION ALL\n"
				"SELECT d.name || coalesce(' (' || d.type || ')', ''), coalesce(s.name, '(no symbol)'), NULL, NULL,\n"
				"  sum(p.lat), (SELECT sum(lat) FROM p)\n"
				"FROM p JOIN data_object d ON d.id = p.data_object_id LEFT JOIN insn i ON i.id = p.insn_id\n"
				"LEFT JOIN symbol s ON s.id = i.symbol_id\n"
				"WHERE NOT EXISTS (SELECT 1 FROM big WHERE big.data_object_id = p.data_object_id AND big.insn_id IS p.insn_id)\n"
				"GROUP BY 1, 2 ORDER BY 1, 2, 3, 4",
				insn_name);
		}
		break;
	}
	case RQ_COUNT:
		break;
	}
}

static const char *const names[RQ_COUNT] = {
	[RQ_SOURCES] = "sources",
	[RQ_SOURCES_BEFORE] = "sources_before_load_counts",
	[RQ_LOAD_COUNTS] = "has_load_counts",
	[RQ_CPUS] = "cpus",
	[RQ_SPAN] = "span",
	[RQ_SPAN_STORED] = "span_stored",
	[RQ_TOPDOWN_RUNS] = "has_topdown",
	[RQ_MEM_LEVELS] = "mem_level_summary",
	[RQ_LEVEL_LATENCY] = "latency_by_level",
	[RQ_HOT_SYMBOL] = "hot_symbol",
	[RQ_HOT_PC] = "hot_pc",
	[RQ_PC_LATENCY_BY_PC] = "pc_latency_by_pc",
	[RQ_PC_LATENCY_BY_SYMBOL] = "pc_latency_by_symbol",
	[RQ_LEVELS_BY_SYMBOL] = "levels_by_symbol",
	[RQ_FUNCTION_COPIES] = "function_copies",
	[RQ_FUNCTION_BINARIES] = "function_binaries",
	[RQ_INSN_BY_SYMBOL] = "insn_by_symbol",
	[RQ_SYMBOL_SHARE] = "symbol_share",
	[RQ_HEATMAP_TIME] = "heatmap",
	[RQ_HEATMAP_TS] = "heatmap_ts",
	[RQ_TLB_TOTALS] = "tlb_totals",
	[RQ_TLB_HOTSPOT] = "tlb_hotspot",
	[RQ_DATA_OBJECTS] = "hot_data_object",
	[RQ_HUGE_PAGE_HINT] = "huge_page_hint",
	[RQ_PAGE_BUDGET] = "page_budget",
	[RQ_DATA_PAGES] = "data_page",
	[RQ_NUMA_SUMMARY] = "numa_summary",
	[RQ_NUMA_TRAFFIC] = "numa_traffic",
	[RQ_CACHELINE] = "cacheline_sharing",
	[RQ_PREFETCH] = "prefetch",
	[RQ_MEMORY_PARTS] = "memory_parts",
	[RQ_MISPREDICT_BY_SYMBOL] = "mispredict_by_symbol",
	[RQ_MISPREDICT_BY_PC] = "branch_mispredict",
	[RQ_FLAME_CODE] = "flame_by_code",
	[RQ_FLAME_DATA] = "flame_by_data_object",
	[RQ_DRILL_OBJECT_FUNCTIONS] = "data_object_functions",
	[RQ_DRILL_FUNCTION_OBJECTS] = "function_data_objects",
	[RQ_DRILL_LINE_FUNCTIONS] = "cache_line_functions",
	[RQ_DRILL_LINE_THREADS] = "cache_line_threads",
	[RQ_ANN_INSNS] = "insn_functions",
	[RQ_PC_ADDRESSES] = "pc_data_addresses",
};

const char *report_query_name(enum report_query q)
{
	return q < RQ_COUNT ? names[q] : "?";
}

char *report_query_sql(enum report_query q, enum report_dialect d, unsigned stored)
{
	if (q >= RQ_COUNT)
		return NULL;
	struct util_text t = { 0 };
	build(q, d == REPORT_CLICKHOUSE, d == REPORT_CLICKHOUSE ? 0 : stored, &t);
	if (!util_text_ok(&t)) {
		util_text_fini(&t);
		return NULL;
	}
	return t.buf;
}
