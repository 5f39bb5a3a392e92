/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Measuring topdown from user space, over a region of one's own code or
 * over a child process.
 *
 *  - Intel Ice Lake and later: the group {slots, topdown-retiring,
 *    topdown-bad-spec, topdown-fe-bound, topdown-be-bound[, topdown-heavy-ops,
 *    topdown-br-mispredict, topdown-fetch-lat, topdown-mem-bound]} with
 *    SLOTS leading (docs/topdown-formulas.md §1); read with RDPMC (SLOTS at index
 *    (1<<30)|3, PERF_METRICS at 1<<29) when the mmapped page allows it,
 *    else with read() (always for another process: RDPMC reads the
 *    calling thread's counters); with RDPMC the group is reset when the slots since
 *    the last reset grow past TD_RESET_SLOTS, so the 8-bit fields keep
 *    their precision (docs/topdown-formulas.md §1).
 *  - Arm Neoverse: CPU_CYCLES, STALL_SLOT_FRONTEND, STALL_SLOT_BACKEND,
 *    STALL_SLOT, OP_SPEC, OP_RETIRED, BR_MIS_PRED (+ STALL_FRONTEND_FLUSH on
 *    V3/N3, STALL_FRONTEND/STALL_BACKEND on N1), slots from PMMIR_EL1 via
 *    sysfs caps/slots, level 1 by the core's formula (formula.h).
 *  - anything else: -spe_unavailable, the message naming the CPU.
 *
 * Every path under the system root (sysfs, /proc/cpuinfo) is read relative
 * to @p root so tests can point at a fixture tree ("" or NULL = "/").
 */
#ifndef TOPDOWN_MEASURE_H
#define TOPDOWN_MEASURE_H

#include <stdint.h>
#include <stdio.h>

#include "topdown/error.h"
#include "topdown/formula.h"
#include "topdown/run.h"

#define TD_MAX_EVENTS 10
#define TD_RESET_SLOTS (1ull << 32) /* about a second of slots on a 5-wide 4 GHz core */

enum td_pmu_kind { TD_PMU_NONE, TD_PMU_INTEL_METRICS, TD_PMU_ARM };

struct td_event_spec {
	char name[40];    /* sysfs event name */
	uint32_t type;    /* perf_event_attr.type (the PMU's sysfs type) */
	uint64_t config;
};

struct td_probe {
	enum td_pmu_kind kind;
	char cpu[128];      /* "model name" / MIDR, for messages */
	char pmu[64];       /* "cpu", "cpu_core", "armv8_pmuv3_0" */
	int level;          /* 1, or 2 when the CPU has the level 2 metrics (SPR+) */
	int slots;          /* Arm PMMIR_EL1.SLOTS; Intel 0 */
	struct td_cpu_info arm_cpu; /* Arm: the core's formula */
	int n_events;
	struct td_event_spec ev[TD_MAX_EVENTS]; /* ev[0] leads the group */
};

/**
 * Find the topdown PMU under @p root.  Returns 0, or -spe_unavailable with
 * @p err saying "topdown is not supported on this CPU (<name>): ...".
 * @p level asks for level 2 on Intel (ignored where the CPU lacks it).
 */
int td_probe(const char *root, int level, struct td_probe *p, char *err, size_t errlen);

/** Print the perf_event_attr fields td_session_open would use, one event per line. */
void td_probe_print_attrs(const struct td_probe *p, FILE *out);

struct td_session;

/**
 * Open the group.  @p pid: 0 = this thread, > 0 = that process (counting
 * starts at its exec when @p on_exec).  Returns 0 or a negative code with
 * errno's text in @p err (-spe_no_permission when perf refused).
 */
int td_session_open(const struct td_probe *p, int pid, int on_exec, struct td_session **s, char *err, size_t errlen);
void td_session_close(struct td_session *s);

/** Take a snapshot now (RDPMC or read()). */
struct td_snapshot {
	uint64_t v[TD_MAX_EVENTS]; /* Intel read(): slots, then per-metric slot counts; Arm: counts */
	uint64_t slots, metrics;   /* Intel RDPMC: raw SLOTS and PERF_METRICS */
	int rdpmc;
};
/* 0, or a negative code with the reason in td_session_errmsg(). */
int td_session_snapshot(struct td_session *s, struct td_snapshot *snap);

/**
 * Topdown fractions between two snapshots into @p iv's values (and raw
 * counts as events).  Returns the number of nodes set or a negative code
 * (td_session_errmsg() says why).
 */
int td_session_delta(struct td_session *s, const struct td_snapshot *a, const struct td_snapshot *b,
		     struct td_interval *iv);
/* The last failure of a call on @p s, "" if none. */
const char *td_session_errmsg(const struct td_session *s);

/* The region API for applications. */
int td_region_begin(struct td_session *s, struct td_snapshot *start);
int td_region_end(struct td_session *s, const struct td_snapshot *start, struct td_interval *iv);

#endif
