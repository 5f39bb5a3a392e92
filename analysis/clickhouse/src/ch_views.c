/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The views of docs/schema.md in ClickHouse's SQL, side by side with
 * SQLite's (analysis/store/views.c, memory_schema.c): the same names, columns
 * and answers -- tests/clickhouse compares every view row by row on the
 * same captures, and analysis_ch_views checks the names and columns
 * against a fresh SQLite database.
 *
 * Written for ClickHouse 18.16 (Debian 12) and current versions alike:
 *  - one JOIN per SELECT (18.16 has no more), so lookups nest; joins are
 *    ANY LEFT JOIN ... USING on renamed keys, with Nullable right-hand
 *    columns, so a missing row reads as NULL as in SQLite;
 *  - no window functions: nearest-rank percentiles come from a sorted
 *    array of (latency, count) pairs and its running sum (PCT);
 *  - rounding as SQLite shows it: ROUNDED() divides integers and rounds
 *    half up exactly (ClickHouse's round() of a binary fraction may give
 *    1.00 where SQLite's gives 1.01);
 *  - record scans aggregate in the SELECT that reads _spe_record, so on a
 *    cluster every shard aggregates its own rows; lookups a record needs
 *    before grouping (its CPU's part facts, NUMA node, memory ranges) come
 *    from one GLOBAL JOIN with _cpu_context, built once by the initiator
 *    and sent to the shards; names are joined to the aggregated rows;
 *  - AND and OR of possibly-NULL terms spelled out (AND3, OR3): ClickHouse
 *    returns NULL for any NULL operand where SQL's three-valued logic gives
 *    0 or 1.
 * Each view selects only committed captures: "source_id GLOBAL IN" the set
 * of source ids, the `source` view's by default.
 *
 * The views SQLite answers from the load's summaries read the same
 * summaries here (ch_sink.c stores them per capture): mem_level_summary,
 * latency_histogram, tlb_hotspot, branch_mispredict, cacheline_sharing (with
 * the records of a capture past its line budget), and hot_symbol and
 * symbol_summary from function_stat and function_latency (ch_functions.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_internal.h"
#include "ana/fact_names.h"
#include "util/text.h"

/* The captures a view reads: "source_id GLOBAL IN <set>"; %1$s is the set in every format string below. */
#define VISIBLE "source_id GLOBAL IN %1$s"
#define DEFAULT_SOURCES "(SELECT id FROM source)"

/* '0x' and lowercase hex digits without leading zeros, as SQLite's printf('0x%x'); NULL stays NULL. */
#define HEX(x) "concat('0x', lower(replaceRegexpOne(hex(toUInt64(" x ")), '^0', '')))"
/* round(NUM / DEN, digits) as SQLite shows it (spe/clickhouse.h). */
#define ROUNDED SPE_CH_ROUNDED
#define ROUND1(num, den) ROUNDED(num, den, "10")
#define ROUND2(num, den) ROUNDED(num, den, "100")
#define ROUND3(num, den) ROUNDED(num, den, "1000")
/* SQL's three-valued AND / OR of two 0/1/NULL terms. */
#define AND3(a, b)                                                                                       \
	"multiIf(ifNull(" a ", 1) = 0 OR ifNull(" b ", 1) = 0, 0, isNull(" a ") OR isNull(" b "), NULL, 1)"
#define OR3(a, b) "multiIf(ifNull(" a ", 0) = 1 OR ifNull(" b ", 0) = 1, 1, isNull(" a ") OR isNull(" b "), NULL, 0)"

/*
 * Latency statistics of a group from its (l, c) rows -- latency, count --
 * as latency_rollup.c computes them: samples, timed (counts with a
 * latency), total_latency (NULL when none is timed), p50/p90/p99
 * nearest-rank (the smallest latency whose running count reaches N%).
 */
#define PCT(p) \
	"if(timed = 0, NULL, tupleElement(arrayElement(h, arrayFirstIndex(x -> x * 100 >= timed * " p ", run)), 1))"
#define LATENCY_STATS                                                                   \
	"sum(c) AS samples, sumIf(c, isNotNull(l)) AS timed, sum(l * c) AS total_latency,\n" \
	"  arraySort(groupArrayIf((assumeNotNull(l), c), isNotNull(l))) AS h,\n"            \
	"  arrayCumSum(arrayMap(x -> x.2, h)) AS run,\n"                                     \
	"  " PCT("50") " AS p50, " PCT("90") " AS p90, " PCT("99") " AS p99"

/* A list of distinct names from an array of them: sorted, ',' between; NULL when empty (group_concat(DISTINCT)). */
#define NAME_LIST(a) "if(empty(" a "), NULL, arrayStringConcat(arraySort(" a "), ','))"
/* Ids of an array, one row each (0 for none, which joins nothing) */
#define EACH_ID(a) "arrayJoin(if(empty(" a "), [toInt64(0)], " a "))"

/* ---- event columns -------------------------------------------------------- */

/* "bitAnd(bitShiftRight(events, N), 1)" of the event column @p col (SPE_EVENT_LIST), as spe_record computes it. */
static const char *ev(const char *col)
{
	static struct {
		const char *col;
		char expr[64];
	} t[] = {
#define SPE_X(bit, id, word, c, since, desc) { c, "" },
		SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	};
	static const int bits[] = {
#define SPE_X(bit, id, word, c, since, desc) bit,
		SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (strcmp(t[i].col, col))
			continue;
		if (!t[i].expr[0])
			snprintf(t[i].expr, sizeof t[i].expr, "bitAnd(bitShiftRight(events, %d), 1)", bits[i]);
		return t[i].expr;
	}
	return "NULL"; /* not in the facts table: the view then fails its test */
}

/* ---- the views ------------------------------------------------------------ */

static void spe_record(struct util_text *t, const char *src)
{
	int n;
	const struct ch_column *cols = ch_table_columns(CHT_RECORD, &n);
	util_text_append(t, "SELECT id");
	for (int c = 1; c < n; c++) {
		util_text_appendf(t, ", %s", cols[c].name);
		if (!strcmp(cols[c].name, "events")) {
#define SPE_X(bit, id, word, col, since, desc) util_text_appendf(t, ", bitAnd(bitShiftRight(events, %d), 1) AS %s", bit, col);
			SPE_EVENT_LIST(SPE_X)
#undef SPE_X
		}
	}
	util_text_appendf(t, "\nFROM _spe_record WHERE " VISIBLE, src);
}

/* Name lookups joined to rows carrying j_symbol / j_insn / j_mapping (0: none). */
#define JOIN_SYMBOL                                                                                  \
	" ANY LEFT JOIN (SELECT id AS j_symbol, toNullable(name) AS symbol, toNullable(start) AS sym_start" \
	" FROM _symbol WHERE " VISIBLE ") AS s USING j_symbol"
#define JOIN_INSN                                                                                      \
	" ANY LEFT JOIN (SELECT id AS j_insn, file AS src_file, line AS src_line, mnemonic, operands%2$s" \
	" FROM _insn WHERE " VISIBLE ") AS i USING j_insn"

static void spe_sample(struct util_text *t, const char *src)
{
	util_text_append(t, "SELECT id, source_id, time, ts, cpu, pid, tid, comm, " HEX("pc_value") " AS pc, el, op_class, op,\n"
		      "  symbol, pc_value - sym_start AS symbol_offset, src_file, src_line, inline_function, mapping,\n"
		      "  mnemonic, operands,");
#define SPE_X(idx, id, word, col, desc) util_text_appendf(t, " %s,", col);
	SPE_COUNTER_LIST(SPE_X)
#undef SPE_X
	util_text_append(t, "\n  mem_level, " HEX("r_data_source") " AS data_source, " HEX("data_va_value") " AS data_va,\n"
		      "  " HEX("r_data_pa") " AS data_pa, " HEX("r_branch_target") " AS branch_target,\n"
		      "  " HEX("r_prev_branch_target") " AS prev_branch_target, " HEX("r_events") " AS events,\n"
		      "  replaceRegexpOne(concat(''");
#define SPE_X(bit, id, word, col, since, desc) util_text_appendf(t, ", CASE WHEN %s = 1 THEN '%s ' ELSE '' END", col, col);
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	util_text_append(t, "), ' $', '') AS event_names, context, pc_value, data_va_value, data_object, data_object_id\n"
		      "FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (\n"
		      "  SELECT id, source_id, time, ts, cpu, pid, tid, pc AS pc_value, el, op_class, op,");
#define SPE_X(idx, id, word, col, desc) util_text_appendf(t, " %s,", col);
	SPE_COUNTER_LIST(SPE_X)
#undef SPE_X
	util_text_append(t, "\n    mem_level, data_source AS r_data_source, data_va AS data_va_value, data_pa AS r_data_pa,\n"
		      "    branch_target AS r_branch_target, prev_branch_target AS r_prev_branch_target, events AS r_events,");
#define SPE_X(bit, id, word, col, since, desc) util_text_appendf(t, " bitAnd(bitShiftRight(events, %d), 1) AS %s,", bit, col);
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	util_text_appendf(t,
		    "\n    context, data_object_id, ifNull(symbol_id, 0) AS j_symbol, ifNull(insn_id, 0) AS j_insn,"
		    " ifNull(mapping_id, 0) AS j_mapping, ifNull(tid, -1) AS j_tid, ifNull(data_object_id, 0) AS j_dobj\n"
		    "  FROM _spe_record WHERE " VISIBLE ") AS r\n" JOIN_SYMBOL ") AS r2\n"
		    " ANY LEFT JOIN (SELECT id AS j_insn, file AS src_file, line AS src_line, inline_function, mnemonic,"
		    " operands FROM _insn WHERE " VISIBLE ") AS i USING j_insn) AS r3\n"
		    " ANY LEFT JOIN (SELECT id AS j_mapping, toNullable(path) AS mapping FROM _mapping WHERE " VISIBLE
		    ") AS m USING j_mapping) AS r4\n"
		    " ANY LEFT JOIN (SELECT source_id, tid AS j_tid, comm FROM _thread WHERE " VISIBLE
		    ") AS th USING (source_id, j_tid)) AS r5\n"
		    " ANY LEFT JOIN (SELECT id AS j_dobj, toNullable(name) AS data_object FROM _data_object WHERE " VISIBLE
		    ") AS d USING j_dobj",
		    src);
}

/* The total latency of every pc_latency row (hot_pc's and hot_symbol's latency_share). */
#define PC_LATENCY_TOTAL "WITH (SELECT ifNull(sum(total_latency * samples), 0) FROM _pc_latency WHERE " VISIBLE ") AS e_total\n"

/* pc_summary as latency_rollup.c fills it: per (pc, insn_id) across sources. */
static void pc_summary(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    "SELECT g_pc AS pc, g_insn AS insn_id, samples, total_latency, timed, p50, p90, p99\n"
		    "FROM (SELECT g_pc, g_insn, " LATENCY_STATS "\n"
		    "  FROM (SELECT pc AS g_pc, insn_id AS g_insn, total_latency AS l, sum(samples) AS c FROM _pc_latency\n"
		    "    WHERE " VISIBLE " GROUP BY g_pc, g_insn, l)\n"
		    "  GROUP BY g_pc, g_insn)",
		    src);
}

/*
 * symbol_summary: per function -- (name, path of its mapping) -- across
 * processes and captures, named by its smallest symbol id; the records
 * without a symbol are one row with symbol_id NULL, those of them in a
 * kernel map one row per map path, with mapping_id its smallest map id
 * (function_stat keeps them as symbol_id -mapping_id: ch_functions.c).  Each capture's
 * statistics per function are in function_stat (ch_functions.c); a
 * function of one capture in scope takes them as they are, one of several
 * has its percentiles merged from those captures' histograms
 * (function_latency, read only for the captures that share a function).
 */
#define FUNCTION_KEY "isNull(symbol_id) AS k_none, ifNull(name, '') AS k_name, ifNull(path, '') AS k_path"
/* The functions found in more than one capture in scope. */
#define SHARED_FUNCTIONS                                                                                   \
	"(SELECT k_none, k_name, k_path FROM (SELECT " FUNCTION_KEY " FROM _function_stat WHERE " VISIBLE ")" \
	" GROUP BY k_none, k_name, k_path HAVING count() > 1)"
/*
 * Their rows of function_stat: (source_id, j_fn) of each, the function's
 * key, and shared = 1 (a LEFT JOIN and a filter on it, not ANY INNER JOIN,
 * whose meaning for repeated left keys changed after 18.16).
 */
#define SHARED_ROWS                                                                                       \
	"(SELECT source_id, ifNull(symbol_id, 0) AS j_fn, " FUNCTION_KEY ", toUInt8(1) AS shared FROM _function_stat WHERE " VISIBLE \
	" AND (isNull(symbol_id), ifNull(name, ''), ifNull(path, '')) GLOBAL IN " SHARED_FUNCTIONS ")"

/*
 * The functions in scope, one row each: symbol_id, samples, total_latency,
 * timed, p50, p90, p99, and the name, mapping path, file and line of the
 * function's smallest symbol id (its row of the capture holding that id).
 */
static void functions(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    "SELECT if(f_min < 0, NULL, f_min) AS symbol_id, samples, total_latency, timed, if(n_src = 1, s50, m50) AS p50,\n"
		    "  if(n_src = 1, s90, m90) AS p90, if(n_src = 1, s99, m99) AS p99, if(f_max < 0, -f_max, NULL) AS mapping_id,\n"
		    "  if(k_none = 1, NULL, tupleElement(first, 1)) AS symbol, if(k_none = 1, NULL, tupleElement(first, 2)) AS mapping,\n"
		    "  if(k_none = 1, NULL, tupleElement(first, 3)) AS src_file, if(k_none = 1, NULL, tupleElement(first, 4)) AS src_line\n"
		    "FROM (SELECT * FROM (\n"
		    "  SELECT k_none, k_name, k_path, min(f_id) AS f_min, max(f_id) AS f_max, argMin((name, path, file, line), f_id) AS first,\n"
		    "    sum(f_samples) AS samples, sum(f_total) AS total_latency, sum(f_timed) AS timed,\n"
		    "    any(f50) AS s50, any(f90) AS s90, any(f99) AS s99, count() AS n_src\n"
		    "  FROM (SELECT " FUNCTION_KEY ", symbol_id AS f_id, name, path, file, line, samples AS f_samples,"
		    " total_latency AS f_total,\n"
		    "      timed AS f_timed, p50 AS f50, p90 AS f90, p99 AS f99\n"
		    "    FROM _function_stat WHERE " VISIBLE ")\n"
		    "  GROUP BY k_none, k_name, k_path HAVING samples > 0) AS a\n"
		    " ANY LEFT JOIN (SELECT k_none, k_name, k_path, " PCT("50") " AS m50, " PCT("90") " AS m90, " PCT("99") " AS m99\n"
		    "  FROM (SELECT k_none, k_name, k_path, sumIf(c, isNotNull(l)) AS timed,\n"
		    "      arraySort(groupArrayIf((assumeNotNull(l), c), isNotNull(l))) AS h, arrayCumSum(arrayMap(x -> x.2, h)) AS run\n"
		    "    FROM (SELECT k_none, k_name, k_path, l, sum(c0) AS c FROM (\n"
		    "        SELECT source_id, ifNull(symbol_id, 0) AS j_fn, total_latency AS l, samples AS c0 FROM _function_latency\n"
		    "        WHERE " VISIBLE " AND source_id GLOBAL IN (SELECT source_id FROM " SHARED_ROWS ")) AS fl\n"
		    "      ANY LEFT JOIN " SHARED_ROWS " AS sr USING (source_id, j_fn)\n"
		    "      WHERE shared = 1 GROUP BY k_none, k_name, k_path, l)\n"
		    "    GROUP BY k_none, k_name, k_path)) AS m USING (k_none, k_name, k_path))",
		    src);
}

static void symbol_summary(struct util_text *t, const char *src)
{
	util_text_append(t, "SELECT symbol_id, samples, total_latency, timed, p50, p90, p99, mapping_id FROM (");
	functions(t, src);
	util_text_append(t, ")");
}

/* Names from function_stat itself: no join with symbol and mapping (each a query of the shards). */
static void hot_symbol(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    "WITH (SELECT ifNull(sum(total_latency), 0) FROM _function_stat WHERE " VISIBLE ") AS e_total\n"
		    "SELECT symbol, mapping, src_file, src_line, samples, total_latency,\n"
		    "  " ROUND2("total_latency", "timed") " AS mean_latency, p50, p90, p99,\n"
		    "  " ROUND2("100 * total_latency", "e_total") " AS latency_share, symbol_id\n"
		    "FROM (",
		    src);
	functions(t, src);
	util_text_append(t, ")\nORDER BY total_latency DESC, samples DESC");
}

