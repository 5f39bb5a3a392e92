/* SPDX-License-Identifier: Apache-2.0 */
/* Attribution (attribution.h): mappings, processes, switch-ins, and who ran a record. */
#include "attribution.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

void ana_attrib_init(struct attribution *a)
{
	memset(a, 0, sizeof *a);
	ana_procs_init(&a->procs);
}

void ana_attrib_fini(struct attribution *a)
{
	for (size_t i = 0; i < a->n_maps; i++) {
		free(a->maps[i].path);
		free(a->maps[i].build_id);
	}
	free(a->maps);
	ana_procs_fini(&a->procs);
	ana_pc_cache_free(&a->record_tids);
	ana_pc_cache_free(&a->switch_tids);
	for (int i = 0; i < a->n_cpus; i++)
		free(a->cpus[i].sw);
	free(a->cpus);
	ana_bid_table_free(&a->recorded_ids);
	ana_attrib_init(a);
}

struct ana_attrib_cpu *ana_attrib_cpu(struct attribution *a, int cpu)
{
	if (cpu < 0)
		cpu = 0;
	if (cpu >= SPE_AUX_MAX_CPUS) /* the AUX layer refuses such CPUs */
		return NULL;
	if (cpu >= a->n_cpus) {
		struct ana_attrib_cpu *p = realloc(a->cpus, (size_t)(cpu + 1) * sizeof *p);
		if (!p)
			return NULL;
		memset(p + a->n_cpus, 0, (size_t)(cpu + 1 - a->n_cpus) * sizeof *p);
		a->cpus = p;
		a->n_cpus = cpu + 1;
	}
	return &a->cpus[cpu];
}

int ana_attrib_comm(struct attribution *a, int pid, int tid, const char *comm, uint64_t time)
{
	return ana_procs_comm(&a->procs, pid, tid, comm, time, 0);
}

int ana_attrib_fork(struct attribution *a, int pid, int ppid, int tid, int ptid, uint64_t time, int from_proc)
{
	return ana_procs_fork(&a->procs, pid, ppid, tid, ptid, time, from_proc);
}

int ana_attrib_exit(struct attribution *a, int pid, int tid, uint64_t time)
{
	return ana_procs_exit(&a->procs, pid, tid, time);
}

struct attrib_mapping *ana_attrib_add_mapping(struct attribution *a, int64_t id, int pid, uint64_t start, uint64_t len,
					      uint64_t pgoff, const char *path, const char *build_id, uint64_t time,
					      int64_t prot)
{
	if (a->n_maps >= PROC_NONE)
		return NULL;
	struct attrib_mapping *p = util_grow(a->maps, &a->cap_maps, a->n_maps + 1, sizeof *p);
	if (!p)
		return NULL;
	a->maps = p;
	struct attrib_mapping *m = &a->maps[a->n_maps];
	memset(m, 0, sizeof *m);
	m->id = id;
	m->pid = pid;
	m->start = start;
	m->end = start + len;
	m->pgoff = pgoff;
	m->time = time;
	m->prot = prot;
	m->path = strdup(path ? path : "");
	m->build_id = build_id && *build_id ? strdup(build_id) : NULL;
	if (!m->path || (build_id && *build_id && !m->build_id) ||
	    (len && ana_procs_mmap(&a->procs, pid, start, start + len, (uint32_t)a->n_maps, time) < 0)) {
		free(m->path);
		free(m->build_id);
		return NULL;
	}
	a->n_maps++;
	return m;
}

void ana_attrib_switch_in(struct attribution *a, int cpu, int pid, int tid, uint64_t time)
{
	struct ana_attrib_cpu *c = ana_attrib_cpu(a, cpu);
	if (!c)
		return;
	struct attrib_switch *p = util_grow(c->sw, &c->cap_sw, c->n_sw + 1, sizeof *p);
	if (!p)
		return;
	c->sw = p;
	/* keep the timeline sorted even if records arrive slightly out of order */
	size_t i = c->n_sw;
	uint64_t t = time == ATTRIB_NO_TIME ? 0 : time;
	while (i > 0 && c->sw[i - 1].time > t) {
		c->sw[i] = c->sw[i - 1];
		i--;
	}
	c->sw[i] = (struct attrib_switch){ t, pid, tid };
	c->n_sw++;
	/* the record names the thread's process, as a COMM would (once per pair: switches are many) */
	if (pid >= 0 && tid >= 0) {
		int64_t *seen = ana_pc_cache_find_id(&a->switch_tids, (uint64_t)(int64_t)tid);
		if ((!seen || *seen != pid) && ana_pc_cache_put_id(&a->switch_tids, (uint64_t)(int64_t)tid, pid) == 0)
			ana_procs_comm(&a->procs, pid, tid, NULL, time, 0);
	}
}

static const struct attrib_switch *switched_in(const struct ana_attrib_cpu *c, uint64_t time)
{
	if (!c || !c->n_sw)
		return NULL;
	if (time == ATTRIB_NO_TIME)
		return &c->sw[c->n_sw - 1];
	size_t lo = 0, hi = c->n_sw;
	while (lo < hi) { /* first entry with time > t */
		size_t mid = (lo + hi) / 2;
		if (c->sw[mid].time <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &c->sw[lo - 1] : NULL;
}

int ana_attrib_record(struct attribution *a, const struct ana_attrib_cpu *cpu, const struct spe_record *rec,
		      uint64_t time, int *pid, int *tid, uint32_t *space)
{
	struct processes *p = &a->procs;
	if (p->n_pending && ana_procs_settle(p) < 0)
		return -spe_nomem;
	if (rec->has & SPE_HAS_CONTEXT) {
		*tid = (int)rec->context;
		*pid = -1; /* the thread's process, below */
	} else {
		const struct attrib_switch *s = switched_in(cpu, time);
		if (s) {
			*pid = s->pid;
			*tid = s->tid;
		}
	}
	uint32_t th = *tid >= 0 ? ana_procs_thread_at(p, *tid, time) : PROC_NONE;
	if (th != PROC_NONE && (*pid < 0 || p->spaces[p->threads[th].space].pid == *pid)) {
		*space = p->threads[th].space;
		*pid = p->spaces[*space].pid;
		return 0;
	}
	*space = *pid >= 0 ? ana_procs_space_at(p, *pid, time) : PROC_NONE;
	/* a thread no COMM or FORK named: its row says what the records said */
	if (th == PROC_NONE && *tid >= 0) {
		int64_t *known = ana_pc_cache_find_id(&a->record_tids, (uint64_t)(int64_t)*tid);
		if (known)
			*known = *pid >= 0 ? *pid : *known;
		else if (ana_pc_cache_put_id(&a->record_tids, (uint64_t)(int64_t)*tid, *pid) < 0)
			return -spe_nomem;
	}
	return 0;
}
