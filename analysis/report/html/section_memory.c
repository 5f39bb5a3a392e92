/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory: which data the time goes to (hot_data_object), its pages and
 * whether huge pages would help (data_page, tlb_hotspot and the library's
 * huge-page rule), NUMA traffic (numa_traffic and the library's sentence),
 * cache lines shared between threads (cacheline_sharing, as perf c2c's
 * table), late prefetches (prefetch), and what the capture's CPU parts can
 * show of these.  The sentences come from spe/memory_report.h, the same
 * functions the text report prints, so both say the same thing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "report/memory_report.h"
#include "svg_chart.h"

#define PAGES_PER_REGION 512 /* 4 KiB pages in 2 MiB */
#define SHARE_RGB 0x1e88e5
#define LATE_RGB 0x8e24aa
#define MAX_NODES 16

static const char *cell(const struct rowset *rs, size_t r, int col)
{
	return report_rowset_get(rs, r, col);
}

static double num(const struct rowset *rs, size_t r, int col)
{
	const char *s = report_rowset_get(rs, r, col);
	return s ? atof(s) : 0;
}

/* "64 MiB", "512 B": a size a reader takes in at once. */
static void human_bytes(char *buf, size_t size, const char *bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	if (!bytes) {
		snprintf(buf, size, "-");
		return;
	}
	double v = atof(bytes);
	int u = 0;
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, v == (long long)v ? "%.0f %s" : "%.1f %s", v, units[u]);
}

/* The memory levels of a "DRAM 150, remote 150" list (hot_data_object.levels) as loads per level. */
static void parse_levels(const char *text, uint64_t levels[MEM_LEVELS + 1])
{
	memset(levels, 0, (MEM_LEVELS + 1) * sizeof *levels);
	while (text && *text) {
		char name[64];
		unsigned long long n;
		int used;
		if (sscanf(text, " %63[^ ,] %llu%n", name, &n, &used) != 2)
			break;
		levels[report_mem_level_index(name)] += n;
		text += used;
		text += strspn(text, ", ");
	}
}

/* Every data object's row as JSON, in the table's columns up to share (size in bytes). */
static void data_objects_json(struct report_ctx *c, const struct rowset *rs, size_t shown)
{
	struct html *h = &c->h;
	double left = 0, absent = 0, all = 0; /* total latency (not the rounded shares) */
	size_t embedded = rs->n < REPORT_ROWS_MAX ? rs->n : REPORT_ROWS_MAX;
	report_rows_open(h, "data-objects", c->o.top);
	for (size_t r = 0; r < rs->n; r++) {
		all += num(rs, r, 12);
		if (r >= shown)
			left += num(rs, r, 12);
		if (r >= embedded) {
			absent += num(rs, r, 12);
			continue;
		}
		report_rows_row(h, r);
		report_rows_str(h, 1, cell(rs, r, 2));
		report_rows_str(h, 0, cell(rs, r, 3));
		report_rows_str(h, 0, cell(rs, r, 4));
		char decl[512];
		snprintf(decl, sizeof decl, "%s:%s", cell(rs, r, 5) ? cell(rs, r, 5) : "", cell(rs, r, 6) ? cell(rs, r, 6) : "?");
		report_rows_str(h, 0, cell(rs, r, 5) ? decl : NULL);
		report_rows_str(h, 0, cell(rs, r, 7));
		static const int nums[] = { 8, 9, 10, 11, 12, 14, 15 };
		for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
			report_rows_num(h, 0, cell(rs, r, nums[k]));
	}
	report_rows_close(h, embedded);
	report_rows_more(h, "data-objects", shown, embedded, rs->n, all > 0 ? 100 * left / all : 0,
			 all > 0 ? 100 * absent / all : 0, "data objects", "hot_data_object");
}

