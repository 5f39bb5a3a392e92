/* SPDX-License-Identifier: Apache-2.0 */
/* User-space topdown: probing the PMU under a system root, opening the group, reading it. */
#include "topdown/measure.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "topdown/perf_metrics.h"

/* Intel metric events in PERF_METRICS byte order (docs/topdown-formulas.md §1). */
static const char *const intel_metric_events[8] = {
	"topdown-retiring",  "topdown-bad-spec",      "topdown-fe-bound",  "topdown-be-bound",
	"topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
};

/* Arm events of the slot formulas (docs/topdown-formulas.md §4), as sysfs names them. */
static const char *const arm_slot_events[] = {
	"cpu_cycles", "stall_slot_frontend", "stall_slot_backend", "stall_slot", "op_spec", "op_retired", "br_mis_pred",
};
static const char *const arm_n1_events[] = { "cpu_cycles", "stall_frontend", "stall_backend" };
static const char *const arm_optional_events[] = { "stall_frontend_flush" }; /* V3, N3 */

static int read_text(const char *root, const char *path, char *buf, size_t cap)
{
	char full[1024];
	snprintf(full, sizeof full, "%s%s", root, path);
	FILE *f = fopen(full, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, cap - 1, f);
	fclose(f);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

static void cpu_name(const char *root, char *out, size_t cap)
{
	char buf[8192];
	snprintf(out, cap, "unknown CPU");
	if (read_text(root, "/proc/cpuinfo", buf, sizeof buf) != 0)
		return;
	for (const char *key = "model name"; key; key = strcmp(key, "model name") == 0 ? "CPU part" : NULL) {
		char *p = strstr(buf, key);
		if (!p || !(p = strchr(p, ':')))
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, "\n");
		snprintf(out, cap, "%s%.*s", strcmp(key, "CPU part") == 0 ? "Arm CPU part " : "", (int)n, p);
		return;
	}
}

/* Fill ev from the sysfs event file of @p pmu.  0, or -1 when the event does not exist. */
static int sysfs_event(const char *root, const char *pmu, const char *name, enum td_isa isa, uint32_t type,
		       struct td_event_spec *ev)
{
	char path[512], text[256];
	snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/events/%s", pmu, name);
	if (read_text(root, path, text, sizeof text) != 0)
		return -1;
	struct td_event_code code;
	if (td_event_resolve(text, isa, &code, NULL, 0) != 0)
		return -1;
	snprintf(ev->name, sizeof ev->name, "%s", name);
	ev->type = type;
	ev->config = td_event_config(&code);
	return 0;
}

static int probe_intel(const char *root, int level, struct td_probe *p)
{
	static const char *const pmus[] = { "cpu", "cpu_core" }; /* hybrid: only cpu_core has PERF_METRICS */
	for (size_t i = 0; i < sizeof pmus / sizeof pmus[0]; i++) {
		char path[256], text[64];
		snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/type", pmus[i]);
		if (read_text(root, path, text, sizeof text) != 0)
			continue;
		uint32_t type = (uint32_t)strtoul(text, NULL, 0);
		struct td_probe q = *p;
		q.n_events = 0;
		if (sysfs_event(root, pmus[i], "slots", TD_ISA_X86, type, &q.ev[q.n_events++]) != 0)
			continue;
		int n = 4;
		if (level >= 2 && sysfs_event(root, pmus[i], intel_metric_events[4], TD_ISA_X86, type, &q.ev[5]) == 0)
			n = 8;
		int ok = 1;
		for (int k = 0; k < n && ok; k++)
			ok = sysfs_event(root, pmus[i], intel_metric_events[k], TD_ISA_X86, type, &q.ev[1 + k]) == 0;
		if (!ok)
			continue;
		q.n_events = 1 + n;
		q.level = n == 8 ? 2 : 1;
		q.kind = TD_PMU_INTEL_METRICS;
		snprintf(q.pmu, sizeof q.pmu, "%s", pmus[i]);
		*p = q;
		return 0;
	}
	return -1;
}

