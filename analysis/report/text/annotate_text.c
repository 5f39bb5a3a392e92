/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-report --annotate: a function's instructions in address order, each
 * run of instructions under the source line it comes from (as perf annotate
 * prints them), with the share of the function's total latency, samples,
 * mean and p99 latency of each line and instruction, and the memory levels
 * its loads were served from.  JSON: one object per function (json-c).
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "annotate.h"
#include "report/report.h"
#include "util/visible.h"
#include "report_sqlite.h"

/* perf annotate's colours: red from 5 % of the samples, green from 0.5 %. */
#define HOT_SHARE 0.05
#define WARM_SHARE 0.005

/* A name, path or note from the database or a file, as text a terminal shows (util/visible.h). */
static void vis(FILE *out, const char *s)
{
	util_visible_put(out, s, 0, UTIL_VISIBLE_MAX, 0);
}

static void stats_cols(const struct ann_function *f, const struct ann_stats *s, char *buf, size_t cap)
{
	if (!s->lat.samples) {
		snprintf(buf, cap, "%7s %8s %9s %6s", "", "", "", "");
		return;
	}
	char mean[32] = "-", p99[16] = "-";
	if (s->lat.timed) {
		snprintf(mean, sizeof mean, "%.2f", report_ann_mean(s));
		snprintf(p99, sizeof p99, "%d", s->lat.p99);
	}
	snprintf(buf, cap, "%6.1f%% %8llu %9s %6s", 100 * report_ann_share(f, s), (unsigned long long)s->lat.samples, mean,
		 p99);
}

static void color_on(FILE *out, const struct report_ctx *c, double share)
{
	if (c->o.color && share >= WARM_SHARE)
		fputs(share >= HOT_SHARE ? "\033[31m" : "\033[32m", out);
}

static void color_off(FILE *out, const struct report_ctx *c, double share)
{
	if (c->o.color && share >= WARM_SHARE)
		fputs("\033[m", out);
}

static void print_line_row(FILE *out, const struct report_ctx *c, const struct ann_function *f,
			   const struct ann_line *l)
{
	char cols[64];
	stats_cols(f, &l->s, cols, sizeof cols);
	double share = report_ann_share(f, &l->s);
	color_on(out, c, share);
	fprintf(out, "%s  ", cols);
	vis(out, l->file);
	fprintf(out, ":%d", l->line);
	char *text = l->text ? util_visible(l->text, UTIL_VISIBLE_TABS, UTIL_VISIBLE_MAX) : NULL;
	if (text) {
		/* tabs expanded to 8-column stops of the source line itself (its visible form: one column a character) */
		fputs("  ", out);
		int col = 0;
		for (const char *p = text; *p; p++, col++) {
			if ((unsigned char)*p >= 0x80) { /* a UTF-8 character: one column */
				fputc(*p, out);
				if (((unsigned char)p[1] & 0xc0) == 0x80)
					col--;
				continue;
			}
			if (*p != '\t') {
				fputc(*p, out);
				continue;
			}
			do
				fputc(' ', out);
			while (++col % 8);
			col--;
		}
	}
	free(text);
	if (l->inline_fn) {
		fputs("  [inlined: ", out);
		vis(out, l->inline_fn);
		fputc(']', out);
	}
	color_off(out, c, share);
	fputc('\n', out);
}

static void print_insn_row(FILE *out, const struct report_ctx *c, const struct ann_function *f,
			   const struct ann_insn *in)
{
	char cols[64], levels[256];
	stats_cols(f, &in->s, cols, sizeof cols);
	report_ann_levels_text(in->s.levels, levels, sizeof levels);
	double share = report_ann_share(f, &in->s);
	color_on(out, c, share);
	fprintf(out, "%s      %#14llx:  ", cols, (unsigned long long)in->pc);
	if (in->operands[0]) {
		util_visible_put(out, in->mnemonic, 0, UTIL_VISIBLE_MAX, 7);
		fputc(' ', out);
		vis(out, in->operands);
	} else {
		vis(out, in->mnemonic);
	}
	if (levels[0])
		fprintf(out, "    ; %s", levels);
	color_off(out, c, share);
	fputc('\n', out);
}