static int data_objects(struct report_ctx *c)
{
	struct html *h = &c->h;
	struct rowset rs;
	int rc = report_rowset_every(c, RQ_DATA_OBJECTS, &rs);
	if (rc < 0)
		return rc;
	size_t shown = rs.n < (size_t)c->o.top ? rs.n : (size_t)c->o.top;
	report_html_subsection(h, "mem-objects", "Data objects by total latency",
			"Which data the time goes to.  A row is a variable of the program (named by DWARF or the "
			"symbol table, with its type and declaration), or, for data no variable covers, the mapping "
			"it lies in: [heap], [stack], anonymous memory (large mallocs, mmap), a file mapped as data.  "
			"Share is of the latency of all records with a data object; the coloured bar shows the memory "
			"levels that served the object's loads, in the colours of the latency bar above (point at it "
			"for the counts, at a name for its source and process).");
	if (!rs.n) {
		report_html_raw(h, "<p class=\"none\">No record's data address fell in a known data object (the capture has "
			    "no data mappings and no variable of a mapped binary was touched).</p>");
		report_rowset_fini(&rs);
		return 0;
	}
	report_html_raw(h, "<div class=\"scroll\"><table id=\"data-objects\"><thead><tr><th>kind</th><th>object</th><th>type</th>"
		    "<th>declared</th><th>start</th><th class=\"n\">size</th><th class=\"n\">samples</th>"
		    "<th class=\"n\">loads</th><th class=\"n\">stores</th><th class=\"n\">total latency</th>"
		    "<th class=\"n\">p99</th><th class=\"n\">share %</th><th>levels</th></tr></thead><tbody>");
	for (size_t r = 0; r < shown; r++) {
		char size[32], decl[512];
		uint64_t levels[MEM_LEVELS + 1];
		report_html_raw(h, "<tr>");
		report_html_raw(h, "<td data-col=\"kind\"><span class=\"tag\">");
		report_html_text(h, cell(&rs, r, 2));
		report_html_raw(h, "</span></td>");
		report_html_raw(h, "<td data-col=\"name\" class=\"mono\" title=\"");
		report_html_textf(h, "source %s, pid %s", cell(&rs, r, 0) ? cell(&rs, r, 0) : "?", cell(&rs, r, 1) ? cell(&rs, r, 1) : "?");
		report_html_raw(h, "\">");
		report_html_text(h, cell(&rs, r, 3));
		report_html_raw(h, "</td>");
		report_html_td(h, "type", cell(&rs, r, 4), 0);
		if (cell(&rs, r, 5)) {
			snprintf(decl, sizeof decl, "%s:%s", cell(&rs, r, 5), cell(&rs, r, 6) ? cell(&rs, r, 6) : "?");
			report_html_td(h, "declared", decl, 0);
		} else {
			report_html_td(h, "declared", NULL, 0);
		}
		report_html_td(h, "start", cell(&rs, r, 7), 0);
		human_bytes(size, sizeof size, cell(&rs, r, 8));
		report_html_printf(h, "<td data-col=\"size\" class=\"n\" title=\"%s bytes\">", cell(&rs, r, 8) ? cell(&rs, r, 8) : "?");
		report_html_text(h, size);
		report_html_raw(h, "</td>");
		static const struct {
			int col;
			const char *key;
		} nums[] = { { 9, "samples" }, { 10, "loads" }, { 11, "stores" }, { 12, "total_latency" }, { 14, "p99" } };
		for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
			report_html_td(h, nums[k].key, cell(&rs, r, nums[k].col), 1);
		/* the bar first, then the number: the cell's text stays the number */
		report_html_raw(h, "<td data-col=\"latency_share\" class=\"n\">");
		report_svg_fraction_bar(h, num(&rs, r, 15) / 100, SHARE_RGB, 40, 8);
		report_html_text(h, cell(&rs, r, 15));
		report_html_raw(h, "</td><td data-col=\"levels\" title=\"");
		report_html_text(h, cell(&rs, r, 16) ? cell(&rs, r, 16) : "no loads");
		report_html_raw(h, "\">");
		parse_levels(cell(&rs, r, 16), levels);
		report_svg_levels_bar(h, levels, 80, 10);
		report_html_raw(h, "</td></tr>");
	}
	report_table_end(h);
	data_objects_json(c, &rs, shown);
	rc = report_drill_object_functions(c, &rs, 17, rs.n < REPORT_ROWS_MAX ? rs.n : REPORT_ROWS_MAX);
	report_rowset_fini(&rs);
	return rc;
}

