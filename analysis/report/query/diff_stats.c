/* SPDX-License-Identifier: Apache-2.0 */
/* Intervals for spe-report --diff; see diff_stats.h. */
#include <math.h>

#include "diff_stats.h"

/* Acklam's rational approximation of the inverse normal CDF (relative error < 1.2e-9). */
static double inverse_normal(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
				    1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
				    6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
				    -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
				    3.754408661907416e+00 };
	if (p < 0.02425) {
		double q = sqrt(-2 * log(p));
		return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		       ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	}
	if (p > 1 - 0.02425)
		return -inverse_normal(1 - p);
	double q = p - 0.5, r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double report_diff_z(double confidence)
{
	if (!(confidence > 0 && confidence < 1))
		confidence = 0.95;
	return inverse_normal(1 - (1 - confidence) / 2);
}

void report_diff_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi)
{
	if (n == 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	double p = (double)k / (double)n, nn = (double)n, z2 = z * z;
	double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
	double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
	*lo = centre - half < 0 ? 0 : centre - half;
	*hi = centre + half > 1 ? 1 : centre + half;
}

void report_diff_newcombe(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2, double z, double *d, double *lo, double *hi)
{
	double p1 = n1 ? (double)k1 / (double)n1 : 0, p2 = n2 ? (double)k2 / (double)n2 : 0;
	double l1, u1, l2, u2;
	report_diff_wilson(k1, n1, z, &l1, &u1);
	report_diff_wilson(k2, n2, z, &l2, &u2);
	*d = p2 - p1;
	*lo = *d - sqrt((p2 - l2) * (p2 - l2) + (u1 - p1) * (u1 - p1));
	*hi = *d + sqrt((u2 - p2) * (u2 - p2) + (p1 - l1) * (p1 - l1));
}

/* Variance of the mean of n values with this sum and sum of squares (0 for n < 2). */
static double var_of_mean(uint64_t n, double sum, double sumsq)
{
	if (n < 2)
		return 0;
	double nn = (double)n, m = sum / nn;
	double var = (sumsq - nn * m * m) / (nn - 1);
	return var > 0 ? var / nn : 0;
}

void report_diff_mean_change(uint64_t n1, double sum1, double sumsq1, uint64_t n2, double sum2, double sumsq2, double z,
			  double *d, double *lo, double *hi)
{
	double m1 = n1 ? sum1 / (double)n1 : 0, m2 = n2 ? sum2 / (double)n2 : 0;
	double se = sqrt(var_of_mean(n1, sum1, sumsq1) + var_of_mean(n2, sum2, sumsq2));
	*d = m2 - m1;
	*lo = *d - z * se;
	*hi = *d + z * se;
}

/* The latency of the sample of 1-based rank @p r (clamped to [1, n]). */
static int64_t at_rank(const struct diff_bin *bins, size_t n_bins, uint64_t n, double r)
{
	uint64_t rank = r < 1 ? 1 : r > (double)n ? n : (uint64_t)r;
	uint64_t run = 0;
	for (size_t i = 0; i < n_bins; i++) {
		run += bins[i].count;
		if (run >= rank)
			return bins[i].latency;
	}
	return n_bins ? bins[n_bins - 1].latency : -1;
}

void report_diff_quantile(const struct diff_bin *bins, size_t n_bins, double q, double z, int64_t *value, int64_t *lo,
		       int64_t *hi)
{
	uint64_t n = 0;
	for (size_t i = 0; i < n_bins; i++)
		n += bins[i].count;
	if (!n) {
		*value = *lo = *hi = -1;
		return;
	}
	double nq = (double)n * q, spread = z * sqrt((double)n * q * (1 - q));
	*value = at_rank(bins, n_bins, n, ceil(nq - 1e-9));
	*lo = at_rank(bins, n_bins, n, floor(nq - spread));
	*hi = at_rank(bins, n_bins, n, ceil(nq + spread) + 1);
}
