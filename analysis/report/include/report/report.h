/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_report: pictures of an analysis database.
 *
 *   spe_report_html()      one self-contained HTML page (inline CSS and SVG,
 *                          a few lines of inline script, nothing fetched):
 *                          summary, where the latency goes, hot code,
 *                          annotations, latency over time, memory, branches,
 *                          topdown;
 *   spe_report_annotate()  one function's source lines and disassembly with
 *                          the latency of each, as text or JSON;
 *   spe_report_diff_html() the before/after page of two captures, from
 *                          spe_diff_compute() (spe/diff.h).
 *
 * Both read the database through the views and summaries of docs/schema.md
 * (the SQL is in query/report_sql.c), never every record into memory.  They
 * write to a stream the caller gives, never print elsewhere, and return 0 or
 * a negative spe_error_code with a message in @p err:
 *   -spe_invalid      no SPE records, or no function of that name;
 *   -spe_bad_file     a query failed (the database is not what it claims);
 *   -spe_nomem, -spe_io.
 */
#ifndef SPE_REPORT_REPORT_H
#define SPE_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "spe/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sqlite3 sqlite3;
struct spe_diff;
struct spe_ch;

struct spe_report_opts {
	int top;                        /* rows of the ranked tables (default 10) */
	int annotations;                /* functions annotated in the HTML page (0 = 5, negative = none) */
	const char *symfs;              /* where the traced binaries are (as spe-load --symfs) */
	const char *const *source_dirs; /* where to look for source files, NULL-terminated */
	const char *title;              /* page title; NULL = the database file name */
	int color;                      /* annotate text: ANSI colours for the shading */
	/*
	 * The records the database holds were selected from the capture's
	 * (spe/settings.h, SPE_SETTING_SELECTION): in words ("pid 42; cpu 1"),
	 * said in the page's header and each annotation.  NULL: all of them.
	 */
	const char *selection;
	/*
	 * How far the HTML page is (spe/progress.h): "sections" done of all,
	 * with the section being written as the step, at each section and
	 * each query it runs.  NULL: none.
	 */
	spe_progress_fn *on_progress;
	void *progress_arg;
};

enum spe_report_format { SPE_REPORT_TEXT, SPE_REPORT_JSON };

/* The HTML page for @p db. */
int spe_report_html(sqlite3 *db, FILE *out, const struct spe_report_opts *opts, char *err, size_t errlen);

/*
 * Every function named @p symbol (one per binary it is in, hottest first):
 * text in the manner of perf annotate, or one JSON object per function.
 */
int spe_report_annotate(sqlite3 *db, const char *symbol, enum spe_report_format fmt, FILE *out,
			const struct spe_report_opts *opts, char *err, size_t errlen);

/*
 * The same page and annotation from a ClickHouse database (spe/clickhouse.h):
 * @p ch a session the caller opened (readonly, scoped to --host/--source as
 * it chose) and checked.  The same statements as on SQLite where the SQL is
 * the same, ClickHouse's own where it differs (analysis/report/query/
 * report_sql.c), so the same captures give the same page.  Besides the
 * codes above, the session's: -spe_unavailable (the server or a shard
 * stopped answering), -spe_cancelled, -spe_no_permission; -spe_unsupported
 * in a build without ClickHouse.
 */
int spe_report_html_ch(struct spe_ch *ch, FILE *out, const struct spe_report_opts *opts, char *err, size_t errlen);
int spe_report_annotate_ch(struct spe_ch *ch, const char *symbol, enum spe_report_format fmt, FILE *out,
			   const struct spe_report_opts *opts, char *err, size_t errlen);

/*
 * The before/after page: the two captures, then per function, instruction
 * and data object the change in total latency (a diverging bar with its
 * interval as a whisker), in samples and p99, and the noise verdict, in
 * @p d's order (by impact); opts->top rows per kind (default 10), opts->title
 * in the heading.  Errors: -spe_invalid (no @p d), -spe_io.
 */
int spe_report_diff_html(const struct spe_diff *d, FILE *out, const struct spe_report_opts *opts, char *err,
			 size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
