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

void td_lines_begin(struct td_line_iter *it, const char *text, size_t len);
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

/* Store one metric value; NaN allowed.  Returns 0 or -td_nomem. */
int td_put_value(struct td_run *run, double t, const char *scope, enum td_node node, double v);
int td_put_event(struct td_run *run, double t, const char *scope, const char *name, size_t len, double v,
		 int counted);

/* Per-format parsers: return 0 or a negative td code. */
int td_parse_perf_std(const char *text, size_t len, struct td_run *run, struct td_diag *diag);
int td_parse_perf_csv(const char *text, size_t len, struct td_run *run, struct td_diag *diag);
int td_parse_perf_json(const char *text, size_t len, struct td_run *run, struct td_diag *diag);
int td_parse_toplev_csv(const char *text, size_t len, struct td_run *run, struct td_diag *diag);
int td_parse_topdown_tool_csv(const char *text, size_t len, struct td_run *run, struct td_diag *diag);
int td_parse_raw(const char *text, size_t len, struct td_run *run, struct td_diag *diag);


#endif
