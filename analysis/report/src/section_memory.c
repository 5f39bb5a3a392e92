/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory: data pages by TLB walks (tlb_hotspot), 4 KiB pages and 2 MiB
 * regions by latency with how much of each region the samples touched
 * (the huge-page hint), and cache lines shared between threads
 * (cacheline_sharing, as perf c2c's table).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "svg_chart.h"

#define PAGES_PER_REGION 512 /* 4 KiB pages in 2 MiB */
#define HINT_WALK_SHARE 0.05 /* walks in at least this share of a region's accesses */

/* tlb_hotspot in full: the totals over every page, the first rows for the table. */
static int tlb(struct report_ctx *c)
{
	struct html *h = &c->h;
	static const struct table_col cols[] = {
		{ 0, "source_id", "source", 1 },        { 1, "pid", "pid", 1 },
		{ 2, "page", "page", 0 },               { 3, "accesses", "accesses", 1 },
		{ 4, "tlb_walks", "TLB walks", 1 },     { 5, "walk_ratio", "walk ratio", 1 },
		{ 6, "translation_latency", "translation latency", 1 },
		{ 7, "mean_translation_latency", "mean", 1 },
	};
	const int ncols = sizeof cols / sizeof cols[0];
	struct rq q;
	struct rowset top = { .ncols = ncols };
	long long accesses = 0, walks = 0, pages = 0, walked_pages = 0;
	int rc = rq_begin(c, &q, RQ_TLB_HOTSPOT);
	top.cells = calloc((size_t)c->o.top * (size_t)ncols, sizeof *top.cells);
	if (rc == 0 && !top.cells)
		rc = report_fail(c, -spe_nomem, "out of memory");
	while (rc == 0 && (rc = rq_next(&q)) == 1) {
		rc = 0;
		long long w = sqlite3_column_int64(q.st, 4);
		accesses += sqlite3_column_int64(q.st, 3);
		walks += w;
		pages++;
		walked_pages += w > 0;
		if (top.n < (size_t)c->o.top && w > 0) {
			for (int k = 0; k < ncols; k++)
				top.cells[top.n * (size_t)ncols + (size_t)k] = rq_text(&q, k) ? strdup(rq_text(&q, k)) : NULL;
			top.n++;
		}
	}
	rq_end(&q);
	if (rc < 0) {
		rowset_free(&top);
		return rc;
	}
	html_raw(h, "<h3>TLB walks</h3><p id=\"tlb-total\">");
	html_textf(h, "%lld of %lld sampled accesses with a data address walked the page tables (%.1f%%), on %lld of "
		      "%lld 4 KiB pages.",
		   walks, accesses, accesses ? 100.0 * (double)walks / (double)accesses : 0.0, walked_pages, pages);
	html_raw(h, "</p>");
	if (top.n) {
		table_head(h, "tlb-hotspot", cols, ncols, NULL);
		for (size_t r = 0; r < top.n; r++) {
			html_raw(h, "<tr>");
			table_cells(h, &top, r, cols, ncols);
			html_raw(h, "</tr>");
		}
		table_end(h);
	}
	rowset_free(&top);
	return 0;
}

static int pages(struct report_ctx *c)
{
	struct html *h = &c->h;
	static const struct table_col cols[] = {
		{ 0, "source_id", "source", 1 }, { 1, "pid", "pid", 1 },        { 2, "page", "4 KiB page", 0 },
		{ 3, "accesses", "accesses", 1 }, { 4, "total_latency", "total latency", 1 },
		{ 5, "mean_latency", "mean", 1 }, { 6, "tlb_walks", "TLB walks", 1 },
	};
	struct rowset rs;
	int rc = rowset_ranked(c, RQ_PAGES_4K, &rs);
	if (rc < 0)
		return rc;
	html_raw(h, "<h3>4 KiB pages by latency</h3>");
	table_head(h, "pages-4k", cols, (int)(sizeof cols / sizeof cols[0]), NULL);
	for (size_t r = 0; r < rs.n; r++) {
		html_raw(h, "<tr>");
		table_cells(h, &rs, r, cols, (int)(sizeof cols / sizeof cols[0]));
		html_raw(h, "</tr>");
	}
	table_end(h);
	rowset_free(&rs);
	return 0;
}

static int regions(struct report_ctx *c)
{
	struct html *h = &c->h;
	static const struct table_col cols[] = {
		{ 0, "source_id", "source", 1 },        { 1, "pid", "pid", 1 },
		{ 2, "region", "2 MiB region", 0 },     { 3, "accesses", "accesses", 1 },
		{ 4, "total_latency", "total latency", 1 }, { 5, "tlb_walks", "TLB walks", 1 },
		{ 6, "pages", "4 KiB pages seen", 1 },
	};
	const int ncols = sizeof cols / sizeof cols[0];
	struct rowset rs;
	int rc = rowset_ranked(c, RQ_REGIONS_2M, &rs);
	if (rc < 0)
		return rc;
	html_raw(h, "<h3>2 MiB regions by latency</h3>");
	table_head(h, "regions-2m", cols, ncols, "<th>share seen</th><th>huge page?</th>");
	for (size_t r = 0; r < rs.n; r++) {
		long long acc = atoll(rowset_get(&rs, r, 3) ? rowset_get(&rs, r, 3) : "0");
		long long walks = atoll(rowset_get(&rs, r, 5) ? rowset_get(&rs, r, 5) : "0");
		long long seen = atoll(rowset_get(&rs, r, 6) ? rowset_get(&rs, r, 6) : "0");
		double share = (double)seen / PAGES_PER_REGION;
		int hint = walks > 0 && acc > 0 && (double)walks / (double)acc >= HINT_WALK_SHARE && seen > 1;
		html_raw(h, "<tr>");
		table_cells(h, &rs, r, cols, ncols);
		html_printf(h, "<td title=\"%lld of %d pages\">", seen, PAGES_PER_REGION);
		svg_fraction_bar(h, share, 0x1e88e5, 60, 8);
		html_raw(h, "</td><td>");
		if (hint)
			html_printf(h, "<span class=\"tag hot\">candidate</span> %.0f%% of accesses walked",
				    100.0 * (double)walks / (double)acc);
		html_raw(h, "</td></tr>");
	}
	table_end(h);
	rowset_free(&rs);
	return 0;
}

static int sharing(struct report_ctx *c)
{
	struct html *h = &c->h;
	static const struct table_col cols[] = {
		{ 0, "pid", "pid", 1 },          { 1, "line", "cache line", 0 }, { 12, "symbols", "functions", 0 },
		{ 2, "accesses", "accesses", 1 }, { 3, "loads", "loads", 1 },      { 4, "stores", "stores", 1 },
		{ 5, "cpus", "CPUs", 1 },         { 6, "threads", "threads", 1 },  { 7, "offsets", "offsets", 1 },
		{ 8, "snooped", "snooped", 1 },   { 9, "hitm", "HITM", 1 },       { 10, "peer_hits", "peer hits", 1 },
		{ 11, "total_latency", "total latency", 1 },
	};
	const int ncols = sizeof cols / sizeof cols[0];
	struct rowset rs;
	int rc = rowset_ranked(c, RQ_CACHELINE, &rs);
	if (rc < 0)
		return rc;
	html_raw(h, "<h3>Cache lines shared between threads</h3>");
	if (!rs.n) {
		html_raw(h, "<p class=\"none\">No 64-byte line was stored to by one thread and touched by another.</p>");
		rowset_free(&rs);
		return 0;
	}
	table_head(h, "cacheline-sharing", cols, ncols, "<th>kind</th>");
	for (size_t r = 0; r < rs.n; r++) {
		/* several threads storing at different offsets of one line: they share the line, not the data */
		int offsets = atoi(rowset_get(&rs, r, 7) ? rowset_get(&rs, r, 7) : "0");
		html_raw(h, "<tr>");
		table_cells(h, &rs, r, cols, ncols);
		html_raw(h, offsets > 1 ? "<td><span class=\"tag hot\">false sharing</span></td>"
					: "<td><span class=\"tag\">true sharing</span></td>");
		html_raw(h, "</tr>");
	}
	table_end(h);
	rowset_free(&rs);
	return 0;
}

int section_memory(struct report_ctx *c)
{
	html_section(&c->h, "memory", "Memory",
		     "Where in memory the time goes.  TLB walks: pages whose translations missed the TLB.  Pages and "
		     "regions: data addresses by total latency; a 2 MiB region whose accesses often walk the page "
		     "tables is a candidate for a huge page (share seen: its 4 KiB pages the samples touched, a lower "
		     "bound).  Shared lines: one 64-byte line stored to by one thread and used by another; several "
		     "offsets in it mean false sharing (HITM: the line was modified in another core's cache).");
	int rc = tlb(c);
	if (rc == 0)
		rc = pages(c);
	if (rc == 0)
		rc = regions(c);
	if (rc == 0)
		rc = sharing(c);
	html_raw(&c->h, "</section>\n");
	return rc;
}
