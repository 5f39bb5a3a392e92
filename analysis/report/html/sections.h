/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sections of the HTML page, one file each (section_*.c), in page
 * order.  Each writes one <section> with its heading and a sentence on how
 * to read it, and returns 0 or a negative code with the message in the
 * context.  A section whose data the database lacks says so in its place.
 */
#ifndef SPE_REPORT_SECTIONS_H
#define SPE_REPORT_SECTIONS_H

#include "annotate.h"
#include "report_internal.h"

/* What the capture spans: from RQ_SPAN. */
struct capture_span {
	long long records, timed; /* records, and those with a perf time */
	long long t0, t1;         /* first and last perf time (or raw timestamp when none has one) */
	int raw_ts;               /* t0/t1 are SPE timestamps, not ns */
};

/* The hot functions: their rows of hot_symbol and their latency model, shared by two sections. */
struct hot_functions {
	struct ann_function *fs;
	size_t n;
	size_t annotated; /* the first this many have instructions and lines */
};

int report_section_summary(struct report_ctx *c, const struct capture_span *span);
int report_section_latency(struct report_ctx *c);
int report_section_hot_code(struct report_ctx *c, struct hot_functions *hot);
int report_section_annotations(struct report_ctx *c, const struct hot_functions *hot);
int report_section_time(struct report_ctx *c, const struct capture_span *span);
int report_section_memory(struct report_ctx *c);
int report_section_branches(struct report_ctx *c);
int report_section_topdown(struct report_ctx *c);

/* The page around the sections, and the appendix of queries with their cost. */
struct nav_item {
	const char *id, *label;
};
/* <head> with the style sheet, the header "HEADING: title" over @p subtitle, the navigation bar; opens <main>. */
void report_page_open(struct report_ctx *c, const char *heading, const char *subtitle, const struct nav_item *nav, size_t n);
void report_page_head(struct report_ctx *c); /* report_page_open of the report */
void report_page_queries(struct report_ctx *c);
void report_page_tail(struct report_ctx *c);
/* After the queries: how many values were cut (html.h), when some were. */
void report_page_cuts(struct html *h);

/* The anchor of the annotation of hot function @p i ("ann-1", ...). */
#define ANN_ANCHOR "ann-%zu"

#endif
