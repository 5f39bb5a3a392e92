/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf core's permission rules (see perf_access.h).  In the kernel's
 * perf_event_open(): a distribution level above 2 refuses everything without
 * CAP_SYS_ADMIN (Debian's and Ubuntu's patch; mainline treats it like 2);
 * attr.exclude_kernel = 0 and PERF_SAMPLE_PHYS_ADDR need perf_allow_kernel()
 * (paranoid <= 1 or perfmon_capable()); a CPU-wide event needs
 * perf_allow_cpu() (paranoid <= 0 or perfmon_capable()).  In perf_mmap():
 * the user may lock perf_event_mlock_kb per online CPU, anything beyond is
 * charged to the process and checked against RLIMIT_MEMLOCK unless
 * perf_event_paranoid is -1 or the caller has CAP_IPC_LOCK.
 */
#include "perf_access.h"
#include "target_internal.h"

#include <stdio.h>

bool filt_perf_may_open(const struct perf_caller *c)
{
	return !(c->restrict_patch && c->paranoid > 2) || c->sys_admin;
}

bool filt_perf_may_sample_kernel(const struct perf_caller *c)
{
	return filt_perf_may_open(c) && (c->paranoid <= 1 || c->perfmon);
}

bool filt_perf_may_profile_cpu(const struct perf_caller *c)
{
	return filt_perf_may_open(c) && (c->paranoid <= 0 || c->perfmon);
}

uint64_t filt_perf_mlock_allowance(const struct perf_caller *c, const struct perf_mlock *m)
{
	if (c->paranoid < 0 || c->ipc_lock || m->rlimit_bytes == UINT64_MAX)
		return UINT64_MAX;
	unsigned page = m->page_size >= 1024 ? m->page_size : 4096;
	return m->mlock_kb / (page / 1024) * (m->online_cpus ? m->online_cpus : 1) + m->rlimit_bytes / page;
}

bool spe_target_may_sample_kernel(const struct spe_target *t)
{
	struct perf_caller c = { .paranoid = t->paranoid, .perfmon = t->privileged };
	return filt_perf_may_sample_kernel(&c);
}

const char *spe_target_privilege_text(const struct spe_target *t, char *buf, size_t len)
{
	snprintf(buf, len, "perf_event_paranoid=%d and no CAP_PERFMON", t->paranoid);
	return buf;
}
