/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Before/after comparison of two SPE captures (spe-report --diff; the HTML
 * report calls the same functions).  Per function, instruction and data
 * object: the change in samples (as a share of each capture's samples), in
 * total latency and in p99, each with an interval that says whether the
 * change is larger than sampling noise.  docs/reports.md, "Before and
 * after", states the statistics and why they were chosen.
 *
 * Sides are sources of one database (source ids), or two databases (the
 * second attached read-only), each side all its sources or the ones named.
 */
#ifndef SPE_DIFF_H
#define SPE_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spe/analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

enum spe_diff_kind { SPE_DIFF_FUNCTION, SPE_DIFF_INSTRUCTION, SPE_DIFF_DATA_OBJECT };

/* What the intervals say about a row's total latency (the impact). */
enum spe_diff_verdict {
	SPE_DIFF_NOISE,  /* the latency interval contains 0 */
	SPE_DIFF_FASTER, /* less latency per sample in B, beyond noise */
	SPE_DIFF_SLOWER, /* more latency per sample in B, beyond noise */
};

struct spe_diff_side {
	uint64_t samples;         /* records of the item */
	uint64_t total_latency;   /* sum of their total latencies */
	double share;             /* samples / the side's samples */
	int64_t p99, p99_lo, p99_hi; /* nearest-rank p99 and its interval; -1 when no latency */
};

struct spe_diff_row {
	enum spe_diff_kind kind;
	const char *name;         /* "heap_scan", "heap_scan+0x14", "table" */
	const char *where;        /* mapped file (functions, instructions), object kind (data objects) */
	const char *detail;       /* instruction text, object type; NULL if none */
	struct spe_diff_side a, b;
	double share_change, share_lo, share_hi;       /* b.share - a.share, interval */
	double latency_change, latency_lo, latency_hi; /* latency per sample, B - A, scaled to A's samples */
	int share_significant;    /* the share interval excludes 0 */
	int p99_significant;      /* the two p99 intervals do not overlap */
	enum spe_diff_verdict verdict;
};

struct spe_diff_opts {
	const char *sources_a;    /* comma-separated source ids of side A; NULL = every source (of db A) */
	const char *sources_b;    /* the same for side B; NULL = every source of db B (two databases only) */
	const char *db_b;         /* second database, or NULL: both sides in @p db */
	double confidence;        /* of every interval; 0 = 0.95 */
};

struct spe_diff;

/*
 * Compare.  Returns 0 with *@p out set, or a negative code with a message:
 * -spe_invalid (a side selects no source, or the two sides are the same),
 * -spe_bad_file (db_b is not a spekit database of this schema version),
 * -spe_io (SQLite).
 */
int spe_diff_compute(sqlite3 *db, const struct spe_diff_opts *opts, struct spe_diff **out, char *err,
		     size_t errlen);
void spe_diff_free(struct spe_diff *d);

/* Rows of @p kind, sorted by impact (|latency_change|, then |share_change|), largest first. */
size_t spe_diff_count(const struct spe_diff *d, enum spe_diff_kind kind);
const struct spe_diff_row *spe_diff_row(const struct spe_diff *d, enum spe_diff_kind kind, size_t i);
/* Samples of each side, and a line naming each side's sources ("source 1 (before.data)"). */
void spe_diff_totals(const struct spe_diff *d, uint64_t *samples_a, uint64_t *samples_b, const char **label_a,
		     const char **label_b);
double spe_diff_confidence(const struct spe_diff *d);
const char *spe_diff_kind_name(enum spe_diff_kind kind);     /* "function", "instruction", "data object" */
const char *spe_diff_verdict_name(enum spe_diff_verdict v);  /* "noise", "faster", "slower" */

/*
 * Print the @p top rows of each kind (0 = all) as a table
 * (SPE_FORMAT_TABLE) or one JSON object (SPE_FORMAT_JSON).  Returns 0 or
 * -spe_io when @p out fails.
 */
int spe_diff_print(const struct spe_diff *d, enum spe_result_format fmt, int top, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* SPE_DIFF_H */