/* tlb_hotspot: the totals over every page (summed where the data is), the first rows with walks for the table. */
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
	double t[4]; /* accesses, walks, pages, walked pages */
	struct rowset top;
	int rc = report_rq_numbers(c, RQ_TLB_TOTALS, 4, t);
	if (rc < 0 || (rc = report_rowset_ranked(c, RQ_TLB_HOTSPOT, &top)) < 0)
		return rc;
	long long accesses = (long long)t[0], walks = (long long)t[1], pages = (long long)t[2],
		  walked_pages = (long long)t[3];
	report_html_subsection(h, "mem-tlb", "TLB walks",
			"Pages whose translations missed the TLB: each walk of the page tables adds its translation "
			"latency to the access.");
	report_html_raw(h, "<p id=\"tlb-total\">");
	report_html_textf(h, "%lld of %lld sampled accesses with a data address walked the page tables (%.1f%%), on %lld of "
		      "%lld 4 KiB pages.",
		   walks, accesses, accesses ? 100.0 * (double)walks / (double)accesses : 0.0, walked_pages, pages);
	report_html_raw(h, "</p>");
	if (top.n) {
		report_table_head(h, "tlb-hotspot", cols, ncols, NULL);
		for (size_t r = 0; r < top.n; r++) {
			report_html_raw(h, "<tr>");
			report_table_cells(h, &top, r, cols, ncols);
			report_html_raw(h, "</tr>");
		}
		report_table_end(h);
	}
	report_rowset_fini(&top);
	return 0;
}

