/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: helpers shared by the target builders and the compiler. */
#ifndef SPE_FILTERS_TARGET_INTERNAL_H
#define SPE_FILTERS_TARGET_INTERNAL_H

#include "spe/filters.h"

/*
 * IMPLEMENTATION DEFINED PMSEVFR bits (Arm ARM PMSEVFR_EL1): 12-15 and
 * 48-63 always; 24-31 only before SPEv1.4 (24/25 become the SME events
 * when FEAT_SPE_SME is implemented).  facts.h has rows only for the
 * architected bits, so these ranges live here.
 */
#define SPE_EVF_IMPDEF_ALWAYS 0xffff00000000f000ull
#define SPE_EVF_IMPDEF_BEFORE_V1P4 0x00000000ff000000ull

/* PMSVer value of an "1.N" SPE version string; 0 for anything else. */
unsigned spe_version_pmsver(const char *version);

/* Architected event bits a PMSVer implements (plus the SME rows if @p sme). */
uint64_t spe_evf_architected(unsigned pmsver, bool sme);

/* Reset @p t and set the defaults every builder shares. */
void filt_target_reset(struct spe_target *t);

/* facts.h CPU name and SPE version for a MIDR; false when unknown. */
bool spe_cpu_from_midr(uint64_t midr, const char **name, const char **version);

/* Name the CPU of @p t and raise its SPE version to the part's, from a MIDR (no-op when unknown). */
void filt_target_apply_midr(struct spe_target *t, uint64_t midr);

/* Fill the optional features of facts.h CPU @p name from the profile table. */
bool filt_profile_apply(const char *name, struct spe_target *t);

#endif
