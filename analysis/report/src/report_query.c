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

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int report_rq_begin(struct report_ctx *c, struct rq *q, enum report_query id)
{
	memset(q, 0, sizeof *q);
	q->c = c;
	q->id = id;
	q->start = now();
	char *sql = report_query_sql(id);
	if (!sql)
		return report_fail(c, -spe_nomem, "out of memory");
	int rc = sqlite3_prepare_v2(c->db, sql, -1, &q->st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return report_fail(c, -spe_bad_file, "query %s: %s", report_query_name(id), sqlite3_errmsg(c->db));
	return 0;
}

int report_rq_next(struct rq *q)
{
	int rc = sqlite3_step(q->st);
	if (rc == SQLITE_ROW) {
		q->rows++;
		return 1;
	}
	if (rc == SQLITE_DONE)
		return 0;
	return report_fail(q->c, rc == SQLITE_NOMEM ? -spe_nomem : -spe_bad_file, "query %s: %s",
			   report_query_name(q->id), sqlite3_errmsg(q->c->db));
}

void report_rq_end(struct rq *q)
{
	if (!q->c)
		return;
	sqlite3_finalize(q->st);
	struct query_log *l = &q->c->log[q->id];
	l->seconds += now() - q->start;
	l->rows += q->rows;
	l->runs++;
	q->st = NULL;
	q->c = NULL;
}

const char *report_rq_text(struct rq *q, int col)
{
	return (const char *)sqlite3_column_text(q->st, col);
}

int report_rq_scalar(struct report_ctx *c, enum report_query id, long long *value)
{
	struct rq q;
	int rc = report_rq_begin(c, &q, id);
	*value = 0;
	if (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		*value = sqlite3_column_int64(q.st, 0);
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
		for (int i = 0; i < n && i < sqlite3_column_count(q.st); i++)
			v[i] = sqlite3_column_double(q.st, i);
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
