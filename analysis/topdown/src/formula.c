/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Topdown formulas from raw counts.  Each formula cites its section of
 * docs/topdown-formulas.md, which gives each its public sources.
 */
#include "topdown/formula.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spe/facts.h"

enum formula_kind {
	F_INTEL_GENERIC, /* docs/topdown-formulas.md §2 */
	F_WSM_APPROX,    /* docs/topdown-formulas.md §3 "wsm_approx" [proposal] */
	F_ARM_N1,        /* docs/topdown-formulas.md §4: N1 stage 1 cycle accounting */
	F_ARM_SLOTS,     /* docs/topdown-formulas.md §4: V1, N2, V2 slot formulas */
	F_ARM_FLUSH,     /* docs/topdown-formulas.md §4: V3, N3 (STALL_FRONTEND_FLUSH) */
};

/* Intel models with generic-counter TMA level 1 (§2; pipeline width 4, S29). */
static const struct {
	const char *name, *alias;
} intel_generic_cpus[] = {
	{ "sandybridge", "snb" }, { "ivybridge", "ivb" }, { "haswell", "hsw" },
	{ "broadwell", "bdw" },   { "skylake", "skl" },   { "cascadelake", "clx" },
};
#define INTEL_WIDTH 4 /* SLOTS = 4 x CORE_CLKS, docs/topdown-formulas.md §2 */

/*
 * Arm cores: slots per cycle = num_slots of the telemetry JSON (PMMIR_EL1.SLOTS),
 * docs/topdown-formulas.md §4 table; the names are rows of SPE_CPU_LIST (a unit test checks).
 *   fe_br / be_br: multiples of BR_MIS_PRED/CPU_CYCLES taken out of frontend /
 *   backend bound (V1: 4 and 0; N2, V2: 1 and 3); bad speculation always adds 4.
 *   erratum: N2 before r0p3 counts one extra STALL_SLOT(_FRONTEND) per cycle.
 */
static const struct arm_formula {
	const char *cpu;
	enum formula_kind kind;
	int slots;
	int fe_br, be_br;
	int erratum_before_r0p3;
} arm_formulas[] = {
	{ "neoverse-n1", F_ARM_N1, 5, 0, 0, 0 },
	{ "neoverse-v1", F_ARM_SLOTS, 8, 4, 0, 0 },
	{ "neoverse-n2", F_ARM_SLOTS, 5, 1, 3, 1 },
	{ "neoverse-v2", F_ARM_SLOTS, 8, 1, 3, 0 },
	{ "neoverse-n3", F_ARM_FLUSH, 5, 0, 0, 0 },
	{ "neoverse-v3", F_ARM_FLUSH, 10, 0, 0, 0 },
};
#define ARM_BR_BUBBLE 4 /* cycles charged to bad speculation per mispredict (§4) */

int td_arm_formula_count(void)
{
	return (int)(sizeof arm_formulas / sizeof arm_formulas[0]);
}

const char *td_arm_formula_cpu(int i)
{
	return i >= 0 && i < td_arm_formula_count() ? arm_formulas[i].cpu : NULL;
}

const char *td_cpu_model_name(unsigned i)
{
	size_t n_intel = sizeof intel_generic_cpus / sizeof intel_generic_cpus[0];
	if (i < n_intel)
		return intel_generic_cpus[i].name;
	if (i == n_intel)
		return "westmere";
	return td_arm_formula_cpu((int)(i - n_intel - 1));
}

static const struct arm_formula *arm_formula_for(const char *name)
{
	for (int i = 0; i < td_arm_formula_count(); i++)
		if (strcmp(arm_formulas[i].cpu, name) == 0)
			return &arm_formulas[i];
	return NULL;
}

/* Name of the CPU part in an Arm MIDR, from the facts table. */
static const char *arm_part_name(unsigned long midr)
{
	unsigned impl = (midr >> 24) & 0xff, part = (midr >> 4) & 0xfff;
#define TD_CPU_MATCH(i, p, name, spe, map) \
	if (impl == (i) && part == (p))    \
		return name;
	SPE_CPU_LIST(TD_CPU_MATCH)
#undef TD_CPU_MATCH
	return NULL;
}