/* The huge-page hint in the library's words, the 2 MiB regions it counts, and the hottest 4 KiB pages. */
static int pages(struct report_ctx *c)
{
	struct html *h = &c->h;
	double row[SPE_HUGE_PAGE_HINT_COLUMNS];
	char hint[1024];
	int rc = report_rq_numbers(c, RQ_HUGE_PAGE_HINT, SPE_HUGE_PAGE_HINT_COLUMNS, row);
	if (rc < 0)
		return rc;
	int advise = spe_huge_page_hint_text(row, hint, sizeof hint);
	double unlisted[SPE_PAGE_BUDGET_COLUMNS];
	char budget[512];
	if ((rc = report_rq_numbers(c, RQ_PAGE_BUDGET, SPE_PAGE_BUDGET_COLUMNS, unlisted)) < 0)
		return rc;
	int past_budget = spe_page_budget_text(unlisted, budget, sizeof budget);
	struct rowset rows;
	if ((rc = report_rowset_ranked(c, RQ_DATA_PAGES, &rows)) < 0)
		return rc;
	/* the regions come first: split the rows where the 4 KiB pages begin */
	size_t nregions = 0;
	while (nregions < rows.n && num(&rows, nregions, 13) != 4096)
		nregions++;
	struct rowset regions = { .ncols = rows.ncols, .n = nregions, .cells = rows.cells },
		      small = { .ncols = rows.ncols, .n = rows.n - nregions,
				.cells = rows.cells ? rows.cells + nregions * (size_t)rows.ncols : NULL };
	report_html_subsection(h, "mem-pages", "Pages and huge pages",
			"Data addresses by page.  The sentence is spe-report's huge-page rule (spe-report(1), MEMORY): "
			"translation must be at least 5% of data-access latency, and regions of 2 MiB whose TLB walks "
			"fall on two or more 4 KiB pages must hold a quarter of it; one huge page would have turned "
			"those walks into hits.  Regions: 2 MiB of address space by translation latency; the bar of "
			"'pages seen' is the share of its 512 pages of 4 KiB the samples touched (a lower bound); a "
			"region the rule counts is marked.");
	report_html_printf(h, "<p id=\"huge-page-hint\" class=\"note%s\">", advise ? " warn" : "");
	report_html_text(h, hint);
	report_html_raw(h, "</p>");
	if (past_budget) {
		report_html_raw(h, "<p id=\"page-budget\" class=\"note\">");
		report_html_text(h, budget);
		report_html_raw(h, "</p>");
	}
	report_html_raw(h, "<h3>2 MiB regions by translation latency</h3><div class=\"scroll\"><table id=\"regions-2m\"><thead><tr>"
		    "<th>2 MiB region</th><th class=\"n\">accesses</th><th class=\"n\">total latency</th><th class=\"n\">TLB walks</th>"
		    "<th class=\"n\">translation latency</th><th class=\"n\">share %</th><th class=\"n\">4 KiB pages seen</th>"
		    "<th class=\"n\">walked pages</th><th>data objects</th><th>huge page?</th></tr></thead><tbody>");
	static const struct {
		int col;
		const char *key;
	} region_cols[] = { { 2, "region" },   { 3, "accesses" },
			    { 4, "total_latency" }, { 6, "tlb_walks" },
			    { 7, "translation_latency" }, { 8, "translation_share" } };
	for (size_t r = 0; r < regions.n; r++) {
		report_html_printf(h, "<tr title=\"source %s, pid %s\">", cell(&regions, r, 0) ? cell(&regions, r, 0) : "?",
			    cell(&regions, r, 1) ? cell(&regions, r, 1) : "?");
		for (size_t k = 0; k < sizeof region_cols / sizeof region_cols[0]; k++)
			report_html_td(h, region_cols[k].key, cell(&regions, r, region_cols[k].col), k != 0);
		report_html_printf(h, "<td data-col=\"pages\" class=\"n\" title=\"%.0f of %d pages\">", num(&regions, r, 9),
			    PAGES_PER_REGION);
		report_svg_fraction_bar(h, num(&regions, r, 9) / PAGES_PER_REGION, SHARE_RGB, 50, 8);
		report_html_text(h, cell(&regions, r, 9));
		report_html_raw(h, "</td>");
		report_html_td(h, "walked_pages", cell(&regions, r, 10), 1);
		report_html_raw(h, "<td data-col=\"data_objects\" class=\"wrap\">");
		report_html_text(h, cell(&regions, r, 11));
		report_html_raw(h, "</td><td data-col=\"hint\">");
		if (num(&regions, r, 12) > 0)
			report_html_raw(h, advise ? "<span class=\"tag hot\">huge page</span>" : "<span class=\"tag\">counted</span>");
		report_html_raw(h, "</td></tr>");
	}
	report_table_end(h);
	static const struct table_col page_cols[] = {
		{ 2, "page", "4 KiB page", 0 },         { 3, "accesses", "accesses", 1 },
		{ 4, "total_latency", "total latency", 1 }, { 5, "mean_latency", "mean", 1 },
		{ 6, "tlb_walks", "TLB walks", 1 },    { 7, "translation_latency", "translation latency", 1 },
		{ 11, "data_objects", "data objects", 0 },
	};
	report_html_raw(h, "<h3>4 KiB pages by total latency</h3>");
	const int npage_cols = sizeof page_cols / sizeof page_cols[0];
	report_table_head(h, "pages-4k", page_cols, npage_cols, NULL);
	for (size_t r = 0; r < small.n; r++) {
		report_html_printf(h, "<tr title=\"source %s, pid %s\">", cell(&small, r, 0) ? cell(&small, r, 0) : "?",
			    cell(&small, r, 1) ? cell(&small, r, 1) : "?");
		report_table_cells(h, &small, r, page_cols, npage_cols);
		report_html_raw(h, "</tr>");
	}
	report_table_end(h);
	report_rowset_fini(&rows);
	return 0;
}

