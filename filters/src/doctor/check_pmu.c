/* SPDX-License-Identifier: Apache-2.0 */
/* The PMU checks: which arm_spe_N PMUs cover which CPUs, and what each offers the filter compiler. */
#include "doctor_facts.h"

#include <stdio.h>
#include <string.h>

int filt_check_pick_pmu(const struct check_ctx *c, char *err, size_t len)
{
	const struct spe_system *sys = c->f->sys;
	err[0] = '\0';
	if (!sys || !sys->count)
		return -1;
	if (!c->plan->have_cpus && !c->plan->pmu[0] && sys->count > 1)
		return -1; /* spe-record needs -C or -e arm_spe_N// here */
	return spe_system_pick(sys, c->plan->have_cpus ? &c->plan->cpus : NULL, c->plan->pmu, err, len);
}

void filt_check_pmu(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	const char *devices = "/sys/bus/event_source/devices";
	if (!c->have_pmus) {
		filt_check_evidence(k, devices, "%s", f->pmu_error[0] ? f->pmu_error : "no arm_spe_N");
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_UNAVAILABLE, "no arm_spe PMU: the kernel offers no SPE here");
		bool explained = false;
		for (int i = 0; i < SPE_CHECK_PMU; i++)
			explained |= c->r->check[i].status == SPE_CHECK_FAIL;
		filt_check_fix(k, "%s", explained ? "fix the failures above"
					     : "no check above found the cause; run spe doctor as root so it can read the "
					       "kernel log and the ACPI tables");
		return;
	}
	const struct spe_system *sys = f->sys;
	struct spe_cpuset covered = { { 0 } };
	char summary[400] = "", cpus[96];
	size_t n = 0;
	for (unsigned i = 0; i < sys->count; i++) {
		const struct spe_target *t = &sys->pmu[i];
		char path[160];
		snprintf(path, sizeof path, "%s/%s/cpumask", devices, t->pmu);
		filt_check_evidence(k, path, "%s", t->cpus_known ? t->cpumask_text : "absent");
		for (unsigned w = 0; w < SPE_MAX_CPUS / 64; w++)
			covered.bits[w] |= t->cpus.bits[w];
		char who[160];
		spe_target_describe(t, who, sizeof who);
		if (n < sizeof summary)
			n += (size_t)snprintf(summary + n, sizeof summary - n, "%s%s (type %d) covers CPUs %s", i ? "; " : "",
					      t->pmu, t->type, t->cpus_known ? t->cpumask_text : "?");
	}
	struct spe_cpuset missing = f->online;
	for (unsigned w = 0; w < SPE_MAX_CPUS / 64; w++)
		missing.bits[w] &= ~covered.bits[w];
	if (f->online_known && !spe_cpuset_empty(&missing)) {
		filt_cpuset_text(&missing, cpus, sizeof cpus);
		char have[96];
		filt_cpuset_text(&covered, have, sizeof have);
		filt_check_evidence(k, "/sys/devices/system/cpu/online", "%s", f->online_text);
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "%s; CPUs %s have no SPE PMU, so nothing there is sampled",
			       summary, cpus);
		const char *first = sys->pmu[0].cpus_known ? sys->pmu[0].cpumask_text : have;
		filt_check_fix(k, "keep the workload on CPUs with SPE (taskset -c %s) and record them with -C %s%s", first, first,
			       sys->count > 1 ? " (one PMU at a time: each arm_spe_N's cpumask is above)" : "");
		return;
	}
	filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "%s", summary);
	if (sys->count > 1)
		filt_check_fix(k, "spe-record records one PMU at a time: pick it with -C LIST (or -e arm_spe_N//)");
}

/* "load_filter, store_filter, ..." of the terms @p t does (@p want) or does not support. */
static void term_list(const struct spe_target *t, bool want, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < SPE_TERM_COUNT && n < len; i++) {
		const struct spe_term_info *ti = spe_term_info(i);
		if (ti->kind == SPE_TERM_RAW || i == SPE_TERM_DATA_SRC_FILTER)
			continue; /* whole words; the keep-mask spelling of inv_data_src_filter */
		char why[320];
		if (spe_term_supported(t, i, why, sizeof why) != want)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", ti->name);
	}
}

void filt_check_caps(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	if (!c->have_pmus) {
		filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK, "no PMU");
		return;
	}
	char summary[400] = "", terms[240], who[160];
	size_t n = 0;
	for (unsigned i = 0; i < f->sys->count; i++) {
		const struct spe_target *t = &f->sys->pmu[i];
		char path[160], evf[40] = "";
		snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/caps", t->pmu);
		if (t->evf_probed)
			snprintf(evf, sizeof evf, ", event_filter 0x%llx", (unsigned long long)t->evf_valid);
		filt_check_evidence(k, path, "min_interval %u, count_size %u, ernd %d, arch_inst %d%s", t->min_interval,
				    t->count_size, !!(t->features & SPE_FEAT_BIT(ERND)), !!(t->features & SPE_FEAT_BIT(ARCHINST)),
				    evf);
		snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/format", t->pmu);
		term_list(t, true, terms, sizeof terms);
		filt_check_evidence(k, path, "filters: %s", terms);
		term_list(t, false, terms, sizeof terms);
		if (terms[0])
			filt_check_evidence(k, path, "not here: %s (spe-record --list-filters says why)", terms);
		spe_target_describe(t, who, sizeof who);
		if (n < sizeof summary)
			n += (size_t)snprintf(summary + n, sizeof summary - n, "%s%s, minimum period %u", n ? "; " : "", who,
					      t->min_interval);
	}
	filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "%s", summary);
}
