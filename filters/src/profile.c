/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU profiles: the optional SPE features of each facts.h CPU part.
 *
 * The part list, MIDRs and SPE versions are facts.h's SPE_CPU_LIST; this is
 * the one table of what facts.h does not hold.  FnE and discard follow from
 * the version (both come with SPEv1.2) and are set by the caller.  A part
 * without a row gets the architectural minimum (12-bit counters, 4096
 * minimum interval, no ERnd/ArchInst, no IMPDEF event bits).
 */
#include "target_internal.h"

#include "spe/facts.h"

#include <string.h>

struct profile {
	const char *name;      /* facts.h CPU name */
	bool ernd, arch_inst, sme, eft, fds;
	unsigned count_size, min_interval;
	uint64_t impdef_events; /* IMPDEF PMSEVFR bits the part implements */
	const char *source;
};

/*
 * None of these parts is SPEv1.4, so none has EFT or FDS, and none has SME
 * (no SME in the Neoverse N/V cores listed).  The counter size and minimum
 * interval are the architectural defaults we could not confirm from a TRM
 * here: treat them as assumptions and correct them from the part's TRM
 * (PMSIDR_EL1 reset value) when one is at hand.
 */
static const struct profile profiles[] = {
	{ "neoverse-n1", false, false, false, false, false, 12, 1024, 0,
	  "version: facts.h; min_interval 1024 and no ERnd/ArchInst: assumed, not checked against the N1 TRM" },
	{ "neoverse-v1", false, false, false, false, false, 12, 1024, 0,
	  "version: facts.h; min_interval 1024: assumed (TRM not consulted)" },
	{ "neoverse-n2", false, false, false, false, false, 12, 1024, 0,
	  "version: facts.h; FnE/discard from SPEv1.2; min_interval 1024: assumed (TRM not consulted)" },
	{ "neoverse-v2", false, false, false, false, false, 12, 1024, 0,
	  "version: facts.h; FnE/discard from SPEv1.2; min_interval 1024: assumed (TRM not consulted)" },
	{ "neoverse-n3", false, false, false, false, false, 12, 1024, 0,
	  "version: facts.h (SPEv1.3); no EFT/FDS (SPEv1.4 features); min_interval 1024: assumed" },
	{ "neoverse-v3", false, false, false, false, false, 12, 1024, 0,
	  "version: facts.h (SPEv1.3); no EFT/FDS (SPEv1.4 features); min_interval 1024: assumed" },
};

static const struct profile *find(const char *name)
{
	for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

bool filt_profile_apply(const char *name, struct spe_target *t)
{
	const struct profile *p = find(name);
	t->evf_valid = spe_evf_architected(t->pmsver, p && p->sme);
	if (!p)
		return false;
	if (p->ernd)
		t->features |= SPE_FEAT_BIT(ERND);
	if (p->arch_inst)
		t->features |= SPE_FEAT_BIT(ARCHINST);
	if (p->sme)
		t->features |= SPE_FEAT_BIT(SME);
	if (p->eft)
		t->features |= SPE_FEAT_BIT(EFT);
	if (p->fds)
		t->features |= SPE_FEAT_BIT(FDS);
	t->count_size = p->count_size;
	t->min_interval = p->min_interval;
	t->evf_valid |= p->impdef_events;
	return true;
}

static const char *const cpu_names[] = {
#define SPE_X(i, p, n, v, ds) n,
	SPE_CPU_LIST(SPE_X)
#undef SPE_X
};

unsigned spe_profile_count(void)
{
	return sizeof cpu_names / sizeof cpu_names[0];
}

const char *spe_profile_name(unsigned i)
{
	return i < spe_profile_count() ? cpu_names[i] : NULL;
}

const char *spe_profile_source(unsigned i)
{
	if (i >= spe_profile_count())
		return NULL;
	const struct profile *p = find(cpu_names[i]);
	return p ? p->source : "version: facts.h; optional features: architectural minimum (no profile row)";
}
