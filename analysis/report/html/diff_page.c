/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_report_diff_html: the before/after page of spe-report --diff.  The
 * numbers are spe_diff_compute()'s (spe/diff.h), the same rows the text and
 * JSON outputs print, drawn so the changed items stand out: per row a
 * diverging bar of the change in total latency from a zero line, its
 * interval as a whisker, green when faster, red when slower, grey when the
 * interval holds 0 (noise).  Rows keep the library's order (by impact).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sections.h"
#include "report/diff.h"

#define FASTER_RGB 0x43a047
#define SLOWER_RGB 0xe53935
#define NOISE_RGB 0x9e9e9e
#define BAR_WIDTH 240
#define BAR_HEIGHT 18

static const struct nav_item diff_nav[] = {
	{ "diff-summary", "The two captures" },
	{ "diff-functions", "Functions" },
	{ "diff-instructions", "Instructions" },
	{ "diff-data-objects", "Data objects" },
};

static unsigned verdict_rgb(enum spe_diff_verdict v)
{
	return v == SPE_DIFF_FASTER ? FASTER_RGB : v == SPE_DIFF_SLOWER ? SLOWER_RGB : NOISE_RGB;
}

/* The change from the zero line at the middle: a bar to the change, a whisker over the interval. */
static void diverging_bar(struct html *h, const struct spe_diff_row *r, double scale)
{
	const double mid = BAR_WIDTH / 2.0, half = BAR_WIDTH / 2.0 - 4;
	double x = mid + half * r->latency_change / scale, lo = mid + half * r->latency_lo / scale,
	       hi = mid + half * r->latency_hi / scale, y = BAR_HEIGHT / 2.0;
	unsigned rgb = verdict_rgb(r->verdict);
	report_html_printf(h, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"diverging\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		       "height=\"%d\" role=\"img\" data-verdict=\"%s\">",
		    BAR_WIDTH, BAR_HEIGHT, BAR_WIDTH, BAR_HEIGHT, spe_diff_verdict_name(r->verdict));
	report_html_printf(h, "<title>change %+.0f cycles, interval [%+.0f, %+.0f]: %s</title>", r->latency_change, r->latency_lo,
		    r->latency_hi, spe_diff_verdict_name(r->verdict));
	report_html_printf(h, "<rect x=\"%.2f\" y=\"4\" width=\"%.2f\" height=\"%d\" fill=\"#%06x\" fill-opacity=\"%s\"/>",
		    fmin(x, mid), fabs(x - mid), BAR_HEIGHT - 8, rgb, r->verdict == SPE_DIFF_NOISE ? "0.5" : "1");
	report_html_printf(h, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" class=\"whisker\"/>", lo, y, hi, y);
	report_html_printf(h, "<line x1=\"%.2f\" y1=\"5\" x2=\"%.2f\" y2=\"%d\" class=\"whisker\"/>", lo, lo, BAR_HEIGHT - 5);
	report_html_printf(h, "<line x1=\"%.2f\" y1=\"5\" x2=\"%.2f\" y2=\"%d\" class=\"whisker\"/>", hi, hi, BAR_HEIGHT - 5);
	report_html_printf(h, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" class=\"axis\"/>", mid, mid, BAR_HEIGHT);
	report_html_raw(h, "</svg>");
}

static void td_int(struct html *h, const char *col, int64_t v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%" PRId64, v);
	report_html_td(h, col, v >= 0 ? buf : NULL, 1);
}

static void td_fmt(struct html *h, const char *col, const char *fmt, double v)
{
	char buf[48];
	snprintf(buf, sizeof buf, fmt, v);
	report_html_td(h, col, buf, 1);
}

static const char *const kind_ids[] = { "diff-functions", "diff-instructions", "diff-data-objects" };
static const char *const kind_titles[] = { "Functions", "Instructions", "Data objects" };