static void hot_pc(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    PC_LATENCY_TOTAL
		    "SELECT " HEX("pc_value") " AS pc, symbol, pc_value - sym_start AS symbol_offset, src_file, src_line,\n"
		    "  mnemonic, operands, samples, total_latency, " ROUND2("total_latency", "timed") " AS mean_latency,\n"
		    "  p50, p90, p99, " ROUND2("100 * total_latency", "e_total") " AS latency_share, pc_value, insn_id\n"
		    "FROM (SELECT * FROM (SELECT pc AS pc_value, insn_id, ifNull(insn_id, 0) AS j_insn, samples, total_latency,"
		    " timed, p50, p90, p99 FROM (",
		    src);
	pc_summary(t, src);
	util_text_appendf(t, ")) AS st\n" JOIN_INSN ") AS st2\n" JOIN_SYMBOL "\nORDER BY total_latency DESC, samples DESC",
		    src, ", ifNull(symbol_id, 0) AS j_symbol");
}

/*
 * mem_level_summary, latency_histogram, tlb_hotspot and branch_mispredict
 * add up the summaries each load wrote (mem_level_stat, latency_bucket,
 * page_stat, branch_stat: record_summary.c counts them, ch_sink.c stores
 * them) as SQLite's views do (views.c), instead of scanning the records.
 */

