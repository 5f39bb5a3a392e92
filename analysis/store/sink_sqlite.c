/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQLite row sink (spe/row_sink.h): typed rows into the tables of
 * docs/schema.md, inside the transaction spe_db keeps open for the load.
 * Each table's INSERT and its bindings come from the table's description
 * (spe/tables.h); statements are prepared on first use.  Records go
 * RECORD_BATCH rows per INSERT statement: SQLite's per-statement cost
 * (cursor open/close, transaction checks) then counts once per batch
 * instead of once per row.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "ana/file_digest.h"
#include "db_internal.h"
#include "number_text.h"
#include "rollup_feed.h"
#include "util/text.h"
#include "spe/analysis.h"
#include "spe/row_sink.h"

#define RECORD_BATCH 32

struct sqlite_sink {
	sqlite3 *sql;
	int replace;     /* spe_db_set_replace: a file already loaded replaces its source */
	struct rollup_feed *feed; /* the pc_histogram rows for the rollup, on a new database (else NULL) */
	sqlite3_stmt *insert[SPE_TABLE_COUNT]; /* a row of each table, prepared on first use */
	sqlite3_stmt *record_batch;            /* RECORD_BATCH records */
	char *text;      /* a pc_histogram row's JSON, reused */
	size_t text_cap;
	/*
	 * What record_batch's parameters hold, row by row (all NULL when it
	 * is new).  sqlite3_reset keeps the bindings, so a value equal to the
	 * one already there is not bound again: most columns repeat from row
	 * to row (source, CPU, thread, NULLs), and binding was a tenth of the
	 * inserts' time.
	 */
	struct spe_row_record batch_bound[RECORD_BATCH];
	uint64_t text_columns; /* the record columns holding strings (none since schema 4) */
	char err[512];
};

static int fail(struct sqlite_sink *s, const char *what)
{
	char why[400];
	snprintf(s->err, sizeof s->err, "%s: %s", what, ana_sqlite_why(s->sql, NULL, why, sizeof why));
	return -spe_io;
}

static int out_of_memory(struct sqlite_sink *s)
{
	snprintf(s->err, sizeof s->err, "out of memory");
	return -spe_nomem;
}

/*
 * "INSERT [OR REPLACE] INTO table(columns) VALUES(?, ...)" of table @p ti's
 * stored columns (spe/tables.h), with @p rows value tuples.
 */
static char *insert_sql(const struct spe_table_info *ti, int rows)
{
	struct util_text t = { 0 };
	util_text_appendf(&t, "INSERT %sINTO %s(", ti->flags & SPE_TABLE_REPLACE ? "OR REPLACE " : "", ti->name);
	int n = 0;
	for (int c = 0; c < ti->n_columns; c++)
		if (ti->columns[c].sql)
			util_text_appendf(&t, "%s%s", n++ ? ", " : "", ti->columns[c].name);
	util_text_append(&t, ") VALUES");
	for (int r = 0; r < rows; r++) {
		util_text_append(&t, r ? ",(" : "(");
		for (int c = 0; c < n; c++)
			util_text_append(&t, c ? ",?" : "?");
		util_text_append(&t, ")");
	}
	if (!util_text_ok(&t)) {
		util_text_fini(&t);
		return NULL;
	}
	return t.buf;
}

/* The statement *st inserting @p rows rows of @p table, prepared on first use; NULL with the message set. */
static sqlite3_stmt *statement(struct sqlite_sink *s, sqlite3_stmt **st, enum spe_table table, int rows)
{
	if (*st)
		return *st;
	const struct spe_table_info *ti = spe_table_info(table);
	char *sql = insert_sql(ti, rows);
	if (!sql) {
		out_of_memory(s);
		return NULL;
	}
	ana_prepare(s->sql, sql, st, ti->name, s->err, sizeof s->err);
	free(sql);
	return *st;
}

/* ---- the operations -------------------------------------------------------- */

/* The next id of a table: one past the largest, as INTEGER PRIMARY KEY would give. */
static int next_id(struct sqlite_sink *s, const char *table, int64_t *id)
{
	char q[96];
	snprintf(q, sizeof q, "SELECT coalesce(max(id), 0) + 1 FROM %s", table);
	sqlite3_stmt *st;
	int rc = ana_prepare(s->sql, q, &st, table, s->err, sizeof s->err);
	if (rc < 0)
		return rc;
	rc = sqlite3_step(st) == SQLITE_ROW ? 0 : fail(s, table);
	*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc;
}

