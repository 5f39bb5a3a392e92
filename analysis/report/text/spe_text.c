/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SPE evidence queries over the analysis tables (docs/schema.md):
 * spe_record(source_id, op_class, mem_level, <total latency>, <tlb walk>,
 * <mispredicted>, symbol_id), pc_latency (the loader's per-pc latency
 * counts, which hot_symbol reads) and symbol(id, name, file, line).  Every
 * query is restricted to the records of the chosen SPE sources, so it reads
 * the tables, not the views over all sources.  Column names and
 * class/level names are libspe's (spe_event_column, spe_counter_column,
 * spe_op_class_name: the facts table).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_internal.h"
#include "spe/spe.h"
#include "spe/packet.h"
#include "spe/record.h"
#include "spe/select.h"
#include "report/memory_report.h"
#include "util/json.h"
#include "util/visible.h"
#include "report_sqlite.h"

#define SYMBOL_KEY "id" /* symbol's primary key, joined from spe_record.symbol_id */

/* printf into a new string (NULL without memory). */
static char *sqlf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *sqlf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (s) {
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return s;
}

/* @p sql (taken) prepared, with the selection's values bound; NULL with the message in @p err. */
static sqlite3_stmt *prepare_selected(sqlite3 *db, char *sql, const struct spe_selection *sel, const char *what,
				      char *err, size_t errlen)
{
	if (!sql) {
		snprintf(err, errlen, "%s: out of memory", what);
		return NULL;
	}
	sqlite3_stmt *st = NULL;
	if (ana_prepare(db, sql, &st, what, err, errlen) < 0)
		st = NULL;
	free(sql);
	int rc = st ? spe_selection_bind(sel, st) : SQLITE_OK;
	if (rc != SQLITE_OK) {
		report_sqlite_fail(db, rc, what, err, errlen);
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* The code for a statement prepare_selected could not make (@p oom: its SQL could not be built). */
static int selected_code(sqlite3 *db, int oom)
{
	return oom ? -spe_nomem : report_prepare_code(db);
}

/*
 * 1 when the whole capture's counts can be read from what each load stored
 * (load_stats.records, mem_level_stat): every source has its load_stats
 * row, written by spe_loader_finish in the transaction of its records and
 * summaries (analysis/load/loader.c), and records are there if and only if
 * they say so (not deleted by hand).  0 otherwise (a database made by
 * other means, or no source): the records are counted.
 */
static int stored_counts_complete(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db,
			       "SELECT count(*) > 0 AND count(l.records) = count(*)\n"
			       "  AND (sum(l.records) > 0) = EXISTS (SELECT 1 FROM spe_record)\n"
			       "FROM source s LEFT JOIN load_stats l ON l.source_id = s.id",
			       -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return 0;
	}
	int complete = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
	sqlite3_finalize(st);
	return complete;
}

/* The whole capture (@p where "1", no selection) is asked for, and the loads stored its counts. */
static int whole_capture_stored(sqlite3 *db, const char *where, const struct spe_selection *sel)
{
	return !sel && !strcmp(where, "1") && stored_counts_complete(db);
}

int report_spe_record_count(sqlite3 *db, const char *where, const struct spe_selection *sel, long long *n, char *err,
			    size_t errlen)
{
	*n = 0;
	/* the whole capture: the loads' own counts of the rows they inserted, not a scan of them all */
	char *sql = whole_capture_stored(db, where, sel) ? sqlf("SELECT coalesce(sum(records), 0) FROM load_stats")
							 : sqlf("SELECT COUNT(*) FROM spe_record WHERE %s", where);
	int oom = !sql;
	sqlite3_stmt *st = prepare_selected(db, sql, sel, "counting the SPE records", err, errlen);
	if (!st)
		return selected_code(db, oom);
	if (sqlite3_step(st) == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	return report_sqlite_finish(db, st, "counting the SPE records", err, errlen);
}

int report_prepare_code(sqlite3 *db)
{
	int code = report_sqlite_code(sqlite3_errcode(db));
	return code ? code : -spe_bad_file;
}

/* The numeric columns @p cols (a list ending in -1) of the current row are numbers: 0, or -spe_bad_file. */
static int numbers(sqlite3_stmt *st, const int *cols, const char *what, char *err, size_t errlen)
{
	for (; *cols >= 0; cols++)
		if (report_sqlite_numeric(st, *cols, what, err, errlen) < 0)
			return -spe_bad_file;
	return 0;
}

static const char *text_or(sqlite3_stmt *st, int col, const char *dflt)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? (const char *)t : dflt;
}

/* @p v with its thousands separated by commas: "19,955". */
static void text_thousands(char *out, size_t size, long long v)
{
	char digits[32];
	int n = snprintf(digits, sizeof digits, "%lld", v), o = 0;
	for (int i = 0; i < n && o + 2 < (int)size; i++) {
		if (i && digits[i - 1] != '-' && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = 0;
}

int report_spe_hot_symbols(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		       char *err, size_t errlen)
{
	/*
	 * pc_latency counts records by (pc, symbol, latency): fast on big
	 * captures; grouped like hot_symbol: by function, and the records
	 * without one by kernel map (unknown kernel code apart from user code).
	 * A selection counts the chosen records of spe_record the same way.
	 */
	char *from = o->selection ? sqlf("SELECT symbol_id, insn_id, total_latency, count(*) AS samples FROM spe_record\n"
					 "  WHERE %s GROUP BY symbol_id, insn_id, total_latency", where)
				  : sqlf("SELECT * FROM pc_latency WHERE %s", where);
	char *sql = from ? sqlf("SELECT s.name, MIN(s.file), MIN(s.line), SUM(p.samples), SUM(p.samples * p.total_latency),\n"
				"  SUM(p.samples * p.total_latency) * 1.0 / SUM(SUM(p.samples * p.total_latency)) OVER (),\n"
				"  coalesce(m.path, km.path)\n"
				"FROM (%s) p LEFT JOIN symbol s ON s." SYMBOL_KEY " = p.symbol_id\n"
				"LEFT JOIN mapping m ON m.id = s.mapping_id\n"
				"LEFT JOIN insn i ON p.symbol_id IS NULL AND i.id = p.insn_id\n"
				"LEFT JOIN mapping km ON km.id = i.mapping_id AND km.pid IS NULL\n"
				"GROUP BY s.name, coalesce(m.path, km.path) ORDER BY 5 DESC, s.name",
				from)
			 : NULL;
	free(from);
	int oom = !sql;
	sqlite3_stmt *st = prepare_selected(db, sql, o->selection, "query hot symbols", err, errlen);
	if (!st)
		return selected_code(db, oom);
	if (o->format == REPORT_TEXT_JSON)
		fprintf(out, "\"hot_symbols\": [");
	else
		fprintf(out, "Hot symbols by total latency\n  %-32s %10s %14s %8s  %s\n", "symbol", "samples",
			"total latency", "share", "source");
	int first = 1, rows = 0, unnamed = 0, rc = 0;
	long long more = 0; /* the functions past --top: counted, their share summed, not printed */
	double more_share = 0;
	static const int num[] = { 2, 3, 4, 5, -1 };
	while (sqlite3_step(st) == SQLITE_ROW && (rc = numbers(st, num, "query hot symbols", err, errlen)) == 0) {
		if (rows >= o->top) {
			more++;
			more_share += sqlite3_column_double(st, 5);
			continue;
		}
		rows++;
		const char *mapping = text_or(st, 6, NULL);
		/* without a function: kernel code by its map ("?? in [kernel.kallsyms]"), user code as one "??" */
		int unknown = sqlite3_column_type(st, 0) == SQLITE_NULL;
		unnamed += unknown && !mapping;
		char kernel_unknown[300];
		if (unknown && mapping)
			snprintf(kernel_unknown, sizeof kernel_unknown, "?? in %s", mapping);
		const char *name = unknown && mapping ? kernel_unknown : text_or(st, 0, "??"), *file = text_or(st, 1, "??");
		long long line = sqlite3_column_int64(st, 2), n = sqlite3_column_int64(st, 3);
		long long total = sqlite3_column_int64(st, 4);
		double share = sqlite3_column_double(st, 5);
		if (o->format == REPORT_TEXT_JSON) {
			fprintf(out, "%s{\"symbol\": ", first ? "" : ", ");
			util_json_string(out, unknown ? "??" : name);
			fprintf(out, ", \"file\": ");
			util_json_string(out, file);
			fprintf(out, ", \"line\": %lld, \"samples\": %lld, \"total_latency\": %lld, \"share\": %.4f, \"mapping\": ",
				line, n, total, share);
			if (mapping)
				util_json_string(out, mapping);
			else
				fputs("null", out);
			fputc('}', out);
		} else {
			fputs("  ", out);
			util_visible_put(out, name, 0, UTIL_VISIBLE_MAX, 32);
			fprintf(out, " %10lld %14lld %7.1f%%  ", n, total, 100 * share);
			util_visible_put(out, file, 0, UTIL_VISIBLE_MAX, 0);
			fprintf(out, ":%lld\n", line);
		}
		first = 0;
	}
	if (rc < 0) {
		sqlite3_finalize(st);
		return rc;
	}
	if ((rc = report_sqlite_finish(db, st, "query hot symbols", err, errlen)) < 0)
		return rc;
	if (o->format == REPORT_TEXT_JSON)
		fprintf(out, "]");
	else if (rows && unnamed == rows) /* one user "??" row says nothing: say why */
		fprintf(out, "  (no symbols: spe-load found none of the binaries; load again with --symfs=DIR, the root "
			     "they are under)\n");
	if (more && o->format != REPORT_TEXT_JSON) {
		char count[32];
		text_thousands(count, sizeof count, more);
		fprintf(out, "  %s more function%s, %.1f %% of the latency (--top=N shows more; spe-report --html pages "
			     "through all)\n",
			count, more == 1 ? "" : "s", 100 * more_share);
	}
	return 0;
}

int report_spe_mem_levels(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		      char *err, size_t errlen)
{
	char order[1024] = "CASE mem_level";
	int i = 0;
#define TD_ML_ORDER(id, name, peer, desc)                                                                     \
	snprintf(order + strlen(order), sizeof order - strlen(order), " WHEN '%s' THEN %d", name, i++);
	SPE_MEM_LEVEL_LIST(TD_ML_ORDER)
#undef TD_ML_ORDER
	snprintf(order + strlen(order), sizeof order - strlen(order), " ELSE %d END", i);

	const char *lat = spe_counter_column(SPE_CNT_TOTAL);
	/*
	 * The whole capture from mem_level_stat (each load's loads and their
	 * latency per level, analysis/load/record_summary.c), the same rows
	 * as the records' GROUP BY below: levels without a name in
	 * spe_mem_level are left out as the view's NULL mem_level is.
	 */
	char *sql = whole_capture_stored(db, where, o->selection)
			    ? sqlf("WITH m AS (SELECT ml.name AS mem_level, sum(s.loads) AS loads,\n"
				   "                  sum(s.total_latency) AS latency\n"
				   "           FROM mem_level_stat s JOIN spe_mem_level ml ON ml.code = s.mem_level\n"
				   "           GROUP BY ml.name),\n"
				   "     t AS (SELECT SUM(latency) AS total FROM m)\n"
				   "SELECT mem_level, loads, latency, latency * 1.0 / (SELECT total FROM t)\n"
				   "FROM m ORDER BY %s",
				   order)
			    : sqlf("WITH m AS (SELECT * FROM spe_record WHERE (%s) AND op_class = '%s' AND mem_level IS NOT NULL),\n"
				   "     t AS (SELECT SUM(%s) AS total FROM m)\n"
				   "SELECT mem_level, COUNT(*), SUM(%s), SUM(%s) * 1.0 / (SELECT total FROM t)\n"
				   "FROM m GROUP BY mem_level ORDER BY %s",
				   where, spe_op_class_name(SPE_OP_CLASS_LOAD), lat, lat, lat, order);
	int oom = !sql;
	sqlite3_stmt *st = prepare_selected(db, sql, o->selection, "query memory levels", err, errlen);
	if (!st)
		return selected_code(db, oom);
	if (o->format == REPORT_TEXT_JSON)
		fprintf(out, "\"mem_levels\": [");
	else
		fprintf(out, "Memory levels of loads, weighted by total latency\n  %-14s %10s %14s %8s\n",
			"level", "loads", "total latency", "share");
	int first = 1, rc = 0;
	static const int num[] = { 1, 2, 3, -1 };
	while (sqlite3_step(st) == SQLITE_ROW && (rc = numbers(st, num, "query memory levels", err, errlen)) == 0) {
		const char *level = text_or(st, 0, "?");
		long long n = sqlite3_column_int64(st, 1), total = sqlite3_column_int64(st, 2);
		double share = sqlite3_column_double(st, 3);
		if (o->format == REPORT_TEXT_JSON) {
			fprintf(out, "%s{\"mem_level\": ", first ? "" : ", ");
			util_json_string(out, level);
			fprintf(out, ", \"loads\": %lld, \"total_latency\": %lld, \"share\": %.4f}", n, total, share);
		} else {
			fputs("  ", out);
			util_visible_put(out, level, 0, UTIL_VISIBLE_MAX, 14);
			fprintf(out, " %10lld %14lld %7.1f%%\n", n, total, 100 * share);
		}
		first = 0;
	}
	if (rc < 0) {
		sqlite3_finalize(st);
		return rc;
	}
	if ((rc = report_sqlite_finish(db, st, "query memory levels", err, errlen)) < 0)
		return rc;
	if (o->format == REPORT_TEXT_JSON)
		fprintf(out, "]");
	return 0;
}

int report_spe_tlb_walks(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		     char *err, size_t errlen)
{
	const char *lat = spe_counter_column(SPE_CNT_TOTAL), *walk = spe_event_column(SPE_EV_TLB_WALK);
	char *sql = sqlf("SELECT COUNT(*), SUM(%s <> 0), SUM(CASE WHEN %s <> 0 THEN %s ELSE 0 END) * 1.0 / SUM(%s)\n"
			 "FROM spe_record WHERE (%s) AND op_class IN ('%s', '%s')",
			 walk, walk, lat, lat, where, spe_op_class_name(SPE_OP_CLASS_LOAD),
			 spe_op_class_name(SPE_OP_CLASS_STORE));
	int oom = !sql;
	sqlite3_stmt *st = prepare_selected(db, sql, o->selection, "query TLB walks", err, errlen);
	if (!st)
		return selected_code(db, oom);
	long long n = 0, walks = 0;
	double lat_share = 0;
	static const int num[] = { 0, 1, 2, -1 };
	int rc = 0;
	if (sqlite3_step(st) == SQLITE_ROW && (rc = numbers(st, num, "query TLB walks", err, errlen)) == 0) {
		n = sqlite3_column_int64(st, 0);
		walks = sqlite3_column_int64(st, 1);
		lat_share = sqlite3_column_double(st, 2);
	}
	if (rc < 0) {
		sqlite3_finalize(st);
		return rc;
	}
	if ((rc = report_sqlite_finish(db, st, "query TLB walks", err, errlen)) < 0)
		return rc;
	double share = n ? (double)walks / n : 0;
	if (o->format == REPORT_TEXT_JSON)
		fprintf(out,
			"\"tlb_walk\": {\"samples\": %lld, \"walks\": %lld, \"sample_share\": %.4f, \"latency_share\": %.4f}",
			n, walks, share, lat_share);
	else
		fprintf(out, "TLB walks: %lld of %lld load/store samples (%.1f%%), %.1f%% of their total latency\n", walks,
			n, 100 * share, 100 * lat_share);
	return 0;
}

int report_spe_mispredicts(sqlite3 *db, const char *where, FILE *out, const struct report_text_opts *o,
		       char *err, size_t errlen)
{
	const char *mis = spe_event_column(SPE_EV_MISPREDICTED);
	char *sql = sqlf("SELECT s.name, s.file, s.line, COUNT(*), SUM(r.%s <> 0)\n"
			 "FROM (SELECT * FROM spe_record WHERE %s) r LEFT JOIN symbol s ON s." SYMBOL_KEY " = r.symbol_id\n"
			 "WHERE r.op_class = '%s' GROUP BY r.symbol_id HAVING SUM(r.%s <> 0) > 0\n"
			 "ORDER BY SUM(r.%s <> 0) DESC, s.name LIMIT %d",
			 mis, where, spe_op_class_name(SPE_OP_CLASS_BRANCH), mis, mis, o->top);
	int oom = !sql;
	sqlite3_stmt *st = prepare_selected(db, sql, o->selection, "query mispredicted branches", err, errlen);
	if (!st)
		return selected_code(db, oom);
	if (o->format == REPORT_TEXT_JSON)
		fprintf(out, "\"mispredicts\": [");
	else
		fprintf(out, "Mispredicted branches by symbol\n  %-32s %10s %12s %8s  %s\n", "symbol", "branches",
			"mispredicts", "rate", "source");
	int first = 1, rc = 0;
	static const int num[] = { 2, 3, 4, -1 };
	while (sqlite3_step(st) == SQLITE_ROW &&
	       (rc = numbers(st, num, "query mispredicted branches", err, errlen)) == 0) {
		const char *name = text_or(st, 0, "??"), *file = text_or(st, 1, "??");
		long long line = sqlite3_column_int64(st, 2), n = sqlite3_column_int64(st, 3);
		long long m = sqlite3_column_int64(st, 4);
		double rate = n ? (double)m / n : 0;
		if (o->format == REPORT_TEXT_JSON) {
			fprintf(out, "%s{\"symbol\": ", first ? "" : ", ");
			util_json_string(out, name);
			fprintf(out, ", \"file\": ");
			util_json_string(out, file);
			fprintf(out, ", \"line\": %lld, \"branches\": %lld, \"mispredicts\": %lld, \"rate\": %.4f}", line, n,
				m, rate);
		} else {
			fputs("  ", out);
			util_visible_put(out, name, 0, UTIL_VISIBLE_MAX, 32);
			fprintf(out, " %10lld %12lld %7.1f%%  ", n, m, 100 * rate);
			util_visible_put(out, file, 0, UTIL_VISIBLE_MAX, 0);
			fprintf(out, ":%lld\n", line);
		}
		first = 0;
	}
	if (rc < 0) {
		sqlite3_finalize(st);
		return rc;
	}
	if ((rc = report_sqlite_finish(db, st, "query mispredicted branches", err, errlen)) < 0)
		return rc;
	if (o->format == REPORT_TEXT_JSON)
		fprintf(out, "]");
	return 0;
}

static int spe_text(sqlite3 *db, FILE *out, const struct report_text_opts *opts, char *err, size_t errlen);

int report_spe_text(sqlite3 *db, FILE *out, const struct report_text_opts *opts, char *err, size_t errlen)
{
	struct report_text_opts o = *opts;
	if (o.top <= 0)
		o.top = 10;
	if (err && errlen)
		err[0] = 0;
	/* one state of the database for every section (report_sqlite.h) */
	int snap = report_snapshot_begin(db, err, errlen);
	if (snap < 0)
		return snap;
	int rc = spe_text(db, out, &o, err, errlen);
	report_snapshot_end(db, snap);
	return rc;
}

static int spe_text_where(sqlite3 *db, FILE *out, const struct report_text_opts *o, const char *where, char *err,
			  size_t errlen);

static int spe_text(sqlite3 *db, FILE *out, const struct report_text_opts *opts, char *err, size_t errlen)
{
	char *where = spe_selection_sql(opts->selection, "spe_record");
	if (!where)
		return td_failf(err, errlen, spe_nomem, "out of memory");
	int rc = spe_text_where(db, out, opts, where, err, errlen);
	free(where);
	return rc;
}

/* The report of the records @p where (the selection's condition over spe_record, "1" without one) chooses. */
static int spe_text_where(sqlite3 *db, FILE *out, const struct report_text_opts *opts, const char *where, char *err,
			  size_t errlen)
{
	struct report_text_opts o = *opts;
	long long n, all;
	int rc = report_spe_record_count(db, "1", NULL, &all, err, errlen);
	if (rc < 0)
		return rc;
	if (all <= 0)
		return td_failf(err, errlen, spe_no_data, "no SPE records in the database (load a capture with spe-load first)");
	n = all;
	if (o.selection && (rc = report_spe_record_count(db, where, o.selection, &n, err, errlen)) < 0)
		return rc;
	if (n <= 0)
		return td_failf(err, errlen, spe_no_data, "no record matches the selection (%s) among the %lld records",
				spe_selection_text(o.selection), all);
	int json = o.format == REPORT_TEXT_JSON;
	if (json) {
		fprintf(out, "{\"spe_records\": %lld, ", n);
		if (o.selection) {
			fprintf(out, "\"selection\": {\"options\": ");
			util_json_string(out, spe_selection_text(o.selection));
			fprintf(out, ", \"records_in_database\": %lld, \"memory_sections\": \"whole capture\"}, ", all);
		}
	} else if (o.selection) {
		fprintf(out, "SPE records: %lld of %lld, selected by ", n, all);
		util_visible_put(out, spe_selection_text(o.selection), 0, UTIL_VISIBLE_MAX, 0);
		fprintf(out, "\n\n");
	} else {
		fprintf(out, "SPE records: %lld\n\n", n);
	}
	if (!json) {
		if ((rc = report_text_unknowns(db, out, 0, err, errlen)) < 0 ||
		    (rc = report_text_findings(db, out, err, errlen)) < 0)
			return rc;
		fputc('\n', out);
	} else {
		/* the text report's opening findings, from the same list (query/findings.c) */
		if ((rc = report_json_findings(db, out, err, errlen)) < 0)
			return rc;
		fputs(", ", out);
	}
	if ((rc = report_spe_hot_symbols(db, where, out, &o, err, errlen)) < 0)
		return rc;
	fprintf(out, json ? ", " : "\n");
	if ((rc = report_spe_mem_levels(db, where, out, &o, err, errlen)) < 0)
		return rc;
	fprintf(out, json ? ", " : "\n");
	if ((rc = report_spe_tlb_walks(db, where, out, &o, err, errlen)) < 0)
		return rc;
	fprintf(out, json ? ", " : "\n");
	if ((rc = report_spe_mispredicts(db, where, out, &o, err, errlen)) < 0)
		return rc;
	/* data objects, huge pages, NUMA, shared lines, prefetch (spe/memory_report.h): views over every record */
	fprintf(out, json ? ", " : "\n");
	if (o.selection && !json)
		fprintf(out, "The memory sections below are of the whole capture: the selection does not apply to them\n\n");
	char merr[512] = "";
	if ((rc = spe_memory_report(db, json ? SPE_FORMAT_JSON : SPE_FORMAT_TABLE, o.top, out, merr, sizeof merr)) < 0)
		return td_failf(err, errlen, -rc, "%s", merr); /* "memory section: ..." */
	if (json) {
		fprintf(out, ", ");
		if ((rc = report_text_unknowns(db, out, 1, err, errlen)) < 0)
			return rc;
	}
	fprintf(out, json ? "}\n" : "");
	return 0;
}