static void print_text(FILE *out, const struct report_ctx *c, const struct ann_function *f, const char *share_all)
{
	char levels[256];
	vis(out, f->name);
	fputs(" (", out);
	vis(out, f->binary ? f->binary : "no binary");
	if (f->decl_file) {
		fputs(", ", out);
		vis(out, f->decl_file);
		fprintf(out, ":%d", f->decl_line);
	}
	fprintf(out, ")\n");
	const struct latency_stats *t = &f->total.lat;
	fprintf(out, "  %llu samples", (unsigned long long)t->samples);
	if (t->timed)
		fprintf(out, ", total latency %llu (%s%% of all), mean %.2f, p50 %d, p90 %d, p99 %d",
			(unsigned long long)t->total_latency, share_all ? share_all : "?", report_ann_mean(&f->total), t->p50,
			t->p90, t->p99);
	fputc('\n', out);
	report_ann_levels_text(f->total.levels, levels, sizeof levels);
	if (levels[0])
		fprintf(out, "  loads served by: %s\n", levels);
	if (f->copies > 1)
		fprintf(out, "  %d copies merged (processes or sources); addresses of the first\n", f->copies);
	if (!f->disassembled) {
		fputs("  only the sampled instructions: ", out);
		vis(out, f->code_note ? f->code_note : "no disassembly");
		fputc('\n', out);
	}
	if (f->source_note) { /* may name a file of the database */
		fputs("  no source text: ", out);
		vis(out, f->source_note);
		fputc('\n', out);
	}
	fprintf(out, "\n%7s %8s %9s %6s  %s\n", "share", "samples", "mean", "p99", "source line / instruction");
	int last = -2;
	for (size_t i = 0; i < f->ninsns; i++) {
		const struct ann_insn *in = &f->insns[i];
		if (in->line_index != last && in->line_index >= 0)
			print_line_row(out, c, f, &f->lines[in->line_index]);
		last = in->line_index;
		print_insn_row(out, c, f, in);
	}
}

/* ---- JSON ------------------------------------------------------------------- */

static json_object *levels_json(const uint64_t levels[MEM_LEVELS + 1])
{
	json_object *o = json_object_new_object();
	int order[MEM_LEVELS + 1], n = report_ann_levels_order(levels, order);
	for (int k = 0; k < n; k++)
		json_object_object_add(o, report_mem_level_label(order[k]), json_object_new_int64((int64_t)levels[order[k]]));
	return o;
}

static json_object *pct_json(int32_t p)
{
	return p < 0 ? NULL : json_object_new_int(p);
}

static void add_stats(json_object *o, const struct ann_function *f, const struct ann_stats *s, int share)
{
	json_object_object_add(o, "samples", json_object_new_int64((int64_t)s->lat.samples));
	json_object_object_add(o, "total_latency",
			       s->lat.timed ? json_object_new_int64((int64_t)s->lat.total_latency) : NULL);
	if (share)
		json_object_object_add(o, "function_share", json_object_new_double(report_ann_share(f, s)));
	json_object_object_add(o, "mean_latency", s->lat.timed ? json_object_new_double(report_ann_mean(s)) : NULL);
	json_object_object_add(o, "p50", pct_json(s->lat.p50));
	json_object_object_add(o, "p90", pct_json(s->lat.p90));
	json_object_object_add(o, "p99", pct_json(s->lat.p99));
	json_object_object_add(o, "mem_levels", levels_json(s->levels));
}

