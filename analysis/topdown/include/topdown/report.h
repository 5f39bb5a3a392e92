/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reports over the database: the SPE report (hot symbols by total latency,
 * latency-weighted memory levels, TLB walk share, mispredicts by symbol) on
 * the analysis tables spe_record and symbol, and the cross-ISA report that
 * puts the topdown runs of one workload side by side with the SPE evidence
 * behind backend/memory bound and bad speculation.
 *
 * The functions write to a stream the caller gives (they never pick stdout).
 */
#ifndef TOPDOWN_REPORT_H
#define TOPDOWN_REPORT_H

#include <sqlite3.h>
#include <stdio.h>

#include "topdown/error.h"

enum td_report_format { TD_REPORT_TABLE, TD_REPORT_JSON };

struct td_report_opts {
	enum td_report_format format;
	const char *workload; /* cross-ISA: NULL = every workload */
	int top;              /* rows in the per-symbol lists (default 10) */
};

/** The SPE report.  -spe_no_data when there are no SPE records. */
int td_report_spe(sqlite3 *db, FILE *out, const struct td_report_opts *opts, char *err, size_t errlen);

/** The cross-ISA report.  -spe_no_data when no topdown run matches. */
int td_report_cross_isa(sqlite3 *db, FILE *out, const struct td_report_opts *opts, char *err, size_t errlen);

#endif
