/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report context: options with their defaults, the error message, and
 * the query runner, which times every named query for the page's appendix.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_internal.h"

static const char *const level_names[MEM_LEVELS] = {
#define SPE_X(id, name, peer, desc) name,
	SPE_MEM_LEVEL_LIST(SPE_X)
#undef SPE_X
};

/*
 * Colours by level, in the facts table's order: green for the core's own
 * caches, orange for another core's, yellow for the system cache, red for
 * memory; grey for unknown.  A level added to the facts table gets grey
 * until it is given a colour here.
 */
static const struct {
	const char *name;
	unsigned rgb;
} level_colours[] = {
	{ "L1D", 0x43a047 },    { "L2", 0x9ccc65 },     { "peer-core", 0xfb8c00 }, { "local-cluster", 0xffb74d },
	{ "SLC", 0xfdd835 },    { "peer-cluster", 0xf4511e }, { "remote", 0x8e24aa }, { "DRAM", 0xe53935 },
	{ "remote-DRAM", 0x8b0000 }, { "IO", 0x546e7a },
};
#define UNKNOWN_RGB 0xbdbdbd

int mem_level_index(const char *name)
{
	for (int i = 0; name && i < MEM_LEVELS; i++)
		if (strcmp(level_names[i], name) == 0)
			return i;
	return MEM_LEVELS;
}

const char *mem_level_label(int index)
{
	return index >= 0 && index < MEM_LEVELS ? level_names[index] : "unknown";
}

unsigned mem_level_rgb(int index)
{
	const char *name = mem_level_label(index);
	for (size_t i = 0; i < sizeof level_colours / sizeof level_colours[0]; i++)
		if (strcmp(level_colours[i].name, name) == 0)
			return level_colours[i].rgb;
	return UNKNOWN_RGB;
}

int report_ctx_init(struct report_ctx *c, sqlite3 *db, FILE *out, const struct spe_report_opts *opts, char *err,
		    size_t errlen)
{
	memset(c, 0, sizeof *c);
	c->db = db;
	c->h.out = out;
	c->err = err;
	c->errlen = errlen;
	if (opts) {
		/* a caller built against an older, shorter struct: its fields only */
		size_t n = opts->size < sizeof c->o ? opts->size : sizeof c->o;
		memcpy(&c->o, opts, n);
	}
	c->o.size = sizeof c->o;
	if (c->o.top <= 0)
		c->o.top = 10;
	if (c->o.annotations == 0)
		c->o.annotations = 5;
	else if (c->o.annotations < 0)
		c->o.annotations = 0;
	if (err && errlen)
		err[0] = '\0';
	return 0;
}

int report_fail(struct report_ctx *c, int code, const char *fmt, ...)
{
	if (c->err && c->errlen && !c->err[0]) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int rq_begin(struct report_ctx *c, struct rq *q, enum report_query id)
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

int rq_next(struct rq *q)
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

void rq_end(struct rq *q)
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

const char *rq_text(struct rq *q, int col)
{
	return (const char *)sqlite3_column_text(q->st, col);
}

int rq_scalar(struct report_ctx *c, enum report_query id, long long *value)
{
	struct rq q;
	int rc = rq_begin(c, &q, id);
	*value = 0;
	if (rc == 0 && (rc = rq_next(&q)) == 1) {
		*value = sqlite3_column_int64(q.st, 0);
		rc = 0;
	}
	rq_end(&q);
	return rc;
}

int rowset_read(struct rq *q, struct rowset *rs)
{
	memset(rs, 0, sizeof *rs);
	rs->ncols = sqlite3_column_count(q->st);
	size_t cap = 0;
	int rc;
	while ((rc = rq_next(q)) == 1) {
		if (rs->n == cap) {
			cap = cap ? 2 * cap : 16;
			char **cells = realloc(rs->cells, cap * (size_t)rs->ncols * sizeof *cells);
			if (!cells) {
				rc = report_fail(q->c, -spe_nomem, "out of memory");
				break;
			}
			rs->cells = cells;
		}
		char **row = rs->cells + rs->n * (size_t)rs->ncols;
		for (int k = 0; k < rs->ncols; k++) {
			const char *t = rq_text(q, k);
			row[k] = t ? strdup(t) : NULL;
		}
		rs->n++;
	}
	rq_end(q);
	return rc < 0 ? rc : 0;
}

int rowset_ranked(struct report_ctx *c, enum report_query id, struct rowset *rs)
{
	struct rq q;
	memset(rs, 0, sizeof *rs);
	int rc = rq_begin(c, &q, id);
	if (rc < 0) {
		rq_end(&q);
		return rc;
	}
	sqlite3_bind_int(q.st, 1, c->o.top);
	return rowset_read(&q, rs);
}

const char *rowset_get(const struct rowset *rs, size_t row, int col)
{
	return row < rs->n && col >= 0 && col < rs->ncols ? rs->cells[row * (size_t)rs->ncols + col] : NULL;
}

void rowset_free(struct rowset *rs)
{
	for (size_t i = 0; i < rs->n * (size_t)rs->ncols; i++)
		free(rs->cells[i]);
	free(rs->cells);
	memset(rs, 0, sizeof *rs);
}

void table_head(struct html *h, const char *id, const struct table_col *cols, int n, const char *extra)
{
	html_printf(h, "<div class=\"scroll\"><table id=\"%s\"><thead><tr>", id);
	for (int k = 0; k < n; k++) {
		html_raw(h, cols[k].numeric ? "<th class=\"n\">" : "<th>");
		html_text(h, cols[k].head);
		html_raw(h, "</th>");
	}
	html_printf(h, "%s</tr></thead><tbody>", extra ? extra : "");
}

void table_end(struct html *h)
{
	html_raw(h, "</tbody></table></div>\n");
}

void table_cells(struct html *h, const struct rowset *rs, size_t r, const struct table_col *cols, int n)
{
	for (int k = 0; k < n; k++)
		html_td(h, cols[k].key, rowset_get(rs, r, cols[k].col), cols[k].numeric);
}

char *json_int_array(const long long *v, size_t n)
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
