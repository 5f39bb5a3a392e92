/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The text report's opening: the findings (query/findings.c) with their
 * evidence, the fix and the section below that shows them; the checks that
 * found nothing in one line.
 */
#include <stdio.h>

#include "findings.h"
#include "text_internal.h"
#include "util/visible.h"

static void item(FILE *out, int number, const struct report_finding *it)
{
	fprintf(out, "  %d. %s: ", number, it->title);
	util_visible_put(out, it->evidence, 0, 4096, 0);
	fprintf(out, "\n     Fix: %s\n     (below: %s)\n", it->fix, it->text_section);
}

int report_text_findings(sqlite3 *db, FILE *out, char *err, size_t errlen)
{
	struct report_ctx c;
	struct report_findings f;
	report_ctx_init(&c, db, NULL, NULL, NULL, err, errlen);
	int rc = report_findings_read(&c, &f);
	if (rc < 0)
		return rc;
	struct report_finding items[3];
	char clean[128], unknown[64];
	int n = report_findings_list(&f, items, clean, unknown);
	fprintf(out, "Findings\n");
	for (int k = 0; k < n; k++)
		item(out, k + 1, &items[k]);
	if (!n)
		fprintf(out, "  No issue found by the checks below.\n");
	if (clean[0])
		fprintf(out, "  Checked, nothing found: %s.\n", clean);
	if (unknown[0])
		fprintf(out, "  Not known from this capture: %s (the Memory section says why).\n", unknown);
	return 0;
}
