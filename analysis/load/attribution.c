/* SPDX-License-Identifier: Apache-2.0 */
/* Attribution (attribution.h): threads, mappings and switch-ins, and who ran a record. */
#include "attribution.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

void ana_attrib_free(struct attribution *a)
{
	for (size_t i = 0; i < a->n_maps; i++) {
		free(a->maps[i].path);
		free(a->maps[i].build_id);
	}
	free(a->maps);
	for (size_t i = 0; i < a->n_threads; i++)
		free(a->threads[i].comm);
	free(a->threads);
	ana_pc_cache_free(&a->thread_index);
	for (int i = 0; i < a->n_cpus; i++)
		free(a->cpus[i].sw);
	free(a->cpus);
	ana_bid_table_free(&a->recorded_ids);
	memset(a, 0, sizeof *a);
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

struct attrib_thread *ana_attrib_find_thread(const struct attribution *a, int tid)
{
	const int64_t *i = ana_pc_cache_find_id(&a->thread_index, (uint64_t)(int64_t)tid);
	return i ? &a->threads[*i] : NULL;
}

static struct attrib_thread *add_thread(struct attribution *a, int tid)
{
	struct attrib_thread *t = ana_attrib_find_thread(a, tid);
	if (t)
		return t;
	struct attrib_thread *p = util_grow(a->threads, &a->cap_threads, a->n_threads + 1, sizeof *p);
	if (!p)
		return NULL;
	a->threads = p;
	if (ana_pc_cache_put_id(&a->thread_index, (uint64_t)(int64_t)tid, (int64_t)a->n_threads) < 0)
		return NULL;
	t = &a->threads[a->n_threads++];
	t->tid = tid;
	t->pid = -1;
	t->comm = NULL;
	return t;
}

int ana_attrib_comm(struct attribution *a, int pid, int tid, const char *comm)
{
	struct attrib_thread *t = add_thread(a, tid);
	if (!t)
		return -spe_nomem;
	t->pid = pid;
	if (comm) {
		char *c = strdup(comm);
		if (!c)
			return -spe_nomem;
		free(t->comm);
		t->comm = c;
	}
	return 0;
}

struct attrib_mapping *ana_attrib_add_mapping(struct attribution *a, int64_t id, int pid, uint64_t start, uint64_t len,
					      uint64_t pgoff, const char *path, const char *build_id, uint64_t time,
					      int64_t prot)
{
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
	if (!m->path || (build_id && *build_id && !m->build_id)) {
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
	if (pid >= 0 && tid >= 0) {
		struct attrib_thread *th = add_thread(a, tid);
		if (th && th->pid < 0)
			th->pid = pid;
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

void ana_attrib_record(struct attribution *a, const struct ana_attrib_cpu *cpu, const struct spe_record *rec, uint64_t time,
		       int *pid, int *tid)
{
	if (rec->has & SPE_HAS_CONTEXT) {
		*tid = (int)rec->context;
		struct attrib_thread *t = ana_attrib_find_thread(a, *tid);
		*pid = t ? t->pid : -1;
	} else {
		const struct attrib_switch *s = switched_in(cpu, time);
		if (s) {
			*pid = s->pid;
			*tid = s->tid;
		}
	}
	if (*tid >= 0 && !ana_attrib_find_thread(a, *tid)) {
		struct attrib_thread *t = add_thread(a, *tid);
		if (t)
			t->pid = *pid;
	}
}

struct attrib_mapping *ana_attrib_find_mapping(const struct attribution *a, int pid, uint64_t pc, uint64_t time)
{
	struct attrib_mapping *best = NULL;
	for (size_t i = 0; i < a->n_maps; i++) {
		struct attrib_mapping *m = &a->maps[i];
		if (m->prot >= 0 || pc < m->start || pc >= m->end || (m->pid != pid && m->pid != -1 && pid >= 0))
			continue;
		/* the latest mapping not after the record; else the earliest */
		int usable = time == ATTRIB_NO_TIME || m->time == ATTRIB_NO_TIME || m->time <= time;
		if (!best)
			best = m;
		else if (usable && (best->time == ATTRIB_NO_TIME || best->time > time || m->time >= best->time))
			best = m;
	}
	return best;
}
