/* SPDX-License-Identifier: Apache-2.0 */
/* What a load's counts mean for the exit status, the same for every command that loads a file. */
#ifndef SPE_CLI_LOAD_STATUS_H
#define SPE_CLI_LOAD_STATUS_H

#include "spe/analysis.h"

/* A file loaded with data missing (exit 1, spe-load(1)): decode errors, lost AUX data, or the file cut short. */
static inline int cli_load_is_partial(const struct spe_load_counts *k)
{
	return k->bad_bytes || k->lost_aux || k->cut;
}

#endif
