/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The drill-down between data and code: for each row of the data-object
 * table the functions that touch it, for each row of the function table the
 * data objects it touches, each list its top ones by total latency.  They
 * are written once as JSON data blocks beside the tables' own
 * (<script type="application/json" class="drill" data-table="ID">, rows
 * [row index, name, detail, samples, total latency], the index the table's
 * row in its own block), and page.js draws a list under a row when it is
 * clicked.  The escaping is table_rows.c's.
 *
 * SQLite only, as the flame graphs: the lists come from the records
 * (report_sql.c, RQ_DRILL_*), which ClickHouse's report does not scan.
 */
#include <stdlib.h>
#include <string.h>

#include "sections.h"

struct by_id {
	long long id;
	size_t row;
};

struct by_name {
	const char *name, *path; /* NULL: none */
	size_t row;
};

static int cmp_id(const void *a, const void *b)
{
	long long x = ((const struct by_id *)a)->id, y = ((const struct by_id *)b)->id;
	return (x > y) - (x < y);
}

/* NULL first, then by bytes */
static int cmp_text(const char *a, const char *b)
{
	if (!a || !b)
		return !!a - !!b;
	return strcmp(a, b);
}

static int cmp_name(const void *a, const void *b)
{
	const struct by_name *x = a, *y = b;
	int c = cmp_text(x->name, y->name);
	return c ? c : cmp_text(x->path, y->path);
}

static void drill_row(struct html *h, size_t *n, size_t row, const char *name, const char *detail, struct rq *q,
		      int samples_col)
{
	report_rows_row(h, (*n)++);
	report_rows_int(h, 1, (long long)row);
	report_rows_str(h, 0, name);
	report_rows_str(h, 0, detail);
	report_rows_num(h, 0, report_rq_text(q, samples_col));
	report_rows_num(h, 0, report_rq_text(q, samples_col + 1));
}

static void drill_open(struct html *h, const char *table_id)
{
	report_html_printf(h, "<script type=\"application/json\" class=\"drill\" data-table=\"%s\" data-top=\"%d\">[",
			   table_id, REPORT_DRILL_TOP);
}

int report_drill_object_functions(struct report_ctx *c, const struct rowset *rs, int id_col, size_t rows)
{
	if (c->ch || !rows)
		return 0;
	struct by_id *ids = malloc(rows * sizeof *ids);
	if (!ids)
		return report_fail(c, -spe_nomem, "out of memory");
	size_t n = 0;
	for (size_t r = 0; r < rows; r++) {
		const char *v = report_rowset_get(rs, r, id_col);
		if (v)
			ids[n++] = (struct by_id){ atoll(v), r };
	}
	qsort(ids, n, sizeof *ids, cmp_id);
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_DRILL_OBJECT_FUNCTIONS);
	size_t written = 0;
	if (rc == 0) {
		report_rq_bind_int(&q, 1, REPORT_DRILL_TOP);
		drill_open(&c->h, "data-objects");
	}
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		struct by_id key = { report_rq_int(&q, 0), 0 };
		const struct by_id *hit = bsearch(&key, ids, n, sizeof *ids, cmp_id);
		if (hit)
			drill_row(&c->h, &written, hit->row, report_rq_null(&q, 1) ? "(no symbol)" : report_rq_text(&q, 1),
				  report_rq_text(&q, 2), &q, 3);
	}
	if (rc == 0)
		report_rows_close(&c->h, written);
	report_rq_end(&q);
	free(ids);
	return rc < 0 ? rc : 0;
}

int report_drill_function_objects(struct report_ctx *c, const struct rowset *rs, int name_col, int path_col, size_t rows)
{
	if (c->ch || !rows)
		return 0;
	struct by_name *names = malloc(rows * sizeof *names);
	if (!names)
		return report_fail(c, -spe_nomem, "out of memory");
	for (size_t r = 0; r < rows; r++)
		names[r] = (struct by_name){ report_rowset_get(rs, r, name_col), report_rowset_get(rs, r, path_col), r };
	qsort(names, rows, sizeof *names, cmp_name);
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_DRILL_FUNCTION_OBJECTS);
	size_t written = 0;
	if (rc == 0) {
		report_rq_bind_int(&q, 1, REPORT_DRILL_TOP);
		drill_open(&c->h, "hot-symbol");
	}
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		struct by_name key = { report_rq_text(&q, 0), report_rq_text(&q, 1), 0 };
		const struct by_name *hit = bsearch(&key, names, rows, sizeof *names, cmp_name);
		if (hit)
			drill_row(&c->h, &written, hit->row, report_rq_text(&q, 2), report_rq_text(&q, 3), &q, 4);
	}
	if (rc == 0)
		report_rows_close(&c->h, written);
	report_rq_end(&q);
	free(names);
	return rc < 0 ? rc : 0;
}
