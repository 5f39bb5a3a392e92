/* SPDX-License-Identifier: Apache-2.0 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svg_chart.h"

static void open_svg(struct html *h, int width, int height, const char *cls)
{
	report_html_printf(h, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"%s\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		       "height=\"%d\" role=\"img\">",
		    cls, width, height, width, height);
}

/* Text that is light on dark colours and dark on light ones. */
static const char *ink_on(unsigned rgb)
{
	double y = 0.299 * (rgb >> 16 & 0xff) + 0.587 * (rgb >> 8 & 0xff) + 0.114 * (rgb & 0xff);
	return y < 140 ? "#fff" : "#222";
}

void report_svg_stacked_bar(struct html *h, const struct bar_segment *segs, int n, int width, int height)
{
	double total = 0;
	for (int i = 0; i < n; i++)
		total += segs[i].value > 0 ? segs[i].value : 0;
	open_svg(h, width, height, "stacked");
	double x = 0;
	for (int i = 0; total > 0 && i < n; i++) {
		if (segs[i].value <= 0)
			continue;
		double w = width * segs[i].value / total;
		report_html_printf(h, "<rect x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"%d\" fill=\"#%06x\"><title>", x, w,
			    height, segs[i].rgb);
		report_html_text(h, segs[i].tooltip);
		report_html_raw(h, "</title></rect>");
		/* the label only where it fits: about 7 units a character */
		if (segs[i].label && w > 7.0 * (double)strlen(segs[i].label) + 8) {
			report_html_printf(h, "<text x=\"%.2f\" y=\"%.1f\" fill=\"%s\" class=\"seg\">", x + 4, height / 2.0 + 4,
				    ink_on(segs[i].rgb));
			report_html_text(h, segs[i].label);
			report_html_raw(h, "</text>");
		}
		x += w;
	}
	report_html_raw(h, "</svg>");
}

static void tick_label(char *buf, size_t cap, long long v)
{
	if (v >= 1000000)
		snprintf(buf, cap, "%lldM", v / 1000000);
	else if (v >= 10000)
		snprintf(buf, cap, "%lldk", v / 1000);
	else
		snprintf(buf, cap, "%lld", v);
}

void report_svg_histogram(struct html *h, const uint64_t counts[LATENCY_BUCKETS], int b0, int b1, unsigned rgb, int width,
		   int height, int axis)
{
	int nb = b1 - b0 + 1, base = axis ? height - 14 : height;
	uint64_t max = 1;
	for (int b = b0; b <= b1; b++)
		if (counts[b] > max)
			max = counts[b];
	open_svg(h, width, height, axis ? "hist" : "spark");
	double bw = (double)width / (nb > 0 ? nb : 1);
	for (int b = b0; nb > 0 && b <= b1; b++) {
		double x = (b - b0) * bw;
		if (counts[b]) {
			double bh = (base - 1) * (double)counts[b] / (double)max;
			if (bh < 1)
				bh = 1;
			report_html_printf(h, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#%06x\">", x + 0.5,
				    base - bh, bw > 2 ? bw - 1 : bw, bh, rgb);
			report_html_printf(h, "<title>%lld-%lld cycles: %llu</title></rect>", report_latency_bucket_lo(b),
				    report_latency_bucket_hi(b), (unsigned long long)counts[b]);
		}
	}
	if (axis) {
		report_html_printf(h, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axis\"/>", base, width, base);
		/* a tick every few buckets, at its lower bound */
		int step = nb > 12 ? 3 : nb > 6 ? 2 : 1;
		for (int b = b0; b <= b1; b += step) {
			char t[32];
			tick_label(t, sizeof t, report_latency_bucket_lo(b));
			report_html_printf(h, "<text x=\"%.1f\" y=\"%d\" class=\"tick\">%s</text>", (b - b0) * bw + 1, height - 2, t);
		}
	}
	report_html_raw(h, "</svg>");
}