int td_cpu_lookup(const char *cpu, struct td_cpu_info *info)
{
	if (!cpu || !info)
		return -spe_invalid;
	memset(info, 0, sizeof *info);
	char name[40];
	const char *rev = strchr(cpu, ':');
	size_t n = rev ? (size_t)(rev - cpu) : strlen(cpu);
	if (n == 0 || n >= sizeof name)
		return -spe_unavailable;
	memcpy(name, cpu, n);
	name[n] = '\0';
	if (rev && sscanf(rev + 1, "r%dp%d", &info->variant, &info->revision) == 2)
		info->revision_known = 1;

	if (strncasecmp(name, "0x", 2) == 0) {
		char *end;
		unsigned long midr = strtoul(name, &end, 16);
		const char *part = *end ? NULL : arm_part_name(midr);
		if (!part)
			return -spe_unavailable;
		snprintf(name, sizeof name, "%s", part);
		info->variant = (midr >> 20) & 0xf;
		info->revision = midr & 0xf;
		info->revision_known = 1;
	}

	for (size_t i = 0; i < sizeof intel_generic_cpus / sizeof intel_generic_cpus[0]; i++) {
		if (strcasecmp(name, intel_generic_cpus[i].name) == 0 ||
		    strcasecmp(name, intel_generic_cpus[i].alias) == 0) {
			info->isa = TD_ISA_X86;
			snprintf(info->name, sizeof info->name, "%s", intel_generic_cpus[i].name);
			info->slots = INTEL_WIDTH;
			info->method = "intel_generic";
			return 0;
		}
	}
	if (strcasecmp(name, "westmere") == 0 || strcasecmp(name, "wsm") == 0) {
		info->isa = TD_ISA_X86;
		snprintf(info->name, sizeof info->name, "westmere");
		info->slots = INTEL_WIDTH; /* §3: width 4 */
		info->method = "wsm_approx";
		info->approx = 1;
		return 0;
	}
	const struct arm_formula *f = arm_formula_for(name);
	if (!f)
		return -spe_unavailable;
	info->isa = TD_ISA_ARM;
	snprintf(info->name, sizeof info->name, "%s", f->cpu);
	info->slots = f->slots;
	info->method = f->kind == F_ARM_N1 ? "arm_n1_cycles" : "arm_topdown";
	info->approx = f->kind == F_ARM_N1;
	return 0;
}

int td_interval_count(const struct td_interval *iv, enum td_isa isa, const char *spec, double *value)
{
	struct td_event_code want, have;
	char want_name[96], have_name[96];
	int want_known = td_event_resolve(spec, isa, &want, want_name, sizeof want_name) == 0;
	for (size_t i = 0; i < iv->n_events; i++) {
		const struct td_event_count *e = &iv->events[i];
		if (!e->counted)
			continue;
		if (!want_known) {
			/* Names no table knows (perf's topdown-* kernel aliases) match by name. */
			if (strcasecmp(e->name, spec) == 0) {
				*value = e->value;
				return 1;
			}
			continue;
		}
		if (td_event_resolve(e->name, isa, &have, have_name, sizeof have_name) != 0)
			continue;
		/* Same table name (one name may have several encodings) or same encoding. */
		if (strcasecmp(want_name, have_name) == 0 || td_event_code_equal(&want, &have)) {
			*value = e->value;
			return 1;
		}
	}
	return 0;
}

/* Fetch a required count; on failure fill the diagnostic. */
#define NEED(var, spec)                                                                           \
	do {                                                                                      \
		if (!td_interval_count(iv, cpu->isa, spec, &(var)))                               \
			return td_failf(err, errlen, spe_no_data, "%s formula needs the event %s", cpu->name, spec); \
	} while (0)

static int positive(char *err, size_t errlen, const char *what, double v)
{
	if (v > 0)
		return 0;
	return td_failf(err, errlen, spe_no_data, "%s is zero: no cycles were counted", what);
}

