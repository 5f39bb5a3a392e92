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

#include "result_internal.h"
#include "spe/analysis.h"
#include "util/grow.h"
#include "util/json.h"

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

static char *cell_text(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return NULL;
	case SQLITE_BLOB:
		return blob_hex(sqlite3_column_blob(st, i), sqlite3_column_bytes(st, i));
	default: {
		const unsigned char *t = sqlite3_column_text(st, i);
		return strdup(t ? (const char *)t : "");
	}
	}
}

static void csv_field(FILE *out, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void json_value(FILE *out, sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		fputs("null", out);
		break;
	case SQLITE_INTEGER:
		fprintf(out, "%lld", (long long)sqlite3_column_int64(st, i));
		break;
	case SQLITE_FLOAT: {
		const unsigned char *t = sqlite3_column_text(st, i); /* SQLite's shortest round-trip text */
		if (t && strpbrk((const char *)t, "0123456789") && !strpbrk((const char *)t, "IN"))
			fputs((const char *)t, out);
		else
			fputs("null", out); /* Inf/NaN have no JSON form */
		break;
	}
	case SQLITE_BLOB: {
		char *h = blob_hex(sqlite3_column_blob(st, i), sqlite3_column_bytes(st, i));
		util_json_string(out, h ? h : "");
		free(h);
		break;
	}
	default:
		util_json_string(out, (const char *)sqlite3_column_text(st, i));
	}
}

/* The current row as {"column": value, ...}. */
static void json_object(FILE *out, sqlite3_stmt *st, int nc)
{
	fputc('{', out);
	for (int c = 0; c < nc; c++) {
		if (c)
			fputs(", ", out);
		util_json_string(out, sqlite3_column_name(st, c));
		fputs(": ", out);
		json_value(out, st, c);
	}
	fputc('}', out);
}

/* Table: rows are buffered to size the columns. */
static int print_table(sqlite3_stmt *st, FILE *out, int *step_rc)
{
	int nc = sqlite3_column_count(st);
	size_t *width = calloc((size_t)nc, sizeof *width);
	int *numeric = calloc((size_t)nc, sizeof *numeric);
	struct cell *cells = NULL;
	size_t nrows = 0, cap = 0;
	int rc = 0;
	if (!width || !numeric)
		rc = -spe_nomem;
	for (int c = 0; c < nc && rc == 0; c++) {
		width[c] = strlen(sqlite3_column_name(st, c));
		numeric[c] = 1;
	}
	while (rc == 0 && (*step_rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct cell *p = util_grow(cells, &cap, (nrows + 1) * (size_t)nc, sizeof *p);
		if (!p) {
			rc = -spe_nomem;
			break;
		}
		cells = p;
		for (int c = 0; c < nc; c++) {
			struct cell *cl = &cells[nrows * (size_t)nc + (size_t)c];
			int type = sqlite3_column_type(st, c);
			cl->text = cell_text(st, c);
			cl->numeric = type == SQLITE_INTEGER || type == SQLITE_FLOAT;
			if (type != SQLITE_NULL && !cl->numeric)
				numeric[c] = 0;
			size_t w = cl->text ? strlen(cl->text) : 4;
			if (w > width[c])
				width[c] = w;
		}
		nrows++;
	}
	if (rc == 0 && *step_rc == SQLITE_DONE) { /* nothing of a statement that failed part way */
		for (int c = 0; c < nc; c++)
			fprintf(out, "%s%-*s", c ? "  " : "", c == nc - 1 && !numeric[c] ? 0 : (int)width[c],
				sqlite3_column_name(st, c));
		fputc('\n', out);
		for (int c = 0; c < nc; c++) {
			fprintf(out, "%s", c ? "  " : "");
			for (size_t k = 0; k < width[c]; k++)
				fputc('-', out);
		}
		fputc('\n', out);
		for (size_t r = 0; r < nrows; r++) {
			for (int c = 0; c < nc; c++) {
				const struct cell *cl = &cells[r * (size_t)nc + (size_t)c];
				const char *t = cl->text ? cl->text : "NULL";
				int last = c == nc - 1;
				if (numeric[c])
					fprintf(out, "%s%*s", c ? "  " : "", (int)width[c], t);
				else
					fprintf(out, "%s%-*s", c ? "  " : "", last ? 0 : (int)width[c], t);
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

static int print_stream(sqlite3_stmt *st, enum spe_result_format fmt, FILE *out, int *step_rc)
{
	int nc = sqlite3_column_count(st);
	if (fmt == SPE_FORMAT_CSV) {
		for (int c = 0; c < nc; c++) {
			if (c)
				fputc(',', out);
			csv_field(out, sqlite3_column_name(st, c));
		}
		fputs("\r\n", out);
	}
	while ((*step_rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (fmt == SPE_FORMAT_CSV) {
			for (int c = 0; c < nc; c++) {
				if (c)
					fputc(',', out);
				char *t = cell_text(st, c);
				csv_field(out, t);
				free(t);
			}
			fputs("\r\n", out);
		} else {
			json_object(out, st, nc);
			fputc('\n', out);
		}
	}
	return 0;
}

int spe_result_print(sqlite3 *db, const char *sql, enum spe_result_format fmt, FILE *out, char *err,
		     size_t errlen)
{
	const char *tail = sql;
	int sets = 0;
	while (tail && *tail) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(db, tail, -1, &st, &tail) != SQLITE_OK) {
			/* Only read-only connections have an authorizer (analysis/src/db.c): say what it refused. */
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
		int step_rc = SQLITE_DONE, rc;
		if (sqlite3_column_count(st) == 0) {
			step_rc = sqlite3_step(st);
			rc = 0;
		} else {
			if (fmt == SPE_FORMAT_TABLE && sets++)
				fputc('\n', out);
			rc = fmt == SPE_FORMAT_TABLE ? print_table(st, out, &step_rc) : print_stream(st, fmt, out, &step_rc);
		}
		if (rc == 0 && step_rc != SQLITE_DONE) {
			snprintf(err, errlen, "%s", sqlite3_errmsg(db));
			rc = -spe_invalid;
		} else if (rc < 0) {
			snprintf(err, errlen, "out of memory");
		}
		sqlite3_finalize(st);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int ana_result_json_array(sqlite3 *db, const char *sql, FILE *out, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		return -spe_invalid;
	}
	int nc = sqlite3_column_count(st), rc, rows = 0;
	fputc('[', out);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (rows++)
			fputs(", ", out);
		json_object(out, st, nc);
	}
	fputc(']', out);
	if (rc != SQLITE_DONE)
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -spe_invalid;
}