static int sink_begin(void *ctx, struct spe_row_ids *next)
{
	struct sqlite_sink *s = ctx;
	int rc = next_id(s, "source", &next->source);
	if (rc == 0)
		rc = next_id(s, "mapping", &next->mapping);
	if (rc == 0)
		rc = next_id(s, "symbol", &next->symbol);
	if (rc == 0)
		rc = next_id(s, "insn", &next->insn);
	if (rc == 0)
		rc = next_id(s, "data_object", &next->data_object);
	return rc;
}

/*
 * Every row of source @p id: the tables with a source_id column (whichever
 * the schema has, so tables added later go too), the symbols and
 * instructions of its mappings, then the source.  The summaries over all
 * sources (pc_summary, symbol_summary) are refilled at the end of the load.
 */
static int delete_source(struct sqlite_sink *s, int64_t id)
{
	if (s->feed) /* its pc_histogram rows go: the rollup reads what stays */
		ana_rollup_feed_lose(s->feed);
	sqlite3_stmt *st;
	int rc = ana_prepare(s->sql,
			     "SELECT m.name FROM sqlite_schema m JOIN pragma_table_info(m.name) c"
			     " WHERE m.type = 'table' AND c.name = 'source_id' ORDER BY m.name",
			     &st, "source", s->err, sizeof s->err);
	if (rc < 0)
		return rc;
	struct util_text t = { 0 };
	util_text_appendf(&t,
			  "DELETE FROM insn WHERE mapping_id IN (SELECT id FROM mapping WHERE source_id = %lld);\n"
			  "DELETE FROM symbol WHERE mapping_id IN (SELECT id FROM mapping WHERE source_id = %lld);\n",
			  (long long)id, (long long)id);
	while (sqlite3_step(st) == SQLITE_ROW)
		util_text_appendf(&t, "DELETE FROM \"%s\" WHERE source_id = %lld;\n", sqlite3_column_text(st, 0),
				  (long long)id);
	sqlite3_finalize(st);
	util_text_appendf(&t, "DELETE FROM source WHERE id = %lld;\n", (long long)id);
	rc = util_text_ok(&t) ? spe_db_exec(s->sql, t.buf, s->err, sizeof s->err) : -spe_nomem;
	if (rc == -spe_nomem)
		snprintf(s->err, sizeof s->err, "out of memory");
	util_text_fini(&t);
	return rc;
}

/*
 * A file already in the database (the same digest: size and hash) would
 * count its records twice: refused, naming the earlier source, or (replace)
 * that source is deleted first.  Within the load's transaction, so a
 * failure afterwards leaves the earlier source in place.
 */
static int check_loaded(struct sqlite_sink *s, const struct spe_row_source *r)
{
	if (!r->digest)
		return 0;
	/* a database written before XXH3 digests: the file's first digest too (ana/file_digest.h) */
	char first[SPE_FILE_DIGEST_SIZE] = "";
	if (!ana_file_digest_is_first(r->digest) &&
	    ana_query_int(s->sql,
			  "SELECT count(*) FROM (SELECT 1 FROM source WHERE digest IS NOT NULL AND "
			  ANA_FILE_DIGEST_FIRST_SQL("digest") " LIMIT 1)", 0) > 0) {
		int rc = ana_file_digest_first(r->file, first, sizeof first, s->err, sizeof s->err);
		if (rc < 0)
			return rc;
	}
	sqlite3_stmt *st;
	int rc = ana_prepare(s->sql, "SELECT id, file, loaded_at FROM source WHERE digest = ?1 OR digest = ?2 ORDER BY id",
			     &st, "source", s->err, sizeof s->err);
	if (rc < 0)
		return rc;
	sqlite3_bind_text(st, 1, r->digest, -1, SQLITE_STATIC);
	if (*first)
		sqlite3_bind_text(st, 2, first, -1, SQLITE_STATIC);
	int64_t *ids = NULL;
	size_t n = 0;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (!s->replace) {
			snprintf(s->err, sizeof s->err,
				 "%s is already loaded as source %lld (file %s, loaded %s; the same size and content); "
				 "--replace loads it again in its place",
				 r->file, (long long)id, (const char *)sqlite3_column_text(st, 1),
				 (const char *)sqlite3_column_text(st, 2));
			rc = -spe_bad_file;
			break;
		}
		int64_t *grown = realloc(ids, (n + 1) * sizeof *ids); /* deleted once the query is done */
		if (!grown) {
			snprintf(s->err, sizeof s->err, "out of memory");
			rc = -spe_nomem;
			break;
		}
		ids = grown;
		ids[n++] = id;
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = delete_source(s, ids[i]);
	free(ids);
	return rc;
}

