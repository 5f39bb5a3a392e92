/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Processes, threads and address spaces over time, as perf models them
 * (tools/perf/util/machine.c, thread.c, maps.c; docs/architecture.md,
 * "Processes"):
 *   - a thread is a tid over a span of time, in one process; a FORK with an
 *     existing tid starts a new thread (tid reuse);
 *   - a process is a pid over a span of time (pid reuse: a FORK that makes
 *     pid anew starts a new one) with one address space its threads share;
 *   - FORK of a new process copies its parent's maps as they are at the
 *     fork (not when perf synthesized the FORK from /proc, misc bit 13);
 *     FORK of a thread joins the parent's process;
 *   - an MMAP cuts every map of that space it overlaps, from its time on
 *     (what is left below and above stays); exec flushes nothing; an unmap
 *     (the kernel's KSYMBOL unregister) cuts the same way and adds nothing;
 *   - the kernel's maps are one space of their own (pid -1);
 *   - JIT code (jitdump code loads, PROC_MAP_CODE) is a layer above a
 *     process's maps: a lookup finds the code there first, else the map
 *     below.  Code cuts the code it overlaps (a later load replaces an
 *     earlier one, as the MMAP2s perf inject --jit makes from them do) and
 *     nothing below it; an MMAP of a file (PROC_MAP_PLAIN) and an unmap cut
 *     both layers; an MMAP of anonymous memory (PROC_MAP_ANON: a JIT making
 *     its code writable and executable again re-maps the pages under its
 *     code) cuts only the maps below, as perf inject drops those MMAPs once
 *     a process has a jitdump.  FORK copies both layers.
 * Sideband may come in any order: events wait until the next lookup, which
 * applies them in time order (file order among equal times; no time counts
 * as time 0, the start of the capture).  Lookups answer for a time: a
 * record's thread, process and map then; records without a time see the
 * latest state.  Each lookup is O(log n) in the space's maps.
 *
 * Maps name mappings by index (the attribution's table of mapping rows); a
 * child's inherited maps name its parent's mappings.
 */
#ifndef SPE_PROCESSES_H
#define SPE_PROCESSES_H

#include <stddef.h>
#include <stdint.h>

#include "range_set.h"
#include "util/hash_map.h"

#define PROC_NO_TIME UINT64_MAX
#define PROC_NONE UINT32_MAX /* no such space, thread or map */

/* A piece of one mapping in one address space over [from, to) of perf time. */
struct proc_map {
	uint64_t start, end;
	uint64_t from, to; /* to = PROC_NO_TIME while current */
	uint32_t mapping;  /* index in the caller's table of mappings */
	uint32_t space;
};

/* A process: a pid from a time on, and its address space. */
struct proc_space {
	int pid;                 /* -1: the kernel's */
	uint64_t from;           /* its FORK, or 0: since before the capture */
	uint32_t prev_same_pid;  /* the space this pid had before, PROC_NONE */
	uint32_t *maps;          /* indices in processes.maps, in the order added */
	size_t n_maps, cap_maps;
	/* lookup index, rebuilt after maps were added: maps by start, their starts, and the highest end so far */
	uint32_t *by_start;
	uint64_t *starts;        /* the search reads these, one cache line for 8 maps */
	uint64_t *max_end;
	size_t n_indexed;
	uint32_t code;           /* the space of its code layer (no pid's: found through this), PROC_NONE */
	struct range_set live;   /* a code layer's live maps by address (its cuts need them in order) */
	/*
	 * Bumped by every MMAP or MUNMAP applied to it (or its code layer): a
	 * memo of a lookup in this space holds while the count is unchanged, as
	 * a map added later in the file (in time order or not) may cover time
	 * the memo's span claimed.
	 */
	uint32_t changes;
};

/* A thread: a tid from a time on, in one process. */
struct proc_thread {
	int tid;
	uint32_t space;
	uint64_t from, to;       /* to: its EXIT, PROC_NO_TIME while alive */
	uint32_t prev_same_tid;  /* the thread this tid was before, PROC_NONE */
	char *comm;              /* its last name, NULL until a COMM (or its parent's at FORK) */
};

/*
 * A thread's name from a time on: a COMM, or at a FORK the parent's name
 * then (NULL: unknown), as perf names a forked thread (tools/perf/util/
 * thread.c, thread__fork).  Kept in the order applied (time order; the
 * later of two at one time is the name), for the thread_comm table.
 */
struct proc_comm_change {
	int tid;
	uint64_t time;
	char *comm;
};

enum proc_event_kind { PROC_EV_FORK, PROC_EV_EXIT, PROC_EV_COMM, PROC_EV_MMAP, PROC_EV_MUNMAP };

/* What a map is, for the layers (above). */
enum proc_map_kind { PROC_MAP_PLAIN, PROC_MAP_ANON, PROC_MAP_CODE };

struct proc_event {
	enum proc_event_kind kind;
	uint64_t time, seq;
	int pid, ppid, tid, ptid;
	int flag;                /* FORK: synthesized from /proc (no maps copied); COMM: exec; MMAP: proc_map_kind */
	uint32_t mapping;        /* MMAP */
	uint64_t start, end;     /* MMAP, MUNMAP */
	char *comm;              /* COMM */
};

struct processes {
	struct proc_map *maps;
	size_t n_maps, cap_maps;
	struct proc_space *spaces;
	size_t n_spaces, cap_spaces;
	struct proc_thread *threads;
	size_t n_threads, cap_threads;
	struct util_map latest_space;  /* pid -> the latest space of that pid (uint32_t) */
	struct util_map latest_thread; /* tid -> the latest thread of that tid (uint32_t) */
	uint32_t kernel;               /* the kernel's space, PROC_NONE until a kernel map */
	struct proc_event *pending;    /* not applied yet */
	size_t n_pending, cap_pending;
	uint64_t seq;
	uint64_t out_of_order;         /* events older than one applied before them (perf's count too) */
	struct range_item *taken;      /* the code a cut takes out (scratch) */
	size_t cap_taken;
	uint64_t applied_time;
	struct proc_comm_change *comm_changes;
	size_t n_comm_changes, cap_comm_changes;
};

void ana_procs_init(struct processes *p);
void ana_procs_fini(struct processes *p);

/* Sideband, in arrival order.  0 or -spe_nomem. */
int ana_procs_fork(struct processes *p, int pid, int ppid, int tid, int ptid, uint64_t time, int from_proc);
int ana_procs_exit(struct processes *p, int pid, int tid, uint64_t time);
int ana_procs_comm(struct processes *p, int pid, int tid, const char *comm, uint64_t time, int exec);
/* A map of @p mapping over [start, end) in the space of @p pid (-1: the kernel's) from @p time. */
int ana_procs_mmap(struct processes *p, int pid, uint64_t start, uint64_t end, uint32_t mapping, uint64_t time);
/* The same, of a kind (enum proc_map_kind): ana_procs_mmap's is PROC_MAP_PLAIN. */
int ana_procs_mmap_kind(struct processes *p, int pid, uint64_t start, uint64_t end, uint32_t mapping, uint64_t time,
			int kind);
/* Nothing over [start, end) in the space of @p pid from @p time (the kernel's: a KSYMBOL unregistered). */
int ana_procs_munmap(struct processes *p, int pid, uint64_t start, uint64_t end, uint64_t time);

/* The change count of @p space (proc_space.changes), 0 for PROC_NONE. */
static inline uint32_t ana_procs_changes(const struct processes *p, uint32_t space)
{
	return space == PROC_NONE ? 0 : p->spaces[space].changes;
}

/* Apply the waiting sideband (the lookups do).  0 or -spe_nomem. */
int ana_procs_settle(struct processes *p);

/* Lookups at @p time (PROC_NO_TIME: the latest state); PROC_NONE when unknown.  Settle first. */
uint32_t ana_procs_thread_at(const struct processes *p, int tid, uint64_t time);
uint32_t ana_procs_space_at(const struct processes *p, int pid, uint64_t time);
/* The map of @p space holding @p addr at @p time. */
uint32_t ana_procs_map_at(struct processes *p, uint32_t space, uint64_t addr, uint64_t time);
/*
 * The same, and the span of time [*from, *to) around @p time over which the
 * answer stays the same (that map's window, or the gap between the maps
 * that held @p addr before and after; below code, also the gap in the code
 * above).
 */
uint32_t ana_procs_map_span(struct processes *p, uint32_t space, uint64_t addr, uint64_t time, uint64_t *from,
			    uint64_t *to);

/*
 * Whether @p time lies in map @p m's time window.  A map of a process with
 * code above its maps may be live and hidden: a memo of an answer keeps the
 * span ana_procs_map_span gave (ana_procs_span_holds).
 */
static inline int ana_procs_map_live(const struct processes *p, uint32_t m, uint64_t time)
{
	const struct proc_map *pm = &p->maps[m];
	if (time == PROC_NO_TIME)
		return pm->to == PROC_NO_TIME;
	return pm->from <= time && time < pm->to;
}

/* Whether @p time lies in the span [@p from, @p to) a lookup gave (PROC_NO_TIME: the latest state). */
static inline int ana_procs_span_holds(uint64_t from, uint64_t to, uint64_t time)
{
	if (time == PROC_NO_TIME)
		return to == PROC_NO_TIME;
	return from <= time && time < to;
}

#endif
