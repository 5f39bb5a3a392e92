/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inline SVG charts.  Every chart is drawn in its own coordinate box
 * (viewBox) and scales with the page; marks carry a <title> so a pointer
 * over them shows the numbers without any script.
 */
#ifndef SPE_REPORT_SVG_CHART_H
#define SPE_REPORT_SVG_CHART_H

#include <stdint.h>

#include "html.h"
#include "report_internal.h"

struct bar_segment {
	const char *label;   /* drawn inside when it fits */
	double value;
	unsigned rgb;
	const char *tooltip;
};

/* One horizontal bar split in proportion to the values. */
void report_svg_stacked_bar(struct html *h, const struct bar_segment *segs, int n, int width, int height);

/*
 * A histogram of log2 latency buckets @p b0..@p b1 (report_sql.h), with an
 * x axis labelled in cycles when @p axis; bars in @p rgb.
 */
void report_svg_histogram(struct html *h, const uint64_t counts[LATENCY_BUCKETS], int b0, int b1, unsigned rgb, int width,
		   int height, int axis);

/* Loads by memory level as one thin bar in the levels' colours (nothing when there are none). */
void report_svg_levels_bar(struct html *h, const uint64_t levels[MEM_LEVELS + 1], int width, int height);

/* A bar filled to @p fraction (0..1). */
void report_svg_fraction_bar(struct html *h, double fraction, unsigned rgb, int width, int height);

/*
 * A heatmap: @p nx time slots x latency buckets @p b0..@p b1, cell (x, b) =
 * counts[x * LATENCY_BUCKETS + b]; colour by the log of the count.  The
 * x axis spans @p span_ms milliseconds.
 */
void report_svg_heatmap(struct html *h, const uint64_t *counts, int nx, int b0, int b1, double span_ms, const char *unit);

/* The heatmap's colour of @p t in [0, 1] as 0xrrggbb. */
unsigned report_heat_rgb(double t);

#endif
