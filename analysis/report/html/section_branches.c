/* SPDX-License-Identifier: Apache-2.0 */
/* Branches: mispredict rates by function, then the worst branches (branch_mispredict). */
#include <stdio.h>
#include <stdlib.h>

#include "sections.h"
#include "svg_chart.h"

#define MISPREDICT_RGB 0x8e24aa

int report_section_branches(struct report_ctx *c)
{
	struct html *h = &c->h;
	report_html_section(h, "branches", "Branches",
		     "Sampled branches and how often the predictor got them wrong, by function and by branch.  A "
		     "high rate on a hot branch costs a pipeline refill each time: make it predictable (sort or "
		     "partition the data) or branch-free.");
	static const struct table_col by_fn[] = {
		{ 0, "symbol", "function", 0 },
		{ 1, "branches", "branches", 1 },
		{ 2, "mispredicted", "mispredicted", 1 },
		{ 3, "mispredict_rate", "rate", 1 },
	};
	static const struct table_col by_pc[] = {
		{ 0, "pc", "pc", 0 },           { 1, "symbol", "function", 0 },        { 3, "src_line", "line", 1 },
		{ 4, "mnemonic", "instruction", 0 }, { 6, "branches", "branches", 1 }, { 7, "mispredicted", "mispredicted", 1 },
		{ 8, "mispredict_rate", "rate", 1 },
	};
	struct rowset fn, pc;
	int rc = report_rowset_ranked(c, RQ_MISPREDICT_BY_SYMBOL, &fn);
	if (rc < 0)
		return rc;
	if ((rc = report_rowset_ranked(c, RQ_MISPREDICT_BY_PC, &pc)) < 0) {
		report_rowset_fini(&fn);
		return rc;
	}
	if (!fn.n) {
		report_html_raw(h, "<p class=\"none\">No branch was sampled.</p>");
	} else {
		report_html_raw(h, "<div class=\"two\"><div><h3>By function</h3>");
		report_table_head(h, "mispredict-by-symbol", by_fn, 4, "<th></th>");
		for (size_t r = 0; r < fn.n; r++) {
			report_html_raw(h, "<tr>");
			report_table_cells(h, &fn, r, by_fn, 4);
			report_html_raw(h, "<td>");
			report_svg_fraction_bar(h, report_rowset_get(&fn, r, 3) ? atof(report_rowset_get(&fn, r, 3)) : 0, MISPREDICT_RGB, 100, 10);
			report_html_raw(h, "</td></tr>");
		}
		report_table_end(h);
		report_html_raw(h, "</div><div><h3>By branch</h3>");
		report_table_head(h, "branch-mispredict", by_pc, 7, NULL);
		report_table_rows(h, &pc, by_pc, 7);
		report_table_end(h);
		report_html_raw(h, "</div></div>\n");
	}
	report_rowset_fini(&fn);
	report_rowset_fini(&pc);
	report_html_raw(h, "</section>\n");
	return 0;
}
