/* SPDX-License-Identifier: Apache-2.0 */
/* What a load's counts mean for the exit status and the warnings, the same for every command that loads a file. */
#ifndef SPE_CLI_LOAD_STATUS_H
#define SPE_CLI_LOAD_STATUS_H

#include "spe/analysis.h"

/*
 * A file loaded with data that could not be decoded (exit 1, spe-load(1)):
 * bytes that are not SPE packets, or the file cut short.  AUX data the
 * kernel flagged truncated, partial or collided, and sideband events it
 * lost, are normal in real captures: perf only warns about them, and so do
 * we (cli_load_warn), with exit status 0.
 */
static inline int cli_load_is_partial(const struct spe_load_counts *k)
{
	return k->bad_bytes || k->cut;
}

/*
 * "PROG: FILE: warning: ..." on stderr, once per load: the AUX flags' and
 * lost events' counts, then the reader's warnings (feature sections it
 * skipped).
 */
void cli_load_warn(const char *prog, const char *file, const struct spe_load_counts *k);

#endif
