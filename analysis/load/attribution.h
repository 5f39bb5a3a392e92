/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attribution: who ran a record and in which address space.  The sideband
 * of a load — threads (COMM), executable mappings (MMAP2), the threads
 * switched in on each CPU (ITRACE_START, SWITCH) and each CPU's MIDR — and
 * the rule that picks a record's pid and tid (docs/schema.md, spe_record):
 *   1. a CONTEXT packet gives the tid (pid from that tid's COMM);
 *   2. else the thread switched in on that CPU at or before the record's time;
 *   3. else the pid/tid of the AUXTRACE record that carried the bytes.
 * Nothing here writes rows: the loader reads the tables out at the end.
 */
#ifndef SPE_ATTRIBUTION_H
#define SPE_ATTRIBUTION_H

#include <stddef.h>
#include <stdint.h>

#include "build_id_table.h"
#include "pc_cache.h"
#include "spe/spe.h"

#define ATTRIB_NO_TIME UINT64_MAX

struct attrib_mapping {
	int64_t id;
	int pid;                    /* -1: every address space (the kernel's row) */
	uint64_t start, end, pgoff, time;
	int64_t prot;               /* a data mapping's PROT_* bits; -1: executable (PCs resolve in these only) */
	char *path, *build_id;      /* build_id NULL when unknown */
	/* resolution's handle on the mapped file (resolve.c): NULL until opened, or unreadable */
	struct spe_sym_binary *bin;
	int bin_tried;
	int bid_match;              /* enum spe_sym_match of the file, once resolution looked it up */
};

struct attrib_thread {
	int tid, pid;               /* pid -1 when unknown */
	char *comm;
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
	struct attrib_mapping *maps;
	size_t n_maps, cap_maps;
	struct attrib_thread *threads; /* in order of first appearance */
	size_t n_threads, cap_threads;
	struct pc_cache thread_index;  /* tid -> index in threads */
	struct ana_attrib_cpu *cpus;
	int n_cpus;
	struct build_id_table recorded_ids; /* HEADER_BUILD_ID: the files' ids by path */
};

void ana_attrib_free(struct attribution *a);

/* The state of @p cpu (0 .. SPE_AUX_MAX_CPUS - 1; -1 is taken as 0), created if new; NULL without memory or out of range. */
struct ana_attrib_cpu *ana_attrib_cpu(struct attribution *a, int cpu);
/* Remember @p tid's pid and name.  0 or -spe_nomem. */
int ana_attrib_comm(struct attribution *a, int pid, int tid, const char *comm);
/*
 * A new mapping with row id @p id: executable (@p prot -1: user mappings and
 * the kernel's), or data (its PROT_* bits: heap, stack, files, for data
 * objects).  NULL without memory.
 */
struct attrib_mapping *ana_attrib_add_mapping(struct attribution *a, int64_t id, int pid, uint64_t start, uint64_t len,
					      uint64_t pgoff, const char *path, const char *build_id, uint64_t time,
					      int64_t prot);
/* @p tid (of @p pid) starts running on @p cpu at @p time. */
void ana_attrib_switch_in(struct attribution *a, int cpu, int pid, int tid, uint64_t time);
struct attrib_thread *ana_attrib_find_thread(const struct attribution *a, int tid);
/*
 * The rule above: *pid and *tid come in as the AUXTRACE record's and go out
 * as the record's.  A thread seen for the first time is remembered.
 */
void ana_attrib_record(struct attribution *a, const struct ana_attrib_cpu *cpu, const struct spe_record *rec, uint64_t time,
		       int *pid, int *tid);
/* The executable mapping of @p pid holding @p pc: the latest one not after @p time, else the earliest; NULL if none. */
struct attrib_mapping *ana_attrib_find_mapping(const struct attribution *a, int pid, uint64_t pc, uint64_t time);

#endif
