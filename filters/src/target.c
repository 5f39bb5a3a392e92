/* SPDX-License-Identifier: Apache-2.0 */
/* Targets shared helpers: versions, cpusets, kernel releases, descriptions. */
#include "target_internal.h"

#include "spe/facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned spe_version_pmsver(const char *version)
{
	if (version[0] != '1' || version[1] != '.' || version[2] < '0' || version[2] > '9' || version[3])
		return 0;
	return (unsigned)(version[2] - '0') + 1;
}

uint64_t spe_evf_architected(unsigned pmsver, bool sme)
{
	uint64_t mask = 0;
#define SPE_X(bit, id, word, column, since, desc)                                            \
	{                                                                                    \
		unsigned need = spe_version_pmsver(since);                                   \
		if ((need && pmsver >= need) || (sme && !strcmp(since, "sme")))              \
			mask |= 1ull << bit;                                                 \
	}
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	return mask;
}

bool spe_cpu_from_midr(uint64_t midr, const char **name, const char **version)
{
	unsigned impl = (unsigned)(midr >> 24) & 0xff, part = (unsigned)(midr >> 4) & 0xfff;
#define SPE_X(i, p, n, v, ds)                         \
	if (impl == (i) && part == (p)) {              \
		*name = n;                             \
		*version = v;                          \
		return true;                           \
	}
	SPE_CPU_LIST(SPE_X)
#undef SPE_X
	return false;
}

void filt_target_apply_midr(struct spe_target *t, uint64_t midr)
{
	const char *cpu, *version;
	if (!spe_cpu_from_midr(midr, &cpu, &version))
		return;
	snprintf(t->cpu_name, sizeof t->cpu_name, "%s", cpu);
	unsigned pv = spe_version_pmsver(version);
	if (pv >= t->pmsver) {
		t->pmsver = pv;
		t->pmsver_is_lower_bound = false;
	}
}

void filt_target_reset(struct spe_target *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->pmu, sizeof t->pmu, "arm_spe_0");
	t->type = -1;
	t->kernel = SPE_KERNEL_NEWEST;
	t->count_size = 12;
	t->min_interval = 4096;
	t->paranoid = 2; /* perf's default; --paranoid / --privileged override */
	t->features = SPE_FEAT_BIT(NONE) | SPE_FEAT_BIT(FE) | SPE_FEAT_BIT(FT) | SPE_FEAT_BIT(FL);
}

/*
 * Set t->field[] from the driver rules: a term is shown when the kernel
 * has it and the target has its feature (format/ visibility: docs/filters.md,
 * "How the kernel driver treats a request").  Used by the profile and register builders.
 */
static void target_fields_from_rules(struct spe_target *t)
{
	for (int i = 0; i < SPE_TERM_COUNT; i++) {
		const struct spe_term_info *ti = spe_term_info(i);
		bool shown;
		if (ti->kind == SPE_TERM_RAW)
			shown = true; /* config words are not format/ files */
		else if (i == SPE_TERM_DATA_SRC_FILTER)
			shown = false; /* only the v1-v3 patch kernels had it */
		else
			shown = t->kernel >= ti->since &&
				(ti->feature == SPE_FEAT_PRIV || (t->features & (1u << ti->feature)));
		t->field[i] = (struct spe_format_field){ shown, ti->word, ti->lo, ti->hi };
	}
}

unsigned spe_kernel_parse(const char *text)
{
	char *end;
	unsigned long major = strtoul(text, &end, 10);
	if (end == text || *end != '.' || major < 2 || major > 99)
		return 0;
	const char *m = end + 1;
	unsigned long minor = strtoul(m, &end, 10);
	if (end == m || minor > 99)
		return 0;
	return (unsigned)(major * 100 + minor);
}

static int cpuset_add_range(struct spe_cpuset *set, unsigned long lo, unsigned long hi)
{
	if (lo > hi || hi >= SPE_MAX_CPUS)
		return -1;
	for (unsigned long c = lo; c <= hi; c++)
		set->bits[c / 64] |= 1ull << (c % 64);
	return 0;
}

