/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The built-in views (docs/schema.md lists their columns; they are a
 * contract: spe-report and users query them).  Hex and text rendering
 * happen only here, never in the tables.
 *
 * Percentiles are nearest-rank: pN is the smallest latency L such that at
 * least N% of the group's samples have latency <= L.  They are computed in
 * plain SQL (window sums over (group, latency) counts), so the views work in
 * any SQLite >= 3.31 shell, not only through spe-query.
 */
#include <stdio.h>

#include <sqlite3.h>

#include "db_internal.h"
#include "ana/fact_names.h" /* op_class_LOAD is "load", mem_level_DRAM "dram" ... */
#include "ana/memory_schema.h"
#include "util/text.h"
#include "spe/analysis.h"


/* NULL stays NULL; SQLite's printf would print 0x0. */
#define HEX(x) "CASE WHEN " x " IS NULL THEN NULL ELSE printf('0x%x', " x ") END"
/* The same inside a format string of util_text_appendf(). */
#define HEXF(x) "CASE WHEN " x " IS NULL THEN NULL ELSE printf('0x%%x', " x ") END"

static void append_spe_sample(struct util_text *t)
{
	util_text_append(t, "CREATE VIEW spe_sample AS SELECT\n"
		      "  r.id, r.source_id, r.time, r.ts, r.cpu, r.pid, r.tid, th.comm,\n"
		      "  " HEX("r.pc") " AS pc, r.el, r.op_class, r.op,\n"
		      "  s.name AS symbol, r.pc - s.start AS symbol_offset,\n"
		      "  i.file AS src_file, i.line AS src_line, i.inline_function,\n"
		      "  m.path AS mapping, i.mnemonic, i.operands,\n");
#define SPE_X(idx, id, word, col, desc) util_text_appendf(t, "  r.%s,\n", col);
	SPE_COUNTER_LIST(SPE_X)
#undef SPE_X
	util_text_append(t, "  r.mem_level, " HEX("r.data_source") " AS data_source,\n"
		      "  " HEX("r.data_va") " AS data_va, " HEX("r.data_pa") " AS data_pa,\n"
		      "  " HEX("r.branch_target") " AS branch_target,\n"
		      "  " HEX("r.prev_branch_target") " AS prev_branch_target,\n"
		      "  " HEX("r.events") " AS events,\n"
		      "  rtrim(''");
#define SPE_X(bit, id, word, col, since, desc) util_text_appendf(t, " || CASE WHEN r.%s THEN '%s ' ELSE '' END", col, col);
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	util_text_append(t, ") AS event_names,\n"
		      "  r.context, r.pc AS pc_value, r.data_va AS data_va_value,\n"
		      "  d.name AS data_object, r.data_object_id\n"
		      "FROM spe_record r\n"
		      "LEFT JOIN symbol s ON s.id = r.symbol_id\n"
		      "LEFT JOIN insn i ON i.id = r.insn_id\n"
		      "LEFT JOIN mapping m ON m.id = r.mapping_id\n"
		      "LEFT JOIN data_object d ON d.id = r.data_object_id\n"
		      "LEFT JOIN thread th ON th.source_id = r.source_id AND th.tid = r.tid;\n");
}

/*
 * hot_symbol and hot_pc read the summaries the loader computes from
 * pc_latency at the end of every load (latency_rollup.c): computing
 * percentiles here, at query time, sorted every pc_latency row (tens of
 * seconds on a 10M-record capture).
 */
#define LATENCY_COLUMNS                                                                      \
	"  st.samples, st.total_latency,\n"                                                  \
	"  round(1.0 * st.total_latency / nullif(st.timed, 0), 2) AS mean_latency,\n"        \
	"  st.p50, st.p90, st.p99,\n"                                                        \
	"  round(100.0 * st.total_latency / nullif(e.total, 0), 2) AS latency_share\n"
/* every record's latency: the functions' sum (each record is in one function) */
#define EVERYTHING "(SELECT sum(total_latency) AS total FROM symbol_summary) e"

static void append_hot_symbol(struct util_text *t)
{
	/*
	 * one row per function of a file, across processes and sources; the
	 * records without a function: one row for user code, one per kernel map
	 * (its path: [kernel.kallsyms], a module's)
	 */
	util_text_append(t, "CREATE VIEW hot_symbol AS\n"
		      "SELECT s.name AS symbol, coalesce(m.path, km.path) AS mapping, s.file AS src_file, s.line AS src_line,\n"
		      LATENCY_COLUMNS ",  st.symbol_id\n"
		      "FROM symbol_summary st CROSS JOIN " EVERYTHING "\n"
		      "LEFT JOIN symbol s ON s.id = st.symbol_id\n"
		      "LEFT JOIN mapping m ON m.id = s.mapping_id\n"
		      "LEFT JOIN mapping km ON km.id = st.mapping_id\n"
		      "ORDER BY st.total_latency DESC, st.samples DESC;\n");
}

/*
 * _hot_pc holds the statistics in this order (latency_rollup.c); the names
 * come from insn and symbol by id, as branch_mispredict's do, and the PC
 * from insn when it has a row (_hot_pc.pc_value holds only the others'):
 * the names stored beside each PC were a third of a database's bytes on
 * captures of hundreds of thousands of PCs.  latency_share's denominator,
 * every record's total latency, is symbol_summary's sum (each record is in
 * one function), a table a tenth as long.
 */
