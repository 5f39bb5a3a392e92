/* SPDX-License-Identifier: Apache-2.0 */
/* Rebuild pc_summary and symbol_summary from pc_latency (every source). */
#ifndef SPE_LATENCY_ROLLUP_H
#define SPE_LATENCY_ROLLUP_H

#include <sqlite3.h>
#include <stddef.h>

/* 0, or a negative spe error with @p err filled in. */
int spe_latency_rollup(sqlite3 *db, char *err, size_t errlen);

#endif
