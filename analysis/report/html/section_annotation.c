/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Annotation: for each of the hottest functions, its source lines and its
 * disassembly side by side, every row shaded by its share of the
 * function's latency, with samples, mean and p99 latency and the memory
 * levels of its loads.  Long stretches without samples fold into one row.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sections.h"
#include "svg_chart.h"

#define FOLD_RUN 12 /* a run of more rows than this without samples folds ... */
#define FOLD_KEEP 3 /* ... keeping this many at each end */

static void shade(struct html *h, double share)
{
	if (share <= 0)
		return;
	char cls[16];
	report_html_shade_class(cls, REPORT_SHADE_HOT, 0.08 + 0.62 * sqrt(share));
	report_html_printf(h, " class=\"%s\"", cls);
}

static void stat_cells(struct html *h, const struct ann_function *f, const struct ann_stats *s, int with_mean)
{
	char share[16] = "", samples[24] = "", mean[24] = "", p99[16] = "";
	if (s->lat.samples) {
		snprintf(share, sizeof share, "%.1f%%", 100 * report_ann_share(f, s));
		snprintf(samples, sizeof samples, "%llu", (unsigned long long)s->lat.samples);
		if (s->lat.timed) {
			snprintf(mean, sizeof mean, "%.2f", report_ann_mean(s));
			snprintf(p99, sizeof p99, "%d", s->lat.p99);
		}
	}
	report_html_td(h, "share", share, 1);
	report_html_td(h, "samples", samples, 1);
	if (with_mean)
		report_html_td(h, "mean_latency", mean, 1);
	report_html_td(h, "p99", p99, 1);
}

static void levels_cell(struct html *h, const struct ann_stats *s)
{
	char text[256];
	report_ann_levels_text(s->levels, text, sizeof text);
	report_html_raw(h, "<td title=\"");
	report_html_text(h, text);
	report_html_raw(h, "\">");
	report_svg_levels_bar(h, s->levels, 60, 10);
	report_html_raw(h, "</td>");
}

/* Rows [i, j) of a run without samples: all of them, or the ends and a fold. */
static int folded(size_t run, size_t k)
{
	return run > FOLD_RUN && k >= FOLD_KEEP && k < run - FOLD_KEEP;
}

static void gap_row(struct html *h, int cols, size_t n, const char *what)
{
	report_html_printf(h, "<tr class=\"gap\"><td colspan=\"%d\">%zu %s without samples</td></tr>", cols, n, what);
}

static void source_pane(struct html *h, const struct ann_function *f)
{
	report_html_raw(h, "<div><table class=\"ann-src\"><thead><tr><th class=\"n\">line</th><th class=\"n\">share</th>"
		    "<th class=\"n\">samples</th><th class=\"n\">p99</th><th>loads</th><th>source</th></tr></thead>"
		    "<tbody>");
	const char *file = NULL;
	for (size_t k = 0; k < f->nlines;) {
		/* the run of lines without samples starting here */
		size_t run = 0;
		while (k + run < f->nlines && !f->lines[k + run].s.lat.samples &&
		       (!file || !strcmp(f->lines[k + run].file, file)))
			run++;
		for (size_t r = 0; r < (run ? run : 1); r++) {
			const struct ann_line *l = &f->lines[k + r];
			if (!file || strcmp(file, l->file)) {
				file = l->file;
				report_html_raw(h, "<tr class=\"gap\"><td colspan=\"6\">");
				report_html_text(h, file);
				report_html_raw(h, "</td></tr>");
			}
			if (run && folded(run, r)) {
				if (r == FOLD_KEEP)
					gap_row(h, 6, run - 2 * FOLD_KEEP, "lines");
				continue;
			}
			report_html_printf(h, "<tr data-line=\"%d\"", l->line);
			shade(h, report_ann_share(f, &l->s));
			report_html_printf(h, "><td class=\"ln\">%d</td>", l->line);
			stat_cells(h, f, &l->s, 0);
			levels_cell(h, &l->s);
			report_html_raw(h, "<td class=\"src\">");
			report_html_text(h, l->text ? l->text : "");
			if (l->inline_fn) {
				report_html_raw(h, "<span class=\"tag\">inlined: ");
				report_html_text(h, l->inline_fn);
				report_html_raw(h, "</span>");
			}
			report_html_raw(h, "</td></tr>");
		}
		k += run ? run : 1;
	}
	report_html_raw(h, "</tbody></table></div>");
}

