/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: per-release driver behaviour. */
#ifndef SPE_FILTERS_KERNEL_RULES_H
#define SPE_FILTERS_KERNEL_RULES_H

#include "target_internal.h"

/* PMSEVFR/PMSNEVFR bits event_init accepts on @p t (complement of pmsevfr_res0). */
uint64_t filt_kernel_evf_accept(const struct spe_target *t);
/* The driver's kernel-privilege check (pa_enable, pct_enable, CX). */
bool filt_kernel_priv_ok(const struct spe_target *t);
/* Does @p t's release let perf_event_paranoid <= 1 stand for CAP_PERFMON there (6.12 and later)? */
bool filt_kernel_priv_relaxed(const struct spe_target *t);
/* What that check accepts, as the messages say it: "CAP_PERFMON[ or perf_event_paranoid <= 1]". */
const char *filt_kernel_priv_needs(const struct spe_target *t);
/* PMSIRR.INTERVAL the driver programs for @p period. */
uint64_t filt_kernel_effective_period(const struct spe_target *t, uint64_t period);
/* Why @p bit is rejected on @p t. */
void filt_event_bit_reason(const struct spe_target *t, unsigned bit, char *buf, size_t len);
/* Why the target has no field for @p term, and the message class. */
enum spe_filter_msg filt_term_missing_reason(const struct spe_target *t, enum spe_term term, char *buf, size_t len);

#endif
