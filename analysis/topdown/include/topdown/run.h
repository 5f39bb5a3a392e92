/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The in-memory form of one topdown capture: what importers and the
 * measuring API produce and what the store writes.  A run holds intervals
 * (one per time step and scope); an interval holds node fractions (0..1 of
 * the node's basis) and the raw event counts they came from.
 */
#ifndef TOPDOWN_RUN_H
#define TOPDOWN_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "topdown/node.h"

struct td_values {
	double frac[TD_NODE_COUNT];
	unsigned char set[TD_NODE_COUNT];
	unsigned char derived[TD_NODE_COUNT]; /* computed by subtraction */
	long line[TD_NODE_COUNT];             /* input line the value was read from; 0 when computed */
};

struct td_event_count {
	char *name;        /* as the input spelled it */
	double value;
	int counted;       /* 0 for "<not counted>" / "<not supported>" */
};

struct td_interval {
	double t0, t1;     /* seconds from the start of the run; t1 < 0 when unknown */
	char *scope;       /* "all", "cpu_core", "S0-D0-C1", "CPU3", ... */
	double slots;      /* pipeline slots counted in the interval; 0 unknown */
	double cycles;     /* core cycles counted in the interval; 0 unknown */
	struct td_values values;
	struct td_event_count *events;
	size_t n_events, cap_events;
};

struct td_run {
	char *name, *workload, *host, *isa, *cpu, *tool, *method, *source;
	int approx;              /* the method is an approximation (wsm_approx, Arm N1 cycles) */
	int slots_per_cycle;     /* 0 when unknown */
	int64_t spe_source_id;   /* spe-load's source.id of the SPE capture taken with this run; 0 none */
	struct td_interval *iv;
	size_t n_iv, cap_iv;
};

void td_values_clear(struct td_values *v);
void td_values_set(struct td_values *v, enum td_node node, double frac, int derived);

void td_run_init(struct td_run *run);
void td_run_fini(struct td_run *run);
/** Replace *@p field with a copy of @p value (NULL clears).  Returns 0 or -spe_nomem. */
int td_run_set(char **field, const char *value);
/* The ISA and method a format implies, where the input did not say (an importer's last step). */
void td_run_default(struct td_run *run, const char *isa, const char *method);
/**
 * The interval of @p run that starts at @p t0 with @p scope, created when
 * missing (scope NULL means "all").  NULL when out of memory.
 */
struct td_interval *td_run_interval(struct td_run *run, double t0, const char *scope);
/**
 * Append a raw count.  A name already there keeps its first counted value
 * (perf -M repeats an event once per metric group that uses it, each with
 * its own multiplexed count); a "<not counted>" one is replaced by a count.
 */
int td_interval_add_event(struct td_interval *iv, const char *name, double value, int counted);
/** The count called @p name (case-insensitive), or NULL. */
const struct td_event_count *td_interval_event(const struct td_interval *iv, const char *name);
/** Number of node values set over all intervals. */
size_t td_run_value_count(const struct td_run *run);

#endif
