/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Findings: the page opens with the issues its memory sections found
 * (query/findings.c), each with its evidence, the fix and a link to the
 * section that shows it; "none found" when there is none, and the checks
 * that found nothing in one line.
 */
#include <stdio.h>

#include "findings.h"
#include "sections.h"

static void finding(struct html *h, const struct report_finding *it)
{
	report_html_printf(h, "<li id=\"%s\"><b>", it->id);
	report_html_text(h, it->title);
	report_html_raw(h, "</b>");
	report_html_text_whole(h, it->evidence);
	report_html_raw(h, " <span class=\"fix\">Fix: ");
	report_html_text_whole(h, it->fix);
	report_html_printf(h, "</span> <a href=\"#%s\">", it->anchor);
	report_html_text(h, it->section);
	report_html_raw(h, " \xe2\x86\x92</a></li>\n");
}

int report_section_findings(struct report_ctx *c)
{
	struct html *h = &c->h;
	struct report_findings f;
	int rc = report_findings_read(c, &f);
	if (rc < 0)
		return rc;
	report_html_section(h, "findings", "Findings",
			    "What the memory sections below found that you can fix, each with its evidence, the fix and "
			    "a link to the section; then the checks that found nothing.");
	struct report_finding items[3];
	char clean[128], unknown[64];
	int n = report_findings_list(&f, items, clean, unknown);
	if (n) {
		report_html_raw(h, "<ol>\n");
		for (int k = 0; k < n; k++)
			finding(h, &items[k]);
		report_html_raw(h, "</ol>\n");
	} else {
		report_html_raw(h, "<p id=\"no-findings\">No issue found by the checks below.</p>\n");
	}
	if (clean[0]) {
		report_html_raw(h, "<p class=\"none\" id=\"findings-clean\">Checked, nothing found: ");
		report_html_text(h, clean);
		report_html_raw(h, ".</p>\n");
	}
	if (unknown[0]) {
		report_html_raw(h, "<p class=\"none\" id=\"findings-unknown\">Not known from this capture: ");
		report_html_text(h, unknown);
		report_html_raw(h, " (the sections say why).</p>\n");
	}
	report_html_raw(h, "</section>\n");
	return 0;
}