static json_object *str_json(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static int print_json(FILE *out, const struct ann_function *f, const char *share_all, const char *selection)
{
	json_object *o = json_object_new_object();
	char addr[32];
	json_object_object_add(o, "function", json_object_new_string(f->name));
	if (selection && *selection) /* the records were selected (spe_report_opts.selection) */
		json_object_object_add(o, "selection", json_object_new_string(selection));
	json_object_object_add(o, "binary", str_json(f->binary));
	json_object_object_add(o, "file", str_json(f->decl_file));
	json_object_object_add(o, "line", f->decl_line > 0 ? json_object_new_int(f->decl_line) : NULL);
	snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)f->start);
	json_object_object_add(o, "address", json_object_new_string(addr));
	json_object_object_add(o, "size", json_object_new_int64((int64_t)f->size));
	json_object_object_add(o, "copies", json_object_new_int(f->copies));
	json_object_object_add(o, "disassembled", json_object_new_boolean(f->disassembled));
	json_object_object_add(o, "source_path", str_json(f->source_path));
	add_stats(o, f, &f->total, 0);
	json_object_object_add(o, "latency_share", share_all ? json_object_new_double_s(0, share_all) : NULL);
	json_object *lines = json_object_new_array();
	for (size_t k = 0; k < f->nlines; k++) {
		const struct ann_line *l = &f->lines[k];
		if (!l->code)
			continue;
		json_object *j = json_object_new_object();
		json_object_object_add(j, "file", json_object_new_string(l->file));
		json_object_object_add(j, "line", json_object_new_int(l->line));
		json_object_object_add(j, "text", str_json(l->text));
		json_object_object_add(j, "inline_function", str_json(l->inline_fn));
		json_object_object_add(j, "instructions", json_object_new_int(l->code));
		add_stats(j, f, &l->s, 1);
		json_object_array_add(lines, j);
	}
	json_object_object_add(o, "lines", lines);
	json_object *insns = json_object_new_array();
	for (size_t i = 0; i < f->ninsns; i++) {
		const struct ann_insn *in = &f->insns[i];
		json_object *j = json_object_new_object();
		snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)in->pc);
		json_object_object_add(j, "address", json_object_new_string(addr));
		json_object_object_add(j, "offset", json_object_new_int64((int64_t)in->offset));
		json_object_object_add(j, "mnemonic", json_object_new_string(in->mnemonic));
		json_object_object_add(j, "operands", json_object_new_string(in->operands));
		json_object_object_add(j, "file", str_json(in->file));
		json_object_object_add(j, "line", in->line > 0 ? json_object_new_int(in->line) : NULL);
		json_object_object_add(j, "inline_function", str_json(in->inline_fn));
		add_stats(j, f, &in->s, 1);
		json_object_array_add(insns, j);
	}
	json_object_object_add(o, "instructions", insns);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = text ? 0 : -spe_nomem;
	if (text)
		fprintf(out, "%s\n", text);
	json_object_put(o);
	return rc;
}

/* hot_symbol's latency_share of the function, as the view prints it (NULL if none). */
static int share_of_all(struct report_ctx *c, const struct ann_function *f, char *buf, size_t cap)
{
	struct rq q;
	int rc = report_rq_begin(c, &q, RQ_SYMBOL_SHARE);
	buf[0] = '\0';
	if (rc == 0) {
		report_rq_bind_text(&q, 1, f->name);
		if (f->binary)
			report_rq_bind_text(&q, 2, f->binary);
		if ((rc = report_rq_next(&q)) == 1) {
			snprintf(buf, cap, "%s", report_rq_text(&q, 0) ? report_rq_text(&q, 0) : "");
			rc = 0;
		}
	}
	report_rq_end(&q);
	return rc;
}

/* The hottest function names, "a, b, c" (empty when there are none), for a name that matched none. */
static void hottest_names(struct report_ctx *c, char *buf, size_t size)
{
	buf[0] = 0;
	struct rq q;
	size_t used = 0;
	int rc = report_rq_begin(c, &q, RQ_HOT_SYMBOL), names = 0;
	report_rq_bind_int(&q, 1, 10);
	while (rc == 0 && names < 5 && used < size && report_rq_next(&q) == 1) {
		const char *name = report_rq_text(&q, 0);
		if (!name)
			continue;
		int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", name);
		used = n < 0 ? size : used + (size_t)n;
		names++;
	}
	report_rq_end(&q);
}

