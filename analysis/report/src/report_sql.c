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

#include "fact_names.h" /* op_class_LOAD is "load" ... (analysis/src) */
#include "report_sql.h"
#include "spe/memory_report.h"
#include "spe/spe.h"
#include "util/text.h"


/* Every id set is bound as a JSON array: "[1, 2, 3]". */
#define IDS(col) col " IN (SELECT value FROM json_each(?1))"

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
static void append_heatmap(struct util_text *t, const char *clock)
{
	util_text_appendf(t, "SELECT cpu, (%s - ?1) * ?3 / ?2, total_latency\n"
		       "FROM spe_record WHERE %s IS NOT NULL AND total_latency IS NOT NULL",
		    clock, clock);
}

static void build(enum report_query q, struct util_text *t)
{
	switch (q) {
	case RQ_SOURCES:
		util_text_append(t, "SELECT s.id, s.file, s.kind, s.host, s.command_line, s.cpus, s.loaded_at, l.records,\n"
			      "  l.bad_bytes, l.skipped_bytes, l.partial_records, l.unknown_packets, l.lost_aux,\n"
			      "  l.no_mapping, l.no_symbol, l.no_time\n"
			      "FROM source s LEFT JOIN load_stats l ON l.source_id = s.id ORDER BY s.id");
		break;
	case RQ_CPUS:
		util_text_append(t, "SELECT part, printf('0x%08x', midr), spe_version, count(DISTINCT cpu),\n"
			      "  group_concat(DISTINCT cpu)\n"
			      "FROM (SELECT * FROM cpu ORDER BY cpu) GROUP BY part, midr ORDER BY min(cpu)");
		break;
	case RQ_SPAN:
		util_text_append(t, "SELECT count(*), min(time), max(time), count(time), min(ts), max(ts) FROM spe_record");
		break;
	case RQ_TOPDOWN_RUNS:
		util_text_append(t, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'topdown_run'");
		break;
	case RQ_MEM_LEVELS:
		util_text_append(t, "SELECT mem_level, loads, total_latency, mean_latency, latency_share FROM mem_level_summary");
		break;
	case RQ_LEVEL_LATENCY:
		util_text_appendf(t, "SELECT mem_level, total_latency FROM spe_record\n"
			       "WHERE op_class = '%s' AND total_latency IS NOT NULL",
			    op_class_LOAD);
		break;
	case RQ_HOT_SYMBOL:
		util_text_append(t, "SELECT symbol, mapping, src_file, src_line, samples, total_latency, mean_latency,\n"
			      "  p50, p90, p99, latency_share FROM hot_symbol LIMIT ?1");
		break;
	case RQ_HOT_PC:
		util_text_append(t, "SELECT pc, symbol, symbol_offset, src_file, src_line, mnemonic, operands, samples,\n"
			      "  total_latency, mean_latency, p50, p90, p99, latency_share, pc_value, insn_id\n"
			      "FROM hot_pc LIMIT ?1");
		break;
	case RQ_PC_LATENCY_BY_PC:
		util_text_append(t, "SELECT pc, insn_id, total_latency, sum(samples) FROM pc_latency\n"
			      "WHERE " IDS("pc") " GROUP BY pc, insn_id, total_latency");
		break;
	case RQ_PC_LATENCY_BY_SYMBOL:
		util_text_append(t, "SELECT symbol_id, pc, total_latency, sum(samples) FROM pc_latency\n"
			      "WHERE " IDS("symbol_id") " GROUP BY symbol_id, pc, total_latency");
		break;
	case RQ_LEVELS_BY_SYMBOL:
		util_text_appendf(t, "SELECT symbol_id, pc, mem_level, count(*) FROM spe_record\n"
			       "WHERE op_class = '%s' AND " IDS("symbol_id") " GROUP BY symbol_id, pc, mem_level",
			    op_class_LOAD);
		break;
	case RQ_FUNCTION_COPIES:
		util_text_append(t, "SELECT s.id, s.start, s.size, s.file, s.line, m.path, m.build_id, m.start, m.pgoff\n"
			      "FROM symbol s LEFT JOIN mapping m ON m.id = s.mapping_id\n"
			      "WHERE s.name = ?1 AND m.path IS ?2 ORDER BY s.id");
		break;
	case RQ_FUNCTION_BINARIES:
		/* hot_symbol's rows of that name first (by latency), then copies never sampled with latency */
		util_text_append(t, "SELECT DISTINCT m.path FROM symbol s LEFT JOIN mapping m ON m.id = s.mapping_id\n"
			      "LEFT JOIN symbol_summary st ON st.symbol_id = s.id\n"
			      "WHERE s.name = ?1 ORDER BY coalesce(st.total_latency, -1) DESC, m.path");
		break;
	case RQ_INSN_BY_SYMBOL:
		util_text_append(t, "SELECT symbol_id, pc, mnemonic, operands, file, line, inline_function FROM insn\n"
			      "WHERE " IDS("symbol_id"));
		break;
	case RQ_SYMBOL_SHARE:
		util_text_append(t, "SELECT latency_share FROM hot_symbol WHERE symbol = ?1 AND mapping IS ?2");
		break;
	case RQ_HEATMAP_TIME:
		append_heatmap(t, "time");
		break;
	case RQ_HEATMAP_TS:
		append_heatmap(t, "ts");
		break;
	case RQ_TLB_HOTSPOT:
		util_text_append(t, "SELECT source_id, pid, page, accesses, tlb_walks, walk_ratio, translation_latency,\n"
			      "  mean_translation_latency FROM tlb_hotspot");
		break;
	case RQ_DATA_OBJECTS:
		util_text_append(t, "SELECT source_id, pid, kind, name, type, src_file, src_line, start, size, samples, loads,\n"
			      "  stores, total_latency, mean_latency, p99, latency_share, levels\n"
			      "FROM hot_data_object LIMIT ?1");
		break;
	case RQ_HUGE_PAGE_HINT:
		util_text_append(t, spe_huge_page_hint_sql());
		break;
	case RQ_DATA_PAGES:
		/* one pass over data_page for both tables: it scans spe_record */
		util_text_append(t, "SELECT source_id, pid, page, accesses, total_latency, mean_latency, tlb_walks,\n"
			      "  translation_latency, translation_share, pages_4k, walked_pages_4k, data_objects, counted,\n"
			      "  page_size\n"
			      "FROM (SELECT *, (" SPE_HUGE_PAGE_REGION_WHERE ") AS counted,\n"
			      "        row_number() OVER (PARTITION BY page_size ORDER BY\n"
			      "          CASE page_size WHEN 4096 THEN total_latency ELSE translation_latency END DESC,\n"
			      "          CASE page_size WHEN 4096 THEN accesses ELSE tlb_walks END DESC, accesses DESC) AS rank\n"
			      "      FROM data_page)\n"
			      "WHERE rank <= ?1 ORDER BY page_size DESC, rank");
		break;
	case RQ_NUMA_SUMMARY:
		util_text_append(t, spe_numa_summary_sql());
		break;
	case RQ_NUMA_TRAFFIC:
		util_text_append(t, "SELECT source_id, cpu_node, memory_node, basis, remote, loads, total_latency, mean_latency,\n"
			      "  remote_access_events FROM numa_traffic");
		break;
	case RQ_CACHELINE:
		util_text_append(t, "SELECT pid, line, accesses, loads, stores, cpus, threads, offsets, snooped, hitm,\n"
			      "  peer_hits, total_latency, symbols, writes, remote_hits, data_objects, source_id\n"
			      "FROM cacheline_sharing LIMIT ?1");
		break;
	case RQ_PREFETCH:
		util_text_append(t, "SELECT pc, symbol, symbol_offset, data_object, loads, late_prefetch, late_rate,\n"
			      "  recently_fetched, late_latency, total_latency, mean_latency FROM prefetch LIMIT ?1");
		break;
	case RQ_MEMORY_PARTS:
		util_text_append(t, spe_memory_parts_sql());
		break;
	case RQ_MISPREDICT_BY_SYMBOL:
		util_text_append(t, "SELECT symbol, sum(branches) AS branches, sum(mispredicted) AS mispredicted,\n"
			      "  round(1.0 * sum(mispredicted) / sum(branches), 3) AS rate\n"
			      "FROM branch_mispredict GROUP BY symbol ORDER BY mispredicted DESC, branches DESC LIMIT ?1");
		break;
	case RQ_MISPREDICT_BY_PC:
		util_text_append(t, "SELECT pc, symbol, src_file, src_line, mnemonic, operands, branches, mispredicted,\n"
			      "  mispredict_rate FROM branch_mispredict LIMIT ?1");
		break;
	case RQ_COUNT:
		break;
	}
}

static const char *const names[RQ_COUNT] = {
	[RQ_SOURCES] = "sources",
	[RQ_CPUS] = "cpus",
	[RQ_SPAN] = "span",
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
	[RQ_TLB_HOTSPOT] = "tlb_hotspot",
	[RQ_DATA_OBJECTS] = "hot_data_object",
	[RQ_HUGE_PAGE_HINT] = "huge_page_hint",
	[RQ_DATA_PAGES] = "data_page",
	[RQ_NUMA_SUMMARY] = "numa_summary",
	[RQ_NUMA_TRAFFIC] = "numa_traffic",
	[RQ_CACHELINE] = "cacheline_sharing",
	[RQ_PREFETCH] = "prefetch",
	[RQ_MEMORY_PARTS] = "memory_parts",
	[RQ_MISPREDICT_BY_SYMBOL] = "mispredict_by_symbol",
	[RQ_MISPREDICT_BY_PC] = "branch_mispredict",
};

const char *report_query_name(enum report_query q)
{
	return q < RQ_COUNT ? names[q] : "?";
}

char *report_query_sql(enum report_query q)
{
	if (q >= RQ_COUNT)
		return NULL;
	struct util_text t = { 0 };
	build(q, &t);
	if (!util_text_ok(&t)) {
		util_text_free(&t);
		return NULL;
	}
	return t.buf;
}