/* One cell of the node matrix: loads and latency from cpu node r to memory node m. */
struct numa_cell {
	double loads, latency;
};

static void numa_matrix(struct html *h, struct numa_cell m[MAX_NODES][MAX_NODES], int nodes, double total)
{
	report_html_raw(h, "<table id=\"numa-matrix\" class=\"matrix\"><thead><tr><th>CPU node \xe2\x86\x93 memory node "
		    "\xe2\x86\x92</th>");
	for (int j = 0; j < nodes; j++)
		report_html_printf(h, "<th class=\"n\">node %d</th>", j);
	report_html_raw(h, "</tr></thead><tbody>");
	for (int i = 0; i < nodes; i++) {
		report_html_printf(h, "<tr><th>node %d</th>", i);
		for (int j = 0; j < nodes; j++) {
			const struct numa_cell *x = &m[i][j];
			char cls[16];
			report_html_shade_class(cls, i == j ? REPORT_SHADE_LOCAL : REPORT_SHADE_REMOTE,
						x->loads > 0 && total > 0 ? 0.15 + 0.85 * x->latency / total : 0);
			report_html_printf(h, "<td class=\"n %s\" data-cpu-node=\"%d\" data-memory-node=\"%d\" data-loads=\"%.0f\" "
				       "data-latency=\"%.0f\">",
				    cls, i, j, x->loads, x->latency);
			if (x->loads > 0)
				report_html_textf(h, "%.0f loads, %.1f%% of latency%s", x->loads,
					   total > 0 ? 100 * x->latency / total : 0.0, i == j ? "" : " (remote)");
			report_html_raw(h, "</td>");
		}
		report_html_raw(h, "</tr>");
	}
	report_html_raw(h, "</tbody></table>");
}

static int numa(struct report_ctx *c)
{
	struct html *h = &c->h;
	double row[SPE_NUMA_SUMMARY_COLUMNS];
	char sentence[1024];
	int rc = report_rq_numbers(c, RQ_NUMA_SUMMARY, SPE_NUMA_SUMMARY_COLUMNS, row);
	if (rc < 0)
		return rc;
	int remote = spe_numa_summary_text(row, sentence, sizeof sentence);
	struct rowset rs;
	if ((rc = report_rowset_all(c, RQ_NUMA_TRAFFIC, &rs)) < 0)
		return rc;
	report_html_subsection(h, "mem-numa", "NUMA",
			"Loads by the NUMA node of the CPU that issued them (rows) and of the memory that held their "
			"data (columns), placed by physical address in the node memory ranges the capture stored: off "
			"the diagonal is remote traffic, shaded by its share of load latency.  Without physical "
			"addresses (record with spe-record --pa-enable, perf's pa_enable=1) there is no matrix: the table counts the loads whose "
			"data source is on another socket instead (basis 'data source').");
	report_html_printf(h, "<p id=\"numa-summary\" class=\"note%s\">", remote ? " warn" : "");
	report_html_text(h, sentence);
	report_html_raw(h, "</p>");
	struct numa_cell m[MAX_NODES][MAX_NODES];
	memset(m, 0, sizeof m);
	int nodes = 0;
	double total = 0;
	for (size_t r = 0; r < rs.n; r++) {
		if (!cell(&rs, r, 1) || !cell(&rs, r, 2) || strcmp(cell(&rs, r, 3), "physical address"))
			continue;
		int i = atoi(cell(&rs, r, 1)), j = atoi(cell(&rs, r, 2));
		if (i < 0 || j < 0 || i >= MAX_NODES || j >= MAX_NODES)
			continue;
		m[i][j].loads += num(&rs, r, 5);
		m[i][j].latency += num(&rs, r, 6);
		total += num(&rs, r, 6);
		nodes = i + 1 > nodes ? i + 1 : nodes;
		nodes = j + 1 > nodes ? j + 1 : nodes;
	}
	if (nodes)
		numa_matrix(h, m, nodes, total);
	static const struct table_col cols[] = {
		{ 0, "source_id", "source", 1 }, { 1, "cpu_node", "CPU node", 1 }, { 2, "memory_node", "memory node", 1 },
		{ 3, "basis", "basis", 0 },      { 4, "remote", "remote", 1 },     { 5, "loads", "loads", 1 },
		{ 6, "total_latency", "total latency", 1 }, { 7, "mean_latency", "mean", 1 },
		{ 8, "remote_access_events", "remote-access events", 1 },
	};
	if (rs.n) {
		report_table_head(h, "numa-traffic", cols, 9, NULL);
		report_table_rows(h, &rs, cols, 9);
		report_table_end(h);
	}
	report_rowset_fini(&rs);
	return 0;
}

