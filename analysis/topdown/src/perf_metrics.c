/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PERF_METRICS arithmetic.  Byte layout: docs/topdown-formulas.md §1 (kernel
 * arch/x86/events/intel/core.c, S3); 0xff = 100 % (S23: the kernel's
 * mul_u64_u32_div(slots, val, 0xff)); the delta recipe is the same
 * section's (S1, S23, S29).  The example code of an older topdown.txt (S41)
 * forgets the division by 0xff: we divide.
 */
#include "topdown/perf_metrics.h"

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
		return -td_invalid;

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
		return -td_invalid;
	double ratio[8];
	for (int i = 0; i < 8; i++)
		ratio[i] = td_pm_byte(metrics, i) / PM_FULL_SCALE;
	return td_pm_from_ratios(ratio, level, out);
}

int td_pm_region(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b, uint64_t metrics_b,
		 int level, struct td_values *out)
{
	if (!out || slots_b <= slots_a)
		return -td_invalid;
	double dslots = (double)(slots_b - slots_a);
	double ratio[8];
	for (int i = 0; i < 8; i++) {
		double ca = (double)slots_a * td_pm_byte(metrics_a, i) / PM_FULL_SCALE;
		double cb = (double)slots_b * td_pm_byte(metrics_b, i) / PM_FULL_SCALE;
		ratio[i] = (cb - ca) / dslots;
	}
	return td_pm_from_ratios(ratio, level, out);
}
