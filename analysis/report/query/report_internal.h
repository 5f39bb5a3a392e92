/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: the context every section and the annotation share. */
#ifndef SPE_REPORT_INTERNAL_H
#define SPE_REPORT_INTERNAL_H

#include <sqlite3.h>
#include <stdint.h>

#include "html.h"
#include "report/report.h"
#include "report_sql.h"
#include "spe/spe.h"

/* Memory levels of the facts table, in its order; index MEM_LEVELS is "unknown" (NULL). */
enum { MEM_LEVELS = 0
#define SPE_X(id, name, peer, desc) +1
	SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X
};
/* The index of level @p name, MEM_LEVELS for NULL or a name the facts table lacks. */
int report_mem_level_index(const char *name);
const char *report_mem_level_label(int index); /* "unknown" for MEM_LEVELS */
unsigned report_mem_level_rgb(int index);

/* What one query cost, for the page's appendix and for tuning. */
struct query_log {
	double seconds;
	long long rows;
	int runs;
};

struct spe_ch;
struct spe_ch_rows;

/* Where the report reads: an SQLite database, or a ClickHouse session (readonly, scoped by the caller). */
struct report_ctx {
	sqlite3 *db;       /* NULL with ch */
	struct spe_ch *ch; /* NULL with db */
	struct html h;
	struct spe_report_opts o; /* defaults filled in */
	char *err;
	size_t errlen;
	struct query_log log[RQ_COUNT];
	int sources_not_read; /* source files a line table named that lead outside --source-dir/--symfs */
	struct spe_progress progress; /* the page's sections (o.on_progress): told at each query too */
	unsigned stored;              /* REPORT_STORED_*: the summaries the loads stored (report_sql.h) */
};

int report_ctx_init(struct report_ctx *c, sqlite3 *db, struct spe_ch *ch, FILE *out, const struct spe_report_opts *opts, char *err,
		    size_t errlen);
/* Record an error for the caller; returns @p code (negative). */
int report_fail(struct report_ctx *c, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * One run of a named query: begin (the statement of the context's engine),
 * bind its parameters, step with report_rq_next, read the columns, end.
 * On SQLite the statement is prepared and bound; on ClickHouse (whose 18.16
 * has no query parameters) each bound value is written into the statement
 * as a literal when the first row is asked for, and the answer read as
 * text cells.  Sections read columns only through these calls.
 */
#define RQ_PARAMS 4 /* ?1 .. ?4 */
struct rq {
	struct report_ctx *c;
	enum report_query id;
	sqlite3_stmt *st;                /* SQLite */
	char *sql;                       /* ClickHouse: the statement, with ?N ... */
	char *param[RQ_PARAMS];          /* ... replaced by these literals when run */
	struct spe_ch_rows *chr;         /* ClickHouse: the answer, once run */
	int failed;                      /* a bind ran out of memory */
	double start;
	long long rows;
};
int report_rq_begin(struct report_ctx *c, struct rq *q, enum report_query id);
/* Parameter ?@p i (from 1): an integer; text (NULL: SQL NULL); a JSON array of integers, a set of ids. */
void report_rq_bind_int(struct rq *q, int i, long long v);
void report_rq_bind_text(struct rq *q, int i, const char *text);
void report_rq_bind_ids(struct rq *q, int i, const char *json_ints);
/* 1 with a row, 0 at the end, negative on error (message in the context). */
int report_rq_next(struct rq *q);
void report_rq_end(struct rq *q);
int report_rq_ncols(struct rq *q);
/* Column text (as sqlite3_column_text shows the value), or NULL for SQL NULL. */
const char *report_rq_text(struct rq *q, int col);
/* The column as a number (0 for NULL), and whether it is NULL. */
long long report_rq_int(struct rq *q, int col);
double report_rq_double(struct rq *q, int col);
int report_rq_null(struct rq *q, int col);

/*
 * The ClickHouse side (report_ch.c): run @p sql (query @p name, for the
 * message) in the session into a
 * cursor, and its rows.  Without spe_clickhouse in the build, open fails
 * with -spe_unsupported.
 */
int report_ch_open(struct report_ctx *c, const char *name, const char *sql, struct spe_ch_rows **out);
int report_ch_next(struct report_ctx *c, struct spe_ch_rows *r);
int report_ch_ncols(struct spe_ch_rows *r);
const char *report_ch_text(struct spe_ch_rows *r, int col);
void report_ch_free(struct spe_ch_rows *r);
/* A one-row, one-column integer query with no parameters (0 when there is no row). */
int report_rq_scalar(struct report_ctx *c, enum report_query id, long long *value);
/* The first row of a query with no parameters as @p n numbers (zeros when there is no row). */
int report_rq_numbers(struct report_ctx *c, enum report_query id, int n, double *v);

/* Every row of a query, each column as text (NULL for SQL NULL), for sections that read before they write. */
struct rowset {
	int ncols;
	size_t n;
	char **cells; /* n x ncols */
};
/* Run @p q (begun and bound) to the end into @p rs, and end it. */
int report_rowset_read(struct rq *q, struct rowset *rs);
/* Run query @p id with ?1 = the --top row count into @p rs. */
int report_rowset_ranked(struct report_ctx *c, enum report_query id, struct rowset *rs);
/* Run query @p id, which takes no parameters, into @p rs. */
int report_rowset_all(struct report_ctx *c, enum report_query id, struct rowset *rs);
/* Every row of a ranked query (?1 bound to no limit), for the JSON of its table. */
int report_rowset_every(struct report_ctx *c, enum report_query id, struct rowset *rs);
const char *report_rowset_get(const struct rowset *rs, size_t row, int col);
void report_rowset_fini(struct rowset *rs);

/* Columns of a rowset shown in a table: its column, the data-col key, the heading, right-aligned. */
struct table_col {
	int col;
	const char *key, *head;
	int numeric;
};
/*
 * <div class="scroll"><table id=ID><thead> with the headings, then @p extra (raw <th> cells, may be NULL);
 * opens <tbody>.  Close with report_table_end().
 */
void report_table_head(struct html *h, const char *id, const struct table_col *cols, int n, const char *extra);
void report_table_end(struct html *h);
/* The cells of row @p r (no <tr>). */
void report_table_cells(struct html *h, const struct rowset *rs, size_t r, const struct table_col *cols, int n);
/* Every row of @p rs as <tr> with those cells. */
void report_table_rows(struct html *h, const struct rowset *rs, const struct table_col *cols, int n);

/* A JSON array "[a, b, ...]" of @p n integers for the id-set parameters; NULL without memory. */
char *report_json_int_array(const long long *v, size_t n);

#endif