static void kind_table(struct report_ctx *c, const struct spe_diff *d, enum spe_diff_kind k)
{
	struct html *h = &c->h;
	size_t n = spe_diff_count(d, k), shown = n < (size_t)c->o.top ? n : (size_t)c->o.top, beyond = 0, changed = 0;
	for (size_t i = 0; i < n; i++)
		if (spe_diff_row(d, k, i)->verdict != SPE_DIFF_NOISE)
			*(i < shown ? &changed : &beyond) += 1;
	report_html_printf(h, "\n<section id=\"%s\">\n<h2>", kind_ids[k]);
	report_html_text(h, kind_titles[k]);
	report_html_raw(h, "</h2>\n");
	report_html_printf(h, "<p class=\"verdicts\">%zu %s%s compared; %zu changed beyond noise.</p>", n,
		    spe_diff_kind_name(k), n == 1 ? "" : "s", changed + beyond);
	if (!n) {
		report_html_raw(h, "<p class=\"none\">Neither capture has one.</p></section>\n");
		return;
	}
	double scale = 1;
	for (size_t i = 0; i < shown; i++) {
		const struct spe_diff_row *r = spe_diff_row(d, k, i);
		scale = fmax(scale, fmax(fabs(r->latency_lo), fmax(fabs(r->latency_hi), fabs(r->latency_change))));
	}
	report_html_printf(h, "<div class=\"scroll\"><table id=\"%s-table\" class=\"diff\"><thead><tr><th class=\"n\">#</th>"
		       "<th>%s</th><th>change in total latency \xe2\x94\x9c interval \xe2\x94\xa4</th>"
		       "<th class=\"n\">change</th><th class=\"n\">interval</th><th>verdict</th>"
		       "<th class=\"n\">latency A</th><th class=\"n\">latency B</th><th class=\"n\">samples A</th>"
		       "<th class=\"n\">samples B</th><th class=\"n\">share change pp</th><th class=\"n\">interval</th>"
		       "<th class=\"n\">p99 A</th><th class=\"n\">p99 B</th></tr></thead><tbody>",
		    kind_ids[k], spe_diff_kind_name(k));
	for (size_t i = 0; i < shown; i++) {
		const struct spe_diff_row *r = spe_diff_row(d, k, i);
		char buf[96];
		report_html_printf(h, "<tr data-verdict=\"%s\">", spe_diff_verdict_name(r->verdict));
		snprintf(buf, sizeof buf, "%zu", i + 1);
		report_html_td(h, NULL, buf, 1);
		report_html_raw(h, "<td data-col=\"name\"><span class=\"mono\">");
		report_html_text(h, r->name);
		report_html_raw(h, "</span>");
		if (r->detail || (r->where && r->where[0])) {
			report_html_raw(h, " <span class=\"where\">");
			report_html_text(h, r->detail ? r->detail : r->where);
			report_html_raw(h, "</span>");
		}
		report_html_raw(h, "</td><td class=\"chart\">");
		diverging_bar(h, r, scale);
		report_html_raw(h, "</td>");
		td_fmt(h, "latency_change", "%+.0f", r->latency_change);
		snprintf(buf, sizeof buf, "[%+.0f, %+.0f]", r->latency_lo, r->latency_hi);
		report_html_td(h, "latency_interval", buf, 1);
		report_html_printf(h, "<td data-col=\"verdict\"><span class=\"tag verdict-%s\">%s</span></td>",
			    spe_diff_verdict_name(r->verdict), spe_diff_verdict_name(r->verdict));
		td_int(h, "latency_a", (int64_t)r->a.total_latency);
		td_int(h, "latency_b", (int64_t)r->b.total_latency);
		td_int(h, "samples_a", (int64_t)r->a.samples);
		td_int(h, "samples_b", (int64_t)r->b.samples);
		td_fmt(h, "share_change", "%+.1f", 100 * r->share_change);
		snprintf(buf, sizeof buf, "[%+.1f, %+.1f]%s", 100 * r->share_lo, 100 * r->share_hi,
			 r->share_significant ? " *" : "");
		report_html_td(h, "share_interval", buf, 1);
		td_int(h, "p99_a", r->a.p99);
		snprintf(buf, sizeof buf, "%" PRId64 "%s", r->b.p99, r->p99_significant ? " *" : "");
		report_html_td(h, "p99_b", r->b.p99 >= 0 ? buf : NULL, 1);
		report_html_raw(h, "</tr>");
	}
	report_html_raw(h, "</tbody></table></div>\n");
	if (n > shown)
		report_html_printf(h, "<p class=\"none\">%zu more (%zu of them changed beyond noise): raise --top to see them.</p>",
			    n - shown, beyond);
	report_html_raw(h, "</section>\n");
}

