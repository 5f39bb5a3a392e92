/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Importers: text some tool printed -> struct td_run.
 *
 *  - perf stat --topdown / -M TopdownL1,TopdownL2 in the default (std),
 *    interval (-I), CSV (-x,) and JSON (-j) forms of every era (pre-6.4
 *    labels, tma_* names, Arm's frontend_bound names), metric-only or not;
 *  - pmu-tools toplev CSV (-x,);
 *  - Arm topdown-tool metrics CSV and events CSV;
 *  - raw counter listings ("NAME COUNT", "COUNT NAME", "NAME,COUNT",
 *    "NAME=COUNT", perf std/CSV counter rows), to which the formula of the
 *    CPU is applied (td_formula_apply).
 *
 * Values are stored as fractions 0..1; "nan", "none" and empty values
 * become NaN (NULL in the database).
 */
#ifndef TOPDOWN_IMPORT_H
#define TOPDOWN_IMPORT_H

#include <stddef.h>

#include "topdown/error.h"
#include "topdown/run.h"

enum td_format {
	TD_FMT_UNKNOWN,
	TD_FMT_PERF_STD,
	TD_FMT_PERF_CSV,
	TD_FMT_PERF_JSON,
	TD_FMT_TOPLEV_CSV,
	TD_FMT_TOPDOWN_TOOL_CSV,
	TD_FMT_RAW,
};

const char *td_format_name(enum td_format fmt);

/** Guess the format of @p text. */
enum td_format td_import_detect(const char *text, size_t len);

struct td_import_opts {
	const char *cpu; /* CPU for raw counts (td_cpu_lookup names); also labels the run */
	enum td_format format; /* TD_FMT_UNKNOWN: detect */
};

/**
 * Parse @p text into @p run (initialised by the caller; tool, method, isa,
 * cpu and approx are set here).  Raw counts without metric values need a
 * CPU, from @p opts or a "# cpu: NAME" line in the input.
 * Returns the format parsed (> 0) or a negative td code; td_diag names the
 * line and the problem.
 */
int td_import_text(const char *text, size_t len, const struct td_import_opts *opts, struct td_run *run,
		   struct td_diag *diag);

#endif
