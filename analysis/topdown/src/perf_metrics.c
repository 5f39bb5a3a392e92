/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PERF_METRICS arithmetic.  Byte layout: docs/topdown-formulas.md §1 (kernel
 * arch/x86/events/intel/core.c, S3); 0xff = 100 % (S23: the kernel's
 * mul_u64_u32_div(slots, val, 0xff)); the delta recipe is the same
 * section's (S1, S23, S29).  The example code of an older topdown.txt (S41)
 * forgets the division by 0xff: we divide.
 */
#include "topdown/perf_metrics.h"

#include <stdarg.h>
#include <stdio.h>

#include "topdown/error.h"

static const enum td_node byte_nodes[8] = {
	TD_RETIRING, TD_BAD_SPECULATION, TD_FRONTEND_BOUND, TD_BACKEND_BOUND,
	TD_HEAVY_OPERATIONS, TD_BRANCH_MISPREDICTS, TD_FETCH_LATENCY, TD_MEMORY_BOUND,
};

/* Level 2 nodes derived as parent minus the hardware field (docs/topdown-formulas.md §1, S1). */
static const struct {
	enum td_node node, parent, measured;
} derived_nodes[4] = {
	{ TD_LIGHT_OPERATIONS, TD_RETIRING, TD_HEAVY_OPERATIONS },
	{ TD_MACHINE_CLEARS, TD_BAD_SPECULATION, TD_BRANCH_MISPREDICTS },
	{ TD_FETCH_BANDWIDTH, TD_FRONTEND_BOUND, TD_FETCH_LATENCY },
	{ TD_CORE_BOUND, TD_BACKEND_BOUND, TD_MEMORY_BOUND },
};

#define PM_FULL_SCALE 255.0 /* 0xff */

enum td_node td_pm_byte_node(int byte)
{
	return byte >= 0 && byte < 8 ? byte_nodes[byte] : TD_NONE;
}

unsigned td_pm_byte(uint64_t metrics, int byte)
{
	return byte >= 0 && byte < 8 ? (unsigned)((metrics >> (8 * byte)) & 0xff) : 0;
}

/* ratio[0..7] are per-byte fractions of the region's slots: renormalise, clamp, derive. */
int td_pm_from_ratios(double ratio[8], int level, struct td_values *out)
{
	double sum = 0;
	for (int i = 0; i < 8; i++) {
		if (ratio[i] < 0)
			ratio[i] = 0;
	}
	for (int i = 0; i < 4; i++)
		sum += ratio[i];
	if (sum <= 0)
		return -spe_invalid;

	td_values_clear(out);
	int nbytes = level >= 2 ? 8 : 4;
	for (int i = 0; i < nbytes; i++)
		td_values_set(out, byte_nodes[i], ratio[i] / sum, 0);
	if (level >= 2) {
		for (int i = 0; i < 4; i++) {
			double v = out->frac[derived_nodes[i].parent] - out->frac[derived_nodes[i].measured];
			td_values_set(out, derived_nodes[i].node, v < 0 ? 0 : v, 1);
		}
	}
	return 0;
}

int td_pm_decode(uint64_t slots, uint64_t metrics, int level, struct td_values *out)
{
	if (!out || slots == 0)
		return -spe_invalid;
	double ratio[8];
	for (int i = 0; i < 8; i++)
		ratio[i] = td_pm_byte(metrics, i) / PM_FULL_SCALE;
	return td_pm_from_ratios(ratio, level, out);
}

int td_pm_region(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b, uint64_t metrics_b,
		 int level, struct td_values *out)
{
	if (!out || slots_b <= slots_a)
		return -spe_invalid;
	double dslots = (double)(slots_b - slots_a);
	double ratio[8];
	for (int i = 0; i < 8; i++) {
		double ca = (double)slots_a * td_pm_byte(metrics_a, i) / PM_FULL_SCALE;
		double cb = (double)slots_b * td_pm_byte(metrics_b, i) / PM_FULL_SCALE;
		ratio[i] = (cb - ca) / dslots;
	}
	return td_pm_from_ratios(ratio, level, out);
}

static int add_issue(struct td_pm_issue *out, int max, int n, enum td_pm_issue_kind kind, double error, const char *fmt,
		     ...) __attribute__((format(printf, 6, 7)));

static int add_issue(struct td_pm_issue *out, int max, int n, enum td_pm_issue_kind kind, double error, const char *fmt,
		     ...)
{
	if (n < max) {
		va_list ap;
		out[n].kind = kind;
		out[n].error = error;
		va_start(ap, fmt);
		vsnprintf(out[n].msg, sizeof out[n].msg, fmt, ap);
		va_end(ap);
	}
	return n + 1;
}

/* Bytes one read of PERF_METRICS cannot hold. */
static int check_read(uint64_t metrics, const char *which, struct td_pm_issue *out, int max, int n)
{
	unsigned sum = 0;
	for (int i = 0; i < 4; i++)
		sum += td_pm_byte(metrics, i);
	if (sum < 252 || sum > 257)
		n = add_issue(out, max, n, TD_PM_BAD_SUM, 0,
			      "%slevel 1 bytes sum to %u, not 0xff (255) within rounding (252..257): not a PERF_METRICS "
			      "value (another register, or the bytes out of order?)",
			      which, sum);
	for (int i = 0; i < 4; i++) {
		unsigned child = td_pm_byte(metrics, 4 + i);
		unsigned parent = td_pm_byte(metrics, i);
		if (child > parent + 1)
			n = add_issue(out, max, n, TD_PM_CHILD_ABOVE, 0,
				      "%s%s byte (0x%02x) is above its parent %s (0x%02x): a level 2 node cannot exceed "
				      "its level 1 parent",
				      which, td_node_name(byte_nodes[4 + i]), child, td_node_name(byte_nodes[i]), parent);
	}
	return n;
}

int td_pm_check(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b, uint64_t metrics_b, int n_reads, int level,
		struct td_pm_issue *out, int max)
{
	int n = 0;
	if (n_reads >= 2) {
		n = check_read(metrics_a, "first read: ", out, max, n);
		n = check_read(metrics_b, "second read: ", out, max, n);
	} else {
		n = check_read(metrics_b, "", out, max, n);
	}
	if (n_reads >= 2 && slots_b > slots_a) {
		double region = (double)(slots_b - slots_a);
		double error = ((double)slots_a + (double)slots_b) / (PM_FULL_SCALE * region);
		if (error > 0.05)
			n = add_issue(out, max, n, TD_PM_SHORT_REGION, error,
				      "the region is %.0f slots%s: with 8-bit steps of %.0f and %.0f slots at the two reads, "
				      "each node is uncertain by up to %.1f percentage points of the region; reset the "
				      "counters more often",
				      region,
				      region * PM_FULL_SCALE < (double)slots_b ? ", shorter than SLOTS/255 at the second read"
									      : "",
				      (double)slots_a / PM_FULL_SCALE, (double)slots_b / PM_FULL_SCALE, 100 * error);
	}
	uint64_t upper = (metrics_b >> 32) | (n_reads >= 2 ? metrics_a >> 32 : 0);
	if (level >= 2 && upper == 0)
		n = add_issue(out, max, n, TD_PM_NO_LEVEL2, 0,
			      "level 2: bytes 4..7 are zero, so this CPU reports level 1 only (PERF_METRICS has level 2 "
			      "from Sapphire Rapids on); only level 1 is shown");
	return n;
}
