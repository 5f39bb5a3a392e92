/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Level 1 (and where defined, level 2) from raw counts, per CPU.
 * Sources and the formulas themselves: docs/topdown-formulas.md.
 *
 * CPU names: Intel "sandybridge", "ivybridge", "haswell", "broadwell",
 * "skylake", "cascadelake" (generic-counter TMA, method "intel_generic"),
 * "westmere" (labelled approximation, method "wsm_approx"); Arm
 * "neoverse-n1" (cycle accounting, "arm_n1_cycles"), "neoverse-v1",
 * "neoverse-n2" (r0p0..r0p2, with the STALL_SLOT erratum correction),
 * "neoverse-n2:r0p3" (any ":rXpY" suffix picks the revision), "neoverse-v2",
 * "neoverse-n3", "neoverse-v3" (method "arm_topdown"), or an Arm MIDR such
 * as "0x410fd493".
 */
#ifndef TOPDOWN_FORMULA_H
#define TOPDOWN_FORMULA_H

#include "topdown/error.h"
#include "topdown/event_table.h"
#include "topdown/run.h"

struct td_cpu_info {
	enum td_isa isa;
	char name[40];        /* canonical model name ("skylake", "neoverse-n2") */
	int revision_known;
	int variant, revision; /* from rXpY or the MIDR */
	int slots;            /* slots per cycle (issue width / PMMIR_EL1.SLOTS); 0 unknown */
	const char *method;   /* "intel_generic", "wsm_approx", "arm_topdown", ... */
	int approx;           /* the method is an approximation */
};

/** Identify @p cpu (see above).  Returns 0 or -spe_unavailable. */
int td_cpu_lookup(const char *cpu, struct td_cpu_info *info);

/**
 * Compute the topdown nodes of @p iv from its raw counts with the formula
 * for @p cpu; values are raw (not clamped).  Returns the number of nodes set,
 * -spe_no_data when an event the formula needs is missing (@p err names it),
 * -spe_unavailable for an unknown CPU.
 */
int td_formula_apply(const struct td_cpu_info *cpu, struct td_interval *iv, char *err, size_t errlen);

/** The count of the event @p spec in @p iv, matched by encoding.  1 when found. */
int td_interval_count(const struct td_interval *iv, enum td_isa isa, const char *spec, double *value);

/** Number of Arm formula rows, and the CPU name of row @p i (for tests). */
int td_arm_formula_count(void);
const char *td_arm_formula_cpu(int i);
/* The i-th CPU model name td_cpu_lookup knows (Intel, then Arm), NULL after the last: for completion and --help. */
const char *td_cpu_model_name(unsigned i);

#endif
