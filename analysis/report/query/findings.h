/* SPDX-License-Identifier: Apache-2.0 */
/* What a report opens with: the issues its memory sections found (findings.c). */
#ifndef SPE_REPORT_FINDINGS_H
#define SPE_REPORT_FINDINGS_H

#include "report_internal.h"

struct report_findings {
	int huge_pages;              /* the huge-page rule holds: huge pages would help */
	char huge_pages_text[1024];  /* its sentence, whether it holds or not */
	int numa;                    /* loads served by another node's memory, as the NUMA summary words it */
	char numa_text[1024];
	int huge_pages_unknown, numa_unknown; /* the capture cannot tell (no data address, no placement): said, not "nothing found" */
	long long shared_lines;      /* lines written by one thread and used by another */
	long long false_sharing;     /* of those, used at two or more offsets */
	char false_sharing_first[768]; /* the first of them as the sharing table ranks them */
	double huge_page_numbers[6];   /* the huge-page rule's row (SPE_HUGE_PAGE_HINT_COLUMNS), its sentence's numbers */
	double numa_numbers[6];        /* the NUMA summary's row (SPE_NUMA_SUMMARY_COLUMNS) */
};

/* Read the findings of the database of @p c (either engine); 0 or negative (message in @p c). */
int report_findings_read(struct report_ctx *c, struct report_findings *f);

/* One finding as the page and the text report state it: said once here, drawn by each. */
#define REPORT_FINDING_NUMBERS 6

struct report_finding {
	const char *kind;          /* huge_pages, false_sharing, numa (the JSON report's "kind") */
	const char *id;            /* the page's element id */
	const char *title;
	char evidence[1536];
	const char *fix;
	const char *anchor;        /* the page's section that shows it, and its title */
	const char *section;
	const char *text_section;  /* the same in the text report */
	/* the numbers the evidence states, named (the JSON report's "numbers") */
	const char *number_names[REPORT_FINDING_NUMBERS];
	double numbers[REPORT_FINDING_NUMBERS];
	int n_numbers;
};

/* What @p f says: up to 3 findings in @p items (their count returned); the checks that found nothing and
   those the capture cannot answer, listed in @p clean and @p unknown ("huge pages, NUMA"). */
int report_findings_list(const struct report_findings *f, struct report_finding items[3], char clean[128],
			 char unknown[64]);

#endif
