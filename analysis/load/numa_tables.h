/* SPDX-License-Identifier: Apache-2.0 */
/* A capture's NUMA layout as numa_node, numa_cpu and numa_memory rows of a row sink (numa_tables.c). */
#ifndef SPE_NUMA_TABLES_H
#define SPE_NUMA_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "record_summary.h"
#include "spe/row_sink.h"
#include "spe/spe.h"

/*
 * One row per node, one per CPU of its CPU list, one per run of adjacent
 * memory blocks (block_size bytes each; physical addresses, end exclusive).
 * The memory ranges also go to @p summary (numa_traffic's counts).
 * Returns 0, -spe_bad_file for a CPU list that does not parse, -spe_invalid
 * after the first record, -spe_nomem (message in @p err), or the sink's
 * negative code (its errmsg says what).
 */
int ana_numa_tables_write(const struct spe_row_sink *sink, int64_t source_id, const struct spe_perf_numa_node *nodes,
			  uint32_t n, uint64_t block_size, struct record_summary *summary, char *err, size_t errlen);

#endif
