/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Importers: text some tool printed -> struct td_run.
 *
 *  - perf stat --topdown / -M TopdownL1,TopdownL2 in the default (std),
 *    interval (-I), CSV (-x,) and JSON (-j) forms of every era (pre-6.4
 *    labels, tma_* names, Arm's frontend_bound names), metric-only or not;
 *  - pmu-tools toplev CSV (-x,) and its default text table, every era;
 *  - Arm topdown-tool metrics CSV and events CSV, and the tables it prints
 *    (2023 dotted lines, 2025 rich tables, per-core columns);
 *  - raw counter listings ("NAME COUNT", "COUNT NAME", "NAME,COUNT",
 *    "NAME=COUNT", perf std/CSV counter rows), to which the formula of the
 *    CPU is applied (td_formula_apply).
 *
 * Values are stored as fractions 0..1; "nan", "none" and empty values
 * become NaN (NULL in the database).
 *
 * One input may hold several runs: each "Performance counter stats for"
 * block, and each pasted shell prompt running perf stat, toplev or
 * topdown-tool ("$ perf stat ...") starts one.  Every run is kept apart
 * (td_import_runs); blocks without topdown values are skipped with a note.
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
	TD_FMT_TOPLEV_TEXT,
	TD_FMT_TOPDOWN_TOOL_TEXT,
	TD_FMT_LAST = TD_FMT_TOPDOWN_TOOL_TEXT,
};

const char *td_format_name(enum td_format fmt);

/** Guess the format of @p text. */
enum td_format td_import_detect(const char *text, size_t len);

struct td_import_opts {
	const char *cpu; /* CPU for raw counts (td_cpu_lookup names); also labels the run */
	enum td_format format; /* TD_FMT_UNKNOWN: detect */
};

/** What td_import_runs found. */
struct td_import_result {
	enum td_format format;
	struct td_run *runs;   /* one per block with topdown values, in input order */
	long *first_line;      /* line where each run's block starts */
	size_t n_runs;
	char **notes;          /* one sentence per skipped block ("lines 1-20: ...") */
	size_t n_notes;
};

void td_import_result_init(struct td_import_result *res);
void td_import_result_fini(struct td_import_result *res);

/**
 * Parse @p text into runs (tool, method, isa, cpu and approx are set on
 * each).  Raw counts without metric values need a CPU, from @p opts or a
 * "# cpu: NAME" line in the input.  Returns the format parsed (> 0) or a
 * negative td code, -spe_no_data when no block has topdown values; td_diag
 * names the line and the problem.
 */
int td_import_runs(const char *text, size_t len, const struct td_import_opts *opts, struct td_import_result *res,
		   struct td_diag *diag);

/**
 * The same for an input of one run, into @p run (initialised by the
 * caller).  An input with several runs is refused (-spe_bad_input, naming
 * where each starts): use td_import_runs.
 */
int td_import_text(const char *text, size_t len, const struct td_import_opts *opts, struct td_run *run,
		   struct td_diag *diag);

#endif