static int probe_arm(const char *root, struct td_probe *p, char *err, size_t errlen)
{
	char dirpath[512];
	snprintf(dirpath, sizeof dirpath, "%s/sys/bus/event_source/devices", root);
	DIR *d = opendir(dirpath);
	if (!d)
		return -1;
	struct dirent *de;
	int found = -1;
	while (found < 0 && (de = readdir(d))) {
		char path[512], text[64];
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/caps/slots", de->d_name);
		if (read_text(root, path, text, sizeof text) != 0)
			continue;
		p->slots = (int)(strtoul(text, NULL, 0) & 0xff); /* PMMIR_EL1.SLOTS, bits [7:0] */
		snprintf(p->pmu, sizeof p->pmu, "%.63s", de->d_name);
		found = 0;
	}
	closedir(d);
	if (found < 0)
		return -1;

	char path[512], text[64];
	snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/type", p->pmu);
	if (read_text(root, path, text, sizeof text) != 0)
		return td_failf(err, errlen, spe_unavailable, "%s has no type file", p->pmu);
	uint32_t type = (uint32_t)strtoul(text, NULL, 0);
	if (read_text(root, "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", text, sizeof text) != 0)
		return td_failf(err, errlen, spe_unavailable, "topdown is not supported on this CPU (%s): MIDR_EL1 is not readable",
			       p->cpu);
	unsigned long long midr = strtoull(text, NULL, 0);
	char midr_text[32];
	snprintf(midr_text, sizeof midr_text, "0x%08llx", midr & 0xffffffffull);
	if (td_cpu_lookup(midr_text, &p->arm_cpu) != 0 || p->arm_cpu.isa != TD_ISA_ARM)
		return td_failf(err, errlen, spe_unavailable,
			       "topdown is not supported on this CPU (%s, MIDR %s): no Arm topdown formula for it", p->cpu,
			       midr_text);
	snprintf(p->cpu, sizeof p->cpu, "%s (MIDR %s)", p->arm_cpu.name, midr_text);
	if (p->slots > 0)
		p->arm_cpu.slots = p->slots; /* the hardware's own PMMIR_EL1.SLOTS wins over the table */

	int n1 = strcmp(p->arm_cpu.method, "arm_n1_cycles") == 0;
	const char *const *names = n1 ? arm_n1_events : arm_slot_events;
	size_t count = n1 ? sizeof arm_n1_events / sizeof arm_n1_events[0]
			  : sizeof arm_slot_events / sizeof arm_slot_events[0];
	p->n_events = 0;
	for (size_t i = 0; i < count; i++) {
		if (sysfs_event(root, p->pmu, names[i], TD_ISA_ARM, type, &p->ev[p->n_events]) != 0)
			return td_failf(err, errlen, spe_unavailable, "topdown is not supported on this CPU (%s): %s lacks event %s",
				       p->cpu, p->pmu, names[i]);
		p->n_events++;
	}
	for (size_t i = 0; !n1 && i < sizeof arm_optional_events / sizeof arm_optional_events[0]; i++)
		if (sysfs_event(root, p->pmu, arm_optional_events[i], TD_ISA_ARM, type, &p->ev[p->n_events]) == 0)
			p->n_events++;
	p->kind = TD_PMU_ARM;
	p->level = 1;
	return 0;
}

int td_probe(const char *root, int level, struct td_probe *p, char *err, size_t errlen)
{
	if (!p)
		return -spe_invalid;
	if (!root || !*root || strcmp(root, "/") == 0)
		root = "";
	memset(p, 0, sizeof *p);
	cpu_name(root, p->cpu, sizeof p->cpu);
	if (probe_intel(root, level, p) == 0)
		return 0;
	int rc = probe_arm(root, p, err, errlen);
	if (rc == 0 || rc < -1)
		return rc;
	return td_failf(err, errlen, spe_unavailable,
		       "topdown is not supported on this CPU (%s): no PERF_METRICS events (topdown-retiring) and no Arm "
		       "PMU with caps/slots in sysfs",
		       p->cpu);
}

