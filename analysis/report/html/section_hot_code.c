/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hot code: the top functions (hot_symbol) and instructions (hot_pc) by
 * total latency, each row with its samples, percentiles, a sparkline of its
 * latency distribution and, for functions, the memory levels of its loads;
 * a function row links to its annotation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "svg_chart.h"

#define SPARK_RGB 0x5c6bc0
#define SHARE_RGB 0xe53935

/* Columns of RQ_HOT_SYMBOL and RQ_HOT_PC. */
enum { HS_SYMBOL, HS_MAPPING, HS_FILE, HS_LINE, HS_SAMPLES, HS_TOTAL, HS_MEAN, HS_P50, HS_P90, HS_P99, HS_SHARE };
enum {
	HP_PC, HP_SYMBOL, HP_OFFSET, HP_FILE, HP_LINE, HP_MNEMONIC, HP_OPERANDS, HP_SAMPLES, HP_TOTAL, HP_MEAN, HP_P50,
	HP_P90, HP_P99, HP_SHARE, HP_PC_VALUE, HP_INSN_ID
};

/* Widen [*lo, *hi] (start with LATENCY_BUCKETS, -1) to the buckets @p b uses. */
static void spark_range(const uint64_t *b, int *lo, int *hi)
{
	for (int k = 0; k < LATENCY_BUCKETS; k++)
		if (b[k]) {
			*lo = k < *lo ? k : *lo;
			*hi = k > *hi ? k : *hi;
		}
}

/* The sparkline cell: every row on the same axis (@p b0..@p b1) so rows compare. */
static void spark_cell(struct html *h, const uint64_t *buckets, int b0, int b1)
{
	report_html_raw(h, "<td>");
	if (b1 >= b0)
		report_svg_histogram(h, buckets, b0, b1, SPARK_RGB, 80, 18, 0);
	report_html_raw(h, "</td>");
}

/* The latency_share cell: a bar, then the view's number. */
static void share_cell(struct html *h, const char *share)
{
	report_html_raw(h, "<td data-col=\"latency_share\" class=\"n\">");
	report_svg_fraction_bar(h, share ? atof(share) / 100 : 0, SHARE_RGB, 60, 8);
	report_html_text(h, share);
	report_html_raw(h, "</td>");
}

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path;
}

/* The source cell's text for the rows' JSON: "file.c:12", or NULL. */
static void source_json(struct html *h, const char *file, const char *line)
{
	if (!file) {
		report_rows_str(h, 0, NULL);
		return;
	}
	char text[600];
	snprintf(text, sizeof text, "%s:%s", base_name(file), line ? line : "?");
	report_rows_str(h, 0, text);
}

/* Percent of the latency of all rows of @p rs that rows @p from.. hold (@p col: their total latency). */
static double share_after(const struct rowset *rs, size_t from, int col)
{
	double sum = 0, all = 0;
	for (size_t r = 0; r < rs->n; r++) {
		const char *v = report_rowset_get(rs, r, col);
		double x = v ? atof(v) : 0;
		all += x;
		sum += r >= from ? x : 0;
	}
	return all > 0 ? 100 * sum / all : 0;
}

/* Every function's row as JSON, in the table's columns up to share. */
static void functions_json(struct report_ctx *c, const struct rowset *rs, size_t shown)
{
	struct html *h = &c->h;
	size_t embedded = rs->n < REPORT_ROWS_MAX ? rs->n : REPORT_ROWS_MAX;
	report_rows_open(h, "hot-symbol", c->o.top);
	for (size_t r = 0; r < embedded; r++) {
		report_rows_row(h, r);
		report_rows_int(h, 1, (long long)r + 1);
		const char *name = report_rowset_get(rs, r, HS_SYMBOL);
		report_rows_str(h, 0, name ? name : "(no symbol)");
		report_rows_str(h, 0, base_name(report_rowset_get(rs, r, HS_MAPPING)));
		source_json(h, report_rowset_get(rs, r, HS_FILE), report_rowset_get(rs, r, HS_LINE));
		for (int k = HS_SAMPLES; k <= HS_SHARE; k++)
			report_rows_num(h, 0, report_rowset_get(rs, r, k));
	}
	report_rows_close(h, embedded);
	report_rows_more(h, "hot-symbol", shown, embedded, rs->n, share_after(rs, shown, HS_TOTAL),
			 share_after(rs, embedded, HS_TOTAL), "functions", "hot_symbol");
}

