/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The text report's opening: the findings (query/findings.c) with their
 * evidence, the fix and the section below that shows them; the checks that
 * found nothing in one line.
 */
#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "text_internal.h"
#include "util/visible.h"

static void item(FILE *out, int *n, const char *title, const char *evidence, const char *fix, const char *section)
{
	fprintf(out, "  %d. %s: ", ++*n, title);
	util_visible_put(out, evidence, 0, 4096, 0);
	fprintf(out, "\n     Fix: %s\n     (below: %s)\n", fix, section);
}

int report_text_findings(sqlite3 *db, FILE *out, char *err, size_t errlen)
{
	struct report_ctx c;
	struct report_findings f;
	report_ctx_init(&c, db, NULL, NULL, NULL, err, errlen);
	int rc = report_findings_read(&c, &f);
	if (rc < 0)
		return rc;
	int n = 0;
	char clean[128] = "", unknown[64] = "";
	fprintf(out, "Findings\n");
	if (f.huge_pages)
		item(out, &n, "Huge pages would help", f.huge_pages_text,
		     "back those regions with huge pages (transparent huge pages, then madvise(MADV_HUGEPAGE) on "
		     "them; or hugetlbfs); spe-report --html lists them under Pages and huge pages.",
		     "Memory, Huge pages");
	else if (f.huge_pages_unknown)
		strcat(unknown, "huge pages");
	else
		strcat(clean, "huge pages");
	if (f.false_sharing) {
		char evidence[1024];
		snprintf(evidence, sizeof evidence,
			 "%lld of %lld cache lines written by one thread and used by another are used at two or more "
			 "offsets.  The first: %s.",
			 f.false_sharing, f.shared_lines, f.false_sharing_first);
		item(out, &n, "False sharing", evidence,
		     "pad or split the data so what each thread writes has a 64-byte line of its own (alignas(64)).",
		     "Shared cache lines");
	} else {
		strcat(clean, clean[0] ? ", false sharing" : "false sharing");
	}
	if (f.numa)
		item(out, &n, "Memory of another NUMA node", f.numa_text,
		     "numactl --cpunodebind=N --membind=N, or first-touch the data on the thread that uses it.",
		     "Memory, NUMA traffic");
	else if (f.numa_unknown)
		strcat(unknown, unknown[0] ? ", NUMA" : "NUMA");
	else
		strcat(clean, clean[0] ? ", NUMA" : "NUMA");
	if (!n)
		fprintf(out, "  No issue found by the checks below.\n");
	if (clean[0])
		fprintf(out, "  Checked, nothing found: %s.\n", clean);
	if (unknown[0])
		fprintf(out, "  Not known from this capture: %s (the Memory section says why).\n", unknown);
	return 0;
}
