/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Query results from ClickHouse for the printers of spe_analysis
 * (result_rows.h): the server answers in TabSeparatedWithNamesAndTypes
 * (a line of names, a line of types, then rows; \N is NULL, \t \n \\ are
 * escaped), and each cell is shown as SQLite shows the same value --
 * integers in decimal, floats with 15 significant digits and a ".0" when
 * whole -- so spe-query prints the same text from either store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_internal.h"
#include "ana/result_rows.h"

struct ch_rows {
	char *p, *end;       /* the rows not yet read */
	int ncols;
	char **names;
	enum result_type *types;
	char **cell;         /* the current row's cells, escaped, NUL-terminated in place */
};

/* Split @p line (NUL-terminated) at tabs into at most @p n cells. */
static int split(char *line, char **cells, int n)
{
	int k = 0;
	cells[k++] = line;
	for (char *p = line; *p && k < n; p++)
		if (*p == '\t') {
			*p = 0;
			cells[k++] = p + 1;
		}
	return k;
}

/* The next line of the body, NUL-terminated in place; NULL at the end. */
static char *next_line(struct ch_rows *r)
{
	if (r->p >= r->end)
		return NULL;
	char *line = r->p, *nl = memchr(line, '\n', (size_t)(r->end - line));
	if (nl) {
		*nl = 0;
		r->p = nl + 1;
	} else {
		r->p = r->end;
	}
	return line;
}

/* TSV unescaping into a new string. */
static char *unescape(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;
	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			*o++ = *s;
			continue;
		}
		switch (*++s) {
		case 't': *o++ = '\t'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case '0': *o++ = '\0'; break;
		default: *o++ = *s; /* \\ \' and any other */
		}
	}
	*o = 0;
	return out;
}

/* A ClickHouse type name as the printers' kind: Nullable(...) and LowCardinality(...) unwrapped. */
static enum result_type type_of(const char *t)
{
	for (;;) {
		if (!strncmp(t, "Nullable(", 9))
			t += 9;
		else if (!strncmp(t, "LowCardinality(", 15))
			t += 15;
		else
			break;
	}
	if (!strncmp(t, "Int", 3) || !strncmp(t, "UInt", 4))
		return RESULT_INT;
	if (!strncmp(t, "Float", 5) || !strncmp(t, "Decimal", 7))
		return RESULT_FLOAT;
	return RESULT_TEXT;
}

static const char *rows_name(void *ctx, int col)
{
	return ((struct ch_rows *)ctx)->names[col];
}

static int rows_next(void *ctx)
{
	struct ch_rows *r = ctx;
	char *line = next_line(r);
	if (!line)
		return 0;
	if (split(line, r->cell, r->ncols) != r->ncols)
		return -spe_bad_file; /* a row with fewer cells than columns */
	return 1;
}

static enum result_type rows_type(void *ctx, int col)
{
	struct ch_rows *r = ctx;
	return !strcmp(r->cell[col], "\\N") ? RESULT_NULL : r->types[col];
}

/* A float as SQLite's "%!.15g" shows it: 2.5, 3.0, 1.0e+20. */
static char *float_text(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end)
		return strdup(s);
	char buf[64];
	snprintf(buf, sizeof buf, "%.15g", v);
	if (strpbrk(buf, ".ni")) /* has a point, or is nan/inf */
		return strdup(buf);
	char out[72];
	char *e = strchr(buf, 'e');
	if (e)
		snprintf(out, sizeof out, "%.*s.0%s", (int)(e - buf), buf, e);
	else
		snprintf(out, sizeof out, "%s.0", buf);
	return strdup(out);
}

static char *rows_text(void *ctx, int col)
{
	struct ch_rows *r = ctx;
	const char *c = r->cell[col];
	if (!strcmp(c, "\\N"))
		return NULL;
	return r->types[col] == RESULT_FLOAT ? float_text(c) : unescape(c);
}

static void rows_fini(struct ch_rows *r)
{
	if (r->names)
		for (int i = 0; i < r->ncols; i++)
			free(r->names[i]);
	free(r->names);
	free(r->types);
	free(r->cell);
}

/* Read the header lines of the response in @p body into @p r; 0 when the statement returned no columns. */
static int rows_open(struct ch_rows *r, char *body, size_t len)
{
	memset(r, 0, sizeof *r);
	r->p = body;
	r->end = body + len;
	char *names = next_line(r), *types = next_line(r);
	if (!names || !types || !*names)
		return 0;
	int n = 1;
	for (const char *p = names; *p; p++)
		n += *p == '\t';
	r->names = calloc((size_t)n, sizeof *r->names);
	r->types = calloc((size_t)n, sizeof *r->types);
	r->cell = calloc((size_t)n, sizeof *r->cell);
	if (!r->names || !r->types || !r->cell)
		return -spe_nomem;
	r->ncols = n;
	if (split(names, r->cell, n) != n)
		return -spe_bad_file;
	for (int i = 0; i < n; i++)
		if (!(r->names[i] = unescape(r->cell[i])))
			return -spe_nomem;
	if (split(types, r->cell, n) != n)
		return -spe_bad_file;
	for (int i = 0; i < n; i++)
		r->types[i] = type_of(r->cell[i]);
	return n;
}