static int sharing(struct report_ctx *c)
{
	struct html *h = &c->h;
	static const struct table_col cols[] = {
		{ 1, "line", "cache line", 0 },   { 15, "data_objects", "data objects", 0 },
		{ 12, "symbols", "functions", 0 }, { 4, "stores", "stores", 1 },
		{ 13, "writes", "writes", 1 },    { 5, "cpus", "CPUs", 1 },      { 6, "threads", "threads", 1 },
		{ 7, "offsets", "offsets", 1 },   { 8, "snooped", "snooped", 1 }, { 9, "hitm", "HITM", 1 },
		{ 10, "peer_hits", "peer hits", 1 }, { 14, "remote_hits", "remote", 1 },
		{ 11, "total_latency", "total latency", 1 },
	};
	const int ncols = sizeof cols / sizeof cols[0];
	struct rowset rs;
	int rc = report_rowset_ranked(c, RQ_CACHELINE, &rs);
	if (rc < 0)
		return rc;
	report_html_subsection(h, "mem-sharing", "Cache lines shared between threads",
			"One 64-byte line written (a store or an atomic) by one thread and used by another, as perf "
			"c2c's table.  Several offsets or data objects in one line mean false sharing: the threads "
			"share the line, not the data (pad or split it).  HITM counts loads that found the line "
			"modified in another core's cache; on parts that cannot record it (see below), peer and "
			"remote hits on lines several CPUs write are the evidence.  A click on a line's row lists the "
			"functions and threads using it.");
	if (!rs.n) {
		report_html_raw(h, "<p class=\"none\">No 64-byte line was stored to by one thread and touched by another.</p>");
		report_rowset_fini(&rs);
		return 0;
	}
	report_table_head(h, "cacheline-sharing", cols, ncols, "<th>kind</th>");
	for (size_t r = 0; r < rs.n; r++) {
		/* several threads storing at different offsets of one line: they share the line, not the data */
		int offsets = atoi(report_rowset_get(&rs, r, 7) ? report_rowset_get(&rs, r, 7) : "0");
		report_html_printf(h, "<tr data-i=\"%zu\" title=\"source %s, pid %s\">", r, cell(&rs, r, 16) ? cell(&rs, r, 16) : "?",
			    cell(&rs, r, 0) ? cell(&rs, r, 0) : "?");
		report_table_cells(h, &rs, r, cols, ncols);
		report_html_raw(h, offsets > 1 ? "<td><span class=\"tag hot\">false sharing</span></td>"
					: "<td><span class=\"tag\">true sharing</span></td>");
		report_html_raw(h, "</tr>");
	}
	report_table_end(h);
	rc = report_drill_line_users(c, &rs, 16, 0, 1, rs.n);
	report_drill_ch_note(c, "The functions and threads using a line, under its row,");
	report_rowset_fini(&rs);
	return rc;
}

