/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fetches from debuginfod servers, explicit and bounded: elfutils' client
 * (debuginfod.h), the servers of DEBUGINFOD_URLS, its cache
 * (DEBUGINFOD_CACHE_PATH ...), one fetch at a time, each given up when no
 * byte arrives for the timeout (before the first byte: from the start),
 * and stopped at once when the caller's cancel flag is set.  After a fetch
 * times out no other is tried (a server that does not answer would cost the
 * timeout once per file).  A fetch given up or stopped leaves nothing in
 * the client's cache (the client would record it as a miss for 10 minutes).
 */
#ifndef SPE_DEBUGINFOD_FETCH_H
#define SPE_DEBUGINFOD_FETCH_H

#include <signal.h>

#include "spe/analysis.h"

struct dbgd;

/*
 * A fetcher, or NULL when @p opts does not ask for one (debuginfod 0).
 * The timeout is opts->debuginfod_timeout, else DEBUGINFOD_TIMEOUT, else
 * SPE_SYM_DEBUGINFOD_TIMEOUT.  The client itself is made at the first fetch.
 */
struct dbgd *ana_dbgd_new(const struct spe_sym_opts *opts);
void ana_dbgd_free(struct dbgd *d);
/*
 * Fetch the @p what ("executable" or "debuginfo") of build-id @p hex, for
 * the file @p for_path (named in the notices).  Returns an fd and the
 * cached file in *file (malloc'd), or a negative code: -spe_not_found (no
 * server has it), -spe_cancelled, -spe_unavailable (no servers, timed out,
 * given up after a timeout, or failed).
 */
int ana_dbgd_fetch(struct dbgd *d, const char *hex, const char *what, const char *for_path, char **file);

#endif
