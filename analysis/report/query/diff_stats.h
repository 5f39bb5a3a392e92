/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The statistics of spe-report --diff (docs/reports.md, "Before and
 * after"): intervals for a difference of two proportions, a difference of
 * two means, and a quantile read from a latency histogram.
 */
#ifndef SPE_DIFF_STATS_H
#define SPE_DIFF_STATS_H

#include <stddef.h>
#include <stdint.h>

/* The two-sided normal quantile for @p confidence (0.95 -> 1.95996...). */
double report_diff_z(double confidence);

/* Wilson score interval of the proportion @p k / @p n. */
void report_diff_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi);

/*
 * Newcombe's hybrid score interval (his method 10) for p2 - p1, with
 * p1 = k1/n1 and p2 = k2/n2: built from the two Wilson intervals, it keeps
 * its coverage for small counts and for shares near 0 (a function that
 * appears or vanishes), where the plain normal (Wald) interval does not.
 */
void report_diff_newcombe(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2, double z, double *d, double *lo, double *hi);

/*
 * Interval for m2 - m1, the difference of two means of per-sample values
 * X (n samples, sum and sum of squares of X), normal approximation with
 * each side's own variance (Welch).
 */
void report_diff_mean_change(uint64_t n1, double sum1, double sumsq1, uint64_t n2, double sum2, double sumsq2, double z,
			  double *d, double *lo, double *hi);

/* One latency value and how many samples had it, ascending by latency. */
struct diff_bin {
	int64_t latency;
	uint64_t count;
};

/*
 * The nearest-rank @p q quantile of the @p n_bins bins (n samples in all),
 * and a distribution-free interval: the order statistics of ranks
 * n q -/+ z sqrt(n q (1 - q)), the binomial interval on the rank.  -1 for
 * all three when there are no samples.
 */
void report_diff_quantile(const struct diff_bin *bins, size_t n_bins, double q, double z, int64_t *value, int64_t *lo,
		       int64_t *hi);

#endif