/* §2: Sandy Bridge..Skylake level 1 from generic counters (S3, S4, S9, S29). */
static int intel_generic(const struct td_cpu_info *cpu, struct td_interval *iv, char *err, size_t errlen)
{
	double slots, fe, issued, retired, recovery_slots, v;

	/* SLOTS = 4 x CORE_CLKS; CORE_CLKS = THREAD_ANY / 2 with SMT on, else THREAD. */
	if (td_interval_count(iv, cpu->isa, "topdown-total-slots", &v))
		slots = v; /* kernel alias, already scaled to slots by perf (S3) */
	else if (td_interval_count(iv, cpu->isa, "CPU_CLK_UNHALTED.THREAD_ANY", &v))
		slots = INTEL_WIDTH * v / 2;
	else {
		NEED(v, "CPU_CLK_UNHALTED.THREAD");
		slots = INTEL_WIDTH * v;
	}
	int rc = positive(err, errlen, "SLOTS", slots);
	if (rc)
		return rc;

	if (!td_interval_count(iv, cpu->isa, "topdown-fetch-bubbles", &fe))
		NEED(fe, "IDQ_UOPS_NOT_DELIVERED.CORE");
	if (!td_interval_count(iv, cpu->isa, "topdown-slots-issued", &issued))
		NEED(issued, "UOPS_ISSUED.ANY");
	if (!td_interval_count(iv, cpu->isa, "topdown-slots-retired", &retired))
		NEED(retired, "UOPS_RETIRED.RETIRE_SLOTS");
	/* Recovery_Cycles = RECOVERY_CYCLES_ANY / 2 with SMT on, else RECOVERY_CYCLES. */
	if (td_interval_count(iv, cpu->isa, "topdown-recovery-bubbles", &v))
		recovery_slots = v; /* kernel alias, scaled by 4 (S3) */
	else if (td_interval_count(iv, cpu->isa, "INT_MISC.RECOVERY_CYCLES_ANY", &v))
		recovery_slots = INTEL_WIDTH * v / 2;
	else {
		NEED(v, "INT_MISC.RECOVERY_CYCLES");
		recovery_slots = INTEL_WIDTH * v;
	}

	iv->slots = slots;
	double fb = fe / slots;
	double bs = (issued - retired + recovery_slots) / slots;
	double ret = retired / slots;
	td_values_set(&iv->values, TD_FRONTEND_BOUND, fb, 0);
	td_values_set(&iv->values, TD_BAD_SPECULATION, bs, 0);
	td_values_set(&iv->values, TD_RETIRING, ret, 0);
	td_values_set(&iv->values, TD_BACKEND_BOUND, 1 - fb - bs - ret, 1);
	return 4;
}

/* §3: the labelled Westmere approximation [proposal, unvalidated]. */
static int wsm_approx(const struct td_cpu_info *cpu, struct td_interval *iv, char *err, size_t errlen)
{
	double clk, retired, issued, stall, resource;
	NEED(clk, "CPU_CLK_UNHALTED.THREAD");
	NEED(retired, "UOPS_RETIRED.RETIRE_SLOTS");
	NEED(issued, "UOPS_ISSUED.ANY");
	NEED(stall, "UOPS_ISSUED.STALL_CYCLES");
	NEED(resource, "RESOURCE_STALLS.ANY");
	double slots = INTEL_WIDTH * clk;
	int rc = positive(err, errlen, "CPU_CLK_UNHALTED.THREAD", slots);
	if (rc)
		return rc;
	iv->slots = slots;
	iv->cycles = clk;

	double ret = retired / slots;
	double bs = (issued > retired ? issued - retired : 0) / slots;              /* lower bound */
	double fb = INTEL_WIDTH * (stall > resource ? stall - resource : 0) / slots; /* overstated */
	td_values_set(&iv->values, TD_RETIRING, ret, 0);
	td_values_set(&iv->values, TD_BAD_SPECULATION, bs, 0);
	td_values_set(&iv->values, TD_FRONTEND_BOUND, fb, 0);
	td_values_set(&iv->values, TD_BACKEND_BOUND, 1 - fb - bs - ret, 1);
	return 4;
}

/* Optional V3/N3 stage 2: fractions of the parent's stall cycles (§4). */
static int arm_stage2(const struct td_cpu_info *cpu, struct td_interval *iv)
{
	static const struct {
		enum td_node node;
		const char *part, *whole;
	} split[] = {
		{ TD_FRONTEND_CORE_BOUND, "STALL_FRONTEND_CPUBOUND", "STALL_FRONTEND" },
		{ TD_FRONTEND_MEM_BOUND, "STALL_FRONTEND_MEMBOUND", "STALL_FRONTEND" },
		{ TD_BACKEND_CORE_BOUND, "STALL_BACKEND_CPUBOUND", "STALL_BACKEND" },
		{ TD_BACKEND_MEM_BOUND, "STALL_BACKEND_MEMBOUND", "STALL_BACKEND" },
	};
	int n = 0;
	for (size_t i = 0; i < sizeof split / sizeof split[0]; i++) {
		double part, whole;
		if (td_interval_count(iv, cpu->isa, split[i].part, &part) &&
		    td_interval_count(iv, cpu->isa, split[i].whole, &whole) && whole > 0) {
			td_values_set(&iv->values, split[i].node, part / whole, 0);
			n++;
		}
	}
	return n;
}