/* Function @p symbol of the database of @p db or @p ch. */
static int annotate(sqlite3 *db, struct spe_ch *ch, const char *symbol, enum spe_report_format fmt, FILE *out,
		    const struct spe_report_opts *opts, char *err, size_t errlen)
{
	struct report_ctx c;
	report_ctx_init(&c, db, ch, out, opts, err, errlen);
	if (!symbol || !*symbol)
		return report_fail(&c, -spe_invalid, "no function name given");
	/* the binaries holding a function of that name, hottest first */
	char *binaries[64];
	int nbin = 0, rc;
	struct rq q;
	rc = report_rq_begin(&c, &q, RQ_FUNCTION_BINARIES);
	if (rc == 0)
		report_rq_bind_text(&q, 1, symbol);
	while (rc == 0 && (rc = report_rq_next(&q)) == 1 && nbin < 64) {
		rc = 0;
		const char *p = report_rq_text(&q, 0);
		binaries[nbin++] = p ? strdup(p) : NULL;
	}
	report_rq_end(&q);
	if (rc < 0)
		goto out;
	if (nbin == 0) {
		char hot[256];
		hottest_names(&c, hot, sizeof hot);
		int sel = c.o.selection && *c.o.selection; /* the database holds the chosen records only */
		rc = report_fail(&c, -spe_invalid, "no function named '%s' %s%s%s%s%s%s", symbol,
				 sel ? "in the records of the selection (" : "in the database", sel ? c.o.selection : "",
				 sel ? ")" : "", hot[0] ? " (the hottest: " : "", hot,
				 hot[0] ? "; spe-query \"SELECT symbol FROM hot_symbol\" lists all)" : "");
		goto out;
	}
	struct ann_key keys[64];
	struct ann_function fs[64];
	for (int i = 0; i < nbin; i++)
		keys[i] = (struct ann_key){ .name = symbol, .binary = binaries[i], .want_code = 1 };
	rc = report_ann_load(&c, keys, (size_t)nbin, fs);
	for (int i = 0; i < nbin && rc == 0; i++) {
		char share[32];
		if ((rc = share_of_all(&c, &fs[i], share, sizeof share)) < 0)
			break;
		if (fmt == SPE_REPORT_JSON) {
			rc = print_json(out, &fs[i], share[0] ? share : NULL, c.o.selection);
		} else {
			if (i)
				fputc('\n', out);
			else if (c.o.selection && *c.o.selection) {
				fputs("selection: ", out);
				vis(out, c.o.selection);
				fputc('\n', out);
			}
			print_text(out, &c, &fs[i], share[0] ? share : NULL);
		}
	}
	for (int i = 0; i < nbin; i++)
		report_ann_fini(&fs[i]);
	if (rc < 0)
		report_fail(&c, rc, "%s", spe_errstr(rc)); /* unless a message is there already */
out:
	for (int i = 0; i < nbin; i++)
		free(binaries[i]);
	return rc < 0 ? rc : 0;
}

int spe_report_annotate(sqlite3 *db, const char *symbol, enum spe_report_format fmt, FILE *out,
			const struct spe_report_opts *opts, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	int snap = report_snapshot_begin(db, err, errlen); /* one state of the database (report_sqlite.h) */
	if (snap < 0)
		return snap;
	int rc = annotate(db, NULL, symbol, fmt, out, opts, err, errlen);
	report_snapshot_end(db, snap);
	return rc;
}

int spe_report_annotate_ch(struct spe_ch *ch, const char *symbol, enum spe_report_format fmt, FILE *out,
			   const struct spe_report_opts *opts, char *err, size_t errlen)
{
	return annotate(NULL, ch, symbol, fmt, out, opts, err, errlen);
}
