/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Latency over time: a heatmap of records by time slot (x) and log2
 * latency bucket (y), colour by the log of the count; for all CPUs, and
 * for each of the busiest CPUs behind a selector.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "svg_chart.h"

#define SLOTS 100   /* time slots across the capture */
#define MAX_CPUS 8  /* CPUs with a heatmap of their own (the busiest) */
#define TRACKED 256 /* distinct CPUs counted before the rest go to "all" only */
#define DIRECT_CPUS 4096

struct cpu_map {
	long long cpu;
	uint64_t records;
	uint64_t *counts; /* SLOTS x LATENCY_BUCKETS */
};

static int by_records(const void *a, const void *b)
{
	const struct cpu_map *x = a, *y = b;
	if (x->records != y->records)
		return x->records < y->records ? 1 : -1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int by_cpu(const void *a, const void *b)
{
	const struct cpu_map *x = a, *y = b;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static void figure(struct html *h, const char *key, const char *caption, const uint64_t *counts, int b0, int b1,
		   double span, const char *unit, int hidden)
{
	report_html_printf(h, "<figure class=\"hm\" data-cpu=\"%s\"", key);
	report_html_raw(h, hidden ? " hidden=\"hidden\"><figcaption>" : "><figcaption>");
	report_html_text(h, caption);
	report_html_raw(h, "</figcaption>");
	report_svg_heatmap(h, counts, SLOTS, b0, b1, span, unit);
	report_html_raw(h, "</figure>");
}

int report_section_time(struct report_ctx *c, const struct capture_span *span)
{
	struct html *h = &c->h;
	report_html_section(h, "time", "Latency over time",
		     "Each column is a slice of the capture, each row a latency range (cycles, log2, slow at the "
		     "top); the darker a cell, the more records.  Phases show as vertical bands, a slow tail as "
		     "dark cells high up.");
	if (span->t1 <= span->t0) {
		report_html_raw(h, "<p class=\"none\">The records carry no time: no heatmap.</p></section>\n");
		return 0;
	}
	uint64_t *all = calloc((size_t)SLOTS * LATENCY_BUCKETS, sizeof *all);
	struct cpu_map *cpus = calloc(TRACKED, sizeof *cpus);
	int ncpus = 0, rc;
	short direct[DIRECT_CPUS];
	for (int k = 0; k < DIRECT_CPUS; k++)
		direct[k] = -1;
	if (!all || !cpus) {
		free(all);
		free(cpus);
		return report_fail(c, -spe_nomem, "out of memory");
	}
	struct rq q;
	rc = report_rq_begin(c, &q, span->raw_ts ? RQ_HEATMAP_TS : RQ_HEATMAP_TIME);
	if (rc == 0) {
		report_rq_bind_int(&q, 1, span->t0);
		report_rq_bind_int(&q, 2, span->t1 - span->t0 + 1);
		report_rq_bind_int(&q, 3, SLOTS);
	}
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		long long cpu = report_rq_int(&q, 0), slot = report_rq_int(&q, 1);
		int b = report_latency_bucket(report_rq_int(&q, 2));
		uint64_t n = (uint64_t)report_rq_int(&q, 3); /* records in this row (SQLite: 1) */
		if (slot < 0 || slot >= SLOTS || b < 0 || b >= LATENCY_BUCKETS)
			continue;
		size_t cell = (size_t)slot * LATENCY_BUCKETS + (size_t)b;
		all[cell] += n;
		/* the CPU's map: by number for the usual small ones, else searched */
		int k = cpu >= 0 && cpu < DIRECT_CPUS ? direct[cpu] : -1;
		if (k < 0) {
			k = 0;
			while (k < ncpus && cpus[k].cpu != cpu)
				k++;
		}
		if (k == ncpus) {
			if (ncpus == TRACKED)
				continue;
			cpus[ncpus].cpu = cpu;
			if (!(cpus[ncpus].counts = calloc((size_t)SLOTS * LATENCY_BUCKETS, sizeof *all))) {
				rc = report_fail(c, -spe_nomem, "out of memory");
				break;
			}
			if (cpu >= 0 && cpu < DIRECT_CPUS)
				direct[cpu] = (short)ncpus;
			ncpus++;
		}
		cpus[k].counts[cell] += n;
		cpus[k].records += n;
	}
	report_rq_end(&q);
	if (rc == 0) {
		int b0 = LATENCY_BUCKETS, b1 = -1;
		for (size_t i = 0; i < (size_t)SLOTS * LATENCY_BUCKETS; i++)
			if (all[i]) {
				int b = (int)(i % LATENCY_BUCKETS);
				b0 = b < b0 ? b : b0;
				b1 = b > b1 ? b : b1;
			}
		double ms = (double)(span->t1 - span->t0) / (span->raw_ts ? 1.0 : 1e6);
		const char *unit = span->raw_ts ? "ticks" : "ms";
		if (b1 < 0) {
			report_html_raw(h, "<p class=\"none\">No record has both a time and a latency.</p>");
		} else {
			qsort(cpus, (size_t)ncpus, sizeof *cpus, by_records);
			int shown = ncpus > MAX_CPUS ? MAX_CPUS : ncpus;
			qsort(cpus, (size_t)shown, sizeof *cpus, by_cpu);
			if (ncpus > 1) {
				report_html_raw(h, "<p><label>CPU <select id=\"hm-cpu\"><option value=\"all\">all</option>");
				for (int k = 0; k < shown; k++)
					report_html_printf(h, "<option value=\"%lld\">%lld</option>", cpus[k].cpu, cpus[k].cpu);
				report_html_raw(h, "</select></label>");
				if (ncpus > shown)
					report_html_printf(h, " <span class=\"none\">(the %d busiest of %d CPUs)</span>", shown, ncpus);
				report_html_raw(h, "</p>");
			}
			char caption[128];
			snprintf(caption, sizeof caption, "All CPUs: records by time and total latency");
			figure(h, "all", caption, all, b0, b1, ms, unit, 0);
			for (int k = 0; ncpus > 1 && k < shown; k++) {
				char key[32];
				snprintf(key, sizeof key, "%lld", cpus[k].cpu);
				snprintf(caption, sizeof caption, "CPU %lld: %llu records by time and total latency", cpus[k].cpu,
					 (unsigned long long)cpus[k].records);
				figure(h, key, caption, cpus[k].counts, b0, b1, ms, unit, 1);
			}
		}
	}
	for (int k = 0; k < ncpus; k++)
		free(cpus[k].counts);
	free(cpus);
	free(all);
	report_html_raw(h, "</section>\n");
	return rc < 0 ? rc : 0;
}
