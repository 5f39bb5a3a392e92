/* SPDX-License-Identifier: Apache-2.0 */
/* spe-report --diff output: a table per kind, or one JSON object (spe/diff.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana/result_internal.h"
#include "report/diff.h"
#include "util/visible.h"
#include "util/json.h"

static const char *const titles[] = { "Functions", "Instructions", "Data objects" };
static const char *const json_keys[] = { "functions", "instructions", "data_objects" };

/* "398 -> 387", or "-" for a side without latency. */
static void p99_text(const struct spe_diff_row *r, char *buf, size_t size)
{
	char a[32] = "-", b[32] = "-";
	if (r->a.p99 >= 0)
		snprintf(a, sizeof a, "%" PRId64, r->a.p99);
	if (r->b.p99 >= 0)
		snprintf(b, sizeof b, "%" PRId64, r->b.p99);
	snprintf(buf, size, "%s -> %s%s", a, b, r->p99_significant ? " *" : "");
}

static void print_table(const struct spe_diff *d, enum spe_diff_kind k, int top, FILE *out)
{
	size_t n = spe_diff_count(d, k);
	uint64_t na, nb;
	const char *la, *lb;
	spe_diff_totals(d, &na, &nb, &la, &lb);
	fprintf(out, "\n%s, by the change in total latency (B scaled to A's %" PRIu64 " samples)\n", titles[k], na);
	if (!n) {
		fprintf(out, "  (none)\n");
		return;
	}
	fprintf(out, "  %-32s %17s  %-26s %21s  %-30s %-16s %s\n", spe_diff_kind_name(k), "samples A -> B",
		"share change [interval]", "total latency A -> B", "change [interval]", "p99 A -> B", "verdict");
	for (size_t i = 0; i < n && (top <= 0 || i < (size_t)top); i++) {
		const struct spe_diff_row *r = spe_diff_row(d, k, i);
		char samples[40], share[64], latency[48], change[64], p99[48];
		snprintf(samples, sizeof samples, "%" PRIu64 " -> %" PRIu64, r->a.samples, r->b.samples);
		snprintf(share, sizeof share, "%+.1f [%+.1f, %+.1f] pp%s", 100 * r->share_change, 100 * r->share_lo,
			 100 * r->share_hi, r->share_significant ? " *" : "");
		snprintf(latency, sizeof latency, "%" PRIu64 " -> %" PRIu64, r->a.total_latency, r->b.total_latency);
		snprintf(change, sizeof change, "%+.0f [%+.0f, %+.0f]", r->latency_change, r->latency_lo, r->latency_hi);
		p99_text(r, p99, sizeof p99);
		fputs("  ", out); /* the name in its visible form (util/visible.h), cut to the column */
		util_visible_put(out, r->name, UTIL_VISIBLE_UNCOUNTED, 32, 32);
		fprintf(out, " %17s  %-26s %21s  %-30s %-16s %s\n", samples, share, latency, change, p99,
			spe_diff_verdict_name(r->verdict));
	}
	if (top > 0 && n > (size_t)top)
		fprintf(out, "  ... %zu more\n", n - (size_t)top);
}

static void json_side(FILE *out, const char *key, const struct spe_diff_side *s)
{
	fprintf(out, "\"%s\": {\"samples\": %" PRIu64 ", \"total_latency\": %" PRIu64 ", \"share\": %.6f, ", key,
		s->samples, s->total_latency, s->share);
	if (s->p99 >= 0)
		fprintf(out, "\"p99\": %" PRId64 ", \"p99_interval\": [%" PRId64 ", %" PRId64 "]}", s->p99, s->p99_lo,
			s->p99_hi);
	else
		fprintf(out, "\"p99\": null, \"p99_interval\": null}");
}

static void print_json(const struct spe_diff *d, int top, FILE *out)
{
	uint64_t na, nb;
	const char *la, *lb;
	spe_diff_totals(d, &na, &nb, &la, &lb);
	fprintf(out, "{\"diff\": {\"confidence\": %.4g, \"a\": {\"sources\": ", spe_diff_confidence(d));
	util_json_string(out, la);
	fprintf(out, ", \"samples\": %" PRIu64 "}, \"b\": {\"sources\": ", na);
	util_json_string(out, lb);
	fprintf(out, ", \"samples\": %" PRIu64 "}", nb);
	for (int k = 0; k < 3; k++) {
		fprintf(out, ", \"%s\": [", json_keys[k]);
		size_t n = spe_diff_count(d, (enum spe_diff_kind)k);
		for (size_t i = 0; i < n && (top <= 0 || i < (size_t)top); i++) {
			const struct spe_diff_row *r = spe_diff_row(d, (enum spe_diff_kind)k, i);
			fprintf(out, "%s{\"name\": ", i ? ", " : "");
			util_json_string(out, r->name);
			fprintf(out, ", \"where\": ");
			util_json_string(out, r->where);
			if (r->detail) {
				fprintf(out, ", \"detail\": ");
				util_json_string(out, r->detail);
			}
			fprintf(out, ", ");
			json_side(out, "a", &r->a);
			fprintf(out, ", ");
			json_side(out, "b", &r->b);
			fprintf(out,
				", \"share_change\": %.6f, \"share_interval\": [%.6f, %.6f], \"share_significant\": %s"
				", \"latency_change\": %.1f, \"latency_interval\": [%.1f, %.1f]"
				", \"p99_significant\": %s, \"verdict\": \"%s\"}",
				r->share_change, r->share_lo, r->share_hi, r->share_significant ? "true" : "false",
				r->latency_change, r->latency_lo, r->latency_hi, r->p99_significant ? "true" : "false",
				spe_diff_verdict_name(r->verdict));
		}
		fprintf(out, "]");
	}
	fprintf(out, "}}\n");
}

int spe_diff_print(const struct spe_diff *d, enum spe_result_format fmt, int top, FILE *out)
{
	if (fmt == SPE_FORMAT_JSON) {
		print_json(d, top, out);
	} else {
		uint64_t na, nb;
		const char *la, *lb;
		spe_diff_totals(d, &na, &nb, &la, &lb);
		char *va = util_visible(la, 0, UTIL_VISIBLE_MAX), *vb = util_visible(lb, 0, UTIL_VISIBLE_MAX);
		fprintf(out,
			"Before/after, %.0f%% intervals\n  A = %s: %" PRIu64 " samples\n  B = %s: %" PRIu64 " samples\n"
			"  share: Newcombe hybrid score interval on the change in sample share (pp);\n"
			"  change: normal interval on the change in latency per sample, times A's samples;\n"
			"  p99: binomial order-statistic intervals, * when they do not overlap;\n"
			"  verdict: faster/slower when the latency interval excludes 0, else noise\n",
			100 * spe_diff_confidence(d), va ? va : "?", na, vb ? vb : "?", nb);
		free(va);
		free(vb);
		for (int k = 0; k < 3; k++)
			print_table(d, (enum spe_diff_kind)k, top, out);
	}
	return ferror(out) ? -spe_io : 0;
}