void td_probe_print_attrs(const struct td_probe *p, FILE *out)
{
	fprintf(out, "# %s topdown on %s, pmu %s, level %d\n",
		p->kind == TD_PMU_INTEL_METRICS ? "Intel PERF_METRICS" : "Arm", p->cpu, p->pmu, p->level);
	if (p->kind == TD_PMU_ARM)
		fprintf(out, "# slots per cycle %d (PMMIR_EL1.SLOTS), formula %s for %s\n", p->arm_cpu.slots,
			p->arm_cpu.method, p->arm_cpu.name);
	else
		fprintf(out,
			"# a region of this process is read with RDPMC (SLOTS 0x%x, PERF_METRICS 0x%x) when allowed; "
			"a command with read()\n",
			(1u << 30) | 3, 1u << 29);
	for (int i = 0; i < p->n_events; i++)
		fprintf(out,
			"perf_event_attr[%d] name=%s type=%u config=0x%llx group_fd=%s read_format=GROUP disabled=%d "
			"enable_on_exec=%d inherit=1 exclude_kernel=1 exclude_hv=1\n",
			i, p->ev[i].name, p->ev[i].type, (unsigned long long)p->ev[i].config, i == 0 ? "-1" : "attr[0]",
			i == 0, i == 0);
}

struct td_session {
	struct td_probe probe;
	int fd[TD_MAX_EVENTS];
	int self;        /* counting this thread: only then can RDPMC read its counters */
	void *page;      /* the leader's mmapped perf_event_mmap_page */
	void *page2;     /* the first metric event's */
	size_t page_len;
	char errmsg[256]; /* the last failure, td_session_errmsg() */
};

static long perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

int td_session_open(const struct td_probe *p, int pid, int on_exec, struct td_session **sp, char *err, size_t errlen)
{
	if (!p || !sp || p->kind == TD_PMU_NONE || p->n_events < 1)
		return -spe_invalid;
	struct td_session *s = calloc(1, sizeof *s);
	if (!s)
		return -spe_nomem;
	s->probe = *p;
	s->self = pid == 0;
	for (int i = 0; i < TD_MAX_EVENTS; i++)
		s->fd[i] = -1;
	for (int i = 0; i < p->n_events; i++) {
		struct perf_event_attr attr;
		memset(&attr, 0, sizeof attr);
		attr.size = sizeof attr;
		attr.type = p->ev[i].type;
		attr.config = p->ev[i].config;
		attr.read_format = PERF_FORMAT_GROUP;
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		attr.inherit = pid > 0;
		if (i == 0) {
			attr.disabled = on_exec ? 1 : 0;
			attr.enable_on_exec = on_exec ? 1 : 0;
		}
		s->fd[i] = (int)perf_event_open(&attr, pid, -1, i == 0 ? -1 : s->fd[0], 0);
		if (s->fd[i] < 0) {
			int e = errno;
			td_session_close(s);
			return td_failf(err, errlen, e == EACCES || e == EPERM ? spe_no_permission : spe_unavailable,
					"perf_event_open(%s): %s", p->ev[i].name, strerror(e));
		}
	}
	if (p->kind == TD_PMU_INTEL_METRICS && s->self) {
		/* Mapping SLOTS and a metric event lets the kernel allow RDPMC (docs/topdown-formulas.md §1, S1). */
		s->page_len = (size_t)sysconf(_SC_PAGESIZE);
		s->page = mmap(NULL, s->page_len, PROT_READ, MAP_SHARED, s->fd[0], 0);
		if (s->page == MAP_FAILED)
			s->page = NULL;
		s->page2 = mmap(NULL, s->page_len, PROT_READ, MAP_SHARED, s->fd[1], 0);
		if (s->page2 == MAP_FAILED)
			s->page2 = NULL;
	}
	*sp = s;
	return 0;
}