/* A histogram as pc_histogram stores it: the JSON object {"latency":samples,...}. */
static const char *histogram_json(struct sqlite_sink *s, size_t n, const int32_t *latency, const uint64_t *samples)
{
	size_t need = 3 + n * 30; /* ,"65535":18446744073709551615 and the NUL the last number writes */
	if (need > s->text_cap) {
		char *t = realloc(s->text, need);
		if (!t)
			return NULL;
		s->text = t;
		s->text_cap = need;
	}
	char *p = s->text;
	*p++ = '{';
	/* not sprintf: a 10 M-record gen_bench load writes 3.2 M pairs, each a format string parsed again */
	for (size_t i = 0; i < n; i++) {
		if (i)
			*p++ = ',';
		*p++ = '"';
		p += ana_int64_text(p, latency[i]);
		*p++ = '"';
		*p++ = ':';
		p += ana_uint64_text(p, samples[i]);
	}
	*p++ = '}';
	*p = 0;
	return s->text;
}

/* Bind @p n ids as a JSON array ("[3,5]") to parameter @p i. */
static int bind_id_list(sqlite3_stmt *st, int i, const int64_t *ids, size_t n)
{
	char *text = malloc(n * 21 + 3), *p = text;
	if (!text)
		return -1;
	for (size_t k = 0; k < n; k++)
		p += sprintf(p, "%c%lld", k ? ',' : '[', (long long)ids[k]);
	strcpy(p, "]");
	return sqlite3_bind_text(st, i, text, -1, free) == SQLITE_OK ? 0 : -1;
}

/*
 * The binder of each table, generated from its column list (spe/tables.h):
 * bind_<table>(s, st, row) binds the row's stored columns to the
 * statement's parameters in order, each as its kind says, and leaves a NULL
 * unbound (the bindings are cleared after each row).  Straight-line code
 * per table, as a hand-written binder would be: no dispatch per column.
 * 0, or -spe_nomem.
 */
#define BIND_COLUMN(table, name, kind, null, sql, doc) BIND_##kind(name, null)
#define BIND_INT(name, null)                                      \
	i++;                                                      \
	if (!SPE_IS_NULL(null, r, name))                          \
		sqlite3_bind_int64(st, i, (int64_t)r->name);
#define BIND_I64 BIND_INT
#define BIND_U64 BIND_INT
#define BIND_I32 BIND_INT
#define BIND_U32 BIND_INT
#define BIND_FLAG(name, null) /* no column */
#define BIND_TEXT(name, null)                                                        \
	i++;                                                                         \
	if (r->name && !SPE_IS_NULL(null, r, name))                                  \
		sqlite3_bind_text(st, i, r->name, -1, SQLITE_STATIC); /* rows live through the call */
