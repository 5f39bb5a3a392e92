/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every formula with counts chosen so the answer can be checked by hand
 * (the arithmetic is written next to each case).  Formulas: docs/topdown-formulas.md §2
 * (Intel generic), §3 (wsm_approx), §4 (Arm per core).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "spe/facts.h"
#include "topdown/formula.h"

#define CHECK_NEAR(a, b)                                                                   \
	do {                                                                               \
		double a_ = (a), b_ = (b);                                                 \
		if (fabs(a_ - b_) > 1e-9)                                                  \
			CHECK_FAIL_("%s ~ %s: %.6f != %.6f", #a, #b, a_, b_);              \
	} while (0)

struct count {
	const char *name;
	double value;
};

/* Build a one-interval run from a list of counts and apply the CPU's formula. */
static int apply(const char *cpu, const struct count *c, struct td_run *run, struct td_interval **ivp)
{
	struct td_cpu_info info;
	*ivp = NULL;
	td_run_init(run);
	if (td_cpu_lookup(cpu, &info) != 0)
		return -999;
	struct td_interval *iv = td_run_interval(run, 0, NULL);
	for (; c->name; c++)
		td_interval_add_event(iv, c->name, c->value, 1);
	*ivp = iv;
	return td_formula_apply(&info, iv, NULL, 0);
}

/*
 * Skylake: SLOTS = 4 x 1000 = 4000.  FE = 800/4000 = 0.2; BS = (2200 - 2000 +
 * 4 x 50)/4000 = 0.1; RET = 2000/4000 = 0.5; BE = 1 - 0.8 = 0.2.
 * Names in libpmc, perf-term and raw forms.
 */
TEST(intel_skylake)
{
	static const struct count c[] = {
		{ "CPU_CLK_UNHALTED.THREAD", 1000 },
		{ "cpu/event=0x9c,umask=0x01/", 800 },
		{ "UOPS_ISSUED.ANY", 2200 },
		{ "r02c2", 2000 },
		{ "event=0x0d,umask=0x01", 50 },
		{ NULL, 0 },
	};
	struct td_run run;
	struct td_interval *iv = NULL;
	CHECK_INT_EQ(apply("skylake", c, &run, &iv), 4);
	CHECK_NEAR(iv->values.frac[TD_FRONTEND_BOUND], 0.2);
	CHECK_NEAR(iv->values.frac[TD_BAD_SPECULATION], 0.1);
	CHECK_NEAR(iv->values.frac[TD_RETIRING], 0.5);
	CHECK_NEAR(iv->values.frac[TD_BACKEND_BOUND], 0.2);
	td_run_fini(&run);
}

/*
 * Sandy Bridge with SMT: CORE_CLKS = THREAD_ANY/2 = 1000, SLOTS 4000;
 * Recovery = RECOVERY_CYCLES_ANY/2 = 50 with the SNB encoding 0x0D/0x03 cmask=1.
 * Same answer as above.
 */
TEST(intel_sandybridge_smt)
{
	static const struct count c[] = {
		{ "CPU_CLK_UNHALTED.THREAD_ANY", 2000 },
		{ "IDQ_UOPS_NOT_DELIVERED.CORE", 800 },
		{ "UOPS_ISSUED.ANY", 2200 },
		{ "UOPS_RETIRED.RETIRE_SLOTS", 2000 },
		{ "event=0x0d,umask=0x03,cmask=1,any=1", 100 },
		{ NULL, 0 },
	};
	struct td_run run;
	struct td_interval *iv = NULL;
	CHECK_INT_EQ(apply("sandybridge", c, &run, &iv), 4);
	CHECK_NEAR(iv->values.frac[TD_BAD_SPECULATION], 0.1);
	CHECK_NEAR(iv->values.frac[TD_BACKEND_BOUND], 0.2);
	td_run_fini(&run);
}

/* perf <= 6.3 kernel aliases are already in slots: 400/4000 etc. */
TEST(intel_kernel_aliases)
{
	static const struct count c[] = {
		{ "topdown-total-slots", 4000 },
		{ "topdown-fetch-bubbles", 400 },
		{ "topdown-slots-issued", 3000 },
		{ "topdown-slots-retired", 2800 },
		{ "topdown-recovery-bubbles", 200 },
		{ NULL, 0 },
	};
	struct td_run run;
	struct td_interval *iv = NULL;
	CHECK_INT_EQ(apply("haswell", c, &run, &iv), 4);
	CHECK_NEAR(iv->values.frac[TD_FRONTEND_BOUND], 0.1);   /* 400/4000 */
	CHECK_NEAR(iv->values.frac[TD_BAD_SPECULATION], 0.1);  /* (3000-2800+200)/4000 */
	CHECK_NEAR(iv->values.frac[TD_RETIRING], 0.7);         /* 2800/4000 */
	CHECK_NEAR(iv->values.frac[TD_BACKEND_BOUND], 0.1);
	td_run_fini(&run);
}

/*
 * Westmere approximation: SLOTS 4000; RET = 2000/4000 = 0.5; BS = (2400-2000)/4000
 * = 0.1; FE = 4 x (300 - 100)/4000 = 0.2; BE = 0.2.  Event names from
 * pmc.westmere(3), one in libpmc qualifier form.
 */
TEST(westmere_approx)
{
	static const struct count c[] = {
		{ "CPU_CLK_UNHALTED.THREAD_P", 1000 },
		{ "UOPS_RETIRED.RETIRE_SLOTS", 2000 },
		{ "UOPS_ISSUED.ANY", 2400 },
		{ "UOPS_ISSUED.ANY,cmask=1,inv", 300 },
		{ "RESOURCE_STALLS.ANY", 100 },
		{ NULL, 0 },
	};
	struct td_run run;
	struct td_interval *iv = NULL;
	struct td_cpu_info info;
	CHECK_INT_EQ(td_cpu_lookup("westmere", &info), 0);
	CHECK(info.approx);
	CHECK_STR_EQ(info.method, "wsm_approx");
	CHECK_INT_EQ(apply("westmere", c, &run, &iv), 4);
	CHECK_NEAR(iv->values.frac[TD_RETIRING], 0.5);
	CHECK_NEAR(iv->values.frac[TD_BAD_SPECULATION], 0.1);
	CHECK_NEAR(iv->values.frac[TD_FRONTEND_BOUND], 0.2);
	CHECK_NEAR(iv->values.frac[TD_BACKEND_BOUND], 0.2);
	td_run_fini(&run);
}

/*
 * V2 (8 slots): C=1000.  FE = 1600/8000 - 10/1000 = 0.19; BE = 3200/8000 -
 * 3x10/1000 = 0.37; busy = 1 - 4800/8000 = 0.4; RET = 0.4 x 900/1000 = 0.36;
 * BS = 0.4 x 0.1 + 4 x 10/1000 = 0.08.  Sum 1.
 */
TEST(arm_v2)
{
	static const struct count c[] = {
		{ "CPU_CYCLES", 1000 }, { "STALL_SLOT_FRONTEND", 1600 }, { "stall_slot_backend", 3200 },
		{ "STALL_SLOT", 4800 }, { "OP_RETIRED", 900 },           { "r3b", 1000 },
		{ "BR_MIS_PRED", 10 },  { NULL, 0 },
	};
	struct td_run run;
	struct td_interval *iv = NULL;
	CHECK_INT_EQ(apply("neoverse-v2", c, &run, &iv), 4);
	CHECK_NEAR(iv->values.frac[TD_FRONTEND_BOUND], 0.19);
	CHECK_NEAR(iv->values.frac[TD_BACKEND_BOUND], 0.37);
	CHECK_NEAR(iv->values.frac[TD_RETIRING], 0.36);
	CHECK_NEAR(iv->values.frac[TD_BAD_SPECULATION], 0.08);
	td_run_fini(&run);
}

/*
 * N2 r0p0..r0p2 (5 slots, erratum): FE = (2000-1000)/5000 - 10/1000 = 0.19;
 * BE = 2000/5000 - 0.03 = 0.37; busy = 1 - (4000-1000)/5000 = 0.4; RET 0.36;
 * BS 0.08.  On r0p3 the same values come from STALL_SLOT_FRONTEND=1000 and
 * STALL_SLOT=3000 (no correction); MIDR 0x410fd493 is r0p3.
 */
TEST(arm_n2_erratum_and_r0p3)
{
	static const struct count old[] = {
		{ "CPU_CYCLES", 1000 }, { "STALL_SLOT_FRONTEND", 2000 }, { "STALL_SLOT_BACKEND", 2000 },
		{ "STALL_SLOT", 4000 }, { "OP_RETIRED", 900 },           { "OP_SPEC", 1000 },
		{ "BR_MIS_PRED", 10 },  { NULL, 0 },
	};
	static const struct count fixed[] = {
		{ "CPU_CYCLES", 1000 }, { "STALL_SLOT_FRONTEND", 1000 }, { "STALL_SLOT_BACKEND", 2000 },
		{ "STALL_SLOT", 3000 }, { "OP_RETIRED", 900 },           { "OP_SPEC", 1000 },
		{ "BR_MIS_PRED", 10 },  { NULL, 0 },
	};
	const char *cpus[] = { "neoverse-n2", "neoverse-n2:r0p3", "0x410fd493" };
	const struct count *counts[] = { old, fixed, fixed };
	for (int i = 0; i < 3; i++) {
		struct td_run run;
		struct td_interval *iv = NULL;
		CHECK_INT_EQ(apply(cpus[i], counts[i], &run, &iv), 4);
		CHECK_NEAR(iv->values.frac[TD_FRONTEND_BOUND], 0.19);
		CHECK_NEAR(iv->values.frac[TD_BACKEND_BOUND], 0.37);
		CHECK_NEAR(iv->values.frac[TD_RETIRING], 0.36);
		CHECK_NEAR(iv->values.frac[TD_BAD_SPECULATION], 0.08);
		td_run_fini(&run);
	}
}

/* V1 (8): FE = 1600/8000 - 4x10/1000 = 0.16; BE = 3200/8000 = 0.4; RET 0.36; BS 0.08. */
TEST(arm_v1)
{
	static const struct count c[] = {
		{ "CPU_CYCLES", 1000 }, { "STALL_SLOT_FRONTEND", 1600 }, { "STALL_SLOT_BACKEND", 3200 },
		{ "STALL_SLOT", 4800 }, { "OP_RETIRED", 900 },           { "OP_SPEC", 1000 },
		{ "BR_MIS_PRED", 10 },  { NULL, 0 },
	};
	struct td_run run;
	struct td_interval *iv = NULL;
	CHECK_INT_EQ(apply("neoverse-v1", c, &run, &iv), 4);
	CHECK_NEAR(iv->values.frac[TD_FRONTEND_BOUND], 0.16);
	CHECK_NEAR(iv->values.frac[TD_BACKEND_BOUND], 0.4);
	CHECK_NEAR(iv->values.frac[TD_RETIRING], 0.36);
	CHECK_NEAR(iv->values.frac[TD_BAD_SPECULATION], 0.08);
	td_run_fini(&run);
}

/*
 * V3 (10): FE = 3000/10000 - 50/1000 = 0.25; BE = 3000/10000 = 0.3; busy =
 * 1 - 6000/10000 = 0.4; RET 0.36; BS = 0.04 + 0.05 = 0.09; stage 2:
 * backend_mem_bound = 300/500 = 0.6, backend_core_bound = 200/500 = 0.4.
 * N3 (5) gives the same with half the slot counts.
 */
TEST(arm_v3_n3)
{
	static const struct count v3[] = {
		{ "CPU_CYCLES", 1000 },     { "STALL_SLOT_FRONTEND", 3000 }, { "STALL_SLOT_BACKEND", 3000 },
		{ "STALL_SLOT", 6000 },     { "OP_RETIRED", 900 },           { "OP_SPEC", 1000 },
		{ "STALL_FRONTEND_FLUSH", 50 }, { "STALL_BACKEND", 500 },    { "STALL_BACKEND_MEMBOUND", 300 },
		{ "STALL_BACKEND_CPUBOUND", 200 }, { NULL, 0 },
	};
	static const struct count n3[] = {
		{ "CPU_CYCLES", 1000 }, { "STALL_SLOT_FRONTEND", 1500 }, { "STALL_SLOT_BACKEND", 1500 },
		{ "STALL_SLOT", 3000 }, { "OP_RETIRED", 900 },           { "OP_SPEC", 1000 },
		{ "STALL_FRONTEND_FLUSH", 50 }, { NULL, 0 },
	};
	struct td_run run;
	struct td_interval *iv = NULL;
	CHECK_INT_EQ(apply("neoverse-v3", v3, &run, &iv), 6);
	CHECK_NEAR(iv->values.frac[TD_FRONTEND_BOUND], 0.25);
	CHECK_NEAR(iv->values.frac[TD_BACKEND_BOUND], 0.3);
	CHECK_NEAR(iv->values.frac[TD_RETIRING], 0.36);
	CHECK_NEAR(iv->values.frac[TD_BAD_SPECULATION], 0.09);
	CHECK_NEAR(iv->values.frac[TD_BACKEND_MEM_BOUND], 0.6);
	CHECK_NEAR(iv->values.frac[TD_BACKEND_CORE_BOUND], 0.4);
	td_run_fini(&run);
	CHECK_INT_EQ(apply("neoverse-n3", n3, &run, &iv), 4);
	CHECK_NEAR(iv->values.frac[TD_FRONTEND_BOUND], 0.25);
	CHECK_NEAR(iv->values.frac[TD_BAD_SPECULATION], 0.09);
	td_run_fini(&run);
}

/* N1 has no slot level 1: cycle accounting 250/1000 and 400/1000, flagged approximate. */
TEST(arm_n1_cycle_accounting)
{
	static const struct count c[] = {
		{ "CPU_CYCLES", 1000 }, { "STALL_FRONTEND", 250 }, { "STALL_BACKEND", 400 }, { NULL, 0 },
	};
	struct td_run run;
	struct td_interval *iv = NULL;
	struct td_cpu_info info;
	CHECK_INT_EQ(td_cpu_lookup("neoverse-n1", &info), 0);
	CHECK(info.approx);
	CHECK_INT_EQ(apply("neoverse-n1", c, &run, &iv), 2);
	CHECK_NEAR(iv->values.frac[TD_FRONTEND_STALLED_CYCLES], 0.25);
	CHECK_NEAR(iv->values.frac[TD_BACKEND_STALLED_CYCLES], 0.4);
	CHECK(!iv->values.set[TD_FRONTEND_BOUND]);
	td_run_fini(&run);
}

TEST(missing_event_and_unknown_cpu)
{
	static const struct count c[] = { { "CPU_CYCLES", 1000 }, { NULL, 0 } };
	struct td_run run;
	struct td_interval *iv = NULL;
	char err[256] = "";
	struct td_cpu_info info;
	CHECK_INT_EQ(apply("neoverse-v2", c, &run, &iv), -spe_no_data);
	CHECK_INT_EQ(td_cpu_lookup("neoverse-v2", &info), 0);
	CHECK_INT_EQ(td_formula_apply(&info, iv, err, sizeof err), -spe_no_data);
	CHECK(strstr(err, "STALL_SLOT_FRONTEND") != NULL);
	td_run_fini(&run);
	CHECK_INT_EQ(td_cpu_lookup("pentium4", &info), -spe_unavailable);
	CHECK_INT_EQ(td_cpu_lookup("0x410fd000", &info), -spe_unavailable);
}

/* The Arm formula rows use CPU names the SPE facts table knows. */
TEST(arm_formula_cpus_are_facts)
{
	for (int i = 0; i < td_arm_formula_count(); i++) {
		const char *name = td_arm_formula_cpu(i);
		int found = 0;
#define TD_CPU_FIND(impl, part, n, spe, map) found |= strcmp(n, name) == 0;
		SPE_CPU_LIST(TD_CPU_FIND)
#undef TD_CPU_FIND
		if (!found)
			CHECK_FAIL_("formula CPU %s is not in SPE_CPU_LIST", name);
	}
}

int main(void)
{
	RUN(intel_skylake);
	RUN(intel_sandybridge_smt);
	RUN(intel_kernel_aliases);
	RUN(westmere_approx);
	RUN(arm_v2);
	RUN(arm_n2_erratum_and_r0p3);
	RUN(arm_v1);
	RUN(arm_v3_n3);
	RUN(arm_n1_cycle_accounting);
	RUN(missing_event_and_unknown_cpu);
	RUN(arm_formula_cpus_are_facts);
	return check_summary();
}
