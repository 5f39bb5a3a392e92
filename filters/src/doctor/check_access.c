/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The access checks: perf_event_paranoid, the caller's capabilities, the
 * locked-memory limit, and what the caller may record with which options.
 * perf core's rules are perf_access.c's; the driver's (pa_enable,
 * pct_enable, CONTEXT packets) are kernel_rules.c's, per release.
 */
#include "doctor_facts.h"
#include "kernel_rules.h"
#include "perf_access.h"

#include <stdio.h>
#include <string.h>

#define CAPS_FIX "sudo setcap cap_perfmon,cap_ipc_lock+ep \"$(command -v spe-record)\""

static bool caller_known(const struct doctor_facts *f)
{
	return f->paranoid_known;
}

void filt_check_paranoid(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	if (!caller_known(f)) {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "not readable; perf assumes 2");
		return;
	}
	struct perf_caller p;
	filt_facts_caller(f, &p);
	int v = f->paranoid;
	filt_check_evidence(k, "/proc/sys/kernel/perf_event_paranoid", "%d", v);
	if (v > 2 && f->config_read == 1 && !f->restrict_symbol)
		filt_check_evidence(k, f->config_source, "no CONFIG_SECURITY_PERF_EVENTS_RESTRICT: %d acts as 2", v);
	if (!filt_perf_may_open(&p)) {
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_NO_PERMISSION,
			       "%d: this kernel refuses every perf event to callers without CAP_SYS_ADMIN (the Debian/Ubuntu "
			       "level above 2; CAP_PERFMON is not enough)",
			       v);
		filt_check_fix(k, "sudo sysctl kernel.perf_event_paranoid=2 (your own processes, user space) or 1 (the kernel "
			     "too); make it permanent in /etc/sysctl.d/");
		return;
	}
	if (p.perfmon) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "%d, but the caller has CAP_PERFMON (or CAP_SYS_ADMIN), which "
			       "overrides it", v);
		return;
	}
	bool cpu_wide_refused = c->plan->cpu_wide && !filt_perf_may_profile_cpu(&p);
	if (v > 2 && f->config_read != 1) {
		filt_check_set(k, cpu_wide_refused ? SPE_CHECK_FAIL : SPE_CHECK_WARN, SPE_DOCTOR_NO_PERMISSION,
			       "%d: mainline treats it as 2 (user space of your own processes), but Debian and Ubuntu "
			       "kernels refuse everything above 2 without CAP_SYS_ADMIN, and the configuration that would "
			       "tell is not readable",
			       v);
	} else if (v >= 2) {
		filt_check_set(k, cpu_wide_refused ? SPE_CHECK_FAIL : SPE_CHECK_WARN, SPE_DOCTOR_NO_PERMISSION,
			       "%d: user space of your own processes only; spe-record leaves the kernel out (exclude_kernel=1) "
			       "and says so%s",
			       v, cpu_wide_refused ? ", and -a or -C (CPU-wide) is refused" : "");
	} else if (v == 1) {
		filt_check_set(k, cpu_wide_refused ? SPE_CHECK_FAIL : SPE_CHECK_OK, SPE_DOCTOR_NO_PERMISSION,
			       "1: kernel and user space of your own processes; CPU-wide recording (-a, -C) needs 0 or "
			       "CAP_PERFMON");
	} else {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "%d: every process and CPU, kernel included%s", v,
			       v < 0 ? "; no locked-memory limit" : "");
	}
	if (k->status != SPE_CHECK_OK)
		filt_check_fix(k, "for kernel samples: sudo sysctl kernel.perf_event_paranoid=1 (CPU-wide -a/-C: 0), made "
			     "permanent in /etc/sysctl.d/; or give spe-record the capability: " CAPS_FIX);
}