/* A memory level's name from its spe_mem_level code (1, 2, ...), NULL for none. */
static void append_level_name(struct util_text *t, const char *code)
{
	static const char *const names[] = {
#define SPE_X(id, name, peer, desc) name,
		SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X
	};
	util_text_appendf(t, "if(isNull(%s), NULL, arrayElement([", code);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		util_text_appendf(t, "%s'%s'", i ? ", " : "", names[i]);
	util_text_appendf(t, "], assumeNotNull(%s)))", code);
}

static void mem_level_summary(struct util_text *t, const char *src)
{
	util_text_appendf(t, "WITH (SELECT ifNull(sum(total_latency), 0) FROM _mem_level_stat WHERE " VISIBLE ") AS e_total\nSELECT ",
		    src);
	append_level_name(t, "g_level");
	util_text_appendf(t,
		    " AS mem_level, a_loads AS loads, a_total AS total_latency,\n"
		    "  " ROUND2("a_total", "a_timed") " AS mean_latency, " ROUND2("100 * a_total", "e_total") " AS latency_share\n"
		    "FROM (SELECT mem_level AS g_level, sum(loads) AS a_loads, sum(total_latency) AS a_total, sum(timed) AS a_timed\n"
		    "  FROM _mem_level_stat WHERE " VISIBLE " GROUP BY g_level)\n"
		    "ORDER BY total_latency DESC, loads DESC",
		    src);
}