void td_session_close(struct td_session *s)
{
	if (!s)
		return;
	if (s->page)
		munmap(s->page, s->page_len);
	if (s->page2)
		munmap(s->page2, s->page_len);
	for (int i = 0; i < TD_MAX_EVENTS; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	free(s);
}

#if defined(__x86_64__)
static uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
}

static int can_rdpmc(const struct td_session *s)
{
	/* RDPMC reads the counters of the CPU it runs on: only valid for our own thread. */
	const struct perf_event_mmap_page *pg = s->page;
	return s->self && pg && pg->cap_user_rdpmc && pg->index != 0;
}
#endif

int td_session_snapshot(struct td_session *s, struct td_snapshot *snap)
{
	memset(snap, 0, sizeof *snap);
#if defined(__x86_64__)
	if (s->probe.kind == TD_PMU_INTEL_METRICS && can_rdpmc(s)) {
		snap->slots = rdpmc((1u << 30) | 3); /* fixed counter 3 */
		snap->metrics = rdpmc(1u << 29);     /* metric counter 0: PERF_METRICS */
		snap->rdpmc = 1;
		return 0;
	}
#endif
	uint64_t buf[1 + TD_MAX_EVENTS];
	ssize_t n = read(s->fd[0], buf, sizeof buf);
	if (n < (ssize_t)sizeof(uint64_t) || buf[0] > TD_MAX_EVENTS)
		return td_failf(s->errmsg, sizeof s->errmsg, spe_io, "reading the counter group: %s", n < 0 ? strerror(errno) : "short read");
	for (uint64_t i = 0; i < buf[0]; i++)
		snap->v[i] = buf[1 + i];
	return 0;
}

int td_session_delta(struct td_session *s, const struct td_snapshot *a, const struct td_snapshot *b,
		     struct td_interval *iv)
{
	char *err = s->errmsg;
	size_t errlen = sizeof s->errmsg;
	const struct td_probe *p = &s->probe;
	if (p->kind == TD_PMU_INTEL_METRICS) {
		int rc;
		if (a->rdpmc && b->rdpmc) {
			rc = td_pm_region(a->slots, a->metrics, b->slots, b->metrics, p->level, &iv->values);
			iv->slots = (double)(b->slots - a->slots);
		} else {
			/* read(): every metric event reads as its share of SLOTS, in slots. */
			double dslots = (double)(b->v[0] - a->v[0]);
			double ratio[8] = { 0 };
			if (dslots <= 0)
				return td_failf(err, errlen, spe_no_data, "no slots counted in the interval");
			for (int i = 1; i < p->n_events; i++)
				ratio[i - 1] = (double)(b->v[i] - a->v[i]) / dslots;
			rc = td_pm_from_ratios(ratio, p->level, &iv->values);
			td_interval_add_event(iv, p->ev[0].name, dslots, 1);
			iv->slots = dslots;
		}
		return rc < 0 ? td_failf(err, errlen, spe_no_data, "no slots counted in the interval") : 0;
	}
	for (int i = 0; i < p->n_events; i++)
		td_interval_add_event(iv, p->ev[i].name, (double)(b->v[i] - a->v[i]), 1);
	return td_formula_apply(&p->arm_cpu, iv, err, errlen);
}

int td_region_begin(struct td_session *s, struct td_snapshot *start)
{
	int rc = td_session_snapshot(s, start);
	if (rc == 0 && start->rdpmc && start->slots > TD_RESET_SLOTS) {
		/* The 8-bit fields describe everything since the last reset: keep that short (docs/topdown-formulas.md §1). */
		ioctl(s->fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		rc = td_session_snapshot(s, start);
	}
	return rc;
}

int td_region_end(struct td_session *s, const struct td_snapshot *start, struct td_interval *iv)
{
	struct td_snapshot end;
	int rc = td_session_snapshot(s, &end);
	return rc < 0 ? rc : td_session_delta(s, start, &end, iv);
}

const char *td_session_errmsg(const struct td_session *s)
{
	return s->errmsg;
}