#define HOT_PC_VALUE "coalesce(h.pc_value, i.pc)"
static void append_hot_pc(struct util_text *t)
{
	util_text_append(t, "CREATE VIEW hot_pc AS\n"
		      "SELECT " HEX(HOT_PC_VALUE) " AS pc, s.name AS symbol, " HOT_PC_VALUE " - s.start AS symbol_offset,\n"
		      "  i.file AS src_file, i.line AS src_line, i.mnemonic, i.operands,\n"
		      "  h.samples, h.total_latency, round(1.0 * h.total_latency / nullif(h.timed, 0), 2) AS mean_latency,\n"
		      "  h.p50, h.p90, h.p99, round(100.0 * h.total_latency / nullif(e.total, 0), 2) AS latency_share,\n"
		      "  " HOT_PC_VALUE " AS pc_value, h.insn_id\n"
		      "FROM _hot_pc h CROSS JOIN " EVERYTHING "\n"
		      "LEFT JOIN insn i ON i.id = h.insn_id\n"
		      "LEFT JOIN symbol s ON s.id = i.symbol_id\n"
		      "ORDER BY h.rowid;\n");
}

/*
 * mem_level_summary, latency_histogram and tlb_hotspot add up the
 * summaries the loader counts (record_summary.c: one source's rows each)
 * instead of scanning spe_record; branch_mispredict reads those of
 * branch_stat added up at the end of the load (branch_rollup.c).  Their
 * definitions over spe_record are in tests/analysis/cli_summary_views.sh,
 * which checks them.
 */
static void append_mem_level_summary(struct util_text *t)
{
	util_text_append(t, "CREATE VIEW mem_level_summary AS\n"
		      "SELECT ml.name AS mem_level, sum(s.loads) AS loads, sum(s.total_latency) AS total_latency,\n"
		      "  round(1.0 * sum(s.total_latency) / nullif(sum(s.timed), 0), 2) AS mean_latency,\n"
		      "  round(100.0 * sum(s.total_latency) /\n"
		      "    nullif((SELECT sum(total_latency) FROM mem_level_stat), 0), 2) AS latency_share\n"
		      "FROM mem_level_stat s LEFT JOIN spe_mem_level ml ON ml.code = s.mem_level\n"
		      "GROUP BY s.mem_level ORDER BY total_latency DESC, loads DESC;\n");
}

static void append_latency_histogram(struct util_text *t)
{
	util_text_append(t, "CREATE VIEW latency_histogram AS\n"
		      "SELECT op_class, latency_lo, CASE WHEN latency_lo = 0 THEN 0 ELSE 2 * latency_lo - 1 END AS latency_hi,\n"
		      "  sum(samples) AS samples, sum(total_latency) AS total_latency\n"
		      "FROM latency_bucket GROUP BY op_class, latency_lo ORDER BY op_class, latency_lo;\n");
}

/* page_stat's pages: those past the load's page budget have no row (load_stats.pages_unlisted; their regions count them) */
static void append_tlb_hotspot(struct util_text *t)
{
	util_text_append(t, "CREATE VIEW tlb_hotspot AS\n"
		      "SELECT source_id, pid, " HEX("page << 12") " AS page, page << 12 AS page_value,\n"
		      "  accesses, tlb_walks, round(1.0 * tlb_walks / accesses, 3) AS walk_ratio,\n"
		      "  translation_latency,\n"
		      "  round(1.0 * translation_latency / nullif(translated, 0), 2) AS mean_translation_latency\n"
		      "FROM page_stat ORDER BY tlb_walks DESC, translation_latency DESC, accesses DESC;\n");
}

/* _branch_mispredict holds the groups in this order (branch_rollup.c) */
static void append_branch_mispredict(struct util_text *t)
{
	util_text_append(t, "CREATE VIEW branch_mispredict AS\n"
		      "SELECT " HEX("b.pc_value") " AS pc, s.name AS symbol, b.pc_value - s.start AS symbol_offset,\n"
		      "  i.file AS src_file, i.line AS src_line, i.mnemonic, i.operands,\n"
		      "  b.branches, b.mispredicted, b.mispredict_rate, b.not_taken, b.pc_value\n"
		      "FROM _branch_mispredict b\n"
		      "LEFT JOIN insn i ON i.id = b.insn_id\n"
		      "LEFT JOIN symbol s ON s.id = i.symbol_id\n"
		      "ORDER BY b.rowid;\n");
}

/* Run the SQL @p t holds (failing if building it ran out of memory), then free it. */
static int exec_text(sqlite3 *db, struct util_text *t, char *err, size_t errlen)
{
	int rc;
	if (!util_text_ok(t)) {
		snprintf(err, errlen, "out of memory");
		rc = -spe_nomem;
	} else {
		rc = spe_db_exec(db, t->buf, err, errlen);
	}
	util_text_fini(t);
	return rc;
}

int spe_schema_create_hot_pc_view(sqlite3 *db, char *err, size_t errlen)
{
	struct util_text t = { 0 };
	append_hot_pc(&t);
	return exec_text(db, &t, err, errlen);
}

int spe_schema_create_views(sqlite3 *db, char *err, size_t errlen)
{
	struct util_text t = { 0 };
	append_spe_sample(&t);
	append_hot_symbol(&t);
	append_hot_pc(&t);
	append_mem_level_summary(&t);
	append_latency_histogram(&t);
	append_tlb_hotspot(&t);
	ana_memory_schema_views(&t); /* hot_data_object, data_page, numa_traffic, cacheline_sharing, prefetch */
	append_branch_mispredict(&t);
	return exec_text(db, &t, err, errlen);
}