void filt_check_privilege(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	if (!f->status_known) {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "unknown: /proc/self/status has no CapEff");
		return;
	}
	filt_check_evidence(k, "/proc/self/status", "Uid %ld, CapEff %016llx", f->uid, (unsigned long long)f->cap_eff);
	static const struct {
		unsigned bit;
		const char *name;
	} caps[] = { { CAP_BIT_PERFMON, "CAP_PERFMON" },
		     { CAP_BIT_SYS_ADMIN, "CAP_SYS_ADMIN" },
		     { CAP_BIT_IPC_LOCK, "CAP_IPC_LOCK" },
		     { CAP_BIT_SYSLOG, "CAP_SYSLOG" } };
	char have[160] = "", lack[160] = "";
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		char *dst = filt_facts_has_cap(f, caps[i].bit) ? have : lack;
		size_t n = strlen(dst);
		snprintf(dst + n, 160 - n, "%s%s", n ? ", " : "", caps[i].name);
	}
	bool old_kernel = f->kernel && f->kernel < 508 && filt_facts_has_cap(f, CAP_BIT_PERFMON) &&
			  !filt_facts_has_cap(f, CAP_BIT_SYS_ADMIN);
	filt_check_set(k, old_kernel ? SPE_CHECK_WARN : SPE_CHECK_OK, SPE_DOCTOR_OK, "uid %ld%s%s%s%s%s", f->uid,
		       have[0] ? "; has " : "", have, lack[0] ? "; lacks " : "", lack,
		       old_kernel ? "; Linux before 5.8 does not know CAP_PERFMON (only CAP_SYS_ADMIN counts)" : "");
}

/* The CPUs the recording opens on: the picked PMU's (or the first's), narrowed by -C. */
static void recorded_cpus(const struct check_ctx *c, int pick, struct spe_cpuset *set)
{
	const struct spe_target *t = &c->f->sys->pmu[pick < 0 ? 0 : pick];
	*set = t->cpus_known ? t->cpus : c->f->online;
	if (c->plan->have_cpus)
		for (unsigned w = 0; w < SPE_MAX_CPUS / 64; w++)
			set->bits[w] &= c->plan->cpus.bits[w];
}

static unsigned count_cpus(const struct spe_cpuset *s)
{
	unsigned n = 0;
	for (unsigned w = 0; w < SPE_MAX_CPUS / 64; w++)
		n += (unsigned)__builtin_popcountll(s->bits[w]);
	return n;
}

/* perf record's data ring for callers the limit applies to; it carries only sideband. */
#define LIMITED_DATA_BYTES (256u << 10)

struct mlock_plan {
	unsigned cpus;
	uint64_t aux_pages, data_pages; /* what spe-record maps per CPU (data: with its control page) */
	uint64_t want_aux, want_data;   /* the same before the limit cut them */
	uint64_t need, want_need, allowance;
	uint32_t best_aux; /* largest power-of-two -m that fits, 0 none */
	bool known, fits;
	bool aux_cut;      /* the AUX area is smaller than the default to fit (no -m) */
};

static uint64_t pow2_floor(uint64_t v)
{
	uint64_t p = 1;
	while (p <= v / 2)
		p <<= 1;
	return p;
}

/* Data ring pages (with the control page) for @p bytes: a power of two, at least one. */
static uint64_t ring_pages(uint64_t bytes, unsigned page)
{
	return 1 + pow2_floor(bytes / page ? bytes / page : 1);
}

static void mlock_plan(const struct check_ctx *c, int pick, struct mlock_plan *m)
{
	const struct doctor_facts *f = c->f;
	memset(m, 0, sizeof *m);
	struct spe_cpuset set;
	recorded_cpus(c, pick, &set);
	m->cpus = count_cpus(&set);
	m->want_aux = c->plan->aux_pages ? c->plan->aux_pages : c->plan->default_aux_bytes / f->page_size;
	if (m->want_aux < 2)
		m->want_aux = 2;
	m->want_data = ring_pages(c->plan->default_data_bytes, f->page_size);
	m->aux_pages = m->want_aux;
	m->data_pages = m->want_data;
	m->want_need = m->cpus * (m->want_aux + m->want_data);
	struct perf_caller p;
	filt_facts_caller(f, &p);
	struct perf_mlock ml = { .mlock_kb = f->mlock_kb, .online_cpus = f->n_online, .rlimit_bytes = f->rlimit,
				 .page_size = f->page_size };
	m->known = (f->mlock_known && f->rlimit_known) || p.ipc_lock || (caller_known(f) && f->paranoid < 0);
	m->allowance = m->known ? filt_perf_mlock_allowance(&p, &ml) : UINT64_MAX;
	if (m->want_need > m->allowance && m->cpus) {
		/* Sized to the allowance as perf record sizes its buffers for unprivileged callers. */
		uint64_t small = ring_pages(LIMITED_DATA_BYTES, f->page_size);
		if (small < m->data_pages)
			m->data_pages = small;
		if (!c->plan->aux_pages) {
			uint64_t a = 0;
			for (uint64_t t = 2; t <= m->want_aux; t <<= 1)
				if (m->cpus * (t + m->data_pages) <= m->allowance)
					a = t;
			if (a) {
				m->aux_pages = a;
				m->aux_cut = a < m->want_aux;
			}
		}
	}
	m->need = m->cpus * (m->aux_pages + m->data_pages);
	m->fits = m->need <= m->allowance;
	for (uint64_t a = 2; a <= (1u << 24) && m->cpus; a <<= 1)
		if (m->cpus * (a + m->data_pages) <= m->allowance)
			m->best_aux = (uint32_t)a;
}