/* Every instruction's row as JSON, in the table's columns up to share. */
static void instructions_json(struct report_ctx *c, const struct rowset *rs, size_t shown)
{
	struct html *h = &c->h;
	size_t embedded = rs->n < REPORT_ROWS_PC_MAX ? rs->n : REPORT_ROWS_PC_MAX;
	report_rows_open(h, "hot-pc", c->o.top);
	for (size_t r = 0; r < embedded; r++) {
		report_rows_row(h, r);
		report_rows_str(h, 1, report_rowset_get(rs, r, HP_PC));
		const char *sym = report_rowset_get(rs, r, HP_SYMBOL), *off = report_rowset_get(rs, r, HP_OFFSET);
		char where[600];
		snprintf(where, sizeof where, "%s%s%s", sym ? sym : "(no symbol)", sym && off ? "+" : "", sym && off ? off : "");
		report_rows_str(h, 0, where);
		source_json(h, report_rowset_get(rs, r, HP_FILE), report_rowset_get(rs, r, HP_LINE));
		const char *mn = report_rowset_get(rs, r, HP_MNEMONIC), *ops = report_rowset_get(rs, r, HP_OPERANDS);
		char insn[600];
		snprintf(insn, sizeof insn, "%s %s", mn ? mn : "?", ops ? ops : "");
		report_rows_str(h, 0, insn);
		for (int k = HP_SAMPLES; k <= HP_SHARE; k++)
			report_rows_num(h, 0, report_rowset_get(rs, r, k));
	}
	report_rows_close(h, embedded);
	report_rows_more(h, "hot-pc", shown, embedded, rs->n, share_after(rs, shown, HP_TOTAL),
			 share_after(rs, embedded, HP_TOTAL), "instructions", "hot_pc");
}

static void source_cell(struct html *h, const char *file, const char *line)
{
	report_html_raw(h, "<td class=\"mono\">");
	if (file) {
		report_html_text(h, base_name(file));
		report_html_raw(h, ":");
		report_html_text(h, line ? line : "?");
	} else {
		report_html_text(h, NULL);
	}
	report_html_raw(h, "</td>");
}

static int functions_table(struct report_ctx *c, const struct rowset *rs, size_t shown, struct hot_functions *hot)
{
	struct html *h = &c->h;
	int b0 = LATENCY_BUCKETS, b1 = -1;
	for (size_t i = 0; i < hot->n; i++)
		spark_range(hot->fs[i].total.buckets, &b0, &b1);
	report_html_raw(h, "<h3>Functions by total latency</h3><div class=\"scroll\"><table id=\"hot-symbol\" class=\"wide\">"
		    "<thead><tr>"
		    "<th class=\"n\">#</th><th>function</th><th>binary</th><th>source</th><th class=\"n\">samples</th>"
		    "<th class=\"n\">total latency</th><th class=\"n\">mean</th><th class=\"n\">p50</th>"
		    "<th class=\"n\">p90</th><th class=\"n\">p99</th><th class=\"n\">share %</th>"
		    "<th>distribution</th><th>loads served by</th></tr></thead><tbody>");
	size_t f = 0;
	for (size_t r = 0; r < shown; r++) {
		const char *name = report_rowset_get(rs, r, HS_SYMBOL);
		const struct ann_function *fn = NULL;
		size_t index = 0;
		if (name && f < hot->n && !strcmp(hot->fs[f].name, name)) {
			index = f;
			fn = &hot->fs[f++];
		}
		report_html_printf(h, "<tr><td class=\"n\">%zu</td><td data-col=\"symbol\" class=\"mono\">", r + 1);
		if (fn && index < hot->annotated) {
			report_html_printf(h, "<a href=\"#" ANN_ANCHOR "\">", index + 1);
			report_html_text(h, name);
			report_html_raw(h, "</a>");
		} else {
			report_html_text(h, name ? name : "(no symbol)");
		}
		report_html_raw(h, "</td>");
		report_html_td(h, NULL, base_name(report_rowset_get(rs, r, HS_MAPPING)), 0);
		source_cell(h, report_rowset_get(rs, r, HS_FILE), report_rowset_get(rs, r, HS_LINE));
		static const char *const cols[] = { "samples", "total_latency", "mean_latency", "p50", "p90", "p99" };
		for (int k = HS_SAMPLES; k < HS_SHARE; k++)
			report_html_td(h, cols[k - HS_SAMPLES], report_rowset_get(rs, r, k), 1);
		share_cell(h, report_rowset_get(rs, r, HS_SHARE));
		if (fn) {
			spark_cell(h, fn->total.buckets, b0, b1);
			report_html_raw(h, "<td>");
			report_svg_levels_bar(h, fn->total.levels, 120, 12);
			report_html_raw(h, "</td>");
		} else {
			report_html_raw(h, "<td></td><td></td>");
		}
		report_html_raw(h, "</tr>");
	}
	report_table_end(h);
	functions_json(c, rs, shown);
	size_t embedded = rs->n < REPORT_ROWS_MAX ? rs->n : REPORT_ROWS_MAX;
	return report_drill_function_objects(c, rs, HS_SYMBOL, HS_MAPPING, embedded);
}

