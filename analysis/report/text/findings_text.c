/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The text report's opening: the findings (query/findings.c) with their
 * evidence, the fix and the section below that shows them; the checks that
 * found nothing in one line.  The JSON report carries the same list.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "text_internal.h"
#include "util/json.h"
#include "util/visible.h"

static void item(FILE *out, int number, const struct report_finding *it)
{
	fprintf(out, "  %d. %s: ", number, it->title);
	util_visible_put(out, it->evidence, 0, 4096, 0);
	fprintf(out, "\n     Fix: %s\n     (below: %s)\n", it->fix, it->text_section);
}

/* The findings of @p db: their count, or negative (message in @p err). */
static int findings(sqlite3 *db, struct report_finding items[3], char clean[128], char unknown[64], char *err,
		    size_t errlen)
{
	struct report_ctx c;
	struct report_findings f;
	report_ctx_init(&c, db, NULL, NULL, NULL, err, errlen);
	int rc = report_findings_read(&c, &f);
	return rc < 0 ? rc : report_findings_list(&f, items, clean, unknown);
}

int report_text_findings(sqlite3 *db, FILE *out, char *err, size_t errlen)
{
	struct report_finding items[3];
	char clean[128], unknown[64];
	int n = findings(db, items, clean, unknown, err, errlen);
	if (n < 0)
		return n;
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

/* A list "a, b" (report_findings_list's clean and unknown) as a JSON array of strings. */
static void json_list(FILE *out, const char *list)
{
	fputc('[', out);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		char one[128];
		snprintf(one, sizeof one, "%.*s", (int)len, p);
		util_json_string(out, one);
		p += len;
		if (*p) {
			fputs(", ", out);
			p += strspn(p, ", ");
		}
	}
	fputc(']', out);
}

/* A number as JSON: null when it is not finite (JSON has no NaN or infinity; a database's value may be one) */
static void json_number(FILE *out, double v)
{
	if (!isfinite(v))
		fputs("null", out);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(out, "%.0f", v);
	else
		fprintf(out, "%.17g", v);
}

int report_json_findings(sqlite3 *db, FILE *out, char *err, size_t errlen)
{
	struct report_finding items[3];
	char clean[128], unknown[64];
	int n = findings(db, items, clean, unknown, err, errlen);
	if (n < 0)
		return n;
	fputs("\"findings\": {\"items\": [", out);
	for (int k = 0; k < n; k++) {
		const struct report_finding *it = &items[k];
		fputs(k ? ", {\"kind\": " : "{\"kind\": ", out);
		util_json_string(out, it->kind);
		fputs(", \"title\": ", out);
		util_json_string(out, it->title);
		fputs(", \"evidence\": ", out);
		util_json_string(out, it->evidence);
		fputs(", \"numbers\": {", out);
		for (int i = 0; i < it->n_numbers; i++) {
			fputs(i ? ", " : "", out);
			util_json_string(out, it->number_names[i]);
			fputs(": ", out);
			json_number(out, it->numbers[i]);
		}
		fputs("}, \"fix\": ", out);
		util_json_string(out, it->fix);
		fputs(", \"id\": ", out);
		util_json_string(out, it->id);
		fputs(", \"section_id\": ", out);
		util_json_string(out, it->anchor);
		fputs(", \"section\": ", out);
		util_json_string(out, it->section);
		fputs(", \"text_section\": ", out);
		util_json_string(out, it->text_section);
		fputc('}', out);
	}
	fputs("], \"clean\": ", out);
	json_list(out, clean);
	fputs(", \"not_known\": ", out);
	json_list(out, unknown);
	fputc('}', out);
	return 0;
}
