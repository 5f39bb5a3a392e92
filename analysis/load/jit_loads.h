/* SPDX-License-Identifier: Apache-2.0 */
/*
 * jitdump code in the process model.  A JIT runtime that writes a jitdump
 * maps a page of it executable (the marker), so the recording has an MMAP
 * of `.../jit-PID.dump`.  Each marker's dump is read (jitdump.h) and each
 * code load becomes a piece of code in the code layer of the process that
 * mapped the marker (processes.h), from the load's time on: a later load
 * over it replaces it there, as the MMAP2s perf inject --jit makes from the
 * loads cut each other (tools/perf/util/jitdump.c).  A CODE_MOVE is the
 * moved code at its new address from the move's time.  The marker itself
 * is no code (perf inject drops it).
 *
 * Rows: one mapping row per dump (path as recorded, pid, start and end
 * spanning its code, time of the marker, prot NULL), with a symbol row per
 * code load that holds sampled PCs; the pieces of code name that row (they
 * are not rows: 100,000 methods would be 100,000 mappings).
 *
 * Times.  With ARCH_TIMESTAMP the loads' times are the CPU counter's and
 * become perf time through the recording's TIME_CONV, as SPE timestamps
 * do; without, they are CLOCK_MONOTONIC ns, which is perf time only when
 * every event was recorded with that clock (perf record -k 1, attr
 * use_clockid): perf's rule, "jitted code must be sampled with perf record
 * -k 1".  When the times cannot be related (no TIME_CONV, another clock),
 * the code is placed from the marker's time on, and an address that two
 * different loads held has no name (which one ran cannot be known); the
 * dump's note says so.
 */
#ifndef SPE_JIT_LOADS_H
#define SPE_JIT_LOADS_H

#include <stdint.h>

#include "attribution.h"
#include "jit_symbols.h"
#include "spe/perfdata.h"

/* How the dump's times relate to the recording's. */
struct jit_clock {
	const struct spe_perf_time_conv *tc; /* the recording's TIME_CONV, or NULL */
	int monotonic;                       /* every event used CLOCK_MONOTONIC (perf record -k 1) */
};

/*
 * Whether @p path names a jitdump (a base name jit-DIGITS.dump), whatever
 * the digits: a process in a pid namespace names its dump by the pid it
 * sees there, not the recording's (perf inject compares them, and drops
 * such a dump unless that process still runs on the host it runs on).
 */
int ana_jit_marker_name(const char *path);

/*
 * The dump of a marker @p pid mapped at @p time (@p path as recorded): its
 * mapping row (id *@p next_mapping, then incremented) and its code in the
 * process model.  A dump that cannot be read leaves only its note (the
 * resolver's jit_symbols).  0 or -spe_nomem.
 */
int ana_jit_loads_add(struct attribution *at, struct jit_symbols *js, int64_t *next_mapping, int pid,
		      const char *path, uint64_t time, const struct jit_clock *clock);

#endif
