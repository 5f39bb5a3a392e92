/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Query results as an aligned table, RFC 4180 CSV, or JSON lines (one
 * object per row, snake_case keys as the columns are named).  NULL prints
 * as NULL in tables, an empty field in CSV and null in JSON.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "number_text.h"
#include "ana/result_internal.h"
#include "ana/result_rows.h"
#include "spe/analysis.h"
#include "util/grow.h"
#include "util/json.h"
#include "util/visible.h"

struct cell {
	char *text; /* NULL for SQL NULL */
	int numeric;
};

static char *blob_hex(const unsigned char *b, int n)
{
	char *s = malloc((size_t)n * 2 + 1);
	if (!s)
		return NULL;
	for (int i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", b[i]);
	s[2 * n] = 0;
	return s;
}

/*
 * The cell @p col of the current row: its type, and its text (NULL for SQL
 * NULL) borrowed through peek() or else copied by text() into *copy, which
 * the caller frees.
 */
static const char *cell_text(const struct result_rows *r, int col, char *scratch, size_t *len,
			     enum result_type *type, char **copy)
{
	*copy = NULL;
	if (r->peek) {
		const char *t = r->peek(r->ctx, col, scratch, len, type);
		if (t || *type == RESULT_NULL)
			return t;
	} else {
		*type = r->type(r->ctx, col);
		if (*type == RESULT_NULL)
			return NULL;
	}
	*copy = r->text(r->ctx, col);
	*len = *copy ? strlen(*copy) : 0;
	return *copy;
}

static void json_value(FILE *out, const struct result_rows *r, int i)
{
	enum result_type type;
	char scratch[NUMBER_TEXT_MAX], *copy;
	size_t len;
	const char *t = cell_text(r, i, scratch, &len, &type, &copy);
	switch (type) {
	case RESULT_NULL:
		fputs("null", out);
		break;
	case RESULT_INT:
		fputs(t ? t : "null", out);
		break;
	case RESULT_FLOAT:
		if (t && strpbrk(t, "0123456789") && !strpbrk(t, "IN"))
			fputs(t, out);
		else
			fputs("null", out); /* Inf/NaN have no JSON form */
		break;
	default:
		util_json_string(out, t ? t : "");
	}
	free(copy);
}

/* The current row as {"column": value, ...}. */
static void json_object(FILE *out, const struct result_rows *r)
{
	fputc('{', out);
	for (int c = 0; c < r->ncols; c++) {
		if (c)
			fputs(", ", out);
		util_json_string(out, r->name(r->ctx, c));
		fputs(": ", out);
		json_value(out, r, c);
	}
	fputc('}', out);
}

/*
 * Table: rows are buffered to size the columns.  A table is for a terminal:
 * names and cells in their visible form (util/visible.h), so a value's
 * escape sequences or newlines cannot move the cursor or fake a row, and
 * the columns are as wide as what is shown.
 */
static int print_table(const struct result_rows *r, FILE *out)
{
	int nc = r->ncols;
	size_t *width = calloc((size_t)nc + 1, sizeof *width);
	int *numeric = calloc((size_t)nc + 1, sizeof *numeric);
	struct cell *cells = NULL;
	size_t nrows = 0, cap = 0;
	int rc = 0, step = 0;
	if (!width || !numeric)
		rc = -spe_nomem;
	for (int c = 0; c < nc && rc == 0; c++) {
		width[c] = util_visible_columns(r->name(r->ctx, c), 0, 0);
		numeric[c] = 1;
	}
	while (rc == 0 && (step = r->next(r->ctx)) == 1) {
		struct cell *p = util_grow(cells, &cap, (nrows + 1) * (size_t)nc, sizeof *p);
		if (!p) {
			rc = -spe_nomem;
			break;
		}
		cells = p;
		for (int c = 0; c < nc; c++) {
			struct cell *cl = &cells[nrows * (size_t)nc + (size_t)c];
			enum result_type type = r->type(r->ctx, c);
			cl->text = type == RESULT_NULL ? NULL : r->text(r->ctx, c);
			cl->numeric = type == RESULT_INT || type == RESULT_FLOAT;
			if (cl->text && !cl->numeric) {
				char *v = util_visible(cl->text, 0, 0);
				free(cl->text);
				cl->text = v;
				if (!v)
					rc = -spe_nomem;
			}
			if (type != RESULT_NULL && !cl->numeric)
				numeric[c] = 0;
			size_t w = cl->text ? util_visible_columns(cl->text, 0, 0) : 4;
			if (w > width[c])
				width[c] = w;
		}
		nrows++;
	}
	if (rc == 0 && step < 0)
		rc = step;
	if (rc == 0) { /* nothing of a result that failed part way */
		for (int c = 0; c < nc; c++) {
			fputs(c ? "  " : "", out);
			util_visible_put(out, r->name(r->ctx, c), 0, 0, c == nc - 1 && !numeric[c] ? 0 : (int)width[c]);
		}
		fputc('\n', out);
		for (int c = 0; c < nc; c++) {
			fprintf(out, "%s", c ? "  " : "");
			for (size_t k = 0; k < width[c]; k++)
				fputc('-', out);
		}
		fputc('\n', out);
		for (size_t row = 0; row < nrows; row++) {
			for (int c = 0; c < nc; c++) {
				const struct cell *cl = &cells[row * (size_t)nc + (size_t)c];
				const char *t = cl->text ? cl->text : "NULL";
				int last = c == nc - 1;
				fputs(c ? "  " : "", out); /* t is visible already: only padded here */
				util_visible_put(out, t, 0, 0, numeric[c] ? -(int)width[c] : last ? 0 : (int)width[c]);
			}
			fputc('\n', out);
		}
	}
	for (size_t i = 0; i < nrows * (size_t)nc; i++)
		free(cells[i].text);
	free(cells);
	free(width);
	free(numeric);
	return rc;
}

/*
 * CSV goes out through a buffer a block at a time: a stdio call per cell
 * cost as much as formatting the cell.
 */
struct csv_out {
	FILE *out;
	size_t len;
	char buf[1 << 15];
};

static void csv_put(struct csv_out *o, const char *s, size_t n)
{
	if (o->len + n > sizeof o->buf) {
		fwrite(o->buf, 1, o->len, o->out);
		o->len = 0;
		if (n > sizeof o->buf) {
			fwrite(s, 1, n, o->out);
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void csv_cell(struct csv_out *o, const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && s[i] != ',' && s[i] != '"' && s[i] != '\r' && s[i] != '\n')
		i++;
	if (i == n) {
		csv_put(o, s, n);
		return;
	}
	csv_put(o, "\"", 1);
	for (const char *end = s + n, *q; s < end; s = q + 1) {
		if (!(q = memchr(s, '"', (size_t)(end - s)))) {
			csv_put(o, s, (size_t)(end - s));
			break;
		}
		csv_put(o, s, (size_t)(q - s) + 1);
		csv_put(o, "\"", 1); /* a quote doubled */
	}
	csv_put(o, "\"", 1);
}

static int print_csv(const struct result_rows *r, FILE *out)
{
	struct csv_out *o = malloc(sizeof *o);
	if (!o)
		return -spe_nomem;
	o->out = out;
	o->len = 0;
	int nc = r->ncols, step;
	for (int c = 0; c < nc; c++) {
		if (c)
			csv_put(o, ",", 1);
		const char *name = r->name(r->ctx, c);
		csv_cell(o, name, strlen(name));
	}
	csv_put(o, "\r\n", 2);
	while ((step = r->next(r->ctx)) == 1) {
		for (int c = 0; c < nc; c++) {
			if (c)
				csv_put(o, ",", 1);
			enum result_type type;
			char scratch[NUMBER_TEXT_MAX], *copy;
			size_t len;
			const char *t = cell_text(r, c, scratch, &len, &type, &copy);
			if (t)
				csv_cell(o, t, len);
			free(copy);
		}
		csv_put(o, "\r\n", 2);
	}
	fwrite(o->buf, 1, o->len, out);
	free(o);
	return step < 0 ? step : 0;
}

static int print_stream(const struct result_rows *r, enum spe_result_format fmt, FILE *out)
{
	if (fmt == SPE_FORMAT_CSV)
		return print_csv(r, out);
	int step;
	while ((step = r->next(r->ctx)) == 1) {
		json_object(out, r);
		fputc('\n', out);
	}
	return step < 0 ? step : 0;
}

int ana_result_rows_print(const struct result_rows *r, enum spe_result_format fmt, FILE *out, int *sets)
{
	if (fmt == SPE_FORMAT_TABLE && (*sets)++)
		fputc('\n', out);
	return fmt == SPE_FORMAT_TABLE ? print_table(r, out) : print_stream(r, fmt, out);
}

int ana_result_rows_json_array(const struct result_rows *r, FILE *out)
{
	int step, rows = 0;
	fputc('[', out);
	while ((step = r->next(r->ctx)) == 1) {
		if (rows++)
			fputs(", ", out);
		json_object(out, r);
	}
	fputc(']', out);
	return step < 0 ? step : 0;
}

/* ---- SQLite's rows ---------------------------------------------------------- */

static const char *sqlite_name(void *ctx, int col)
{
	return sqlite3_column_name(ctx, col);
}

int ana_sqlite_code(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
	case SQLITE_ROW:
	case SQLITE_DONE: return 0;
	case SQLITE_IOERR:
	case SQLITE_FULL:
	case SQLITE_CANTOPEN:
	case SQLITE_BUSY:
	case SQLITE_LOCKED: return -spe_io;
	case SQLITE_NOMEM: return -spe_nomem;
	case SQLITE_INTERRUPT: return -spe_cancelled;
	default: return -spe_bad_file; /* CORRUPT, NOTADB, ERROR (no such table), MISMATCH, TOOBIG, ... */
	}
}

/* A failed step of the user's SQL: as ana_sqlite_code, but an error of the statement itself is the request's. */
static int sqlite_step_code(int rc)
{
	int code = ana_sqlite_code(rc);
	if (code == -spe_bad_file && (rc & 0xff) != SQLITE_CORRUPT && (rc & 0xff) != SQLITE_NOTADB)
		return -spe_invalid; /* a constraint, a function's error */
	return code;
}

static int sqlite_next(void *ctx)
{
	int rc = sqlite3_step(ctx);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : sqlite_step_code(rc);
}

static enum result_type sqlite_type(void *ctx, int col)
{
	switch (sqlite3_column_type(ctx, col)) {
	case SQLITE_NULL: return RESULT_NULL;
	case SQLITE_INTEGER: return RESULT_INT;
	case SQLITE_FLOAT: return RESULT_FLOAT;
	case SQLITE_BLOB: return RESULT_BLOB;
	default: return RESULT_TEXT;
	}
}

static char *sqlite_text(void *ctx, int col)
{
	if (sqlite3_column_type(ctx, col) == SQLITE_BLOB)
		return blob_hex(sqlite3_column_blob(ctx, col), sqlite3_column_bytes(ctx, col));
	const unsigned char *t = sqlite3_column_text(ctx, col); /* SQLite's shortest round-trip text for floats */
	return strdup(t ? (const char *)t : "");
}

static const char *sqlite_peek(void *ctx, int col, char *scratch, size_t *len, enum result_type *type)
{
	const unsigned char *t;
	switch (sqlite3_column_type(ctx, col)) {
	case SQLITE_NULL:
		*type = RESULT_NULL;
		return NULL;
	case SQLITE_INTEGER:
		*type = RESULT_INT;
		*len = ana_int64_text(scratch, sqlite3_column_int64(ctx, col));
		return scratch;
	case SQLITE_FLOAT:
		*type = RESULT_FLOAT;
		if ((*len = ana_short_float_text(scratch, sqlite3_column_double(ctx, col))))
			return scratch;
		break;
	case SQLITE_BLOB:
		*type = RESULT_BLOB;
		return NULL; /* text() writes it in hex */
	default:
		*type = RESULT_TEXT;
		break;
	}
	t = sqlite3_column_text(ctx, col);
	if (!t)
		return NULL; /* out of memory: text() says so */
	*len = strlen((const char *)t); /* as text() copies it: to the first NUL */
	return (const char *)t;
}

static struct result_rows sqlite_rows(sqlite3_stmt *st)
{
	return (struct result_rows){ .ctx = st,
				     .ncols = sqlite3_column_count(st),
				     .name = sqlite_name,
				     .next = sqlite_next,
				     .type = sqlite_type,
				     .text = sqlite_text,
				     .peek = sqlite_peek };
}

int spe_result_print(sqlite3 *db, const char *sql, enum spe_result_format fmt, FILE *out, char *err,
		     size_t errlen)
{
	const char *tail = sql;
	int sets = 0;
	while (tail && *tail) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(db, tail, -1, &st, &tail) != SQLITE_OK) {
			/* Only read-only connections have an authorizer (analysis/store/db.c): say what it refused. */
			bool refused = sqlite3_errcode(db) == SQLITE_AUTH;
			snprintf(err, errlen, "%s%s", sqlite3_errmsg(db),
				 refused ? ": on a read-only database ATTACH opens files read-only only (a path, or a "
					   "file: URI with mode=ro)"
					 : "");
			return refused ? -spe_no_permission : -spe_invalid;
		}
		if (!st)
			continue; /* whitespace or a comment */
		/* On a read-only connection nothing may write any file: VACUUM INTO, CREATE TEMP, ... */
		if (sqlite3_db_readonly(db, "main") == 1 && !sqlite3_stmt_readonly(st)) {
			snprintf(err, errlen, "the database is open read-only and this statement writes: %.*s",
				 (int)strcspn(sqlite3_sql(st), "\n"), sqlite3_sql(st));
			sqlite3_finalize(st);
			return -spe_no_permission;
		}
		int rc = 0;
		if (sqlite3_column_count(st) == 0) {
			int step = sqlite3_step(st); /* a full disk is the system's (74), a constraint the request's */
			if (step != SQLITE_DONE)
				rc = sqlite_step_code(sqlite3_extended_errcode(db));
		} else {
			struct result_rows r = sqlite_rows(st);
			rc = ana_result_rows_print(&r, fmt, out, &sets);
		}
		if (rc == -spe_nomem)
			snprintf(err, errlen, "out of memory");
		else if (rc < 0)
			snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int ana_result_json_array(sqlite3 *db, const char *sql, FILE *out, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int prc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (prc != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		int code = sqlite_step_code(prc);
		return code == -spe_invalid ? -spe_bad_file : code; /* the reports' own SQL: the database is wrong */
	}
	struct result_rows r = sqlite_rows(st);
	int rc = ana_result_rows_json_array(&r, out);
	if (rc == -spe_nomem)
		snprintf(err, errlen, "out of memory");
	else if (rc < 0)
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	if (rc == -spe_invalid) /* the reports' own SQL: what failed is the database */
		rc = -spe_bad_file;
	sqlite3_finalize(st);
	return rc;
}
