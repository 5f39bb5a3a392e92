/* SPDX-License-Identifier: Apache-2.0 */
/* Internal helpers shared by the importers. */
#ifndef TOPDOWN_IMPORT_UTIL_H
#define TOPDOWN_IMPORT_UTIL_H

#include <stddef.h>

#include "topdown/import.h"
#include "topdown/node.h"

/* One line of the input: [s, s + len), without the newline. */
struct td_line {
	const char *s;
	size_t len;
	long no; /* 1-based */
};

struct td_line_iter {
	const char *p, *end;
	long no;
};

/* Lines of [text, text+len), numbered from @p line0 + 1 (the block's place in the file). */
void td_lines_begin(struct td_line_iter *it, const char *text, size_t len, long line0);
int td_lines_next(struct td_line_iter *it, struct td_line *line);

/* Split [s, s+len) at @p sep into at most @p max fields (trimmed).  Returns the count. */
struct td_field {
	const char *s;
	size_t len;
};
int td_split(const char *s, size_t len, char sep, struct td_field *f, int max);
/* Split on runs of white space. */
int td_split_ws(const char *s, size_t len, struct td_field *f, int max);

int td_field_is(const struct td_field *f, const char *word); /* case-insensitive equality */

/*
 * A percentage or fraction as printed: "23.0%", "191,6%" (locale comma), "nan",
 * "none", "" -> NaN.  Returns 0, -1 when it is not a number.
 */
int td_parse_value(const char *s, size_t len, double *out);
/* A count: "45,940,682", "1234", "3805.723968"; "<not counted>" -> *counted = 0. */
int td_parse_count(const char *s, size_t len, double *out, int *counted);
/* perf's interval stamp: digits '.' nine digits. */
int td_is_interval_stamp(const char *s, size_t len);
/* perf's aggregation id: S0, S0-D0, S0-D0-C1, S0-C0, CPU3, N0. */
int td_is_aggr_id(const char *s, size_t len);

/*
 * A perf metric label with its unit: "%  tma_retiring", "percent of slots  backend_bound",
 * "bad speculation", "Core bound", "frontend_bound".  Sets *percent when the
 * unit says percent, or the label is a perf <= 6.3 one with a space (perf
 * printed those in percent, and metric-only output strips the '%'); a bare
 * name is a metric without ScaleUnit, printed as a fraction.
 */
struct td_label_seen {
	int tma, legacy, arm; /* tma_* names; pre-6.4 spaced labels; Arm names or "percent of slots" */
	int amd;              /* names only AMD's PipelineL1/L2 use (smt_contention, retiring_fastpath, ...) */
	int bare;             /* level 1 names without tma_ and without an Arm-only unit: Arm or AMD */
};
enum td_node td_metric_label(const char *s, size_t len, int *percent, struct td_label_seen *seen);
/*
 * A metric value as a fraction: divided by 100 when @p unit_percent (from
 * td_metric_label) or when it carries its own '%' ("23.0%"); a bare number
 * without a percent unit ("0.31 frontend_bound") is already one.  0 or -1.
 */
int td_parse_metric_value(const char *s, size_t len, int unit_percent, double *out);
/*
 * Set run->isa (when not set yet) from the event names, which only one ISA
 * prints (slots, topdown-*, stall_slot, ...), else from the label eras seen;
 * and run->method.
 */
void td_label_finish(struct td_run *run, const struct td_label_seen *seen);

/* The "(cpu_core)" of "TopdownL1 (cpu_core)" into @p scope ("all" when none).  1 if a group label. */
int td_group_label(const char *s, size_t len, char *scope, size_t cap);

/*
 * Store one metric value printed on input line @p line; NaN allowed.  A
 * second, different value for the node in the same interval and scope is
 * refused (-spe_bad_input, td_diag naming both lines): it never overwrites
 * the first.  The same value again is accepted.  Returns 0 or a negative code.
 */
int td_put_value(struct td_run *run, long line, double t, const char *scope, enum td_node node, double v,
		 struct td_diag *diag);
/*
 * Store a count.  An event counted on a hybrid PMU ("cpu_atom/cycles/")
 * goes to that PMU's scope whatever @p scope says.
 */
int td_put_event(struct td_run *run, double t, const char *scope, const char *name, size_t len, double v,
		 int counted);

/*
 * A shell prompt running perf stat, toplev or topdown-tool ("$ perf stat ...",
 * "root@x1:~# perf stat", "$sudo ./perf stat", "% perf stat"): where a pasted
 * session starts a new run.
 */
int td_is_tool_prompt(const char *s, size_t len);

/* 1 when some formula reads the event (Intel topdown, Arm STALL_SLOT..., AMD dispatch events). */
int td_event_is_formula_input(const char *name);

/* toplev's "# 4.0-full on Intel(R) ... [skl]" version line: the bracketed CPU into run->cpu (when unset). */
int td_toplev_version_line(const char *s, size_t len, struct td_run *run);

/*
 * Per-format parsers of one block of the input (a run), whose first line is
 * line @p line0 + 1 of the file: return 0 or a negative td code.
 */
int td_parse_perf_std(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag);
int td_parse_perf_csv(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag);
int td_parse_perf_json(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag);
int td_parse_toplev_csv(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag);
int td_parse_toplev_text(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag);
int td_parse_topdown_tool_csv(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag);
int td_parse_topdown_tool_text(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag);
int td_parse_raw(const char *text, size_t len, long line0, struct td_run *run, struct td_diag *diag);


#endif
