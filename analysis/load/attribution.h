/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attribution: who ran a record and in which address space.  The sideband
 * of a load — processes and threads (FORK, EXIT, COMM), mappings (MMAP,
 * MMAP2, the kernel's included), the threads switched in on each CPU
 * (ITRACE_START, SWITCH) and each CPU's MIDR — and the rule that picks a
 * record's thread (docs/schema.md, spe_record):
 *   1. a CONTEXT packet gives the tid;
 *   2. else the thread switched in on that CPU at or before the record's time;
 *   3. else the pid/tid of the AUXTRACE record that carried the bytes;
 * its process is the one that thread belonged to at the record's time
 * (processes.h), unknown when no sideband names the thread.  A record of an
 * unknown process is never given another process's mappings.
 * Nothing here writes rows: the loader reads the tables out at the end.
 */
#ifndef SPE_ATTRIBUTION_H
#define SPE_ATTRIBUTION_H

#include <stddef.h>
#include <stdint.h>

#include "build_id_table.h"
#include "pc_cache.h"
#include "processes.h"
#include "spe/spe.h"

#define ATTRIB_NO_TIME UINT64_MAX

/* A row of `mapping`: one MMAP/MMAP2 record (or the kernel's symbolic row). */
struct attrib_mapping {
	int64_t id;
	int pid;                    /* -1: the kernel's */
	uint64_t start, end, pgoff, time;
	int64_t prot;               /* a data mapping's PROT_* bits; -1: executable (PCs resolve in these only) */
	uint32_t flags;             /* a data mapping's MAP_* flags */
	char *path, *build_id;      /* build_id NULL when unknown */
	/* resolution's handle on the mapped file (resolve.c): NULL until opened, or unreadable */
	struct spe_sym_binary *bin;
	int bin_tried;
	/* a kernel map's kind (enum kernel_map_kind, resolve/kernel_syms.h; 0: a user map) */
	uint8_t kernel_kind;
	/* a module's kallsyms group (kernel_syms.c): 0 until decided, -1 none */
	int kernel_source;
	int bid_match;              /* enum spe_sym_match of the file, once resolution looked it up */
};

struct attrib_switch {
	uint64_t time;
	int pid, tid;
};

struct ana_attrib_cpu {
	int known;                  /* its trace was loaded (a cpu row is written) */
	uint32_t midr;
	struct attrib_switch *sw;   /* sorted by time */
	size_t n_sw, cap_sw;
};

struct attribution {
	struct attrib_mapping *maps;   /* the mapping rows, in the order added */
	size_t n_maps, cap_maps;
	struct processes procs;        /* processes, threads and their maps over time */
	struct pc_cache record_tids;   /* tids that records name and no COMM or FORK did: tid -> pid */
	struct pc_cache switch_tids;   /* the pid each tid last switched in with (ITRACE_START, SWITCH) */
	struct ana_attrib_cpu *cpus;
	int n_cpus;
	struct build_id_table recorded_ids; /* HEADER_BUILD_ID: the files' ids by path */
};

void ana_attrib_init(struct attribution *a);
void ana_attrib_fini(struct attribution *a);

/* The state of @p cpu (0 .. SPE_AUX_MAX_CPUS - 1; -1 is taken as 0), created if new; NULL without memory or out of range. */
struct ana_attrib_cpu *ana_attrib_cpu(struct attribution *a, int cpu);
/* Sideband (processes.h says what each does).  0 or -spe_nomem. */
int ana_attrib_comm(struct attribution *a, int pid, int tid, const char *comm, uint64_t time);
int ana_attrib_fork(struct attribution *a, int pid, int ppid, int tid, int ptid, uint64_t time, int from_proc);
int ana_attrib_exit(struct attribution *a, int pid, int tid, uint64_t time);
/*
 * A new mapping row with id @p id, mapped by @p pid (-1: the kernel's) from
 * @p time: executable (@p prot -1), or data (its PROT_* bits: heap, stack,
 * files, for data objects).  @p len 0 makes a symbolic row in no address
 * space.  NULL without memory.
 */
struct attrib_mapping *ana_attrib_add_mapping(struct attribution *a, int64_t id, int pid, uint64_t start, uint64_t len,
					      uint64_t pgoff, const char *path, const char *build_id, uint64_t time,
					      int64_t prot);
/* @p tid (of @p pid) starts running on @p cpu at @p time; the thread is then known to be @p pid's. */
void ana_attrib_switch_in(struct attribution *a, int cpu, int pid, int tid, uint64_t time);
/*
 * The rule above: *pid and *tid come in as the AUXTRACE record's and go out
 * as the record's (-1: unknown); *space is the process's address space
 * (PROC_NONE: unknown process).  0 or -spe_nomem.
 */
int ana_attrib_record(struct attribution *a, const struct ana_attrib_cpu *cpu, const struct spe_record *rec,
		      uint64_t time, int *pid, int *tid, uint32_t *space);
/* The mapping row of map @p m of the process model. */
static inline struct attrib_mapping *ana_attrib_map_row(const struct attribution *a, uint32_t m)
{
	return &a->maps[a->procs.maps[m].mapping];
}

#endif
