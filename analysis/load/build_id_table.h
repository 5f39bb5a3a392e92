/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The recording's build-id table: the HEADER_BUILD_ID entries of a
 * perf.data (the BUILD_ID feature, or type-67 records in a pipe), which name
 * the files by path.  A user mapping whose MMAP2 carries no build-id takes
 * its file's id from here, as perf gives a dso the header's id by name.
 * Only user entries name user mappings' files (cpumode USER); the host
 * kernel's entries (cpumode KERNEL: `[kernel.kallsyms]` and the modules'
 * paths) are kept apart for the kernel's symbol sources (kernel_syms.h);
 * guests' are not this machine's.
 */
#ifndef SPE_BUILD_ID_TABLE_H
#define SPE_BUILD_ID_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct recorded_bid {
	int pid;        /* as written: -1 (host) by perf, the process by spe-record */
	char *name;
	char hex[41];
	int kernel;     /* cpumode KERNEL: the kernel image or a module */
};

struct build_id_table {
	struct recorded_bid *e;
	size_t n, cap;
};

/* Add an entry (@p misc: the entry's header misc; its cpumode decides whether it counts).  0 or -spe_nomem. */
int ana_bid_table_add(struct build_id_table *t, int pid, uint16_t misc, const uint8_t *id, unsigned size,
		      const char *name);
/*
 * The recorded id of @p name mapped by @p pid: the entry of that pid, else
 * the id all entries of that name agree on; NULL when there is none, or
 * when they disagree (which file it was is then not known).
 */
const char *ana_bid_table_find(const struct build_id_table *t, const char *name, int pid);
/* The recorded id of the host kernel's @p name (`[kernel.kallsyms]`, a module's path), as find() decides; NULL if none. */
const char *ana_bid_table_find_kernel(const struct build_id_table *t, const char *name);
void ana_bid_table_free(struct build_id_table *t);

#endif
