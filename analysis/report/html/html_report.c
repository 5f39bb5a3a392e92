/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_report_html: the page, section by section (sections.h).  Each
 * section reads the views it needs as it is written, so nothing but the
 * rows of one query at a time (and the hot functions' model) is held.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "report_sqlite.h"
#include "util/visible.h"

/*
 * The capture's span from the loads' stored one (RQ_SPAN_STORED), else from
 * its records (RQ_SPAN: a database loaded before load_stats kept it,
 * ClickHouse): columns from @p col on, RQ_SPAN's.
 */
static int read_span_of(struct report_ctx *c, enum report_query which, int col, struct capture_span *span, int *got)
{
	struct rq q;
	int rc = report_rq_begin(c, &q, which);
	memset(span, 0, sizeof *span);
	*got = 0;
	if (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		*got = col == 0 || report_rq_int(&q, 0) == 1;
		if (*got) {
			span->records = report_rq_int(&q, col);
			span->timed = report_rq_int(&q, col + 3);
			if (span->timed) {
				span->t0 = report_rq_int(&q, col + 1);
				span->t1 = report_rq_int(&q, col + 2);
			} else if (!report_rq_null(&q, col + 4)) {
				span->t0 = report_rq_int(&q, col + 4);
				span->t1 = report_rq_int(&q, col + 5);
				span->raw_ts = 1;
			}
		}
	}
	report_rq_end(&q);
	return rc < 0 ? rc : 0;
}

static int read_span(struct report_ctx *c, struct capture_span *span)
{
	int got, rc = read_span_of(c, RQ_SPAN_STORED, 1, span, &got);
	if (rc == 0 && !got)
		rc = read_span_of(c, RQ_SPAN, 0, span, &got);
	return rc;
}

/* The sections of the page, in order: the progress's steps. */
static const char *const section_names[] = { "the findings", "the summary", "latency", "the flame graph", "hot code",
					     "annotations", "time", "memory", "branches", "top-down" };
enum { N_SECTIONS = sizeof section_names / sizeof section_names[0] };

/* Section @p i starts (N_SECTIONS: the page's end): for the progress line, if the caller wants one. */
static void section_starts(struct report_ctx *c, unsigned i)
{
	if (!c->o.on_progress)
		return;
	c->progress = (struct spe_progress){ .unit = "sections done", .count = i, .done = i, .total = N_SECTIONS,
					     .step = i < N_SECTIONS ? section_names[i] : "writing the page" };
	c->o.on_progress(c->o.progress_arg, &c->progress);
}

/* The page from the database of @p db or @p ch. */
static int html_page(sqlite3 *db, struct spe_ch *ch, FILE *out, const struct spe_report_opts *opts, char *err,
		     size_t errlen)
{
	struct report_ctx c;
	struct capture_span span;
	struct hot_functions hot = { 0 };
	report_ctx_init(&c, db, ch, out, opts, err, errlen);
	section_starts(&c, 0); /* the span's query, then the findings */
	int rc = read_span(&c, &span);
	if (rc < 0)
		return rc;
	if (span.records == 0)
		return report_fail(&c, -spe_invalid, "no SPE records in the database (load a capture with spe-load first)");
	report_page_head(&c);
	unsigned step = 0; /* section_names' index */
	rc = report_section_findings(&c);
	if (rc == 0) {
		section_starts(&c, ++step);
		rc = report_section_summary(&c, &span);
	}
	if (rc == 0) {
		section_starts(&c, ++step);
		rc = report_section_latency(&c);
	}
	if (rc == 0) {
		section_starts(&c, ++step);
		rc = report_section_flame(&c);
	}
	if (rc == 0) {
		section_starts(&c, ++step);
		rc = report_section_hot_code(&c, &hot);
	}
	if (rc == 0) {
		section_starts(&c, ++step);
		rc = report_section_annotations(&c, &hot);
	}
	for (size_t i = 0; i < hot.n; i++)
		report_ann_fini(&hot.fs[i]);
	free(hot.fs);
	if (rc == 0) {
		section_starts(&c, ++step);
		rc = report_section_time(&c, &span);
	}
	if (rc == 0) {
		section_starts(&c, ++step);
		rc = report_section_memory(&c);
	}
	if (rc == 0) {
		section_starts(&c, ++step);
		rc = report_section_branches(&c);
	}
	if (rc == 0) {
		section_starts(&c, ++step);
		rc = report_section_topdown(&c);
	}
	if (rc < 0)
		return rc;
	section_starts(&c, N_SECTIONS);
	report_page_queries(&c);
	report_page_cuts(&c.h);
	report_page_tail(&c);
	if (c.h.over)
		return report_fail(&c, -spe_bad_file,
				   "the page would pass %llu MiB (the values of this database are too many or too big): "
				   "not written", REPORT_PAGE_MAX >> 20);
	return ferror(out) ? report_fail(&c, -spe_io, "writing the page failed") : 0;
}

int spe_report_html(sqlite3 *db, FILE *out, const struct spe_report_opts *opts, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	int snap = report_snapshot_begin(db, err, errlen); /* one state of the database for the whole page */
	if (snap < 0)
		return snap;
	int rc = html_page(db, NULL, out, opts, err, errlen);
	report_snapshot_end(db, snap);
	return rc;
}

int spe_report_html_ch(struct spe_ch *ch, FILE *out, const struct spe_report_opts *opts, char *err, size_t errlen)
{
	return html_page(NULL, ch, out, opts, err, errlen);
}
