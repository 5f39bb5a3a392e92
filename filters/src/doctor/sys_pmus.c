/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The arm_spe_N PMUs, read by the filter compiler's own sysfs reader
 * (sysfs.c) from /sys/bus/event_source/devices with the checked system's
 * kernel release; each is named and versioned from the MIDR of the first
 * CPU it covers, and given the caller's paranoid level and privilege.
 */
#include "doctor_facts.h"
#include "perf_access.h"
#include "target_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cpu_group *group_of(const struct doctor_facts *f, const struct spe_target *t)
{
	for (unsigned i = 0; i < f->n_groups; i++)
		if (t->cpus_known && spe_cpuset_intersects(&f->group[i].cpus, &t->cpus))
			return &f->group[i];
	return NULL;
}

void filt_facts_read_pmus(struct doctor_facts *f)
{
	char dir[4352];
	const char *devices = "/sys/bus/event_source/devices";
	if (!filt_sysroot_exists(&f->root, devices)) {
		snprintf(f->pmu_error, sizeof f->pmu_error, "%s: absent", devices);
		return;
	}
	if (!filt_sysroot_path(&f->root, devices, dir, sizeof dir))
		return;
	f->sys = calloc(1, sizeof *f->sys);
	if (!f->sys)
		return;
	char err[320];
	if (spe_system_load_sysfs(dir, f->kernel, false, f->sys, err, sizeof err)) {
		/* Messages name the tree's path; show the system's. */
		size_t skip = strlen(f->root.dir);
		snprintf(f->pmu_error, sizeof f->pmu_error, "%s", strncmp(err, f->root.dir, skip) ? err : err + skip);
		free(f->sys);
		f->sys = NULL;
		return;
	}
	struct perf_caller c;
	filt_facts_caller(f, &c);
	for (unsigned i = 0; i < f->sys->count; i++) {
		struct spe_target *t = &f->sys->pmu[i];
		const struct cpu_group *g = group_of(f, t);
		if (g)
			filt_target_apply_midr(t, g->midr);
		t->paranoid = c.paranoid;
		t->privileged = c.perfmon;
	}
}