static void latency_histogram(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    "SELECT op_class, g_lo AS latency_lo, CASE WHEN g_lo = 0 THEN 0 ELSE 2 * g_lo - 1 END AS latency_hi,\n"
		    "  a_n AS samples, a_total AS total_latency\n"
		    "FROM (SELECT op_class, latency_lo AS g_lo, sum(samples) AS a_n, sum(total_latency) AS a_total\n"
		    "  FROM _latency_bucket WHERE " VISIBLE " GROUP BY op_class, g_lo)\n"
		    "ORDER BY op_class NULLS FIRST, latency_lo",
		    src);
}

static void tlb_hotspot(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    "SELECT source_id, pid, " HEX("a_page") " AS page, a_page AS page_value, accesses, tlb_walks,\n"
		    "  " ROUND3("tlb_walks", "accesses") " AS walk_ratio, a_translation AS translation_latency,\n"
		    "  " ROUND2("a_translation", "translated") " AS mean_translation_latency\n"
		    "FROM (SELECT source_id, pid, bitShiftLeft(page, 12) AS a_page, accesses, tlb_walks, translated,"
		    " translation_latency AS a_translation\n"
		    "  FROM _page_stat WHERE " VISIBLE ")\n"
		    "ORDER BY tlb_walks DESC, translation_latency DESC, accesses DESC",
		    src);
}