/* The message of a failure while reading an answer. */
static int answer_error(struct spe_ch *ch, int rc)
{
	return rc == -spe_nomem ? ch_fail(ch, rc, "out of memory")
				: ch_fail(ch, rc, "%s: the server's answer is not the table it announced", ch->name);
}

/*
 * Run one statement (in the session's scope) for its rows: their count of
 * columns (0: none), with @p r reading ch->resp; negative on an error.
 */
static int run_rows(struct spe_ch *ch, const char *stmt, struct ch_rows *r)
{
	memset(r, 0, sizeof *r);
	char *scoped = NULL, why[512];
	if (ch->scope) {
		int rc = ch_scoped_sql(stmt, ch->scope, ch->database, &scoped, why, sizeof why);
		if (rc < 0)
			return ch_fail(ch, rc, "%s", why);
	}
	const char *sql = scoped ? scoped : stmt;
	size_t len = strlen(sql);
	char *q = malloc(len + 64);
	if (!q) {
		free(scoped);
		return ch_fail(ch, -spe_nomem, "out of memory");
	}
	snprintf(q, len + 64, "%s\nFORMAT TabSeparatedWithNamesAndTypes", sql);
	int rc = ch_select(ch, q);
	free(q);
	free(scoped);
	if (rc < 0)
		return rc;
	rc = rows_open(r, ch->resp.p ? ch->resp.p : "", ch->resp.len);
	return rc < 0 ? answer_error(ch, rc) : rc;
}

static struct result_rows rows_of(struct ch_rows *r, int n)
{
	return (struct result_rows){
		.ctx = r, .ncols = n, .name = rows_name, .next = rows_next, .type = rows_type, .text = rows_text
	};
}

int ch_answer_print(char *body, size_t len, enum spe_result_format fmt, FILE *out)
{
	struct ch_rows r;
	int sets = 0, n = rows_open(&r, body, len);
	if (n > 0) {
		struct result_rows rows = rows_of(&r, n);
		n = ana_result_rows_print(&rows, fmt, out, &sets);
	}
	rows_fini(&r);
	return n < 0 ? n : 0;
}

int spe_ch_print(struct spe_ch *ch, const char *sql, enum spe_result_format fmt, FILE *out)
{
	char **list = ch_split_statements(sql);
	if (!list)
		return ch_fail(ch, -spe_nomem, "out of memory");
	int rc = 0, sets = 0;
	for (size_t i = 0; list[i] && rc == 0; i++) {
		struct ch_rows r;
		int n = run_rows(ch, list[i], &r);
		if (n > 0) {
			struct result_rows rows = rows_of(&r, n);
			if ((n = ana_result_rows_print(&rows, fmt, out, &sets)) < 0)
				answer_error(ch, n);
		}
		rc = n < 0 ? n : 0;
		rows_fini(&r);
	}
	ch_free_list(list);
	return rc;
}

int spe_ch_json_array(struct spe_ch *ch, const char *sql, FILE *out)
{
	struct ch_rows r;
	int n = run_rows(ch, sql, &r);
	if (n == 0)
		fputs("[]", out);
	if (n > 0) {
		struct result_rows rows = rows_of(&r, n);
		if ((n = ana_result_rows_json_array(&rows, out)) < 0)
			answer_error(ch, n);
	}
	rows_fini(&r);
	return n < 0 ? n : 0;
}

struct spe_ch_rows {
	struct ch_rows r;
	struct ch_buf body; /* the answer, taken from the session */
	char **text;        /* the current row's cells as text, NULL for NULL */
};

static void clear_texts(struct spe_ch_rows *x)
{
	for (int i = 0; i < x->r.ncols; i++) {
		free(x->text[i]);
		x->text[i] = NULL;
	}
}

void spe_ch_rows_free(struct spe_ch_rows *x)
{
	if (!x)
		return;
	if (x->text)
		clear_texts(x);
	free(x->text);
	rows_fini(&x->r);
	ch_buf_fini(&x->body);
	free(x);
}

int spe_ch_rows_open(struct spe_ch *ch, const char *sql, struct spe_ch_rows **out)
{
	*out = NULL;
	struct spe_ch_rows *x = calloc(1, sizeof *x);
	if (!x)
		return ch_fail(ch, -spe_nomem, "out of memory");
	int n = run_rows(ch, sql, &x->r);
	/* the cells point into the session's buffer: the cursor keeps that buffer, the session starts a new one */
	x->body = ch->resp;
	memset(&ch->resp, 0, sizeof ch->resp);
	if (n >= 0 && !(x->text = calloc((size_t)(n ? n : 1), sizeof *x->text)))
		n = ch_fail(ch, -spe_nomem, "out of memory");
	if (n < 0) {
		spe_ch_rows_free(x);
		return n;
	}
	*out = x;
	return 0;
}

int spe_ch_rows_ncols(const struct spe_ch_rows *x)
{
	return x->r.ncols;
}

int spe_ch_rows_next(struct spe_ch_rows *x)
{
	clear_texts(x);
	if (x->r.ncols == 0)
		return 0;
	int rc = rows_next(&x->r);
	for (int i = 0; rc == 1 && i < x->r.ncols; i++)
		if (strcmp(x->r.cell[i], "\\N") && !(x->text[i] = rows_text(&x->r, i)))
			rc = -spe_nomem;
	return rc;
}

const char *spe_ch_rows_text(struct spe_ch_rows *x, int col)
{
	return col >= 0 && col < x->r.ncols ? x->text[col] : NULL;
}
