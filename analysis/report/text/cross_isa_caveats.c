/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a cross-ISA reader must know when two runs were measured by methods
 * whose definitions differ (docs/topdown-formulas.md §7, §2, §4).
 * A family is a way of counting; a caveat is printed for each family a
 * workload mixes with another, never when all its runs share one.
 */
#include <stdio.h>
#include <string.h>

#include "text_internal.h"

enum family { FAM_INTEL, FAM_ARM_TOOL, FAM_ARM_PERF, FAM_ARM_CYCLES, FAM_AMD, FAM_APPROX, FAM_COUNT };

static const char *const caveat_text[FAM_COUNT] = {
	[FAM_INTEL] = "Intel (perf, toplev, PERF_METRICS): bad_speculation is the issue slots of uops that never "
		      "retired plus the recovery bubbles after a clear; frontend/backend bound are slots only.",
	[FAM_ARM_TOOL] = "Arm topdown-tool (telemetry specification): bad_speculation adds a fixed bubble per "
			 "mispredict (4 slots per BR_MIS_PRED on N2/V2, STALL_FRONTEND_FLUSH cycles on V3/N3) and takes "
			 "it out of frontend/backend bound, which can go slightly negative.",
	[FAM_ARM_PERF] = "Arm perf TopdownL1: the generic sbsa.json formulas have no mispredict correction, so "
			 "bad_speculation reads lower and frontend/backend bound higher than topdown-tool on the same "
			 "workload (a core's own perf metrics file may differ).",
	[FAM_ARM_CYCLES] = "Arm stall-cycle accounting (N1, topdown-tool Cycle_Accounting, V3/N3 stage 2): shares of "
			   "cycles or of the parent's stall cycles, not of slots; they do not add up with slot rows.",
	[FAM_AMD] = "AMD (PipelineL1/L2): slots are dispatch slots; bad_speculation is (ops dispatched - ops retired) "
		    "/ slots; smt_contention, the slots given to the other SMT thread, is a fifth category Intel and "
		    "Arm fold into the other four.",
	[FAM_APPROX] = "Approximations (wsm_approx, Arm N1 cycles): labelled '~'; not a TMA measurement.",
};

static enum family family_of(const char *method, const char *isa)
{
	if (!method)
		return FAM_INTEL;
	if (!strcmp(method, "amd_pipeline"))
		return FAM_AMD;
	if (!strcmp(method, "wsm_approx"))
		return FAM_APPROX;
	if (!strcmp(method, "arm_n1_cycles"))
		return FAM_ARM_CYCLES;
	if (!strcmp(method, "arm_topdown"))
		return FAM_ARM_TOOL;
	if (isa && !strcmp(isa, "aarch64"))
		return FAM_ARM_PERF;
	return FAM_INTEL;
}

int report_method_caveats(const char *const *methods, const char *const *isas, int n, const char **out, int max)
{
	int present[FAM_COUNT] = { 0 }, families = 0, k = 0;
	for (int i = 0; i < n; i++) {
		enum family f = family_of(methods[i], isas[i]);
		families += !present[f];
		present[f] = 1;
	}
	if (families < 2)
		return 0;
	for (int f = 0; f < FAM_COUNT && k < max; f++)
		if (present[f])
			out[k++] = caveat_text[f];
	return k;
}

const char *report_method_vendor(const char *method, const char *isa)
{
	switch (family_of(method, isa)) {
	case FAM_AMD: return "AMD";
	case FAM_ARM_TOOL:
	case FAM_ARM_PERF:
	case FAM_ARM_CYCLES: return "Arm";
	case FAM_APPROX: return method && !strcmp(method, "wsm_approx") ? "Intel" : "Arm";
	default: return isa && !strcmp(isa, "aarch64") ? "Arm" : isa ? "Intel" : "?";
	}
}