static void branch_mispredict(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    "SELECT " HEX("g_pc") " AS pc, symbol, g_pc - sym_start AS symbol_offset, src_file, src_line, mnemonic,\n"
		    "  operands, a_branches AS branches, a_mispredicted AS mispredicted,"
		    " " ROUND3("a_mispredicted", "a_branches") " AS mispredict_rate, a_not_taken AS not_taken, g_pc AS pc_value\n"
		    "FROM (SELECT * FROM (\n"
		    "  SELECT pc AS g_pc, insn_id AS g_insn, ifNull(insn_id, 0) AS j_insn, sum(branches) AS a_branches,\n"
		    "    sum(mispredicted) AS a_mispredicted, sum(not_taken) AS a_not_taken\n"
		    "  FROM _branch_stat WHERE " VISIBLE " GROUP BY g_pc, g_insn) AS g\n"
		    " ANY LEFT JOIN (SELECT id AS j_insn, file AS src_file, line AS src_line, mnemonic, operands,"
		    " ifNull(symbol_id, 0) AS j_symbol FROM _insn WHERE " VISIBLE ") AS i USING j_insn) AS g2\n" JOIN_SYMBOL "\n"
		    "ORDER BY mispredicted DESC, branches DESC",
		    src);
}

/*
 * Per (source, CPU): what a record or a numa_stat row needs of its CPU
 * before grouping -- the part's data-source facts as parallel arrays (code,
 * peer, modified, remote) and the CPU's NUMA node.  Keys from cpu and
 * numa_cpu both (a full join, as two LEFT JOINs in SQLite find either).
 */
static void cpu_context(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    "SELECT source_id, toNullable(cpu) AS cpu, part, ds_code, ds_peer, ds_modified, ds_remote, cpu_node\n"
		    "FROM (SELECT * FROM (\n"
		    "  SELECT source_id, cpu, any(c_part) AS part, any(c_node) AS cpu_node, ifNull(part, '') AS j_part FROM (\n"
		    "    SELECT source_id, cpu, part AS c_part, CAST(NULL AS Nullable(Int64)) AS c_node FROM _cpu WHERE " VISIBLE
		    "\n    UNION ALL\n"
		    "    SELECT source_id, cpu, CAST(NULL AS Nullable(String)) AS c_part, toNullable(node) AS c_node"
		    " FROM _numa_cpu WHERE " VISIBLE ")\n"
		    "  GROUP BY source_id, cpu) AS k\n"
		    " ANY LEFT JOIN (SELECT part AS j_part, groupArray(code) AS ds_code, groupArray(peer) AS ds_peer,"
		    " groupArray(modified) AS ds_modified, groupArray(remote) AS ds_remote FROM spe_data_source_fact"
		    " GROUP BY part) AS df USING j_part)",
		    src);
}

/*
 * Records with their CPU's context.  Per-record values are spelled inline
 * (ClickHouse computes a repeated expression once): an alias in the select
 * list of a grouping SELECT would have to be a grouping key.
 */
#define WITH_CONTEXT " GLOBAL ANY LEFT JOIN (SELECT * FROM _cpu_context) AS c USING (source_id, cpu)\n"
/* The index of the record's data-source code in its part's facts (0: none), and one fact of it. */
#define DS_INDEX "if(isNull(data_source), 0, indexOf(ds_code, assumeNotNull(data_source)))"
#define DS_FACT(arr) "if(" DS_INDEX " = 0, NULL, arrayElement(" arr ", " DS_INDEX "))"
/* The op text holds the atomic word (%6$s): atomics write the line too. */
#define ATOMIC "(position(concat(' ', op, ' '), ' %6$s ') > 0)"