static void plan_text(char *buf, size_t len, unsigned cpus, uint64_t aux, uint64_t data, unsigned kib)
{
	snprintf(buf, len, "%u CPUs x (AUX %llu KiB + data ring %llu KiB) = %llu KiB", cpus,
		 (unsigned long long)(aux * kib), (unsigned long long)(data * kib),
		 (unsigned long long)(cpus * (aux + data) * kib));
}

void filt_check_mlock(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	if (!c->have_pmus) {
		filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK, "no PMU");
		return;
	}
	char err[320];
	struct mlock_plan m;
	mlock_plan(c, filt_check_pick_pmu(c, err, sizeof err), &m);
	c->r->aux_pages = (uint32_t)m.aux_pages;
	c->r->data_pages = (uint32_t)(m.data_pages - 1);
	if (f->mlock_known)
		filt_check_evidence(k, "/proc/sys/kernel/perf_event_mlock_kb", "%llu", (unsigned long long)f->mlock_kb);
	if (f->rlimit_known && f->rlimit == UINT64_MAX)
		filt_check_evidence(k, "/proc/self/limits", "Max locked memory unlimited");
	else if (f->rlimit_known)
		filt_check_evidence(k, "/proc/self/limits", "Max locked memory %llu bytes", (unsigned long long)f->rlimit);
	filt_check_evidence(k, "/sys/devices/system/cpu/online", "%s (%u CPUs; page size %u)", f->online_text, f->n_online,
			    f->page_size);
	unsigned kib = f->page_size / 1024;
	char need[200];
	plan_text(need, sizeof need, m.cpus, m.aux_pages, m.data_pages, kib);
	if (!m.known) {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "%s; the limits are not readable", need);
		return;
	}
	if (m.allowance == UINT64_MAX) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "%s; no limit applies (CAP_IPC_LOCK, perf_event_paranoid -1 or an "
			       "unlimited RLIMIT_MEMLOCK)", need);
		return;
	}
	char allow[200];
	snprintf(allow, sizeof allow, "the caller may lock %llu KiB (perf_event_mlock_kb %llu x %u online CPUs + "
		 "RLIMIT_MEMLOCK %llu KiB)", (unsigned long long)(m.allowance * kib), (unsigned long long)f->mlock_kb,
		 f->n_online, (unsigned long long)(f->rlimit / 1024));
	uint64_t rl_pages = f->rlimit / f->page_size, online = f->n_online ? f->n_online : 1;
	uint64_t per_cpu = (m.want_need > rl_pages ? m.want_need - rl_pages + online - 1 : 0) / online;
	if (m.fits && m.aux_cut) {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "%s fits: %s; spe-record maps these, not the default %llu KiB "
			  "of AUX per CPU (%llu KiB in all): a smaller AUX area fills sooner, so more records may be lost",
			  need, allow, (unsigned long long)(m.want_aux * kib), (unsigned long long)(m.want_need * kib));
		filt_check_fix(k, "for %llu KiB of AUX per CPU: sudo sysctl kernel.perf_event_mlock_kb=%llu, or RLIMIT_MEMLOCK "
			     "(ulimit -l, LimitMEMLOCK=), or give spe-record CAP_IPC_LOCK: " CAPS_FIX,
			  (unsigned long long)(m.want_aux * kib), (unsigned long long)(per_cpu * kib));
		return;
	}
	if (m.fits) {
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "%s fits: %s%s", need, allow,
			  m.data_pages < m.want_data ? " (with the data ring cut to fit)" : "");
		return;
	}
	filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_NO_PERMISSION, "%s, but %s: the AUX mmap would fail (EPERM)", need, allow);
	char smaller[120] = "";
	if (m.best_aux)
		snprintf(smaller, sizeof smaller, "record with -m %u (%llu KiB of AUX per CPU), or ", m.best_aux,
			 (unsigned long long)m.best_aux * kib);
	filt_check_fix(k, "%sraise the limit: sudo sysctl kernel.perf_event_mlock_kb=%llu, or RLIMIT_MEMLOCK (ulimit -l, "
		     "LimitMEMLOCK=), or give spe-record CAP_IPC_LOCK: " CAPS_FIX "; other perf sessions of the same "
		     "user share the allowance",
		       smaller, (unsigned long long)(per_cpu * kib));
}