/* §4 (S36, S37): Arm Neoverse formulas, as fractions (the spec prints percent). */
static int arm_topdown(const struct td_cpu_info *cpu, const struct arm_formula *f,
		       struct td_interval *iv, char *err, size_t errlen)
{
	double c;
	NEED(c, "CPU_CYCLES");
	int rc = positive(err, errlen, "CPU_CYCLES", c);
	if (rc)
		return rc;
	iv->cycles = c;

	if (f->kind == F_ARM_N1) {
		double sf, sb;
		NEED(sf, "STALL_FRONTEND");
		NEED(sb, "STALL_BACKEND");
		td_values_set(&iv->values, TD_FRONTEND_STALLED_CYCLES, sf / c, 0);
		td_values_set(&iv->values, TD_BACKEND_STALLED_CYCLES, sb / c, 0);
		return 2;
	}

	double ssf, ssb, ss, op_ret, op_spec;
	NEED(ssf, "STALL_SLOT_FRONTEND");
	NEED(ssb, "STALL_SLOT_BACKEND");
	NEED(ss, "STALL_SLOT");
	NEED(op_ret, "OP_RETIRED");
	NEED(op_spec, "OP_SPEC");
	if (op_spec <= 0)
		return td_failf(err, errlen, spe_no_data, "OP_SPEC is zero");
	double w = cpu->slots ? cpu->slots : f->slots;
	double ret_ratio = op_ret / op_spec;
	iv->slots = w * c;

	if (f->kind == F_ARM_FLUSH) {
		double flush;
		NEED(flush, "STALL_FRONTEND_FLUSH");
		double busy = 1 - ss / (w * c);
		td_values_set(&iv->values, TD_FRONTEND_BOUND, ssf / (w * c) - flush / c, 0);
		td_values_set(&iv->values, TD_BACKEND_BOUND, ssb / (w * c), 0);
		td_values_set(&iv->values, TD_RETIRING, busy * ret_ratio, 0);
		td_values_set(&iv->values, TD_BAD_SPECULATION, busy * (1 - ret_ratio) + flush / c, 0);
		return 4 + arm_stage2(cpu, iv);
	}

	double br;
	NEED(br, "BR_MIS_PRED");
	/* N2 r0p0..r0p2: STALL_SLOT and STALL_SLOT_FRONTEND over-count by one per cycle (S37). */
	int erratum = f->erratum_before_r0p3 &&
		      !(cpu->revision_known && (cpu->variant > 0 || cpu->revision >= 3));
	if (erratum) {
		ssf -= c;
		ss -= c;
	}
	double busy = 1 - ss / (w * c);
	td_values_set(&iv->values, TD_FRONTEND_BOUND, ssf / (w * c) - f->fe_br * br / c, 0);
	td_values_set(&iv->values, TD_BACKEND_BOUND, ssb / (w * c) - f->be_br * br / c, 0);
	td_values_set(&iv->values, TD_RETIRING, busy * ret_ratio, 0);
	td_values_set(&iv->values, TD_BAD_SPECULATION, busy * (1 - ret_ratio) + ARM_BR_BUBBLE * br / c, 0);
	return 4;
}

int td_formula_apply(const struct td_cpu_info *cpu, struct td_interval *iv, char *err, size_t errlen)
{
	if (!cpu || !iv || !cpu->method)
		return -spe_invalid;
	if (strcmp(cpu->method, "intel_generic") == 0)
		return intel_generic(cpu, iv, err, errlen);
	if (strcmp(cpu->method, "wsm_approx") == 0)
		return wsm_approx(cpu, iv, err, errlen);
	const struct arm_formula *f = arm_formula_for(cpu->name);
	if (f)
		return arm_topdown(cpu, f, iv, err, errlen);
	return td_failf(err, errlen, spe_unavailable, "no topdown formula for CPU %s", cpu->name);
}
