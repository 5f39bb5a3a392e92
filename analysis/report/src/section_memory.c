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

#define PAGE_SHIFT_2M 9       /* 4 KiB page number >> 9: 2 MiB region */
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

/* A 4 KiB page, or a 2 MiB region summed from its pages. */
struct area {
	long long source, pid, page; /* page number: address >> 12 */
	long long accesses, latency, timed, walks, pages;
};

/* Keep @p a in @p top (at most @p cap, by latency then accesses, descending). */
static void rank(struct area *top, size_t *n, size_t cap, const struct area *a)
{
	size_t k = *n < cap ? (*n)++ : cap;
	if (k == cap && (cap == 0 || top[cap - 1].latency > a->latency ||
			 (top[cap - 1].latency == a->latency && top[cap - 1].accesses >= a->accesses)))
		return;
	if (k == cap)
		k = cap - 1;
	while (k > 0 && (top[k - 1].latency < a->latency ||
			 (top[k - 1].latency == a->latency && top[k - 1].accesses < a->accesses))) {
		top[k] = top[k - 1];
		k--;
	}
	top[k] = *a;
}

static void area_row(struct html *h, const struct area *a, int shift, int region)
{
	char cell[64];
	html_raw(h, "<tr>");
	snprintf(cell, sizeof cell, "%lld", a->source);
	html_td(h, "source_id", cell, 1);
	snprintf(cell, sizeof cell, "%lld", a->pid);
	html_td(h, "pid", cell, 1);
	snprintf(cell, sizeof cell, "0x%llx", (unsigned long long)a->page >> shift << shift << 12);
	html_td(h, region ? "region" : "page", cell, 0);
	snprintf(cell, sizeof cell, "%lld", a->accesses);
	html_td(h, "accesses", cell, 1);
	snprintf(cell, sizeof cell, "%lld", a->latency);
	html_td(h, "total_latency", a->timed ? cell : NULL, 1);
	snprintf(cell, sizeof cell, "%.2f", a->timed ? (double)a->latency / (double)a->timed : 0.0);
	html_td(h, "mean_latency", a->timed ? cell : NULL, 1);
	snprintf(cell, sizeof cell, "%lld", a->walks);
	html_td(h, "tlb_walks", cell, 1);
}

static void pages_table(struct html *h, const struct area *top, size_t n)
{
	html_raw(h, "<h3>4 KiB pages by latency</h3><div class=\"scroll\"><table id=\"pages-4k\"><thead><tr>"
		    "<th class=\"n\">source</th><th class=\"n\">pid</th><th>4 KiB page</th><th class=\"n\">accesses</th>"
		    "<th class=\"n\">total latency</th><th class=\"n\">mean</th><th class=\"n\">TLB walks</th>"
		    "</tr></thead><tbody>");
	for (size_t i = 0; i < n; i++) {
		area_row(h, &top[i], 0, 0);
		html_raw(h, "</tr>");
	}
	table_end(h);
}

static void regions_table(struct html *h, const struct area *top, size_t n)
{
	html_raw(h, "<h3>2 MiB regions by latency</h3><div class=\"scroll\"><table id=\"regions-2m\"><thead><tr>"
		    "<th class=\"n\">source</th><th class=\"n\">pid</th><th>2 MiB region</th><th class=\"n\">accesses</th>"
		    "<th class=\"n\">total latency</th><th class=\"n\">mean</th><th class=\"n\">TLB walks</th>"
		    "<th class=\"n\">4 KiB pages seen</th><th>share seen</th><th>huge page?</th></tr></thead><tbody>");
	for (size_t i = 0; i < n; i++) {
		const struct area *a = &top[i];
		char cell[32];
		area_row(h, a, PAGE_SHIFT_2M, 1);
		snprintf(cell, sizeof cell, "%lld", a->pages);
		html_td(h, "pages", cell, 1);
		html_printf(h, "<td title=\"%lld of %d pages\">", a->pages, PAGES_PER_REGION);
		svg_fraction_bar(h, (double)a->pages / PAGES_PER_REGION, 0x1e88e5, 60, 8);
		html_raw(h, "</td><td>");
		if (a->walks > 0 && a->accesses > 0 && (double)a->walks / (double)a->accesses >= HINT_WALK_SHARE &&
		    a->pages > 1)
			html_printf(h, "<span class=\"tag hot\">candidate</span> %.0f%% of accesses walked",
				    100.0 * (double)a->walks / (double)a->accesses);
		html_raw(h, "</td></tr>");
	}
	table_end(h);
}

/*
 * One pass over the pages in address order: the top pages, and the pages of
 * each 2 MiB region summed as the region ends (its pages are consecutive).
 */
static int pages_and_regions(struct report_ctx *c)
{
	size_t cap = (size_t)c->o.top, npages = 0, nregions = 0;
	struct area *top_pages = calloc(cap + 1, sizeof *top_pages), *top_regions = calloc(cap + 1, sizeof *top_regions);
	struct area region = { 0 };
	int have_region = 0, rc;
	struct rq q;
	if (!top_pages || !top_regions) {
		free(top_pages);
		free(top_regions);
		return report_fail(c, -spe_nomem, "out of memory");
	}
	rc = rq_begin(c, &q, RQ_PAGES);
	while (rc == 0 && (rc = rq_next(&q)) == 1) {
		rc = 0;
		struct area a = { .source = sqlite3_column_int64(q.st, 0), .pid = sqlite3_column_int64(q.st, 1),
				  .page = sqlite3_column_int64(q.st, 2), .accesses = sqlite3_column_int64(q.st, 3),
				  .latency = sqlite3_column_int64(q.st, 4), .timed = sqlite3_column_int64(q.st, 5),
				  .walks = sqlite3_column_int64(q.st, 6), .pages = 1 };
		rank(top_pages, &npages, cap, &a);
		if (have_region && region.source == a.source && region.pid == a.pid &&
		    (unsigned long long)region.page >> PAGE_SHIFT_2M == (unsigned long long)a.page >> PAGE_SHIFT_2M) {
			region.accesses += a.accesses;
			region.latency += a.latency;
			region.timed += a.timed;
			region.walks += a.walks;
			region.pages++;
			continue;
		}
		if (have_region)
			rank(top_regions, &nregions, cap, &region);
		region = a;
		have_region = 1;
	}
	rq_end(&q);
	if (have_region)
		rank(top_regions, &nregions, cap, &region);
	if (rc == 0) {
		pages_table(&c->h, top_pages, npages);
		regions_table(&c->h, top_regions, nregions);
	}
	free(top_pages);
	free(top_regions);
	return rc < 0 ? rc : 0;
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
		rc = pages_and_regions(c);
	if (rc == 0)
		rc = sharing(c);
	html_raw(&c->h, "</section>\n");
	return rc;
}
