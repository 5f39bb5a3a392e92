/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: what perf core (not the arm_spe driver) lets a caller do, by
 * perf_event_paranoid and capability.  The rules are those of
 * kernel/events/core.c and Documentation/admin-guide/perf-security.rst;
 * docs/spe-doctor.1.md states them in our words.
 */
#ifndef SPE_FILTERS_PERF_ACCESS_H
#define SPE_FILTERS_PERF_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

/* The caller as perf core sees it. */
struct perf_caller {
	int paranoid;        /* /proc/sys/kernel/perf_event_paranoid */
	bool perfmon;        /* perfmon_capable(): CAP_PERFMON (5.8+) or CAP_SYS_ADMIN */
	bool sys_admin;      /* CAP_SYS_ADMIN */
	bool ipc_lock;       /* CAP_IPC_LOCK */
	bool restrict_patch; /* the kernel carries the Debian/Ubuntu "paranoid > 2" patch */
};

/* Any perf_event_open at all (the distribution level above 2 refuses all but CAP_SYS_ADMIN). */
bool filt_perf_may_open(const struct perf_caller *c);
/* attr.exclude_kernel = 0, or PERF_SAMPLE_PHYS_ADDR: perf_allow_kernel(). */
bool filt_perf_may_sample_kernel(const struct perf_caller *c);
/* A CPU-wide event (pid -1: -a, -C): perf_allow_cpu(). */
bool filt_perf_may_profile_cpu(const struct perf_caller *c);

/* perf_mmap()'s locked-memory accounting, for a caller with nothing else locked. */
struct perf_mlock {
	uint64_t mlock_kb;      /* /proc/sys/kernel/perf_event_mlock_kb */
	unsigned online_cpus;   /* the per-user allowance scales with them */
	uint64_t rlimit_bytes;  /* RLIMIT_MEMLOCK; UINT64_MAX when unlimited */
	unsigned page_size;
};

/*
 * Pages of perf buffers the caller may map: mlock_kb per online CPU, plus
 * RLIMIT_MEMLOCK beyond it; UINT64_MAX when nothing is enforced (paranoid
 * -1 or CAP_IPC_LOCK).
 */
uint64_t filt_perf_mlock_allowance(const struct perf_caller *c, const struct perf_mlock *m);

#endif