int spe_cpuset_parse(const char *text, struct spe_cpuset *set, size_t *bad_offset)
{
	memset(set, 0, sizeof *set);
	const char *p = text;
	while (*p && *p != '\n') {
		char *end;
		if (*p < '0' || *p > '9')
			goto bad;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (*end == '-') {
			const char *h = end + 1;
			if (*h < '0' || *h > '9') {
				p = h;
				goto bad;
			}
			hi = strtoul(h, &end, 10);
		}
		if (cpuset_add_range(set, lo, hi))
			goto bad;
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	if (p == text)
		goto bad;
	return 0;
bad:
	if (bad_offset)
		*bad_offset = (size_t)(p - text);
	return -spe_invalid;
}

bool spe_cpuset_empty(const struct spe_cpuset *set)
{
	for (unsigned i = 0; i < SPE_MAX_CPUS / 64; i++)
		if (set->bits[i])
			return false;
	return true;
}

bool spe_cpuset_covers(const struct spe_cpuset *set, const struct spe_cpuset *sub)
{
	for (unsigned i = 0; i < SPE_MAX_CPUS / 64; i++)
		if (sub->bits[i] & ~set->bits[i])
			return false;
	return true;
}

bool spe_cpuset_intersects(const struct spe_cpuset *a, const struct spe_cpuset *b)
{
	for (unsigned i = 0; i < SPE_MAX_CPUS / 64; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

void spe_target_describe(const struct spe_target *t, char *buf, size_t len)
{
	char ver[32];
	if (t->pmsver)
		snprintf(ver, sizeof ver, "SPEv1.%u%s", t->pmsver - 1, t->pmsver_is_lower_bound ? " or later" : "");
	else
		snprintf(ver, sizeof ver, "of unknown SPE version");
	char cpu[48] = "";
	if (t->cpu_name[0])
		snprintf(cpu, sizeof cpu, " (%s)", t->cpu_name);
	snprintf(buf, len, "%s is %s%s on Linux %u.%u", t->pmu, ver, cpu, t->kernel / 100, t->kernel % 100);
}

int spe_target_from_regs(uint64_t pmsidr, unsigned pmsver, unsigned kernel, struct spe_target *t)
{
	/* PMSIDR_EL1 fields (Arm ARM, ARM DDI 0487; docs/filters.md, PMSIDR_EL1). */
	static const unsigned interval_to_period[16] = { [0] = 256, [2] = 512, [3] = 768, [4] = 1024,
							 [5] = 1536, [6] = 2048, [7] = 3072, [8] = 4096 };
	static const struct {
		unsigned bit;
		enum spe_feature feat;
	} flags[] = { { 0, SPE_FEAT_FE },	{ 1, SPE_FEAT_FT },   { 2, SPE_FEAT_FL },  { 3, SPE_FEAT_ARCHINST },
		      { 5, SPE_FEAT_ERND },	{ 6, SPE_FEAT_FNE },  { 7, SPE_FEAT_FDS }, { 26, SPE_FEAT_EFT },
		      { 32, SPE_FEAT_SME } };
	if (pmsver < 1 || pmsver > 6)
		return -spe_invalid;
	filt_target_reset(t);
	t->origin = SPE_TARGET_REGS;
	if (kernel)
		t->kernel = kernel;
	t->pmsver = pmsver;
	t->features = SPE_FEAT_BIT(NONE);
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (pmsidr >> flags[i].bit & 1)
			t->features |= 1u << flags[i].feat;
	if (pmsver >= 3)
		t->features |= SPE_FEAT_BIT(DISCARD);
	unsigned interval = (unsigned)(pmsidr >> 8) & 0xf;
	t->min_interval = interval_to_period[interval] ? interval_to_period[interval] : 4096;
	t->count_size = ((pmsidr >> 16) & 0xf) == 3 ? 16 : 12;
	t->evf_valid = spe_evf_architected(pmsver, t->features & SPE_FEAT_BIT(SME));
	target_fields_from_rules(t);
	return 0;
}

int spe_target_from_profile(const char *cpu, unsigned kernel, struct spe_target *t, char *err, size_t errlen)
{
	const char *version = NULL, *name = NULL;
#define SPE_X(i, p, n, v, ds)                         \
	if (!name && !strcmp(cpu, n)) {                \
		name = n;                              \
		version = v;                           \
	}
	SPE_CPU_LIST(SPE_X)
#undef SPE_X
	if (!name) {
		snprintf(err, errlen, "unknown CPU '%s' (spe-record --help lists the profiles)", cpu);
		return -spe_invalid;
	}
	unsigned pmsver = spe_version_pmsver(version);
	if (!pmsver) {
		snprintf(err, errlen, "CPU '%s' has no SPE version in facts.h", cpu);
		return -spe_unavailable;
	}
	filt_target_reset(t);
	t->origin = SPE_TARGET_PROFILE;
	if (kernel)
		t->kernel = kernel;
	snprintf(t->cpu_name, sizeof t->cpu_name, "%s", name);
	t->pmsver = pmsver;
	if (pmsver >= 3)
		t->features |= SPE_FEAT_BIT(DISCARD) | SPE_FEAT_BIT(FNE);
	filt_profile_apply(name, t);
	target_fields_from_rules(t);
	return 0;
}