static void hot_data_object(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    "WITH (SELECT ifNull(sum(total_latency), 0) FROM _spe_record WHERE " VISIBLE
		    " AND data_object_id IS NOT NULL) AS e_total\n"
		    "SELECT source_id, pid, kind, name, mapping, type, src_file, src_line, " HEX("start_value") " AS start,\n"
		    "  size, samples, loads, stores, a_total AS total_latency, " ROUND2("a_total", "a_timed") " AS mean_latency,\n"
		    "  p99, " ROUND2("100 * a_total", "e_total") " AS latency_share, levels, tlb_walks,"
		    " j_dobj AS data_object_id, start_value\n"
		    "FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (\n"
		    "  SELECT assumeNotNull(data_object_id) AS j_dobj, count() AS samples, sum(op_class = '%2$s') AS loads,\n"
		    "    sum(op_class = '%3$s') AS stores, sum(total_latency) AS a_total, count(total_latency) AS a_timed,\n"
		    "    sum(%4$s) AS tlb_walks\n"
		    "  FROM _spe_record WHERE " VISIBLE " AND data_object_id IS NOT NULL GROUP BY j_dobj) AS g\n"
		    " ANY INNER JOIN (SELECT id AS j_dobj, source_id, pid, kind AS j_kind, name, ifNull(mapping_id, 0) AS j_mapping,"
		    " type, file AS src_file, line AS src_line, start AS start_value, size FROM _data_object WHERE " VISIBLE
		    ") AS d USING j_dobj) AS g2\n"
		    " ANY LEFT JOIN (SELECT id AS j_kind, toNullable(name) AS kind FROM data_object_kind) AS k USING j_kind) AS g3\n"
		    " ANY LEFT JOIN (SELECT id AS j_mapping, toNullable(path) AS mapping FROM _mapping WHERE " VISIBLE
		    ") AS m USING j_mapping) AS g4\n"
		    " ANY LEFT JOIN (SELECT j_dobj, toNullable(" PCT("99") ") AS p99 FROM (\n"
		    "    SELECT j_dobj, sum(c) AS timed, arraySort(groupArray((l, c))) AS h, arrayCumSum(arrayMap(x -> x.2, h)) AS run\n"
		    "    FROM (SELECT assumeNotNull(data_object_id) AS j_dobj, assumeNotNull(total_latency) AS l, count() AS c\n"
		    "      FROM _spe_record WHERE " VISIBLE " AND data_object_id IS NOT NULL AND total_latency IS NOT NULL\n"
		    "      GROUP BY j_dobj, l)\n"
		    "    GROUP BY j_dobj)) AS p USING j_dobj) AS g5\n"
		    " ANY LEFT JOIN (SELECT j_dobj, toNullable(arrayStringConcat(arrayMap(x -> concat(x.2, ' ', toString(-x.1)),"
		    " arraySort(groupArray((-toInt64(a_n), a_level)))), ', ')) AS levels FROM (\n"
		    "    SELECT assumeNotNull(data_object_id) AS j_dobj, assumeNotNull(mem_level) AS a_level, count() AS a_n\n"
		    "    FROM _spe_record WHERE " VISIBLE " AND data_object_id IS NOT NULL AND mem_level IS NOT NULL"
		    " AND op_class = '%2$s'\n"
		    "    GROUP BY j_dobj, a_level) GROUP BY j_dobj) AS lv USING j_dobj\n"
		    "ORDER BY total_latency DESC, samples DESC",
		    src, op_class_LOAD, op_class_STORE, ev("tlb_walk"));
}

/* Data-object names for rows carrying an array a_dobjs of their ids: a_dn, after the rows' other columns. */
#define DOBJ_NAMES_FROM(rows)                                                                             \
	"(SELECT * FROM (SELECT *, " EACH_ID("a_dobjs") " AS j_dobj FROM " rows ") AS x\n"                 \
	" ANY LEFT JOIN (SELECT id AS j_dobj, toNullable(name) AS dobj_name FROM _data_object WHERE " VISIBLE \
	") AS dn USING j_dobj)"

/* data_page adds up page_stat, the 4 KiB pages the loader counts, into 4 KiB and 2 MiB rows */
static void data_page(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    "SELECT source_id, pid, bitShiftLeft(toInt64(1), a_shift) AS page_size,"
		    " " HEX("bitShiftLeft(a_pg, a_shift)") " AS page,\n"
		    "  bitShiftLeft(a_pg, a_shift) AS page_value, a_accesses AS accesses, a_total AS total_latency,\n"
		    "  " ROUND2("a_total", "a_timed") " AS mean_latency, a_walks AS tlb_walks,"
		    " a_translation AS translation_latency,\n"
		    "  " ROUND2("100 * a_translation", "x_total") " AS translation_share, pages_4k, walked_pages_4k,\n"
		    "  " NAME_LIST("a_dn") " AS data_objects\n"
		    "FROM (SELECT source_id, pid, a_shift, a_pg, a_accesses, a_total, a_timed, a_walks, a_translation, x_total,\n"
		    "    pages_4k, walked_pages_4k, groupUniqArray(dobj_name) AS a_dn\n"
		    "  FROM " DOBJ_NAMES_FROM("(SELECT * FROM (\n"
					      "    SELECT source_id, pid, a_shift, bitShiftRight(page, a_shift - 12) AS a_pg,"
					      " sum(accesses) AS a_accesses,\n"
					      "      sum(total_latency) AS a_total, sum(timed) AS a_timed, sum(tlb_walks) AS a_walks,\n"
					      "      sum(translation_latency) AS a_translation, count() AS pages_4k,\n"
					      "      countIf(ifNull(tlb_walks, 0) > 0) AS walked_pages_4k,"
					      " groupUniqArrayArray(data_object_ids) AS a_dobjs\n"
					      "    FROM _page_stat ARRAY JOIN [12, 21] AS a_shift\n"
					      "    WHERE " VISIBLE " GROUP BY source_id, pid, a_shift, a_pg) AS pg\n"
					      "  ANY LEFT JOIN (SELECT source_id, sum(translation_latency) AS x_total"
					      " FROM _page_stat WHERE " VISIBLE " GROUP BY source_id) AS xt USING source_id)") "\n"
		    "  GROUP BY source_id, pid, a_shift, a_pg, a_accesses, a_total, a_timed, a_walks, a_translation, x_total,\n"
		    "    pages_4k, walked_pages_4k)\n"
		    "ORDER BY translation_latency DESC, tlb_walks DESC, accesses DESC",
		    src);
}

