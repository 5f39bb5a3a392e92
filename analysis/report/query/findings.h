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
};

/* Read the findings of the database of @p c (either engine); 0 or negative (message in @p c). */
int report_findings_read(struct report_ctx *c, struct report_findings *f);

#endif