/* Latency buckets of each hot PC (pc_latency, matched on pc and insn_id). */
static int pc_buckets(struct report_ctx *c, const struct rowset *rs, size_t shown, uint64_t (*buckets)[LATENCY_BUCKETS])
{
	long long *pcs = malloc((shown + 1) * sizeof *pcs);
	if (!pcs)
		return report_fail(c, -spe_nomem, "out of memory");
	for (size_t r = 0; r < shown; r++)
		pcs[r] = report_rowset_get(rs, r, HP_PC_VALUE) ? atoll(report_rowset_get(rs, r, HP_PC_VALUE)) : 0;
	char *ids = report_json_int_array(pcs, shown);
	if (!ids) {
		free(pcs);
		return report_fail(c, -spe_nomem, "out of memory");
	}
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_PC_LATENCY_BY_PC);
	if (rc == 0)
		report_rq_bind_ids(&q, 1, ids);
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		long long pc = report_rq_int(&q, 0);
		const char *insn = report_rq_text(&q, 1);
		if (report_rq_null(&q, 2))
			continue;
		int b = report_latency_bucket(report_rq_int(&q, 2));
		for (size_t r = 0; r < shown; r++) {
			const char *want = report_rowset_get(rs, r, HP_INSN_ID);
			if (pcs[r] == pc && ((!want && !insn) || (want && insn && !strcmp(want, insn))))
				buckets[r][b] += (uint64_t)report_rq_int(&q, 3);
		}
	}
	report_rq_end(&q);
	free(ids);
	free(pcs);
	return rc < 0 ? rc : 0;
}