/* numa_traffic adds up numa_stat, the loads by CPU and NUMA node or data source, with the CPU's node and the code's facts */
static void numa_traffic(struct util_text *t, const char *src)
{
	util_text_appendf(
		t,
		"SELECT source_id, cpu_node, g_node AS memory_node, basis, remote, a_loads AS loads, a_total AS total_latency,\n"
		"  " ROUND2("a_total", "a_timed") " AS mean_latency, remote_access_events\n"
		"FROM (SELECT source_id, cpu_node, memory_node AS g_node,\n"
		"    CASE WHEN physical = 1 THEN 'physical address' ELSE 'data source' END AS basis,\n"
		"    multiIf(physical = 0, " DS_FACT("ds_remote") ", isNull(memory_node) OR isNull(cpu_node), NULL,"
		" memory_node != cpu_node) AS remote,\n"
		"    sum(loads) AS a_loads, sum(total_latency) AS a_total, sum(timed) AS a_timed,"
		" sum(remote_access) AS remote_access_events\n"
		"  FROM _numa_stat" WITH_CONTEXT "  WHERE " VISIBLE "\n"
		"  GROUP BY source_id, cpu_node, g_node, basis, remote)\n"
		"ORDER BY total_latency DESC, loads DESC",
		src);
}

/* A count as the summaries' Nullable(Int64) (UNION ALL wants the same types on both sides). */
#define NINT(x) "CAST(" x " AS Nullable(Int64))"

static void cacheline_sharing(struct util_text *t, const char *src)
{
	/* the line's counts on the shards, then the names of its functions and data objects */
	util_text_appendf(
		t,
		"SELECT source_id, pid, " HEX("bitShiftLeft(a_line, 6)") " AS line, bitShiftLeft(a_line, 6) AS line_value,\n"
		"  accesses, loads, stores, cpus, threads, offsets, snooped, hitm, peer_hits, a_total AS total_latency,\n"
		"  " NAME_LIST("a_sn") " AS symbols, atomics, writes, modified_events, modified_sources, remote_hits,\n"
		"  " NAME_LIST("a_dn") " AS data_objects\n"
		"FROM (SELECT source_id, pid, a_line, accesses, loads, stores, cpus, threads, offsets, snooped, hitm, peer_hits,\n"
		"    a_total, atomics, writes, modified_events, modified_sources, remote_hits,\n"
		"    groupUniqArray(sym_name) AS a_sn, groupUniqArray(dobj_name) AS a_dn\n"
		"  FROM " DOBJ_NAMES_FROM(
			"(SELECT * FROM (SELECT *, " EACH_ID("a_symbols") " AS j_sym FROM (\n"
			/* the lines the loads counted (cacheline_stat) */
			"    SELECT source_id, pid, line AS a_line, accesses, loads, stores, cpus, threads, offsets, snooped, hitm,\n"
			"      peer_hits, total_latency AS a_total, symbol_ids AS a_symbols, atomics, writes, modified_events,\n"
			"      modified_sources, remote_hits, data_object_ids AS a_dobjs\n"
			"    FROM _cacheline_stat WHERE " VISIBLE "\n"
			"    UNION ALL\n"
			/* a capture with more lines than its load's budget (load_stats.cacheline_scan): from its records */
			"    SELECT source_id, pid, toInt64(r_line), toInt64(r_accesses), " NINT("r_loads") ", " NINT("r_stores") ",\n"
			"      toInt64(r_cpus), toInt64(r_threads), toInt64(r_offsets), " NINT("r_snooped") ", " NINT("r_hitm") ",\n"
			"      " NINT("r_peer_hits") ", r_total, r_symbols, " NINT("r_atomics") ", " NINT("r_writes") ",\n"
			"      " NINT("r_modified_events") ", " NINT("r_modified_sources") ", " NINT("r_remote_hits") ", r_dobjs FROM (\n"
			"    SELECT source_id, pid, bitShiftRight(assumeNotNull(data_va), 6) AS r_line, count() AS r_accesses,\n"
			"      sum(op_class = '%2$s') AS r_loads, sum(op_class = '%3$s') AS r_stores,\n"
			"      ifNull(uniqExact(cpu), 0) AS r_cpus, ifNull(uniqExact(tid), 0) AS r_threads,"
			" uniqExact(bitAnd(data_va, 63)) AS r_offsets,\n"
			"      sum(%4$s) AS r_snooped,\n"
			"      sum(" AND3("op_class = '%2$s'", OR3("%5$s = 1", DS_FACT("ds_modified") " = 1")) ") AS r_hitm,\n"
			"      sum(" AND3("op_class = '%2$s'", DS_FACT("ds_peer") " = 1") ") AS r_peer_hits,\n"
			"      sum(total_latency) AS r_total, groupUniqArrayIf(assumeNotNull(symbol_id), isNotNull(symbol_id))"
			" AS r_symbols, sum(" ATOMIC ") AS r_atomics,\n"
			"      sum(" OR3("op_class = '%3$s'", ATOMIC) ") AS r_writes,\n"
			"      sum(%5$s) AS r_modified_events, sum(" DS_FACT("ds_modified") ") AS r_modified_sources,\n"
			"      sum(" AND3("op_class = '%2$s'", DS_FACT("ds_remote") " = 1") ") AS r_remote_hits,"
			" groupUniqArrayIf(assumeNotNull(data_object_id), isNotNull(data_object_id)) AS r_dobjs\n"
			"    FROM _spe_record" WITH_CONTEXT "    WHERE " VISIBLE " AND source_id GLOBAL IN (SELECT source_id FROM _load_stats"
			" WHERE " VISIBLE " AND cacheline_scan = 1) AND data_va IS NOT NULL\n"
			"    GROUP BY source_id, pid, r_line\n"
			"    HAVING r_writes > 0 AND (r_threads > 1 OR r_cpus > 1)))) AS y\n"
			"  ANY LEFT JOIN (SELECT id AS j_sym, toNullable(name) AS sym_name FROM _symbol WHERE " VISIBLE
			") AS sn USING j_sym)") "\n"
		"  GROUP BY source_id, pid, a_line, accesses, loads, stores, cpus, threads, offsets, snooped, hitm, peer_hits,\n"
		"    a_total, atomics, writes, modified_events, modified_sources, remote_hits)\n"
		"ORDER BY hitm + peer_hits + ifNull(snooped, 0) DESC, accesses DESC",
		src, op_class_LOAD, op_class_STORE, ev("data_snooped"), ev("cache_data_modified"), op_word_ATOMIC);
}

