/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The issues a report opens with (report_findings_read): the rules of the
 * memory sections, applied once more so that the page and the text report
 * can lead with them: the huge-page hint and the NUMA summary in the
 * library's own words (memory_report.h), and false sharing as the sharing
 * table marks it (a line one thread writes and another uses, at two or more
 * offsets).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "report/memory_report.h"

#define EVERY_LINE 1000000000LL /* no LIMIT in effect */

int report_findings_read(struct report_ctx *c, struct report_findings *f)
{
	memset(f, 0, sizeof *f);
	double *hp = f->huge_page_numbers, *numa = f->numa_numbers;
	_Static_assert(SPE_HUGE_PAGE_HINT_COLUMNS <= sizeof f->huge_page_numbers / sizeof(double), "huge-page row");
	_Static_assert(SPE_NUMA_SUMMARY_COLUMNS <= sizeof f->numa_numbers / sizeof(double), "NUMA row");
	int rc = report_rq_numbers(c, RQ_HUGE_PAGE_HINT, SPE_HUGE_PAGE_HINT_COLUMNS, hp);
	if (rc < 0)
		return rc;
	f->huge_pages = spe_huge_page_hint_text(hp, f->huge_pages_text, sizeof f->huge_pages_text);
	if ((rc = report_rq_numbers(c, RQ_NUMA_SUMMARY, SPE_NUMA_SUMMARY_COLUMNS, numa)) < 0)
		return rc;
	f->numa = spe_numa_summary_text(numa, f->numa_text, sizeof f->numa_text);
	/* (the rows' columns: memory_report.c) no data address, or counters that disagree; no load, or
	   physical addresses without the nodes' ranges */
	f->huge_pages_unknown = !f->huge_pages && (hp[4] <= 0 || hp[3] > hp[4]);
	f->numa_unknown = !f->numa && (numa[5] <= 0 || (numa[2] <= 0 && numa[3] > 0));
	struct rq q;
	if ((rc = report_rq_begin(c, &q, RQ_CACHELINE)) == 0)
		report_rq_bind_int(&q, 1, EVERY_LINE);
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		if (report_rq_int(&q, 6) < 2) /* one thread (in several processes' views): not shared between threads */
			continue;
		f->shared_lines++;
		if (report_rq_int(&q, 7) < 2) /* offsets: one is true sharing */
			continue;
		if (!f->false_sharing++) {
			const char *objects = report_rq_text(&q, 15), *symbols = report_rq_text(&q, 12);
			snprintf(f->false_sharing_first, sizeof f->false_sharing_first,
				 "line %s of pid %s: %lld threads, %lld offsets, %lld accesses%s%s%s%s",
				 report_rq_text(&q, 1) ? report_rq_text(&q, 1) : "?",
				 report_rq_text(&q, 0) ? report_rq_text(&q, 0) : "?", report_rq_int(&q, 6),
				 report_rq_int(&q, 7), report_rq_int(&q, 2), objects ? "; data: " : "",
				 objects ? objects : "", symbols ? "; code: " : "", symbols ? symbols : "");
		}
	}
	report_rq_end(&q);
	return rc < 0 ? rc : 0;
}

static void listed(char *list, size_t size, const char *what)
{
	size_t n = strlen(list);
	snprintf(list + n, size - n, "%s%s", n ? ", " : "", what);
}

/* Finding @p it states @p n numbers, named as the JSON report names them. */
static void numbers(struct report_finding *it, const char *const *names, const double *v, int n)
{
	for (int i = 0; i < n && i < REPORT_FINDING_NUMBERS; i++) {
		it->number_names[i] = names[i];
		it->numbers[i] = v[i];
	}
	it->n_numbers = n;
}

int report_findings_list(const struct report_findings *f, struct report_finding items[3], char clean[128],
			 char unknown[64])
{
	int n = 0;
	clean[0] = unknown[0] = 0;
	if (f->huge_pages) {
		items[n] = (struct report_finding){
			.kind = "huge_pages", .id = "finding-huge-pages", .title = "Huge pages would help",
			.fix = "back the regions the section lists with huge pages (transparent huge pages in madvise or "
			       "always mode, then madvise(MADV_HUGEPAGE) on them; or hugetlbfs).",
			.anchor = "mem-pages", .section = "Pages and huge pages", .text_section = "Memory, Huge pages"
		};
		/* the rule's row (report/memory_report.h, huge_page_sql's columns) */
		static const char *const hp_names[SPE_HUGE_PAGE_HINT_COLUMNS] = {
			"regions", "region_translation_latency", "region_pages_4k", "translation_latency",
			"data_access_latency"
		};
		numbers(&items[n], hp_names, f->huge_page_numbers, SPE_HUGE_PAGE_HINT_COLUMNS);
		snprintf(items[n++].evidence, sizeof items[0].evidence, "%s", f->huge_pages_text);
	} else {
		listed(f->huge_pages_unknown ? unknown : clean, f->huge_pages_unknown ? 64 : 128, "huge pages");
	}
	if (f->false_sharing) {
		items[n] = (struct report_finding){
			.kind = "false_sharing", .id = "finding-false-sharing", .title = "False sharing",
			.fix = "pad or split the data so that what each thread writes sits in a 64-byte line of its own "
			       "(alignas(64), or per-thread copies merged at the end).",
			.anchor = "mem-sharing", .section = "Cache lines shared between threads",
			.text_section = "Shared cache lines"
		};
		static const char *const fs_names[2] = { "false_sharing_lines", "shared_lines" };
		double fs[2] = { (double)f->false_sharing, (double)f->shared_lines };
		numbers(&items[n], fs_names, fs, 2);
		snprintf(items[n++].evidence, sizeof items[0].evidence,
			 "%lld of %lld cache lines written by one thread and used by another are used at two or more "
			 "offsets: the threads share the line, not the data.  The first: %s.",
			 f->false_sharing, f->shared_lines, f->false_sharing_first);
	} else {
		listed(clean, 128, "false sharing");
	}
	if (f->numa) {
		items[n] = (struct report_finding){
			.kind = "numa", .id = "finding-numa", .title = "Memory of another NUMA node",
			.fix = "keep each thread and its data on one node: numactl --cpunodebind=N --membind=N, or let "
			       "the thread that uses the data touch it first (first-touch placement).",
			.anchor = "mem-numa", .section = "NUMA", .text_section = "Memory, NUMA traffic"
		};
		/* the summary's row (report/memory_report.h, numa_sql's columns) */
		static const char *const numa_names[SPE_NUMA_SUMMARY_COLUMNS] = {
			"load_latency", "remote_latency_by_physical_address", "placed_loads",
			"loads_with_physical_address", "remote_loads_by_data_source", "loads"
		};
		numbers(&items[n], numa_names, f->numa_numbers, SPE_NUMA_SUMMARY_COLUMNS);
		snprintf(items[n++].evidence, sizeof items[0].evidence, "%s", f->numa_text);
	} else {
		listed(f->numa_unknown ? unknown : clean, f->numa_unknown ? 64 : 128, "NUMA");
	}
	return n;
}
