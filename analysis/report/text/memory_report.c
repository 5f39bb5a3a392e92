/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory section of spe-report (spe/memory_report.h).  Every number
 * comes from a view of docs/schema.md; the rules that turn them into
 * sentences are stated beside each function and in spe-report(1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "ana/result_internal.h"
#include "ana/statement.h"
#include "report/memory_report.h"
#include "util/json.h"
#include "util/visible.h"
#include "report_sqlite.h"

/* Huge pages are advised when translation is at least this share of data-access latency ... */
#define HINT_MIN_TRANSLATION_SHARE 5.0
/* ... and regions with walks on two or more 4 KiB pages hold at least this share of it. */
#define HINT_MIN_REGION_SHARE 25.0

static int one_row(sqlite3 *db, const char *sql, int n, double *v, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	if (ana_prepare(db, sql, &st, "memory section", err, errlen) < 0)
		return report_sqlite_code(sqlite3_errcode(db));
	for (int i = 0; i < n; i++)
		v[i] = 0;
	int rc = 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		for (int i = 0; i < n && rc == 0; i++)
			if ((rc = report_sqlite_numeric(st, i, "memory section", err, errlen)) == 0)
				v[i] = sqlite3_column_double(st, i);
	if (rc < 0) {
		sqlite3_finalize(st);
		return rc;
	}
	return report_sqlite_finish(db, st, "memory section", err, errlen);
}

/* One sentence: the row of @p sql (@p n numbers) put in words by @p words. */
static int sentence(sqlite3 *db, const char *sql, int n, int (*words)(const double *, char *, size_t), char *text,
		    size_t size, char *err, size_t errlen)
{
	double v[8];
	int rc = n <= 8 ? one_row(db, sql, n, v, err, errlen) : -spe_invalid;
	return rc ? rc : words(v, text, size);
}

static const char huge_page_sql[] =
	/* regions: count, their translation latency, their distinct pages; all translation; all data latency
	   (page_stat counts every record with a data address, so its sums are those of the records) */
	"SELECT count(*), coalesce(sum(translation_latency), 0), coalesce(sum(pages_4k), 0),"
	" (SELECT coalesce(sum(translation_latency), 0) FROM page_stat),"
	" (SELECT coalesce(sum(total_latency), 0) FROM page_stat)"
	" FROM data_page WHERE " SPE_HUGE_PAGE_REGION_WHERE;

/* The same row from the regions the loads stored: one pass over page_region_stat, whose sums are page_stat's. */
#define REGION_COUNTED "walked_pages_4k >= 2" /* SPE_HUGE_PAGE_REGION_WHERE of a region row */
static const char huge_page_stored_sql[] =
	"SELECT count(CASE WHEN " REGION_COUNTED " THEN 1 END),"
	" coalesce(sum(CASE WHEN " REGION_COUNTED " THEN translation_latency END), 0),"
	" coalesce(sum(CASE WHEN " REGION_COUNTED " THEN pages_4k END), 0),"
	" coalesce(sum(translation_latency), 0), coalesce(sum(total_latency), 0)"
	" FROM page_region_stat";

const char *spe_huge_page_hint_sql(int stored)
{
	return stored ? huge_page_stored_sql : huge_page_sql;
}

int spe_page_regions_stored(sqlite3 *db)
{
	/* a database made before the table has none (the query fails); a source loaded before it (then --append) has no rows there */
	return report_sqlite_true(db, "SELECT NOT EXISTS (SELECT 1 FROM source s\n"
				      "  WHERE NOT EXISTS (SELECT 1 FROM page_region_stat r WHERE r.source_id = s.id)\n"
				      "    AND EXISTS (SELECT 1 FROM page_stat p WHERE p.source_id = s.id))");
}

int spe_huge_page_hint_text(const double v[SPE_HUGE_PAGE_HINT_COLUMNS], char *text, size_t size)
{
	double regions = v[0], region_xlat = v[1], pages = v[2], xlat = v[3], total = v[4];
	double xlat_share = total > 0 ? 100 * xlat / total : 0, region_share = xlat > 0 ? 100 * region_xlat / xlat : 0;
	if (total <= 0) {
		snprintf(text, size, "No huge-page hint: no record has a data address.");
		return 0;
	}
	/* translation is a part of a record's total latency; more of it than the total means the counters
	   disagree (a synthetic trace, or saturated counters), and a share over 100 % would mislead */
	if (xlat > total) {
		snprintf(text, size,
			 "No huge-page hint: translation latency (%.0f cycles) exceeds the records' total latency "
			 "(%.0f cycles), so its share cannot be given: the latency counters disagree.",
			 xlat, total);
		return 0;
	}
	if (xlat_share < HINT_MIN_TRANSLATION_SHARE) {
		snprintf(text, size,
			 "No huge-page hint: address translation is %.1f%% of data-access latency (a hint needs %.0f%%).",
			 xlat_share, HINT_MIN_TRANSLATION_SHARE);
		return 0;
	}
	if (regions < 1 || region_share < HINT_MIN_REGION_SHARE) {
		snprintf(text, size,
			 "No huge-page hint: translation is %.1f%% of data-access latency, but regions of 2 MiB with TLB walks "
			 "on two or more 4 KiB pages take only %.1f%% of it: the walks are spread thin.",
			 xlat_share, region_share);
		return 0;
	}
	snprintf(text, size,
		 "%.0f region%s of 2 MiB take %.1f%% of translation latency (translation is %.1f%% of data-access "
		 "latency); %s TLB walks fall on %.0f distinct 4 KiB pages (%.0f per region): back %s with huge pages "
		 "(madvise(MADV_HUGEPAGE) for transparent huge pages, or hugetlbfs).",
		 regions, regions == 1 ? "" : "s", region_share, xlat_share, regions == 1 ? "its" : "their", pages,
		 pages / regions, regions == 1 ? "it" : "them");
	return 1;
}

int spe_huge_page_hint(sqlite3 *db, char *text, size_t size, char *err, size_t errlen)
{
	return sentence(db, spe_huge_page_hint_sql(spe_page_regions_stored(db)), SPE_HUGE_PAGE_HINT_COLUMNS,
			spe_huge_page_hint_text, text, size, err, errlen);
}

/* load_stats' columns are added to an older file's table when it is read (db_trust.c): 0 or NULL there */
static const char page_budget_sql[] =
	"SELECT coalesce(sum(pages_unlisted), 0), coalesce(sum(unlisted_page_records), 0) FROM load_stats";

const char *spe_page_budget_sql(void)
{
	return page_budget_sql;
}

int spe_page_budget_text(const double v[SPE_PAGE_BUDGET_COLUMNS], char *text, size_t size)
{
	if (v[0] <= 0) {
		if (size)
			text[0] = 0;
		return 0;
	}
	snprintf(text, size,
		 "%.0f page%s (%.0f records) past --page-budget %s counted in their 2 MiB regions only: the 4 KiB "
		 "page lists leave %s out, the regions and totals count %s.",
		 v[0], v[0] == 1 ? "" : "s", v[1], v[0] == 1 ? "is" : "are", v[0] == 1 ? "it" : "them",
		 v[0] == 1 ? "it" : "them");
	return 1;
}

int spe_page_budget_note(sqlite3 *db, char *text, size_t size, char *err, size_t errlen)
{
	return sentence(db, page_budget_sql, SPE_PAGE_BUDGET_COLUMNS, spe_page_budget_text, text, size, err, errlen);
}

static const char numa_sql[] =
	"SELECT coalesce(sum(total_latency), 0),"
	" coalesce(sum(CASE WHEN basis = 'physical address' AND remote = 1 THEN total_latency END), 0),"
	" coalesce(sum(CASE WHEN basis = 'physical address' AND memory_node IS NOT NULL THEN loads END), 0),"
	" coalesce(sum(CASE WHEN basis = 'physical address' THEN loads END), 0),"
	" coalesce(sum(CASE WHEN basis = 'data source' AND remote = 1 THEN loads END), 0),"
	" coalesce(sum(loads), 0)"
	" FROM numa_traffic";

const char *spe_numa_summary_sql(void)
{
	return numa_sql;
}

int spe_numa_summary_text(const double v[SPE_NUMA_SUMMARY_COLUMNS], char *text, size_t size)
{
	double total = v[0], remote_lat = v[1], placed = v[2], with_pa = v[3], ds_remote = v[4], loads = v[5];
	if (loads <= 0) {
		snprintf(text, size, "No NUMA view: no load has a data address.");
		return 0;
	}
	if (placed > 0) {
		snprintf(text, size,
			 "%.1f%% of load latency comes from memory of another NUMA node (%.0f of %.0f loads placed on nodes "
			 "by their physical address).",
			 total > 0 ? 100 * remote_lat / total : 0, placed, loads);
		return remote_lat > 0;
	}
	if (with_pa > 0) {
		snprintf(text, size,
			 "Loads have physical addresses but the capture stored no NUMA layout (perf record and spe-record "
			 "write it as the NUMA_TOPOLOGY and MEM_TOPOLOGY features): nodes unknown.");
		return 0;
	}
	snprintf(text, size,
		 "No physical addresses in the capture (record with spe-record --pa-enable, perf's pa_enable=1): NUMA "
		 "placement unknown; %.0f of %.0f "
		 "loads (%.1f%%) came from levels on another socket (remote cache or remote DRAM, by data source).",
		 ds_remote, loads, 100 * ds_remote / loads);
	return ds_remote > 0;
}

int spe_numa_summary(sqlite3 *db, char *text, size_t size, char *err, size_t errlen)
{
	return sentence(db, numa_sql, SPE_NUMA_SUMMARY_COLUMNS, spe_numa_summary_text, text, size, err, errlen);
}

/* What the capture's CPU parts can show about sharing and prefetch (spe_part_fact), one line each. */
static const char capability_sql[] =
	"SELECT c.part || ': ' ||"
	" CASE WHEN pf.coherence_events THEN 'records the HITM and snoop events (SPEv1.4)'"
	"  ELSE 'no HITM or snoop events (SPE ' || coalesce(pf.spe_version, '?') || ')' END || '; ' ||"
	" CASE WHEN EXISTS (SELECT 1 FROM spe_data_source_fact f WHERE f.part = c.part AND f.modified)"
	"  THEN 'data sources mark modified lines' ELSE 'data sources mark no modified line' END || '; ' ||"
	" CASE WHEN pf.late_prefetch_bit IS NOT NULL THEN 'late prefetch is IMPDEF bit ' || pf.late_prefetch_bit"
	"  ELSE 'no late-prefetch event' END AS part"
	" FROM (SELECT DISTINCT part FROM cpu WHERE part IS NOT NULL) c LEFT JOIN spe_part_fact pf ON pf.part = c.part"
	" ORDER BY c.part";

const char *spe_memory_parts_sql(void)
{
	return capability_sql;
}

/* A column of the text tables: its header (words, as the report's other sections have) and alignment. */
struct text_col {
	const char *header;
	enum { COL_TEXT, COL_NUM, COL_PERCENT } kind;
};

#define MAX_TEXT_COLS 8

struct section {
	const char *title, *json_key, *sql;
	struct text_col cols[MAX_TEXT_COLS]; /* one per column of sql, in order */
};

/* A cell as the text report shows it: "-" for unknown (NULL), percentages with one decimal and a % sign. */
static char *cell_text(sqlite3_stmt *st, int i, const struct text_col *c)
{
	char buf[64];
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return strdup("-");
	if (c->kind == COL_PERCENT) {
		snprintf(buf, sizeof buf, "%.1f%%", sqlite3_column_double(st, i));
		return strdup(buf);
	}
	const char *t = (const char *)sqlite3_column_text(st, i);
	return t ? util_visible(t, 0, UTIL_VISIBLE_MAX) : NULL; /* names as text, never terminal commands */
}

/*
 * @p sql's rows as the report's other tables look (analysis/topdown/src/
 * report_spe.c): indented two spaces, headers in words, numbers right-aligned,
 * "-" where a value is unknown.  Widths fit the rows (at most --top of them).
 */
static int print_text_table(sqlite3 *db, const char *sql, const struct text_col *cols, FILE *out, char *err,
			    size_t errlen)
{
	sqlite3_stmt *st;
	if (ana_prepare(db, sql, &st, "memory section", err, errlen) < 0)
		return report_sqlite_code(sqlite3_errcode(db));
	int n = sqlite3_column_count(st);
	if (n > MAX_TEXT_COLS)
		n = MAX_TEXT_COLS;
	size_t width[MAX_TEXT_COLS], rows = 0, cap = 0;
	char **cells = NULL;
	int rc = 0, step;
	for (int i = 0; i < n; i++)
		width[i] = strlen(cols[i].header);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (rows == cap) {
			char **grown = realloc(cells, (cap = cap ? 2 * cap : 16) * n * sizeof *cells);
			if (!grown) {
				rc = -spe_nomem;
				break;
			}
			cells = grown;
		}
		for (int i = 0; i < n; i++) {
			char *t = cell_text(st, i, &cols[i]);
			cells[rows * n + i] = t;
			size_t w = t ? util_visible_columns(t, 0, 0) : 0;
			if (!t)
				rc = -spe_nomem;
			else if (w > width[i])
				width[i] = w;
		}
		rows++;
		if (rc)
			break;
	}
	if (!rc && step != SQLITE_DONE)
		rc = report_sqlite_fail(db, step, "memory section", err, errlen);
	sqlite3_finalize(st);
	if (rc == -spe_nomem)
		snprintf(err, errlen, "memory section: out of memory");
	for (size_t r = 0; r <= rows && !rc; r++) {
		fputs(" ", out);
		for (int i = 0; i < n; i++) {
			const char *t = r ? cells[(r - 1) * n + i] : cols[i].header;
			int w = i == n - 1 && cols[i].kind == COL_TEXT ? 0 : (int)width[i]; /* no trailing blanks */
			fputc(' ', out);
			util_visible_put(out, t, 0, 0, cols[i].kind == COL_TEXT ? w : -w);
			if (i < n - 1)
				fputc(' ', out);
		}
		fputc('\n', out);
	}
	for (size_t k = 0; k < rows * (size_t)n; k++)
		free(cells[k]);
	free(cells);
	return rc;
}

