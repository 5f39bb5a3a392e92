/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What was true on the recorded machine, from the capture's sideband: which
 * threads existed when, which process each belonged to, what each process
 * had mapped at a given time and where each thread ran.  This is the
 * kernel's view, not perf's: a FORK of a new process copies the parent's
 * mappings, an exec (COMM with the exec flag) drops them all, a new mapping
 * cuts what it overlaps, a process's exit ends them, and a pid used again
 * starts from its new parent's mappings.  spe-splice computes each SPE
 * record's address and its expected pid, file and symbol from it.
 */
#ifndef SPLICE_MODEL_H
#define SPLICE_MODEL_H

#include <stdint.h>

#include "capture.h"
#include "plan.h"

/* One life of a thread: from its FORK (or first sighting) to its EXIT. */
struct task_life {
	uint32_t tid, pid;
	uint64_t birth, death;  /* death UINT64_MAX: still alive at the end */
	int forked;             /* born by a FORK record in the capture */
	uint32_t parent_tid;    /* the FORK's ptid */
	int process;            /* the FORK made a process (pid != ppid) */
};

struct map_entry {
	uint64_t start, end, pgoff;
	uint32_t prot;          /* PROT_* of MMAP2; 5 (r-x) for executable MMAP */
	int data;               /* not executable */
	const char *filename;   /* points into the capture */
	const uint8_t *build_id;
	uint8_t build_id_size;
	uint64_t time;          /* of the record that made it */
};

struct maps {
	struct map_entry *v;
	uint32_t n, cap;
};

/* Where a thread ran: [start, end) on cpu, from SWITCH / SWITCH_CPU_WIDE records. */
struct run_interval {
	uint64_t start, end;
	uint32_t cpu;
};

struct model {
	const struct capture *cap;
	/* Is a mapped file one the plan may name (a file of the sysroot)?  NULL: every file. */
	int (*known_file)(const void *ctx, const char *mapped);
	const void *known_ctx;
	uint32_t *order;        /* event indices in time order (untimed first, then file order) */
	struct task_life *lives;
	uint32_t n_lives;
	struct maps kernel;     /* kernel MMAPs (cpumode kernel) */
};

int model_init(struct model *m, const struct capture *c);
/* Only mappings of files @p known accepts match a plan's mmap(T,FILE). */
void model_set_known_files(struct model *m, int (*known)(const void *ctx, const char *mapped), const void *ctx);
void model_free(struct model *m);

/* The life a plan task names: 0, or -1 with "PLAN:LINE: problem" in @p err. */
int model_task(const struct model *m, const struct plan *p, const char *name, const struct task_life **life,
	       char *err, size_t errlen);
/* The time of a plan event: 0, or -1 with a message. */
int model_event_time(const struct model *m, const struct plan *p, const struct plan_event *ev, int line,
		     uint64_t *time, char *err, size_t errlen);
/* The mappings of process @p pid just before @p time (records at or after it not applied). */
void model_maps_at(const struct model *m, uint32_t pid, uint64_t time, struct maps *out);
void model_maps_free(struct maps *mp);
/* Where @p tid ran between @p from and @p to: intervals (malloc'd) and their count; 0 when unknown. */
uint32_t model_runs(const struct model *m, const struct task_life *life, uint64_t from, uint64_t to,
		    struct run_interval **out);
/* Is @p time equal to the time of any sideband record? */
int model_time_taken(const struct model *m, uint64_t time);

#endif
