/* SPDX-License-Identifier: Apache-2.0 */
/* spe-report --diff: two sources of one database, or two databases (spe/diff.h). */
#ifndef SPE_REPORT_DIFF_H
#define SPE_REPORT_DIFF_H

#include "spe/analysis.h"

/*
 * With @p db: @p a and @p b are source ids (comma-separated lists) of it.
 * Without: @p a and @p b are two databases, each side all its sources.
 * Prints to stdout; returns the exit status (messages name @p prog).
 */
int cli_report_diff_run(const char *prog, const char *db, const char *a, const char *b, enum spe_result_format fmt,
			int top, double confidence);

#endif
