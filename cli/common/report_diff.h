/* SPDX-License-Identifier: Apache-2.0 */
/* spe-report --diff: two sources of one database, or two databases (spe/diff.h). */
#ifndef SPE_REPORT_DIFF_H
#define SPE_REPORT_DIFF_H

#include "report/report.h"
#include "spe/analysis.h"

struct report_diff_args {
	const char *db;           /* with it, a and b are source ids (comma-separated lists) of it */
	const char *a, *b;        /* without it, two databases, each side all its sources */
	enum spe_result_format fmt; /* table or JSON, unless html */
	int html;                 /* the before/after page (spe_report_diff_html) */
	int top;                  /* rows per kind; 0 = all (text, JSON) or 10 (the page) */
	double confidence;
	const char *output;       /* "-" = standard output */
};

/* Compare and write the result to args->output; returns the exit status (messages name @p prog). */
int cli_report_diff_run(const char *prog, const struct report_diff_args *args);

#endif