static void summary(struct report_ctx *c, const struct spe_diff *d)
{
	struct html *h = &c->h;
	uint64_t na, nb;
	const char *la, *lb;
	spe_diff_totals(d, &na, &nb, &la, &lb);
	double conf = 100 * spe_diff_confidence(d);
	char how[1400];
	snprintf(how, sizeof how,
		 "Capture A (before) against capture B (after), item by item: functions by name and binary, "
		 "instructions by function and offset, data objects by kind and name.  Each row's bar is the change "
		 "in its total latency, B's latency per sample scaled to A's sample count; the whisker is the %.0f%% "
		 "interval of that change.  A bar whose whisker crosses the zero line is noise (grey); green is "
		 "faster, red slower.  The share change is the item's change in share of all samples, in "
		 "percentage points, with Newcombe's score interval; * marks a share or p99 change beyond its "
		 "interval.  Rows are sorted by the size of the change; at %.0f%% each, about 1 unchanged row in "
		 "%.0f can show a mark by chance.",
		 conf, conf, conf < 100 ? 100 / (100 - conf) : 0.0);
	report_html_section(h, "diff-summary", "The two captures", how);
	report_html_raw(h, "<div class=\"facts\">");
	report_html_printf(h, "<div class=\"fact\" id=\"side-a\"><b>%" PRIu64 "</b><span>samples in A: ", na);
	report_html_text(h, la);
	report_html_printf(h, "</span></div><div class=\"fact\" id=\"side-b\"><b>%" PRIu64 "</b><span>samples in B: ", nb);
	report_html_text(h, lb);
	report_html_printf(h, "</span></div><div class=\"fact\"><b>%.4g%%</b><span>confidence of every interval</span></div>", conf);
	for (int k = 0; k < 3; k++) {
		size_t n = spe_diff_count(d, (enum spe_diff_kind)k), faster = 0, slower = 0;
		for (size_t i = 0; i < n; i++) {
			enum spe_diff_verdict v = spe_diff_row(d, (enum spe_diff_kind)k, i)->verdict;
			faster += v == SPE_DIFF_FASTER;
			slower += v == SPE_DIFF_SLOWER;
		}
		report_html_printf(h, "<div class=\"fact%s\" data-kind=\"%s\"><b>%zu faster, %zu slower</b><span>of %zu %ss</span></div>",
			    slower ? " bad" : "", kind_ids[k], faster, slower, n, spe_diff_kind_name((enum spe_diff_kind)k));
	}
	report_html_raw(h, "</div>\n<p class=\"legend\"><span>");
	report_html_swatch(h, 0x43a047);
	report_html_raw(h, "faster</span><span>");
	report_html_swatch(h, 0xe53935);
	report_html_raw(h, "slower</span><span>");
	report_html_swatch(h, 0x9e9e9e);
	report_html_raw(h, "noise (the interval holds 0)</span></p>\n"
		    "<p class=\"none\">The same rows as text or JSON: spe-report --diff A B [--format=json].</p>\n</section>\n");
}

int spe_report_diff_html(const struct spe_diff *d, FILE *out, const struct spe_report_opts *opts, char *err,
			 size_t errlen)
{
	struct report_ctx c;
	report_ctx_init(&c, NULL, NULL, out, opts, err, errlen);
	if (!d)
		return report_fail(&c, -spe_invalid, "no comparison to draw");
	if (!c.o.title)
		c.o.title = "A and B";
	report_page_open(&c, "SPE before and after",
		  "What changed between two Arm SPE captures, per function, instruction and data object, and whether "
		  "each change is larger than sampling noise.",
		  diff_nav, sizeof diff_nav / sizeof diff_nav[0]);
	summary(&c, d);
	for (int k = 0; k < 3; k++)
		kind_table(&c, d, (enum spe_diff_kind)k);
	report_page_cuts(&c.h);
	report_page_tail(&c);
	if (c.h.over)
		return report_fail(&c, -spe_bad_file, "the page would pass %llu MiB: not written", REPORT_PAGE_MAX >> 20);
	return ferror(out) ? report_fail(&c, -spe_io, "writing the page failed") : 0;
}
