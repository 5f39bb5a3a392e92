/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running the named queries of report_sql.c: prepare, step, finish, and a
 * log of each query's time and rows for the page's appendix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_internal.h"
#include "util/text.h"
#include "report_sqlite.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Query @p id failed with SQLite's @p rc: the code (report_sqlite.h) and "query NAME: message". */
static int query_fail(struct report_ctx *c, enum report_query id, int rc)
{
	char what[96];
	snprintf(what, sizeof what, "query %s", report_query_name(id));
	return report_sqlite_fail(c->db, rc, what, c->err, c->errlen);
}

int report_rq_begin(struct report_ctx *c, struct rq *q, enum report_query id)
{
	memset(q, 0, sizeof *q);
	q->c = c;
	q->id = id;
	q->start = now();
	if (c->o.on_progress && c->progress.step) /* the caller redraws when time allows */
		c->o.on_progress(c->o.progress_arg, &c->progress);
	char *sql = report_query_sql(id, c->ch ? REPORT_CLICKHOUSE : REPORT_SQLITE, c->stored);
	if (!sql)
		return report_fail(c, -spe_nomem, "out of memory");
	if (c->ch) {
		q->sql = sql;
		return 0;
	}
	int rc = sqlite3_prepare_v2(c->db, sql, -1, &q->st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return query_fail(c, id, rc);
	return 0;
}

/* ClickHouse: parameter @p i as the literal @p lit (taken). */
static void set_param(struct rq *q, int i, char *lit)
{
	if (i < 1 || i > RQ_PARAMS || !lit) {
		free(lit);
		q->failed = 1;
		return;
	}
	free(q->param[i - 1]);
	q->param[i - 1] = lit;
}

/* Binds go to the SQLite statement, or (q->sql) become ClickHouse literals; after a failed begin, nowhere. */
void report_rq_bind_int(struct rq *q, int i, long long v)
{
	if (!q->sql) {
		if (q->st)
			sqlite3_bind_int64(q->st, i, v);
		return;
	}
	char buf[32];
	snprintf(buf, sizeof buf, "%lld", v);
	set_param(q, i, strdup(buf));
}

void report_rq_bind_text(struct rq *q, int i, const char *text)
{
	if (!q->sql) {
		if (q->st && text)
			sqlite3_bind_text(q->st, i, text, -1, SQLITE_TRANSIENT);
		else if (q->st)
			sqlite3_bind_null(q->st, i);
		return;
	}
	if (!text) {
		set_param(q, i, strdup("NULL"));
		return;
	}
	/* a ClickHouse string literal: quote and backslash escaped */
	char *lit = malloc(2 * strlen(text) + 3), *o = lit;
	if (lit) {
		*o++ = '\'';
		for (const char *p = text; *p; p++) {
			if (*p == '\'' || *p == '\\')
				*o++ = '\\';
			*o++ = *p;
		}
		*o++ = '\'';
		*o = 0;
	}
	set_param(q, i, lit);
}

void report_rq_bind_ids(struct rq *q, int i, const char *json_ints)
{
	if (!q->sql) {
		if (q->st)
			sqlite3_bind_text(q->st, i, json_ints, -1, SQLITE_TRANSIENT);
		return;
	}
	/* "[1,2]" becomes the tuple "(1,2)" of `x IN ?1`; an empty set one that matches no id */
	char *lit = malloc(strlen(json_ints) + 8);
	if (lit) {
		size_t k = 0;
		lit[k++] = '(';
		for (const char *p = json_ints; *p; p++)
			if ((*p >= '0' && *p <= '9') || *p == '-' || *p == ',')
				lit[k++] = *p;
		snprintf(lit + k, 7, "%s)", k == 1 ? "NULL" : "");
	}
	set_param(q, i, lit);
}

/* ClickHouse: the statement with each ?N replaced by its literal. */
static char *ch_statement(struct rq *q)
{
	struct util_text t = { 0 };
	const char *p = q->sql, *copied = p;
	for (; *p; p++) {
		if (*p != '?' || p[1] < '1' || p[1] > '0' + RQ_PARAMS)
			continue;
		const char *lit = q->param[p[1] - '1'];
		util_text_appendf(&t, "%.*s%s", (int)(p - copied), copied, lit ? lit : "NULL");
		copied = ++p + 1;
	}
	util_text_append(&t, copied);
	if (!util_text_ok(&t)) {
		util_text_fini(&t);
		return NULL;
	}
	return t.buf;
}

int report_rq_next(struct rq *q)
{
	if (q->failed)
		return report_fail(q->c, -spe_nomem, "out of memory");
	if (q->c->ch) {
		int rc;
		if (!q->chr) {
			char *sql = ch_statement(q);
			if (!sql)
				return report_fail(q->c, -spe_nomem, "out of memory");
			rc = report_ch_open(q->c, report_query_name(q->id), sql, &q->chr);
			free(sql);
			if (rc < 0)
				return rc;
		}
		rc = report_ch_next(q->c, q->chr);
		q->rows += rc == 1;
		return rc;
	}
	int rc = sqlite3_step(q->st);
	if (rc == SQLITE_ROW) {
		q->rows++;
		return 1;
	}
	if (rc == SQLITE_DONE)
		return 0;
	return query_fail(q->c, q->id, rc);
}

void report_rq_end(struct rq *q)
{
	if (!q->c)
		return;
	sqlite3_finalize(q->st);
	report_ch_free(q->chr);
	free(q->sql);
	for (int i = 0; i < RQ_PARAMS; i++)
		free(q->param[i]);
	struct query_log *l = &q->c->log[q->id];
	l->seconds += now() - q->start;
	l->rows += q->rows;
	l->runs++;
	memset(q, 0, sizeof *q);
}

int report_rq_ncols(struct rq *q)
{
	return q->chr ? report_ch_ncols(q->chr) : q->st ? sqlite3_column_count(q->st) : 0;
}

const char *report_rq_text(struct rq *q, int col)
{
	return q->chr ? report_ch_text(q->chr, col) : (const char *)sqlite3_column_text(q->st, col);
}

long long report_rq_int(struct rq *q, int col)
{
	if (!q->chr)
		return sqlite3_column_int64(q->st, col);
	const char *t = report_ch_text(q->chr, col);
	return t ? strtoll(t, NULL, 10) : 0;
}

double report_rq_double(struct rq *q, int col)
{
	if (!q->chr)
		return sqlite3_column_double(q->st, col);
	const char *t = report_ch_text(q->chr, col);
	return t ? strtod(t, NULL) : 0;
}

int report_rq_null(struct rq *q, int col)
{
	return q->chr ? report_ch_text(q->chr, col) == NULL : sqlite3_column_type(q->st, col) == SQLITE_NULL;
}

int report_rq_scalar(struct report_ctx *c, enum report_query id, long long *value)
{
	struct rq q;
	int rc = report_rq_begin(c, &q, id);
	*value = 0;
	if (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		*value = report_rq_int(&q, 0);
		rc = 0;
	}
	report_rq_end(&q);
	return rc;
}

int report_rq_numbers(struct report_ctx *c, enum report_query id, int n, double *v)
{
	struct rq q;
	int rc = report_rq_begin(c, &q, id);
	for (int i = 0; i < n; i++)
		v[i] = 0;
	if (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		for (int i = 0; i < n && i < report_rq_ncols(&q); i++)
			v[i] = report_rq_double(&q, i);
		rc = 0;
	}
	report_rq_end(&q);
	return rc;
}

char *report_json_int_array(const long long *v, size_t n)
{
	size_t cap = 3 + n * 22, len = 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	s[len++] = '[';
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "%s%lld", i ? "," : "", v[i]);
	snprintf(s + len, cap - len, "]");
	return s;
}
