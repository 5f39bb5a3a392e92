/* SPDX-License-Identifier: Apache-2.0 */
/* Query results held as text (struct rowset), and the tables drawn from them. */
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"
#include "util/grow.h"

int report_rowset_read(struct rq *q, struct rowset *rs)
{
	memset(rs, 0, sizeof *rs);
	size_t cap = 0;
	int rc;
	/* the columns are known once the query ran (ClickHouse: with its answer) */
	while ((rc = report_rq_next(q)) == 1 && (rs->ncols = report_rq_ncols(q)) > 0) {
		/* capacity in rows of ncols cells */
		char **cells = util_grow(rs->cells, &cap, rs->n + 1, (size_t)rs->ncols * sizeof *cells);
		if (!cells) {
			rc = report_fail(q->c, -spe_nomem, "out of memory");
			break;
		}
		rs->cells = cells;
		char **row = rs->cells + rs->n * (size_t)rs->ncols;
		for (int k = 0; k < rs->ncols; k++) {
			const char *t = report_rq_text(q, k);
			row[k] = t ? strdup(t) : NULL;
		}
		rs->n++;
	}
	report_rq_end(q);
	if (rc < 0)
		report_rowset_fini(rs);
	return rc < 0 ? rc : 0;
}

/* Run query @p id into @p rs, with ?1 = @p limit rows when @p bind (else the query has no ?1). */
static int rowset_query(struct report_ctx *c, enum report_query id, int bind, long long limit, struct rowset *rs)
{
	struct rq q;
	memset(rs, 0, sizeof *rs);
	int rc = report_rq_begin(c, &q, id);
	if (rc < 0) {
		report_rq_end(&q);
		return rc;
	}
	if (bind)
		report_rq_bind_int(&q, 1, limit);
	return report_rowset_read(&q, rs);
}

int report_rowset_ranked(struct report_ctx *c, enum report_query id, struct rowset *rs)
{
	return rowset_query(c, id, 1, c->o.top, rs);
}

/* No LIMIT in effect: more rows than any page can hold (REPORT_PAGE_MAX stops the page first). */
#define EVERY_ROW 1000000000LL

int report_rowset_every(struct report_ctx *c, enum report_query id, struct rowset *rs)
{
	return rowset_query(c, id, 1, EVERY_ROW, rs);
}

int report_rowset_all(struct report_ctx *c, enum report_query id, struct rowset *rs)
{
	return rowset_query(c, id, 0, 0, rs);
}

const char *report_rowset_get(const struct rowset *rs, size_t row, int col)
{
	return row < rs->n && col >= 0 && col < rs->ncols ? rs->cells[row * (size_t)rs->ncols + col] : NULL;
}

void report_rowset_fini(struct rowset *rs)
{
	for (size_t i = 0; i < rs->n * (size_t)rs->ncols; i++)
		free(rs->cells[i]);
	free(rs->cells);
	memset(rs, 0, sizeof *rs);
}

void report_table_head(struct html *h, const char *id, const struct table_col *cols, int n, const char *extra)
{
	report_html_printf(h, "<div class=\"scroll\"><table id=\"%s\"><thead><tr>", id);
	for (int k = 0; k < n; k++) {
		report_html_raw(h, cols[k].numeric ? "<th class=\"n\">" : "<th>");
		report_html_text(h, cols[k].head);
		report_html_raw(h, "</th>");
	}
	if (extra) /* markup of the caller's own, e.g. a header cell */
		report_html_raw(h, extra);
	report_html_raw(h, "</tr></thead><tbody>");
}

void report_table_end(struct html *h)
{
	report_html_raw(h, "</tbody></table></div>\n");
}

void report_table_cells(struct html *h, const struct rowset *rs, size_t r, const struct table_col *cols, int n)
{
	for (int k = 0; k < n; k++)
		report_html_td(h, cols[k].key, report_rowset_get(rs, r, cols[k].col), cols[k].numeric);
}

void report_table_rows(struct html *h, const struct rowset *rs, const struct table_col *cols, int n)
{
	for (size_t r = 0; r < rs->n; r++) {
		report_html_raw(h, "<tr>");
		report_table_cells(h, rs, r, cols, n);
		report_html_raw(h, "</tr>");
	}
}
