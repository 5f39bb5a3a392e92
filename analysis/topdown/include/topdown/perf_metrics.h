/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Intel Ice Lake+ PERF_METRICS (MSR 0x329) together with the SLOTS fixed
 * counter (docs/topdown-formulas.md §1).
 *
 * Bytes 0..3 hold level 1 (retiring, bad speculation, frontend bound,
 * backend bound) as fractions of 0xff of the slots counted since the last
 * reset; on Sapphire Rapids and later bytes 4..7 hold heavy operations,
 * branch mispredicts, fetch latency and memory bound, each a subset of its
 * level 1 parent.  The other four level 2 nodes are differences.
 */
#ifndef TOPDOWN_PERF_METRICS_H
#define TOPDOWN_PERF_METRICS_H

#include <stdint.h>

#include "topdown/error.h"
#include "topdown/run.h"

/** The node stored in byte @p byte (0..7) of PERF_METRICS, TD_NONE otherwise. */
enum td_node td_pm_byte_node(int byte);

/** Byte @p byte (0..7) of @p metrics. */
unsigned td_pm_byte(uint64_t metrics, int byte);

/**
 * One read since the last reset: fraction_i = byte_i / 0xff, then level 1
 * renormalised so it sums to 1 (the bytes only approximately add up to 0xff;
 * pmu-tools does the same).  Level 2 (@p level >= 2) is scaled by the same
 * factor, and the four derived nodes are computed by subtraction.
 * Returns 0, or -spe_invalid when @p slots is 0 or the level 1 bytes are all 0.
 */
int td_pm_decode(uint64_t slots, uint64_t metrics, int level, struct td_values *out);

/**
 * The region between two reads a and b with no reset in between
 * (docs/topdown-formulas.md §1):
 * each node's slot count is slots × byte / 0xff at each read; the region's
 * fraction is Δcount / Δslots, level 1 renormalised, negatives clamped to 0,
 * derived level 2 nodes by subtraction.
 * Returns 0; -spe_invalid when slots_b <= slots_a (no slots, or a reset came
 * between the reads).
 */
int td_pm_region(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b, uint64_t metrics_b,
		 int level, struct td_values *out);

/* What td_pm_check found. */
enum td_pm_issue_kind {
	TD_PM_BAD_SUM,       /* level 1 bytes do not sum to 0xff within rounding: not real PERF_METRICS */
	TD_PM_CHILD_ABOVE,   /* a level 2 byte above its level 1 parent: not real PERF_METRICS */
	TD_PM_SHORT_REGION,  /* the region is too short for the 8-bit fields: the rounding error is large */
	TD_PM_NO_LEVEL2,     /* level 2 asked for, bytes 4..7 all zero: the CPU has level 1 only */
};

struct td_pm_issue {
	enum td_pm_issue_kind kind;
	double error;  /* TD_PM_SHORT_REGION: the rounding error bound, as a fraction of the region's slots */
	char msg[320];
};

/*
 * Check one read (@p n_reads 1: @p slots_b, @p metrics_b) or the two reads
 * of a region (2) for values PERF_METRICS cannot hold (docs/topdown-formulas.md §1):
 *  - bytes 0..3 summing outside 252..257: each field is the fraction x 0xff
 *    truncated or rounded, so four of them lose or gain less than 3 (or 2);
 *  - a level 2 byte (4..7) more than one step above its parent (0..3);
 *  - a region whose slots are so few that the 8-bit steps of both reads
 *    (SLOTS/255 each) make any node uncertain by more than 5 points of the
 *    region: the bound is (slots_a + slots_b) / (255 x region slots), which
 *    passes 100 % when the region is shorter than SLOTS/255;
 *  - @p level 2 on a CPU whose bytes 4..7 are zero (before Sapphire Rapids).
 * Writes at most @p max issues to @p out; returns how many were found.
 */
int td_pm_check(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b, uint64_t metrics_b, int n_reads, int level,
		struct td_pm_issue *out, int max);

/**
 * Finish from per-field fractions of the region's slots (ratio[i] for the
 * node of byte i): clamp, renormalise level 1, derive level 2.  Used for
 * slot counts read through read() as well.
 */
int td_pm_from_ratios(double ratio[8], int level, struct td_values *out);

#endif
