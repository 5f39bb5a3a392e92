/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: appending diagnostics. */
#ifndef SPE_FILTERS_DIAG_H
#define SPE_FILTERS_DIAG_H

#include "spe/filters.h"

/*
 * Append "option: <formatted text>" with the class of @p msg.  A strict
 * message is an error only when @p strict; others are always errors.
 */
void filt_diag_add(struct spe_filter_diags *diags, enum spe_filter_msg msg, bool strict, const char *option,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