static int memory_report(sqlite3 *db, enum spe_result_format fmt, int top, FILE *out, char *err, size_t errlen);

/*
 * Under a table cut at @p top rows of @p view: "1,234 more data objects, 12.3 % of the latency" (the
 * share of @p weight, the view's latency column, over all its rows); nothing when none is cut.  (Not
 * under the shared lines: cacheline_sharing may scan the records, and would then run three times.)
 */
static int more_line(sqlite3 *db, const char *view, const char *weight, int top, const char *noun, FILE *out,
		     char *err, size_t errlen)
{
	char sql[8192]; /* @p view may be a subquery (spe_hot_data_object_from()) */
	double v[3] = { 0 };
	snprintf(sql, sizeof sql,
		 "SELECT count(*), coalesce(sum(w), 0), (SELECT coalesce(sum(%s), 0) FROM %s) FROM "
		 "(SELECT %s AS w FROM %s LIMIT -1 OFFSET %d)",
		 weight, view, weight, view, top);
	int rc = one_row(db, sql, 3, v, err, errlen);
	if (rc < 0 || v[0] < 1)
		return rc < 0 ? rc : 0;
	char count[32], digits[32];
	int n = snprintf(digits, sizeof digits, "%.0f", v[0]), o = 0;
	for (int k = 0; k < n && o + 2 < (int)sizeof count; k++) {
		if (k && (n - k) % 3 == 0)
			count[o++] = ',';
		count[o++] = digits[k];
	}
	count[o] = 0;
	fprintf(out, "  %s more %s, %.1f %% of the latency (--top=N shows more)\n", count, noun,
		v[2] > 0 ? 100 * v[1] / v[2] : 0);
	return 0;
}

