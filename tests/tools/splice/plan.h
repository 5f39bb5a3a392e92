/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The splice plan: which SPE records spe-splice adds to a capture, and the
 * settings of the arm64 capture it makes.  The format is documented in
 * tests/realcap/README.md ("The plan"); this is its parser.
 */
#ifndef SPLICE_PLAN_H
#define SPLICE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define PLAN_NAME 64
#define PLAN_PATH 256

enum plan_ref { REF_COMM, REF_CHILD, REF_THREAD, REF_TID };

/* task NAME REF: a name for one thread of the capture. */
struct plan_task {
	int line;
	char name[PLAN_NAME];
	enum plan_ref ref;
	char arg[PLAN_NAME]; /* the COMM string, or the parent task's name */
	unsigned nth;        /* #N, 1-based */
	uint32_t tid;        /* REF_TID */
};

enum plan_event_kind { EV_START, EV_END, EV_EXEC, EV_MMAP, EV_TIME };

/* A moment of the capture: start(T), end(T), exec(T), mmap(T,FILE), or a perf time in ns; plus an offset. */
struct plan_event {
	enum plan_event_kind kind;
	char task[PLAN_NAME];
	char file[PLAN_PATH];
	uint64_t time;       /* EV_TIME */
	int64_t delta_ns;    /* +N/-N with ns, us or ms */
};

enum plan_target_kind { TGT_SYMBOL, TGT_PLT, TGT_KERNEL, TGT_JIT, TGT_ADDR };

struct plan_target {
	enum plan_target_kind kind;
	char file[PLAN_PATH];  /* TGT_SYMBOL, TGT_PLT: a mapped file's path or basename */
	char name[PLAN_PATH];  /* symbol, PLT import, kernel symbol or perf-map name */
	uint64_t offset;       /* +OFF */
	uint64_t addr;         /* TGT_ADDR */
};

enum plan_op { OP_LOAD, OP_STORE, OP_BRANCH, OP_OTHER };

enum plan_ev_bits {
	PEV_L1D_MISS = 1u << 0,
	PEV_LLC_MISS = 1u << 1,
	PEV_TLB_MISS = 1u << 2,
	PEV_MISPRED = 1u << 3,
	PEV_REMOTE = 1u << 4,
};

/* spe TASK WHEN TARGET [key=value...]: one or more SPE records. */
struct plan_spe {
	int line;
	char task[PLAN_NAME];
	struct plan_event from, to; /* between(from,to); at(EV) sets both to EV */
	int at;
	struct plan_target target;
	unsigned count;      /* count=N, default 1 */
	int cpu;             /* cpu=N, -1 = auto */
	enum plan_op op;     /* op=, default load */
	unsigned lat;        /* lat=N: total latency of the first record (others +1 each); default 20 */
	uint32_t events;     /* ev=, PEV_* */
	int ctx;             /* ctx=yes|no: a CONTEXT packet with the tid, default yes */
	int el;              /* el=N, -1 = 0 for user targets, 1 for kernel ones */
	uint64_t va;         /* va=ADDR, 0 = a default stack address */
};

struct plan_build_id {
	int line;
	char path[PLAN_PATH];
	int none;            /* build-id PATH none: leave PATH out */
	uint8_t id[20];
	uint8_t size;
};

struct plan_binary {
	int line;
	char path[PLAN_PATH]; /* as mapped */
	char file[PLAN_PATH]; /* where the file that ran is (relative paths: from the plan's directory) */
};

struct plan {
	const char *name;
	uint64_t midr;           /* midr, default 0x413fd0c1 (Neoverse N1 r3p1) */
	uint32_t pmu_type;       /* pmu-type, 0 = choose */
	uint64_t timer_hz;       /* timer-hz, default 25000000 */
	int itrace_start;        /* itrace-start yes|no, default yes */
	int header_build_ids;    /* build-ids header|none, default header */
	char kallsyms[PLAN_PATH];/* kallsyms FILE */
	char perf_map[PLAN_PATH];/* perf-map FILE */
	struct plan_task *tasks;
	unsigned n_tasks;
	struct plan_spe *spes;
	unsigned n_spes;
	struct plan_build_id *build_ids;
	unsigned n_build_ids;
	struct plan_binary *binaries;
	unsigned n_binaries;
};

/*
 * Parse @p text (@p len bytes, need not be NUL-terminated) named @p name.
 * 0, or -1 with "NAME:LINE: problem" in @p err.  plan_free releases it either way.
 */
int plan_parse(struct plan *p, const char *text, size_t len, const char *name, char *err, size_t errlen);
void plan_free(struct plan *p);

const struct plan_task *plan_task(const struct plan *p, const char *name);

#endif