static void code_pane(struct html *h, const struct ann_function *f)
{
	report_html_raw(h, "<div><table class=\"ann-asm\"><thead><tr><th>address</th><th class=\"n\">share</th>"
		    "<th class=\"n\">samples</th><th class=\"n\">mean</th><th class=\"n\">p99</th><th>loads</th>"
		    "<th>instruction</th><th class=\"n\">line</th></tr></thead><tbody>");
	for (size_t i = 0; i < f->ninsns;) {
		size_t run = 0;
		while (i + run < f->ninsns && !f->insns[i + run].s.lat.samples)
			run++;
		for (size_t r = 0; r < (run ? run : 1); r++) {
			const struct ann_insn *in = &f->insns[i + r];
			if (run && folded(run, r)) {
				if (r == FOLD_KEEP)
					gap_row(h, 8, run - 2 * FOLD_KEEP, "instructions");
				continue;
			}
			report_html_printf(h, "<tr data-pc=\"0x%llx\"", (unsigned long long)in->pc);
			shade(h, report_ann_share(f, &in->s));
			report_html_printf(h, "><td class=\"mono\">0x%llx</td>", (unsigned long long)in->pc);
			stat_cells(h, f, &in->s, 1);
			levels_cell(h, &in->s);
			report_html_raw(h, "<td class=\"insn\">");
			report_html_text(h, in->mnemonic);
			report_html_raw(h, " ");
			report_html_text(h, in->operands);
			if (in->inline_fn) {
				report_html_raw(h, "<span class=\"tag\">");
				report_html_text(h, in->inline_fn);
				report_html_raw(h, "</span>");
			}
			report_html_raw(h, "</td><td class=\"ln\">");
			if (in->line > 0)
				report_html_printf(h, "%d", in->line);
			report_html_raw(h, "</td></tr>");
		}
		i += run ? run : 1;
	}
	report_html_raw(h, "</tbody></table></div>");
}

static void function_header(struct html *h, const struct ann_function *f, size_t index)
{
	const struct latency_stats *t = &f->total.lat;
	char levels[256];
	report_html_printf(h, "<div class=\"ann\" id=\"" ANN_ANCHOR "\"><h3><code>", index + 1);
	report_html_text(h, f->name);
	report_html_raw(h, "</code><span class=\"tag\">");
	report_html_text(h, f->binary ? f->binary : "no binary");
	report_html_raw(h, "</span>");
	if (f->decl_file) {
		report_html_raw(h, "<span class=\"tag\">");
		report_html_textf(h, "%s:%d", f->decl_file, f->decl_line);
		report_html_raw(h, "</span>");
	}
	report_html_raw(h, "</h3><p>");
	report_html_textf(h, "%llu samples", (unsigned long long)t->samples);
	if (t->timed)
		report_html_textf(h, ", total latency %llu, mean %.2f, p50 %d, p90 %d, p99 %d", (unsigned long long)t->total_latency,
			   report_ann_mean(&f->total), t->p50, t->p90, t->p99);
	report_ann_levels_text(f->total.levels, levels, sizeof levels);
	if (levels[0]) {
		report_html_raw(h, "; loads served by ");
		report_html_text(h, levels);
	}
	if (f->copies > 1)
		report_html_textf(h, "; %d copies (processes or sources) merged, addresses of the first", f->copies);
	report_html_raw(h, "</p>");
	if (!f->disassembled) {
		report_html_raw(h, "<p class=\"note\">Only the sampled instructions: ");
		report_html_text(h, f->code_note ? f->code_note : "no disassembly");
		report_html_raw(h, "</p>");
	}
	if (f->source_note) {
		report_html_raw(h, "<p class=\"note\">No source text: ");
		report_html_text(h, f->source_note);
		report_html_raw(h, "</p>");
	}
}

int report_section_annotations(struct report_ctx *c, const struct hot_functions *hot)
{
	struct html *h = &c->h;
	report_html_section(h, "annotations", "Annotation",
		     "The hottest functions line by line: source on the left, the instructions on the right, each "
		     "row shaded by its share of the function's total latency.  The loads column shows the memory "
		     "levels that served the row's loads; a tag names the inlined function the code came from.  Any "
		     "function's annotation opens under its row in Hot code; a click on a sampled instruction lists the "
		     "data it touched.");
	if (!hot->annotated)
		report_html_raw(h, "<p class=\"none\">No function to annotate.</p>");
	for (size_t i = 0; i < hot->annotated; i++) {
		const struct ann_function *f = &hot->fs[i];
		function_header(h, f, i);
		report_html_raw(h, "<div class=\"ann-grid\">");
		source_pane(h, f);
		code_pane(h, f);
		report_html_raw(h, "</div></div>\n");
	}
	report_html_raw(h, "</section>\n");
	return 0;
}
