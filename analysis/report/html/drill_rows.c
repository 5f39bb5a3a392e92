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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"

struct by_id {
	long long id;
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

int report_cmp_function(const void *a, const void *b)
{
	const struct report_function *x = a, *y = b;
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
	struct report_function *names = malloc(rows * sizeof *names);
	if (!names)
		return report_fail(c, -spe_nomem, "out of memory");
	for (size_t r = 0; r < rows; r++)
		names[r] = (struct report_function){ report_rowset_get(rs, r, name_col), report_rowset_get(rs, r, path_col), r };
	qsort(names, rows, sizeof *names, report_cmp_function);
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_DRILL_FUNCTION_OBJECTS);
	size_t written = 0;
	if (rc == 0) {
		report_rq_bind_int(&q, 1, REPORT_DRILL_TOP);
		drill_open(&c->h, "hot-symbol");
	}
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		struct report_function key = { report_rq_text(&q, 0), report_rq_text(&q, 1), 0 };
		const struct report_function *hit = bsearch(&key, names, rows, sizeof *names, report_cmp_function);
		if (hit)
			drill_row(&c->h, &written, hit->row, report_rq_text(&q, 2), report_rq_text(&q, 3), &q, 4);
	}
	if (rc == 0)
		report_rows_close(&c->h, written);
	report_rq_end(&q);
	free(names);
	return rc < 0 ? rc : 0;
}

/*
 * From an instruction to the data it touched: the block's rows are [instruction row, kind, address, samples,
 * total latency] (kind 0 the 4 KiB page, 1 the 64-byte line, 2 the data address), the row the instructions
 * table's (hot_pc's) in its own block; its first rows only, the hottest.
 */
int report_drill_pc_data(struct report_ctx *c, const struct rowset *pcs, int insn_col, size_t rows)
{
	if (c->ch)
		return 0;
	if (rows > REPORT_PC_DATA_PCS)
		rows = REPORT_PC_DATA_PCS;
	struct by_id *ids = malloc((rows + 1) * sizeof *ids);
	long long *values = malloc((rows + 1) * sizeof *values);
	char *json = NULL;
	if (!ids || !values) {
		free(ids);
		free(values);
		return report_fail(c, -spe_nomem, "out of memory");
	}
	size_t n = 0;
	for (size_t r = 0; r < rows; r++) {
		const char *v = report_rowset_get(pcs, r, insn_col);
		if (v) { /* a PC in no mapping: no instruction row to find its records by */
			ids[n] = (struct by_id){ atoll(v), r };
			values[n] = ids[n].id;
			n++;
		}
	}
	qsort(ids, n, sizeof *ids, cmp_id);
	json = report_json_int_array(values, n);
	struct rq q;
	int rc = json ? report_rq_begin(c, &q, RQ_PC_ADDRESSES) : report_fail(c, -spe_nomem, "out of memory");
	size_t written = 0;
	if (rc == 0) {
		report_rq_bind_ids(&q, 1, json);
		report_rq_bind_int(&q, 2, REPORT_PC_DATA_TOP);
		report_html_printf(&c->h, "<script type=\"application/json\" class=\"pc-data\" data-table=\"hot-pc\" "
				   "data-top=\"%d\" data-rows=\"%zu\">[", REPORT_PC_DATA_TOP, rows);
		while ((rc = report_rq_next(&q)) == 1) {
			rc = 0;
			struct by_id key = { report_rq_int(&q, 0), 0 };
			const struct by_id *hit = bsearch(&key, ids, n, sizeof *ids, cmp_id);
			if (!hit)
				continue;
			report_rows_row(&c->h, written++);
			report_rows_int(&c->h, 1, (long long)hit->row);
			report_rows_int(&c->h, 0, report_rq_int(&q, 1));
			report_rows_str(&c->h, 0, report_rq_text(&q, 2));
			report_rows_num(&c->h, 0, report_rq_text(&q, 3));
			report_rows_num(&c->h, 0, report_rq_text(&q, 4));
		}
		report_rq_end(&q);
		if (rc == 0)
			report_rows_close(&c->h, written);
	}
	free(json);
	free(ids);
	free(values);
	return rc < 0 ? rc : 0;
}

/* One list of a shared line's users: [row, name, detail, samples, total latency] in a block of @p kind. */
static int line_list(struct report_ctx *c, enum report_query id, const char *kind, const char *lines)
{
	struct rq q;
	int rc = report_rq_begin(c, &q, id);
	if (rc < 0)
		return rc;
	report_rq_bind_text(&q, 1, lines);
	report_rq_bind_int(&q, 2, REPORT_DRILL_TOP);
	report_html_printf(&c->h,
			   "<script type=\"application/json\" class=\"drill\" data-table=\"cacheline-sharing\" "
			   "data-kind=\"%s\" data-top=\"%d\">[",
			   kind, REPORT_DRILL_TOP);
	size_t written = 0;
	while ((rc = report_rq_next(&q)) == 1) {
		rc = 0;
		drill_row(&c->h, &written, (size_t)report_rq_int(&q, 0), report_rq_text(&q, 1), report_rq_text(&q, 2), &q, 3);
	}
	report_rq_end(&q);
	if (rc < 0)
		return rc;
	report_rows_close(&c->h, written);
	return 0;
}

int report_drill_line_users(struct report_ctx *c, const struct rowset *rs, int source_col, int pid_col, int line_col,
			    size_t rows)
{
	if (c->ch || !rows)
		return 0;
	/* [[row, source, pid or null, line address], ...]: every value a number the query bound, or null */
	size_t size = rows * 96 + 8, n = 0;
	char *lines = malloc(size);
	if (!lines)
		return report_fail(c, -spe_nomem, "out of memory");
	n += (size_t)snprintf(lines + n, size - n, "[");
	for (size_t r = 0; r < rows; r++) {
		const char *src = report_rowset_get(rs, r, source_col), *pid = report_rowset_get(rs, r, pid_col);
		const char *line = report_rowset_get(rs, r, line_col);
		if (!src || !line)
			continue;
		char pidv[32] = "null";
		if (pid)
			snprintf(pidv, sizeof pidv, "%lld", atoll(pid));
		n += (size_t)snprintf(lines + n, size - n, "%s[%zu,%lld,%s,%lld]", n > 1 ? "," : "", r, atoll(src), pidv,
				      (long long)strtoull(line, NULL, 16));
	}
	snprintf(lines + n, size - n, "]");
	int rc = line_list(c, RQ_DRILL_LINE_FUNCTIONS, "functions", lines);
	if (rc == 0)
		rc = line_list(c, RQ_DRILL_LINE_THREADS, "threads", lines);
	free(lines);
	return rc;
}

void report_drill_ch_note(struct report_ctx *c, const char *what)
{
	if (!c->ch)
		return;
	/* a line of its own, which tests/clickhouse/page_compare.sh leaves out as it does the blocks */
	report_html_raw(&c->h, "<p class=\"none ch-only\">"); /* after a line's end */
	report_html_text(&c->h, what);
	report_html_raw(&c->h, " are drawn from SQLite databases only: they read the records, which this page from "
			       "ClickHouse does not scan (spe-export the data or report from the database file).</p>\n");
}