/* prefetch adds up prefetch_stat, the loads by PC and data object */
static void prefetch(struct util_text *t, const char *src)
{
	util_text_appendf(t,
		    "SELECT " HEX("g_pc") " AS pc, symbol, g_pc - sym_start AS symbol_offset, data_object, a_loads AS loads,\n"
		    "  a_late AS late_prefetch, " ROUND1("100 * a_late", "a_loads") " AS late_rate,"
		    " a_fetched AS recently_fetched, a_late_latency AS late_latency, a_total AS total_latency,\n"
		    "  " ROUND2("a_total", "a_timed") " AS mean_latency, g_pc AS pc_value, g_dobj AS data_object_id\n"
		    "FROM (SELECT * FROM (\n"
		    "  SELECT pc AS g_pc, data_object_id AS g_dobj, ifNull(data_object_id, 0) AS j_dobj,"
		    " ifNull(any(symbol_id), 0) AS j_symbol, sum(loads) AS a_loads,\n"
		    "    sum(late_prefetch) AS a_late, sum(recently_fetched) AS a_fetched,"
		    " sum(late_latency) AS a_late_latency,\n"
		    "    sum(total_latency) AS a_total, sum(timed) AS a_timed\n"
		    "  FROM _prefetch_stat WHERE " VISIBLE "\n"
		    "  GROUP BY g_pc, g_dobj\n"
		    "  HAVING ifNull(a_late, 0) > 0 OR ifNull(a_fetched, 0) > 0) AS g\n"
		    " ANY LEFT JOIN (SELECT id AS j_dobj, toNullable(name) AS data_object FROM _data_object WHERE " VISIBLE
		    ") AS d USING j_dobj) AS g2\n" JOIN_SYMBOL "\n"
		    "ORDER BY ifNull(late_latency, 0) DESC, late_prefetch DESC, recently_fetched DESC",
		    src);
}

/* ---- the list ------------------------------------------------------------- */

struct view {
	const char *name;
	void (*sql)(struct util_text *t, const char *src);
};

/* In dependency order: _cpu_context before the views that join it. */
static const struct view views[] = {
	{ "spe_record", spe_record },
	{ "spe_sample", spe_sample },
	{ "pc_summary", pc_summary },
	{ "symbol_summary", symbol_summary },
	{ "hot_symbol", hot_symbol },
	{ "hot_pc", hot_pc },
	{ "mem_level_summary", mem_level_summary },
	{ "latency_histogram", latency_histogram },
	{ "tlb_hotspot", tlb_hotspot },
	{ "_cpu_context", cpu_context },
	{ "hot_data_object", hot_data_object },
	{ "data_page", data_page },
	{ "numa_traffic", numa_traffic },
	{ "cacheline_sharing", cacheline_sharing },
	{ "prefetch", prefetch },
	{ "branch_mispredict", branch_mispredict },
};
#define N_VIEWS (sizeof views / sizeof views[0])

const char *const spe_ch_view_names[] = {
	"spe_record",      "spe_sample",  "pc_summary",   "symbol_summary",    "hot_symbol",
	"hot_pc",          "mem_level_summary", "latency_histogram", "tlb_hotspot", "hot_data_object",
	"data_page",       "numa_traffic", "cacheline_sharing", "prefetch",     "branch_mispredict",
	NULL,
};

char *spe_ch_view_sql(const char *name, const char *sources)
{
	for (size_t i = 0; i < N_VIEWS; i++) {
		if (strcmp(views[i].name, name))
			continue;
		struct util_text t = { 0 };
		views[i].sql(&t, sources ? sources : DEFAULT_SOURCES);
		if (!util_text_ok(&t)) {
			util_text_fini(&t);
			return NULL;
		}
		return t.buf;
	}
	return NULL;
}

char **ch_view_statements(void)
{
	char **list = calloc(N_VIEWS + 1, sizeof *list);
	for (size_t i = 0; list && i < N_VIEWS; i++) {
		struct util_text t = { 0 };
		util_text_appendf(&t, "CREATE VIEW IF NOT EXISTS %s AS\n", views[i].name);
		views[i].sql(&t, DEFAULT_SOURCES);
		if (!util_text_ok(&t)) {
			util_text_fini(&t);
			ch_free_list(list);
			return NULL;
		}
		list[i] = t.buf;
	}
	return list;
}