int spe_memory_report(sqlite3 *db, enum spe_result_format fmt, int top, FILE *out, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	int snap = report_snapshot_begin(db, err, errlen); /* one state of the database (report_sqlite.h) */
	if (snap < 0)
		return snap;
	int rc = memory_report(db, fmt, top, out, err, errlen);
	report_snapshot_end(db, snap);
	return rc;
}

static int memory_report(sqlite3 *db, enum spe_result_format fmt, int top, FILE *out, char *err, size_t errlen)
{
	if (top <= 0)
		top = 10;
	char hint[1024], numa[1024], budget[512], sql[4][1024], objects_sql[4096];
	int rc = spe_huge_page_hint(db, hint, sizeof hint, err, errlen);
	int budget_rc = rc < 0 ? rc : spe_page_budget_note(db, budget, sizeof budget, err, errlen);
	if (budget_rc < 0)
		return budget_rc;
	if (rc >= 0)
		rc = spe_numa_summary(db, numa, sizeof numa, err, errlen);
	if (rc < 0)
		return rc;
	double sources = 0;
	if ((rc = one_row(db, "SELECT count(*) FROM source", 1, &sources, err, errlen)) < 0)
		return rc;
	/* the views' rows are per capture: with several, each row says which (source.id), else they look alike */
	const char *capture = sources > 1 ? "source_id AS capture, " : "";
	/* the loads' counts per data object when every source has them, else the view (the same rows) */
	const char *objects = spe_hot_data_object_from(spe_data_objects_stored(db));
	snprintf(objects_sql, sizeof objects_sql,
		 "SELECT %skind, name, start, samples, latency_share, p99, levels FROM %s LIMIT %d", capture, objects,
		 top);
	snprintf(sql[1], sizeof sql[1],
		 "SELECT %scpu_node, memory_node, basis, remote, loads, total_latency, mean_latency FROM numa_traffic "
		 "LIMIT %d",
		 capture, top);
	snprintf(sql[2], sizeof sql[2],
		 "SELECT %sline, cpus, writes, hitm, peer_hits, remote_hits, data_objects FROM cacheline_sharing LIMIT %d",
		 capture, top);
	snprintf(sql[3], sizeof sql[3],
		 "SELECT pc, symbol, data_object, loads, late_prefetch, recently_fetched, late_latency FROM prefetch LIMIT %d",
		 top);
	const struct section sections[] = {
		{ "Hot data objects by total latency", "data_objects", objects_sql,
		  { { "kind", COL_TEXT }, { "object", COL_TEXT }, { "start", COL_TEXT }, { "samples", COL_NUM },
		    { "share", COL_PERCENT }, { "p99", COL_NUM }, { "levels", COL_TEXT } } },
		{ "NUMA traffic (loads by CPU node and memory node)", "numa_traffic", sql[1],
		  { { "CPU node", COL_NUM }, { "memory node", COL_NUM }, { "basis", COL_TEXT }, { "remote", COL_NUM },
		    { "loads", COL_NUM }, { "total latency", COL_NUM }, { "mean", COL_NUM } } },
		{ "Shared cache lines", "shared_lines", sql[2],
		  { { "line", COL_TEXT }, { "CPUs", COL_NUM }, { "writes", COL_NUM }, { "HITM", COL_NUM },
		    { "peer hits", COL_NUM }, { "remote hits", COL_NUM }, { "data objects", COL_TEXT } } },
		{ "Late prefetches", "prefetch", sql[3],
		  { { "pc", COL_TEXT }, { "symbol", COL_TEXT }, { "data object", COL_TEXT }, { "loads", COL_NUM },
		    { "late", COL_NUM }, { "recently fetched", COL_NUM }, { "late latency", COL_NUM } } },
	};
	if (fmt == SPE_FORMAT_JSON) {
		fprintf(out, "\"memory\": {\"huge_pages\": {\"advise\": %s, \"hint\": ", rc ? "true" : "false");
		util_json_string(out, hint);
		fprintf(out, "}, \"numa\": ");
		util_json_string(out, numa);
		for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
			fprintf(out, ", \"%s\": ", sections[i].json_key);
			if ((rc = ana_result_json_array(db, sections[i].sql, out, err, errlen)) < 0)
				return rc;
		}
		fprintf(out, ", \"parts\": ");
		if ((rc = ana_result_json_array(db, capability_sql, out, err, errlen)) < 0)
			return rc;
		fputc('}', out);
		return 0;
	}
	fprintf(out, "Memory\n\nHuge pages: %s\n", hint);
	if (budget_rc)
		fprintf(out, "Pages: %s\n", budget);
	fprintf(out, "NUMA: %s\n", numa);
	if (*capture) {
		static const struct text_col source_cols[] = { { "capture", COL_NUM }, { "file", COL_TEXT } };
		fprintf(out, "\nCaptures (the tables' first column)\n");
		if ((rc = print_text_table(db, /* the file's last component (the table source has the path as given) */
					   "SELECT id, replace(file, rtrim(file, replace(file, '/', '')), '') FROM source ORDER BY id", source_cols, out, err, errlen)) < 0)
			return rc;
	}
	for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
		struct text_col cols[MAX_TEXT_COLS + 1] = { { "capture", COL_NUM } };
		/* the prefetch view adds up every capture's loads by PC: no capture column */
		int with_capture = *capture && strstr(sections[i].sql, "capture") != NULL;
		memcpy(cols + with_capture, sections[i].cols, sizeof sections[i].cols);
		fprintf(out, "\n%s\n", sections[i].title);
		if ((rc = print_text_table(db, sections[i].sql, cols, out, err, errlen)) < 0)
			return rc;
		if (i == 0 && (rc = more_line(db, objects, "total_latency", top, "data objects", out, err, errlen)) < 0)
			return rc;
	}
	/* one sentence per part: a list, as the sentences above, not a one-column table */
	static const struct text_col part_col[] = { { "part", COL_TEXT } };
	fprintf(out, "\nWhat the CPU parts can show\n");
	return print_text_table(db, capability_sql, part_col, out, err, errlen);
}
