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
#ifndef REPORT_TEXT_H
#define REPORT_TEXT_H

#include <sqlite3.h>
#include <stdio.h>

#include "topdown/error.h"

struct spe_selection;

enum report_text_format { REPORT_TEXT_TABLE, REPORT_TEXT_JSON };

struct report_text_opts {
	enum report_text_format format;
	const char *workload; /* cross-ISA: NULL = every workload */
	int top;              /* rows in the per-symbol lists (default 10) */
	/* the SPE report: only these records (spe/select.h), or NULL for all; not with cross-ISA */
	const struct spe_selection *selection;
};

/**
 * The SPE report.  -spe_no_data when there are no SPE records, or none the
 * selection chooses.  With a selection every section but the memory ones
 * (data objects, pages, NUMA, shared lines, prefetch: views over the whole
 * capture) counts only the chosen records; the memory part says so.
 */
int report_spe_text(sqlite3 *db, FILE *out, const struct report_text_opts *opts, char *err, size_t errlen);

/** The cross-ISA report.  -spe_no_data when no topdown run matches. */
int report_cross_isa(sqlite3 *db, FILE *out, const struct report_text_opts *opts, char *err, size_t errlen);

#endif