#define BIND_BYTES(name, null) \
	i++;                   \
	if (r->name)           \
		sqlite3_bind_blob(st, i, r->name, (int)r->n_##name, SQLITE_STATIC);
#define BIND_IDS(name, null)                                                      \
	i++;                                                                      \
	if (r->n_##name && bind_id_list(st, i, r->name, r->n_##name) < 0)         \
		return out_of_memory(s);
#define BIND_HIST(name, null)                                                     \
	i++;                                                                      \
	if (!histogram_json(s, r->n, r->latency, r->samples))                     \
		return out_of_memory(s);                                          \
	sqlite3_bind_text(st, i, s->text, -1, SQLITE_STATIC);
#define BINDER(name_, NAME, flags, key, order, title)                                        \
	static int bind_##name_(struct sqlite_sink *s, sqlite3_stmt *st, const void *row)   \
	{                                                                                    \
		const struct spe_row_##name_ *r = row;                                       \
		int i = 0;                                                                   \
		(void)s;                                                                     \
		SPE_COLUMNS_##name_(BIND_COLUMN) return 0;                                   \
	}
SPE_TABLES(BINDER)
#undef BINDER

typedef int binder(struct sqlite_sink *s, sqlite3_stmt *st, const void *row);
static binder *const binders[SPE_TABLE_RECORD] = {
#define BINDER(name, NAME, flags, key, order, title) [SPE_TABLE_##NAME] = bind_##name,
	SPE_TABLES(BINDER)
#undef BINDER
};

/* @p n rows of table @p table, one statement each. */
static int insert_rows(struct sqlite_sink *s, enum spe_table table, const void *rows, size_t n)
{
	const struct spe_table_info *ti = spe_table_info(table);
	sqlite3_stmt *st = statement(s, &s->insert[table], table, 1);
	if (!st)
		return -spe_io;
	for (size_t k = 0; k < n; k++) {
		const void *row = (const char *)rows + k * ti->row_size;
		int rc = binders[table](s, st, row);
		if (rc == 0 && sqlite3_step(st) != SQLITE_DONE)
			rc = fail(s, ti->name);
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		if (rc < 0)
			return rc;
		if (table == SPE_TABLE_PC_HISTOGRAM && s->feed)
			ana_rollup_feed_add(s->feed, row);
	}
	return 0;
}

/* Bind record @p r to parameters first .. first + SPE_RECORD_NCOLS - 1 (@p text: its text columns). */
static void bind_record(sqlite3_stmt *st, int first, const struct spe_row_record *r, uint64_t text)
{
	for (int c = 0; c < SPE_RECORD_NCOLS; c++) {
		if (!(r->present >> c & 1))
			sqlite3_bind_null(st, first + c);
		else if (text >> c & 1)
			sqlite3_bind_text(st, first + c, r->col[c].s, -1, SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, first + c, r->col[c].i);
	}
}

/* bind_record for parameters that hold @p was: only the values that differ; @p was becomes @p r. */
static void bind_record_changes(sqlite3_stmt *st, int first, const struct spe_row_record *r, struct spe_row_record *was,
				uint64_t text)
{
	uint64_t changed = r->present ^ was->present;
	for (int c = 0; c < SPE_RECORD_NCOLS; c++) {
		if (!(r->present >> c & 1)) {
			if (changed >> c & 1)
				sqlite3_bind_null(st, first + c);
		} else if (text >> c & 1) {
			sqlite3_bind_text(st, first + c, r->col[c].s, -1, SQLITE_STATIC); /* the pointer is the call's */
		} else if ((changed >> c & 1) || r->col[c].i != was->col[c].i) {
			sqlite3_bind_int64(st, first + c, r->col[c].i);
			was->col[c].i = r->col[c].i;
		}
	}
	was->present = r->present;
}

static int insert_records(struct sqlite_sink *s, const struct spe_row_record *rows, size_t n)
{
	size_t k = 0;
	/* whole batches in one statement each, the rest one by one */
	while (n - k >= RECORD_BATCH) {
		sqlite3_stmt *st = statement(s, &s->record_batch, SPE_TABLE_RECORD, RECORD_BATCH);
		if (!st)
			return -spe_io;
		for (int r = 0; r < RECORD_BATCH; r++)
			bind_record_changes(st, 1 + r * SPE_RECORD_NCOLS, &rows[k + (size_t)r], &s->batch_bound[r],
					    s->text_columns);
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return fail(s, "inserting records");
		k += RECORD_BATCH;
	}
	for (; k < n; k++) {
		sqlite3_stmt *st = statement(s, &s->insert[SPE_TABLE_RECORD], SPE_TABLE_RECORD, 1);
		if (!st)
			return -spe_io;
		bind_record(st, 1, &rows[k], s->text_columns);
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return fail(s, "inserting records");
	}
	return 0;
}

/* Any table's rows: records by the batch, a source once it is known not to be loaded already. */
static int sink_rows(void *ctx, enum spe_table table, const void *rows, size_t n)
{
	struct sqlite_sink *s = ctx;
	if (table == SPE_TABLE_RECORD)
		return insert_records(s, rows, n);
	if (table == SPE_TABLE_SOURCE)
		for (size_t k = 0; k < n; k++) {
			int rc = check_loaded(s, (const struct spe_row_source *)rows + k);
			if (rc < 0)
				return rc;
		}
	return insert_rows(s, table, rows, n);
}

/* Rows are stored as they come: nothing is buffered, so the source is complete (the commit is spe_db's). */
static int sink_commit(void *ctx)
{
	(void)ctx;
	return 0;
}

/* Nothing buffered; what was stored is undone by spe_db's rollback. */
static void sink_abort(void *ctx)
{
	(void)ctx;
}

static const char *sink_errmsg(void *ctx)
{
	return ((struct sqlite_sink *)ctx)->err;
}

static void sink_free(void *ctx)
{
	struct sqlite_sink *s = ctx;
	if (!s)
		return;
	for (int i = 0; i < SPE_TABLE_COUNT; i++)
		sqlite3_finalize(s->insert[i]);
	sqlite3_finalize(s->record_batch);
	free(s->text);
	free(s);
}

int spe_sqlite_sink_new(struct spe_db *db, struct spe_row_sink *out, char *err, size_t errlen)
{
	struct sqlite_sink *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	s->sql = spe_db_sqlite(db);
	s->replace = spe_db_replaces(db);
	s->feed = spe_db_rollup_feed(db);
	for (int c = 0; c < SPE_RECORD_NCOLS; c++)
		if (spe_record_columns[c].kind == SPE_KIND_TEXT)
			s->text_columns |= 1ull << c;
	*out = (struct spe_row_sink){ .ctx = s,
				      .tables = SPE_TABLES_ALL,
				      .begin = sink_begin,
				      .rows = sink_rows,
				      .commit = sink_commit,
				      .abort = sink_abort,
				      .errmsg = sink_errmsg,
				      .free = sink_free };
	return 0;
}