void report_svg_levels_bar(struct html *h, const uint64_t levels[MEM_LEVELS + 1], int width, int height)
{
	struct bar_segment segs[MEM_LEVELS + 1];
	char tips[MEM_LEVELS + 1][64];
	int n = 0;
	for (int v = 0; v <= MEM_LEVELS; v++) {
		if (!levels[v])
			continue;
		snprintf(tips[n], sizeof tips[n], "%s: %llu loads", report_mem_level_label(v), (unsigned long long)levels[v]);
		segs[n] = (struct bar_segment){ .value = (double)levels[v], .rgb = report_mem_level_rgb(v), .tooltip = tips[n] };
		n++;
	}
	if (n)
		report_svg_stacked_bar(h, segs, n, width, height);
}

void report_svg_fraction_bar(struct html *h, double fraction, unsigned rgb, int width, int height)
{
	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	open_svg(h, width, height, "frac");
	report_html_printf(h, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" class=\"track\"/>", width, height);
	report_html_printf(h, "<rect x=\"0\" y=\"0\" width=\"%.2f\" height=\"%d\" fill=\"#%06x\"/>", width * fraction, height, rgb);
	report_html_raw(h, "</svg>");
}

/* Light yellow through orange and red to a dark purple. */
unsigned report_heat_rgb(double t)
{
	static const unsigned stops[] = { 0xfff5c0, 0xfdb863, 0xf46d43, 0xc2185b, 0x4a148c };
	const int n = sizeof stops / sizeof stops[0];
	if (t <= 0)
		return stops[0];
	if (t >= 1)
		return stops[n - 1];
	double pos = t * (n - 1);
	int i = (int)pos;
	double f = pos - i;
	unsigned a = stops[i], b = stops[i + 1], out = 0;
	for (int s = 16; s >= 0; s -= 8) {
		double ca = a >> s & 0xff, cb = b >> s & 0xff;
		out |= (unsigned)(ca + (cb - ca) * f + 0.5) << s;
	}
	return out;
}

void report_svg_heatmap(struct html *h, const uint64_t *counts, int nx, int b0, int b1, double span_ms, const char *unit)
{
	const int left = 44, bottom = 18, cell_h = 14, width = 960;
	int ny = b1 - b0 + 1, height = ny * cell_h + bottom + 4;
	uint64_t max = 1;
	for (int x = 0; x < nx; x++)
		for (int b = b0; b <= b1; b++)
			if (counts[x * LATENCY_BUCKETS + b] > max)
				max = counts[x * LATENCY_BUCKETS + b];
	double cw = (double)(width - left) / nx, lmax = log((double)max + 1);
	open_svg(h, width, height, "heatmap");
	report_html_printf(h, "<rect x=\"%d\" y=\"0\" width=\"%d\" height=\"%d\" class=\"track\"/>", left, width - left, ny * cell_h);
	for (int x = 0; x < nx; x++) {
		for (int b = b0; b <= b1; b++) {
			uint64_t v = counts[x * LATENCY_BUCKETS + b];
			if (!v)
				continue;
			double y = (b1 - b) * cell_h; /* high latency at the top */
			report_html_printf(h, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"#%06x\">",
				    left + x * cw, y, cw + 0.05, cell_h, report_heat_rgb(log((double)v + 1) / lmax));
			report_html_printf(h, "<title>%.3f-%.3f %s, %lld-%lld cycles: %llu</title></rect>", span_ms * x / nx,
				    span_ms * (x + 1) / nx, unit, report_latency_bucket_lo(b), report_latency_bucket_hi(b),
				    (unsigned long long)v);
		}
	}
	for (int b = b0; b <= b1; b++) {
		if ((b - b0) % 2 && ny > 8)
			continue;
		char t[32];
		tick_label(t, sizeof t, report_latency_bucket_lo(b));
		report_html_printf(h, "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>", left - 4,
			    (b1 - b) * cell_h + cell_h - 3.0, t);
	}
	for (int k = 0; k <= 4; k++) {
		double x = left + (width - left) * k / 4.0;
		report_html_printf(h, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"%s\">%.3g %s</text>", x,
			    height - 4, k == 0 ? "start" : k == 4 ? "end" : "middle", span_ms * k / 4.0, unit);
	}
	report_html_raw(h, "</svg>");
}
