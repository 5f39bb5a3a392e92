/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The machine's NUMA layout from sysfs, for the perf.data NUMA_TOPOLOGY and
 * MEM_TOPOLOGY features spe-record writes (perf record writes the same):
 * per node its CPU list (nodeN/cpulist), memory sizes (nodeN/meminfo) and
 * memory blocks (the nodeN/memoryI entries; block size from
 * memory/block_size_bytes).  The loader maps data physical addresses to
 * nodes with them (docs/perfdata-api.md, "NUMA topology").
 */
#ifndef SPE_NUMA_SYSFS_H
#define SPE_NUMA_SYSFS_H

#include <stdint.h>

#include "spe/spe.h"

#ifdef __cplusplus
extern "C" {
#endif

struct spe_numa_topology {
	uint32_t n_nodes;
	struct spe_perf_numa_node *nodes; /* sorted by node; cpus and blocks owned */
	uint64_t block_size;              /* bytes; 0 when no memory block is known */
};

/*
 * Read @p sys_root (normally "/sys") into @p t.  A kernel without NUMA
 * sysfs gives 0 nodes and returns 0; -spe_nomem without memory.  Unreadable
 * files of a node leave its fields empty (the features are informative).
 */
int spe_numa_read_sysfs(const char *sys_root, struct spe_numa_topology *t);
void spe_numa_topology_fini(struct spe_numa_topology *t);

#ifdef __cplusplus
}
#endif

#endif /* SPE_NUMA_SYSFS_H */