static int prefetch(struct report_ctx *c)
{
	struct html *h = &c->h;
	struct rowset rs;
	int rc = report_rowset_ranked(c, RQ_PREFETCH, &rs);
	if (rc < 0)
		return rc;
	report_html_subsection(h, "mem-prefetch", "Late prefetches",
			"Loads by instruction and data object that a hardware prefetch was already fetching but had not "
			"brought in time (late prefetch: the part's IMPLEMENTATION DEFINED event), or whose line was "
			"recently fetched (SPEv1.4).  A high late rate on a hot load means the prefetcher runs too "
			"close behind the loads: prefetch further ahead in software, or make the access pattern easier "
			"to follow.");
	if (!rs.n) {
		report_html_raw(h, "<p class=\"none\">No load carried a late-prefetch or recently-fetched event (the list below "
			    "says which parts can record them).</p>");
		report_rowset_fini(&rs);
		return 0;
	}
	report_html_raw(h, "<div class=\"scroll\"><table id=\"prefetch\"><thead><tr><th>pc</th><th>function</th>"
		    "<th>data object</th><th class=\"n\">loads</th><th class=\"n\">late</th><th class=\"n\">late %</th>"
		    "<th></th><th class=\"n\">recently fetched</th><th class=\"n\">late latency</th>"
		    "<th class=\"n\">total latency</th><th class=\"n\">mean</th></tr></thead><tbody>");
	for (size_t r = 0; r < rs.n; r++) {
		char fn[512];
		report_html_raw(h, "<tr>");
		report_html_td(h, "pc", cell(&rs, r, 0), 0);
		if (cell(&rs, r, 1)) {
			snprintf(fn, sizeof fn, "%s+%lld", cell(&rs, r, 1), (long long)num(&rs, r, 2));
			report_html_td(h, "symbol", fn, 0);
		} else {
			report_html_td(h, "symbol", NULL, 0);
		}
		report_html_td(h, "data_object", cell(&rs, r, 3), 0);
		report_html_td(h, "loads", cell(&rs, r, 4), 1);
		report_html_td(h, "late_prefetch", cell(&rs, r, 5), 1);
		report_html_td(h, "late_rate", cell(&rs, r, 6), 1);
		report_html_raw(h, "<td>");
		report_svg_fraction_bar(h, num(&rs, r, 6) / 100, LATE_RGB, 60, 8);
		report_html_raw(h, "</td>");
		report_html_td(h, "recently_fetched", cell(&rs, r, 7), 1);
		report_html_td(h, "late_latency", cell(&rs, r, 8), 1);
		report_html_td(h, "total_latency", cell(&rs, r, 9), 1);
		report_html_td(h, "mean_latency", cell(&rs, r, 10), 1);
		report_html_raw(h, "</tr>");
	}
	report_table_end(h);
	report_rowset_fini(&rs);
	return 0;
}

static int parts(struct report_ctx *c)
{
	struct html *h = &c->h;
	struct rowset rs;
	int rc = report_rowset_all(c, RQ_MEMORY_PARTS, &rs);
	if (rc < 0)
		return rc;
	report_html_subsection(h, "mem-parts", "What the CPU parts can show",
			"Per CPU part of the capture: whether it records the HITM and snoop events (SPEv1.4), whether "
			"its data sources mark modified lines, and its late-prefetch event.  A column of zeros above "
			"may only mean the part cannot see it.");
	report_html_raw(h, "<ul id=\"memory-parts\">");
	for (size_t r = 0; r < rs.n; r++) {
		report_html_raw(h, "<li>");
		report_html_text(h, cell(&rs, r, 0));
		report_html_raw(h, "</li>");
	}
	report_html_raw(h, "</ul>\n");
	report_rowset_fini(&rs);
	return 0;
}

int report_section_memory(struct report_ctx *c)
{
	report_html_section(&c->h, "memory", "Memory",
		     "Where in memory the time goes: which data objects, which pages and whether huge pages would "
		     "help, which NUMA node the data came from, which cache lines move between cores, and which "
		     "prefetches come late.  Each part says how to read it.");
	int (*const parts_of[])(struct report_ctx *) = { data_objects, pages, tlb, numa, sharing, prefetch, parts };
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < sizeof parts_of / sizeof parts_of[0]; i++)
		rc = parts_of[i](c);
	report_html_raw(&c->h, "</section>\n");
	return rc;
}
