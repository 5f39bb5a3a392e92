/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Findings: the page opens with the issues its memory sections found
 * (query/findings.c), each with its evidence, the fix and a link to the
 * section that shows it; "none found" when there is none, and the checks
 * that found nothing in one line.
 */
#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "sections.h"

static void finding(struct html *h, const char *id, const char *title, const char *evidence, const char *fix,
		    const char *section, const char *section_title)
{
	report_html_printf(h, "<li id=\"%s\"><b>", id);
	report_html_text(h, title);
	report_html_raw(h, "</b>");
	report_html_text_whole(h, evidence);
	report_html_raw(h, " <span class=\"fix\">Fix: ");
	report_html_text_whole(h, fix);
	report_html_printf(h, "</span> <a href=\"#%s\">", section);
	report_html_text(h, section_title);
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
	int any = f.huge_pages || f.false_sharing || f.numa;
	char clean[256] = "", unknown[64] = "";
	if (any)
		report_html_raw(h, "<ol>\n");
	if (f.huge_pages)
		finding(h, "finding-huge-pages", "Huge pages would help", f.huge_pages_text,
			"the regions to back with huge pages are listed in the section (transparent huge pages in "
			"madvise or always mode, then madvise(MADV_HUGEPAGE) on them; or hugetlbfs).",
			"mem-pages", "Pages and huge pages");
	else if (f.huge_pages_unknown)
		strcat(unknown, "huge pages");
	else
		strcat(clean, "huge pages");
	if (f.false_sharing) {
		char evidence[1024];
		snprintf(evidence, sizeof evidence,
			 "%lld of %lld cache lines written by one thread and used by another are used at two or more "
			 "offsets: the threads share the line, not the data.  The first: %s.",
			 f.false_sharing, f.shared_lines, f.false_sharing_first);
		finding(h, "finding-false-sharing", "False sharing", evidence,
			"pad or split the data so that what each thread writes sits in a 64-byte line of its own "
			"(alignas(64), or per-thread copies merged at the end).",
			"mem-sharing", "Cache lines shared between threads");
	} else {
		strcat(clean, clean[0] ? ", false sharing" : "false sharing");
	}
	if (f.numa)
		finding(h, "finding-numa", "Memory of another NUMA node", f.numa_text,
			"keep each thread and its data on one node: numactl --cpunodebind=N --membind=N, or let the "
			"thread that uses the data touch it first (first-touch placement).",
			"mem-numa", "NUMA");
	else if (f.numa_unknown)
		strcat(unknown, unknown[0] ? ", NUMA" : "NUMA");
	else
		strcat(clean, clean[0] ? ", NUMA" : "NUMA");
	if (any)
		report_html_raw(h, "</ol>\n");
	else
		report_html_raw(h, "<p id=\"no-findings\">No issue found by the checks below.</p>\n");
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