void filt_check_record(struct check_ctx *c, struct spe_check *k)
{
	const struct doctor_facts *f = c->f;
	if (!c->have_pmus) {
		filt_check_set(k, SPE_CHECK_SKIP, SPE_DOCTOR_OK, "nothing: no SPE PMU");
		return;
	}
	struct perf_caller p;
	filt_facts_caller(f, &p);
	char err[320];
	int pick = filt_check_pick_pmu(c, err, sizeof err);
	if (pick < 0 && err[0]) {
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "%s", err);
		pick = 0;
	}
	const struct spe_target *t = &f->sys->pmu[pick < 0 ? 0 : pick];
	struct mlock_plan m;
	mlock_plan(c, pick, &m);
	bool open = filt_perf_may_open(&p), kernel = filt_perf_may_sample_kernel(&p), cpu = filt_perf_may_profile_cpu(&p);
	bool priv = filt_kernel_priv_ok(t);
	char can[240], cannot[240];
	snprintf(can, sizeof can, "%s of %s; timestamps (ts_enable)%s",
		 kernel ? "user space and the kernel" : "user space", cpu ? "any process or CPU" : "a command or -p PID",
		 priv ? ", physical addresses (pa_enable), physical-counter timestamps (pct_enable)" : "");
	size_t n = 0;
	cannot[0] = '\0';
	if (!kernel)
		n += (size_t)snprintf(cannot + n, sizeof cannot - n, "%skernel samples", n ? ", " : "");
	if (!cpu)
		n += (size_t)snprintf(cannot + n, sizeof cannot - n, "%sCPU-wide recording (-a, -C)", n ? ", " : "");
	if (!priv)
		snprintf(cannot + n, sizeof cannot - n, "%spa_enable and pct_enable (%s)", n ? ", " : "",
			 filt_kernel_priv_relaxed(t) ? "perf_event_paranoid <= 1 or CAP_PERFMON" : "CAP_PERFMON before Linux 6.12");
	filt_check_evidence(k, t->pmu, "%s", can);
	if (cannot[0])
		filt_check_evidence(k, "not allowed", "%s", cannot);
	if (!open) {
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_NO_PERMISSION, "nothing: perf events are refused (see paranoid)");
		return;
	}
	/* The command that works now: this PMU's CPUs when there are several, a -m that fits. */
	char *cmd = c->r->command;
	size_t len = sizeof c->r->command, w = (size_t)snprintf(cmd, len, "spe-record");
	bool cpu_wide = c->plan->cpu_wide && cpu;
	if ((f->sys->count > 1 || c->plan->have_cpus) && w < len) {
		char list[96];
		struct spe_cpuset set;
		recorded_cpus(c, pick, &set);
		filt_cpuset_text(&set, list, sizeof list);
		w += (size_t)snprintf(cmd + w, len - w, " -C %s", list);
	} else if (cpu_wide && w < len) {
		w += (size_t)snprintf(cmd + w, len - w, " -a");
	}
	if (c->plan->aux_pages && m.fits && w < len)
		w += (size_t)snprintf(cmd + w, len - w, " -m %u", c->plan->aux_pages);
	else if (!m.fits && m.best_aux && w < len)
		w += (size_t)snprintf(cmd + w, len - w, " -m %u", m.best_aux);
	if (!cpu_wide && w < len)
		snprintf(cmd + w, len - w, " -- COMMAND");
	bool works = (!c->plan->cpu_wide || cpu) && m.fits;
	if (!m.fits && !m.best_aux)
		cmd[0] = '\0';
	if (k->status == SPE_CHECK_WARN && k->summary[0])
		return; /* several PMUs and no choice: said above */
	if (!works)
		filt_check_set(k, SPE_CHECK_FAIL, SPE_DOCTOR_NO_PERMISSION, "not as planned (%s); %s%s",
			       c->plan->cpu_wide && !cpu ? "CPU-wide needs perf_event_paranoid <= 0 or CAP_PERFMON"
						    : "the buffers exceed the locked-memory limit",
			       cmd[0] ? "this works now: " : "", cmd);
	else if (!kernel)
		filt_check_set(k, SPE_CHECK_WARN, SPE_DOCTOR_OK, "user space only: %s", cmd);
	else
		filt_check_set(k, SPE_CHECK_OK, SPE_DOCTOR_OK, "everything: %s", cmd);
}
