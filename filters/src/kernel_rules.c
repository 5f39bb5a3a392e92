/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What each kernel release of the arm_spe driver accepts: event-filter
 * accept masks, the kernel-privilege check, the period sanitiser, and why
 * a term is missing.  Releases: docs/filters.md ("Kernel releases the
 * compiler models", "Event bits the driver accepts"), from the history of
 * drivers/perf/arm_spe_pmu.c.
 */
#include "kernel_rules.h"

#include "spe/facts.h"

#include <stdio.h>
#include <string.h>

uint64_t filt_kernel_evf_accept(const struct spe_target *t)
{
	if (t->kernel >= 618)
		return t->evf_valid; /* probed: caps/event_filter */
	/* Fixed masks chosen by PMSVer, capped by what the release knew. */
	unsigned cap = t->kernel >= 603 ? 3 : t->kernel >= 512 ? 2 : 1;
	unsigned v = t->pmsver ? t->pmsver : 1;
	return spe_evf_architected(v < cap ? v : cap, false) | SPE_EVF_IMPDEF_ALWAYS | SPE_EVF_IMPDEF_BEFORE_V1P4;
}

/* First release whose fixed accept mask includes the bits of @p pmsver. */
static unsigned kernel_accepting_pmsver(unsigned pmsver)
{
	return pmsver <= 1 ? SPE_KERNEL_OLDEST : pmsver == 2 ? 512 : pmsver <= 4 ? 603 : 618;
}

bool filt_kernel_priv_relaxed(const struct spe_target *t)
{
	return t->kernel >= 612;
}

const char *filt_kernel_priv_needs(const struct spe_target *t)
{
	return filt_kernel_priv_relaxed(t) ? "CAP_PERFMON or perf_event_paranoid <= 1" : "CAP_PERFMON";
}

bool filt_kernel_priv_ok(const struct spe_target *t)
{
	if (filt_kernel_priv_relaxed(t))
		return t->paranoid <= 1 || t->privileged; /* perf_allow_kernel() */
	return t->privileged;                             /* perfmon_capable() */
}

/* What the privilege check needs and what @p t has (the needs-privilege text). */
static void kernel_priv_reason(const struct spe_target *t, char *buf, size_t len)
{
	char have[96];
	if (filt_kernel_priv_relaxed(t))
		snprintf(buf, len, "needs %s (Linux 6.12+); target has %s", filt_kernel_priv_needs(t),
			 spe_target_privilege_text(t, have, sizeof have));
	else
		snprintf(buf, len,
			 "needs CAP_PERFMON (Linux %u.%u ignores perf_event_paranoid here; 6.12 relaxed it); "
			 "target has no CAP_PERFMON",
			 t->kernel / 100, t->kernel % 100);
}

bool spe_term_needs_privilege(const struct spe_target *t, enum spe_term term, char *why, size_t len)
{
	const struct spe_term_info *ti = spe_term_info(term);
	if (!ti || ti->feature != SPE_FEAT_PRIV || filt_kernel_priv_ok(t))
		return false;
	kernel_priv_reason(t, why, len);
	return true;
}

uint64_t filt_kernel_effective_period(const struct spe_target *t, uint64_t period)
{
	const uint64_t max = 0xffffff00ull;
	if (t->kernel >= 617) {
		if (period < 256)
			period = 256;
	} else if (period < t->min_interval) {
		period = t->min_interval;
	}
	if (period > max)
		period = max;
	return period & max;
}

/* facts.h column name of an event bit, NULL for IMPDEF/reserved bits. */
static const char *event_bit_name(unsigned bit)
{
#define SPE_X(b, id, word, column, since, desc) \
	if (bit == (b))                          \
		return column;
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	return NULL;
}

static const char *event_bit_since(unsigned bit)
{
#define SPE_X(b, id, word, column, since, desc) \
	if (bit == (b))                          \
		return since;
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	return NULL;
}

void filt_event_bit_reason(const struct spe_target *t, unsigned bit, char *buf, size_t len)
{
	char who[160];
	spe_target_describe(t, who, sizeof who);
	const char *name = event_bit_name(bit), *since = event_bit_since(bit);
	if (name) {
		unsigned need = spe_version_pmsver(since);
		if (!since[0])
			snprintf(buf, len, "bit %u (%s) can never be filtered on", bit, name);
		else if (!need)
			snprintf(buf, len, "bit %u (%s) needs FEAT_%s; %s", bit, name,
				 !strcmp(since, "sme") ? "SPE_SME" : "TME", who);
		else if (t->pmsver < need)
			snprintf(buf, len, "bit %u (%s) needs SPEv%s; %s", bit, name, since, who);
		else if (t->kernel < kernel_accepting_pmsver(need))
			snprintf(buf, len, "bit %u (%s) needs Linux %u.%u for SPEv%s parts; %s", bit, name,
				 kernel_accepting_pmsver(need) / 100, kernel_accepting_pmsver(need) % 100, since, who);
		else
			snprintf(buf, len, "bit %u (%s) is not implemented (caps/event_filter=0x%llx); %s", bit, name,
				 (unsigned long long)t->evf_valid, who);
	} else if (bit >= 32 && bit < 48) {
		snprintf(buf, len, "bit %u is reserved (RAZ/WI)", bit);
	} else if (bit >= 26 && bit < 32 && t->pmsver >= 5) {
		snprintf(buf, len, "bit %u is reserved from SPEv1.4 (IMPDEF only before); %s", bit, who);
	} else {
		snprintf(buf, len, "IMPDEF bit %u is not implemented (caps/event_filter=0x%llx); %s", bit,
			 (unsigned long long)t->evf_valid, who);
	}
}

enum spe_filter_msg filt_term_missing_reason(const struct spe_target *t, enum spe_term term, char *buf, size_t len)
{
	const struct spe_term_info *ti = spe_term_info(term);
	char who[160];
	spe_target_describe(t, who, sizeof who);
	bool has_feature = ti->feature == SPE_FEAT_PRIV || (t->features & (1u << ti->feature));
	bool kernel_old = t->kernel < ti->since;
	/* sysfs cannot tell a missing feature from an old kernel: blame the kernel first. */
	if (kernel_old && (has_feature || t->origin == SPE_TARGET_SYSFS)) {
		snprintf(buf, len, "needs Linux %u.%u (the driver has no %s before); %s", ti->since / 100,
			 ti->since % 100, ti->name, who);
		return SPE_MSG_NEEDS_KERNEL;
	}
	if (t->origin == SPE_TARGET_SYSFS && has_feature) {
		/* The feature shows through another format/ file: name it, and the spelling to use. */
		const char *sibling = NULL;
		for (int i = 0; i < SPE_TERM_COUNT && !sibling; i++)
			if (i != (int)term && t->field[i].present && spe_term_info(i)->feature == ti->feature)
				sibling = spe_term_info(i)->name;
		int n = snprintf(buf, len, "%s has no format/%s, the field Linux %u.%u added for %s (SPEv%s)", t->pmu,
				 ti->name, ti->since / 100, ti->since % 100, spe_feature_name(ti->feature),
				 spe_feature_version(ti->feature));
		if (n < 0 || (size_t)n >= len)
			return SPE_MSG_NO_FIELD;
		if (term == SPE_TERM_INV_DATA_SRC_FILTER && t->field[SPE_TERM_DATA_SRC_FILTER].present)
			snprintf(buf + n, len - (size_t)n,
				 "; it has format/data_src_filter instead (the keep-mask of the early FDS patches): "
				 "give the sources to keep as data_src_filter");
		else if (sibling)
			snprintf(buf + n, len - (size_t)n, "; it shows %s only through format/%s; %s",
				 spe_feature_name(ti->feature), sibling, who);
		else
			snprintf(buf + n, len - (size_t)n, "; %s", who);
		return SPE_MSG_NO_FIELD;
	}
	snprintf(buf, len, "needs %s (SPEv%s); %s", spe_feature_name(ti->feature), spe_feature_version(ti->feature),
		 who);
	return SPE_MSG_NEEDS_FEATURE;
}

bool spe_term_supported(const struct spe_target *t, enum spe_term term, char *why, size_t len)
{
	const struct spe_term_info *ti = spe_term_info(term);
	if (!ti) {
		snprintf(why, len, "no such term");
		return false;
	}
	if (ti->kind == SPE_TERM_RAW) {
		if (t->kernel < ti->since) {
			snprintf(why, len, "Linux %u.%u has no %s (added in %u.%u)", t->kernel / 100, t->kernel % 100,
				 ti->name, ti->since / 100, ti->since % 100);
			return false;
		}
		return true;
	}
	if (term == SPE_TERM_DATA_SRC_FILTER) {
		if (t->field[SPE_TERM_DATA_SRC_FILTER].present || t->field[SPE_TERM_INV_DATA_SRC_FILTER].present)
			return true;
		term = SPE_TERM_INV_DATA_SRC_FILTER;
	}
	if (t->field[term].present)
		return true;
	filt_term_missing_reason(t, term, why, len);
	return false;
}
