/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the latency goes: loads by memory level weighted by total latency
 * (one stacked bar, mem_level_summary), and a latency histogram per level
 * on a log2 axis (small multiples sharing one axis).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "svg_chart.h"

struct level_row {
	int present;
	char loads[32], total[32], mean[32], share[32];
	double total_v;
};

static int read_levels(struct report_ctx *c, struct level_row rows[MEM_LEVELS + 1])
{
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_MEM_LEVELS);
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		struct level_row *r = &rows[report_mem_level_index(report_rq_text(&q, 0))];
		r->present = 1;
		snprintf(r->loads, sizeof r->loads, "%s", report_rq_text(&q, 1) ? report_rq_text(&q, 1) : "0");
		snprintf(r->total, sizeof r->total, "%s", report_rq_text(&q, 2) ? report_rq_text(&q, 2) : "0");
		snprintf(r->mean, sizeof r->mean, "%s", report_rq_text(&q, 3) ? report_rq_text(&q, 3) : "-");
		snprintf(r->share, sizeof r->share, "%s", report_rq_text(&q, 4) ? report_rq_text(&q, 4) : "-");
		r->total_v = report_rq_double(&q, 2);
	}
	report_rq_end(&q);
	return rc < 0 ? rc : 0;
}

static int read_histograms(struct report_ctx *c, uint64_t hist[MEM_LEVELS + 1][LATENCY_BUCKETS])
{
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_LEVEL_LATENCY);
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		int v = report_mem_level_index(report_rq_text(&q, 0));
		hist[v][report_latency_bucket(report_rq_int(&q, 1))] += (uint64_t)report_rq_int(&q, 2);
	}
	report_rq_end(&q);
	return rc < 0 ? rc : 0;
}

int report_section_latency(struct report_ctx *c)
{
	struct html *h = &c->h;
	report_html_section(h, "latency", "Where the latency goes",
		     "Loads by the memory level that served them, weighted by their total latency: the wider a "
		     "colour, the more of the waiting it caused.  Below, each level's latency distribution on a log "
		     "axis (cycles); a level far right is slow per load, a tall one frequent.");
	struct level_row rows[MEM_LEVELS + 1] = { 0 };
	uint64_t(*hist)[LATENCY_BUCKETS] = calloc(MEM_LEVELS + 1, sizeof *hist);
	if (!hist)
		return report_fail(c, -spe_nomem, "out of memory");
	int rc = read_levels(c, rows);
	if (rc == 0)
		rc = read_histograms(c, hist);
	if (rc < 0) {
		free(hist);
		return rc;
	}
	struct bar_segment segs[MEM_LEVELS + 1];
	char tips[MEM_LEVELS + 1][256];
	int n = 0;
	for (int v = 0; v <= MEM_LEVELS; v++) {
		if (!rows[v].present)
			continue;
		snprintf(tips[n], sizeof tips[n], "%s: %s loads, total latency %s (%s%%), mean %s", report_mem_level_label(v),
			 rows[v].loads, rows[v].total, rows[v].share, rows[v].mean);
		segs[n] = (struct bar_segment){ .label = report_mem_level_label(v), .value = rows[v].total_v,
						.rgb = report_mem_level_rgb(v), .tooltip = tips[n] };
		n++;
	}
	if (n == 0) {
		report_html_raw(h, "<p class=\"none\">No load has a memory level (no loads, or CPU parts whose data sources "
			    "are unknown).</p></section>\n");
		free(hist);
		return 0;
	}
	report_html_raw(h, "<figure class=\"m0\"><figcaption>Total latency of loads by memory level</figcaption>");
	report_svg_stacked_bar(h, segs, n, 1000, 34);
	report_html_raw(h, "</figure>\n");
	report_html_raw(h, "<table id=\"mem-levels\"><thead><tr><th>level</th><th class=\"n\">loads</th>"
		    "<th class=\"n\">total latency</th><th class=\"n\">mean</th><th class=\"n\">share %</th>"
		    "</tr></thead><tbody>");
	for (int v = 0; v <= MEM_LEVELS; v++) {
		if (!rows[v].present)
			continue;
		report_html_raw(h, "<tr><td data-col=\"mem_level\">");
		report_html_swatch(h, report_mem_level_rgb(v));
		report_html_text(h, v < MEM_LEVELS ? report_mem_level_label(v) : NULL);
		report_html_raw(h, "</td>");
		report_html_td(h, "loads", rows[v].loads, 1);
		report_html_td(h, "total_latency", rows[v].total, 1);
		report_html_td(h, "mean_latency", rows[v].mean, 1);
		report_html_td(h, "latency_share", rows[v].share, 1);
		report_html_raw(h, "</tr>");
	}
	report_html_raw(h, "</tbody></table>\n");

	/* one shared axis: the buckets any level uses */
	int b0 = LATENCY_BUCKETS, b1 = -1;
	for (int v = 0; v <= MEM_LEVELS; v++)
		for (int b = 0; b < LATENCY_BUCKETS; b++)
			if (hist[v][b]) {
				b0 = b < b0 ? b : b0;
				b1 = b > b1 ? b : b1;
			}
	if (b1 >= 0) {
		report_html_raw(h, "<h3>Latency of loads per memory level (cycles, log2 buckets)</h3><div class=\"multiples\">");
		for (int v = 0; v <= MEM_LEVELS; v++) {
			uint64_t sum = 0;
			for (int b = 0; b < LATENCY_BUCKETS; b++)
				sum += hist[v][b];
			if (!sum)
				continue;
			report_html_printf(h, "<figure class=\"level-hist\" data-level=\"%s\"><figcaption><b>", report_mem_level_label(v));
			report_html_text(h, report_mem_level_label(v));
			report_html_printf(h, "</b> %llu timed loads</figcaption>", (unsigned long long)sum);
			report_svg_histogram(h, hist[v], b0, b1, report_mem_level_rgb(v), 230, 90, 1);
			report_html_raw(h, "</figure>");
		}
		report_html_raw(h, "</div>\n");
	}
	free(hist);
	report_html_raw(h, "</section>\n");
	return 0;
}