static int instructions_table(struct report_ctx *c, const struct hot_functions *hot, const struct rowset *fns)
{
	struct html *h = &c->h;
	struct rowset rs;
	int rc = report_rowset_every(c, RQ_HOT_PC, &rs);
	if (rc < 0)
		return rc;
	size_t shown = rs.n < (size_t)c->o.top ? rs.n : (size_t)c->o.top;
	uint64_t(*buckets)[LATENCY_BUCKETS] = calloc(shown + 1, sizeof *buckets);
	if (!buckets) {
		report_rowset_fini(&rs);
		return report_fail(c, -spe_nomem, "out of memory");
	}
	if ((rc = pc_buckets(c, &rs, shown, buckets)) == 0) {
		int b0 = LATENCY_BUCKETS, b1 = -1;
		for (size_t r = 0; r < shown; r++)
			spark_range(buckets[r], &b0, &b1);
		report_html_raw(h, "<h3>Instructions by total latency</h3><div class=\"scroll\"><table id=\"hot-pc\" class=\"wide\">"
			    "<thead><tr>"
			    "<th>pc</th><th>function</th><th>source</th><th>instruction</th><th class=\"n\">samples</th>"
			    "<th class=\"n\">total latency</th><th class=\"n\">mean</th><th class=\"n\">p50</th>"
			    "<th class=\"n\">p90</th><th class=\"n\">p99</th><th class=\"n\">share %</th>"
			    "<th>distribution</th></tr></thead><tbody>");
		for (size_t r = 0; r < shown; r++) {
			const char *sym = report_rowset_get(&rs, r, HP_SYMBOL);
			report_html_raw(h, "<tr>");
			report_html_td(h, "pc", report_rowset_get(&rs, r, HP_PC), 0);
			report_html_raw(h, "<td class=\"mono\" data-col=\"symbol\">");
			size_t link = 0;
			for (size_t i = 0; sym && i < hot->annotated && !link; i++)
				if (!strcmp(hot->fs[i].name, sym))
					link = i + 1;
			if (link)
				report_html_printf(h, "<a href=\"#" ANN_ANCHOR "\">", link);
			report_html_text(h, sym ? sym : "(no symbol)");
			if (sym && report_rowset_get(&rs, r, HP_OFFSET)) {
				report_html_raw(h, "+");
				report_html_text(h, report_rowset_get(&rs, r, HP_OFFSET));
			}
			report_html_raw(h, link ? "</a></td>" : "</td>");
			source_cell(h, report_rowset_get(&rs, r, HP_FILE), report_rowset_get(&rs, r, HP_LINE));
			report_html_raw(h, "<td class=\"insn\">");
			report_html_text(h, report_rowset_get(&rs, r, HP_MNEMONIC) ? report_rowset_get(&rs, r, HP_MNEMONIC) : "?");
			report_html_raw(h, " ");
			report_html_text(h, report_rowset_get(&rs, r, HP_OPERANDS) ? report_rowset_get(&rs, r, HP_OPERANDS) : "");
			report_html_raw(h, "</td>");
			static const char *const cols[] = { "samples", "total_latency", "mean_latency", "p50", "p90", "p99" };
			for (int k = HP_SAMPLES; k < HP_SHARE; k++)
				report_html_td(h, cols[k - HP_SAMPLES], report_rowset_get(&rs, r, k), 1);
			share_cell(h, report_rowset_get(&rs, r, HP_SHARE));
			spark_cell(h, buckets[r], b0, b1);
			report_html_raw(h, "</tr>");
		}
		report_table_end(h);
		instructions_json(c, &rs, shown);
		size_t embedded = rs.n < REPORT_ROWS_PC_MAX ? rs.n : REPORT_ROWS_PC_MAX;
		rc = report_drill_pc_data(c, &rs, HP_INSN_ID, embedded);
		if (rc == 0)
			rc = report_ann_rows(c, fns, HS_SYMBOL, HS_MAPPING, fns->n < REPORT_ROWS_MAX ? fns->n : REPORT_ROWS_MAX,
					     &rs, HP_INSN_ID, embedded);
		report_drill_ch_note(c, "A function's annotation and data objects under its row and an instruction's data "
					"pages, lines, addresses and data objects under its row");
	}
	free(buckets);
	report_rowset_fini(&rs);
	return rc;
}

int report_section_hot_code(struct report_ctx *c, struct hot_functions *hot)
{
	struct html *h = &c->h;
	memset(hot, 0, sizeof *hot);
	report_html_section(h, "hot-code", "Hot code",
		     "Functions and instructions ranked by the total latency of their samples (share: of all "
		     "samples' latency).  The sparkline is the latency distribution on one log axis for every row "
		     "(left fast, right slow); the coloured bar shows which memory levels served the function's "
		     "loads, in the colours above.  Function names link to their annotation; a click on a "
		     "function's row draws its annotation under it, with the data objects it touches, and one on an "
		     "instruction's row the data pages, cache lines, addresses and data objects it touched.");
	struct rowset rs;
	int rc = report_rowset_every(c, RQ_HOT_SYMBOL, &rs);
	if (rc < 0)
		return rc;
	size_t shown = rs.n < (size_t)c->o.top ? rs.n : (size_t)c->o.top;
	struct ann_key *keys = calloc(shown + 1, sizeof *keys);
	hot->fs = calloc(shown + 1, sizeof *hot->fs);
	if (!keys || !hot->fs) {
		free(keys);
		report_rowset_fini(&rs);
		return report_fail(c, -spe_nomem, "out of memory");
	}
	size_t n = 0;
	for (size_t r = 0; r < shown; r++) {
		if (!report_rowset_get(&rs, r, HS_SYMBOL))
			continue; /* the records without a symbol: nothing to annotate */
		keys[n] = (struct ann_key){ .name = report_rowset_get(&rs, r, HS_SYMBOL),
					    .binary = report_rowset_get(&rs, r, HS_MAPPING),
					    .want_code = n < (size_t)c->o.annotations };
		n++;
	}
	hot->annotated = n < (size_t)c->o.annotations ? n : (size_t)c->o.annotations;
	rc = report_ann_load(c, keys, n, hot->fs);
	hot->n = n;
	free(keys);
	if (rc == 0)
		rc = functions_table(c, &rs, shown, hot);
	if (rc == 0)
		rc = instructions_table(c, hot, &rs);
	report_rowset_fini(&rs);
	report_html_raw(h, "</section>\n");
	return rc;
}
