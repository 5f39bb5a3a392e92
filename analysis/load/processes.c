/* SPDX-License-Identifier: Apache-2.0 */
/* Processes, threads and address spaces over time (processes.h). */
#define _GNU_SOURCE /* qsort_r */
#include "processes.h"

#include <stdlib.h>
#include <string.h>

#include "spe/spe.h"
#include "util/grow.h"

void ana_procs_init(struct processes *p)
{
	memset(p, 0, sizeof *p);
	p->kernel = PROC_NONE;
	util_map_init(&p->latest_space, sizeof(uint64_t), sizeof(uint32_t));
	util_map_init(&p->latest_thread, sizeof(uint64_t), sizeof(uint32_t));
}

void ana_procs_fini(struct processes *p)
{
	for (size_t i = 0; i < p->n_spaces; i++) {
		free(p->spaces[i].maps);
		free(p->spaces[i].by_start);
		free(p->spaces[i].max_end);
		free(p->spaces[i].starts);
		ana_range_set_fini(&p->spaces[i].live);
	}
	free(p->taken);
	free(p->spaces);
	for (size_t i = 0; i < p->n_threads; i++)
		free(p->threads[i].comm);
	free(p->threads);
	free(p->maps);
	for (size_t i = 0; i < p->n_pending; i++)
		free(p->pending[i].comm);
	free(p->pending);
	for (size_t i = 0; i < p->n_comm_changes; i++)
		free(p->comm_changes[i].comm);
	free(p->comm_changes);
	util_map_fini(&p->latest_space);
	util_map_fini(&p->latest_thread);
	ana_procs_init(p);
}

/* ---- sideband in: queued until the next lookup --------------------------- */

static struct proc_event *queue(struct processes *p, enum proc_event_kind kind, uint64_t time)
{
	struct proc_event *e = util_grow(p->pending, &p->cap_pending, p->n_pending + 1, sizeof *e);
	if (!e)
		return NULL;
	p->pending = e;
	e = &p->pending[p->n_pending++];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->time = time == PROC_NO_TIME ? 0 : time;
	e->seq = p->seq++;
	return e;
}

int ana_procs_fork(struct processes *p, int pid, int ppid, int tid, int ptid, uint64_t time, int from_proc)
{
	struct proc_event *e = queue(p, PROC_EV_FORK, time);
	if (!e)
		return -spe_nomem;
	e->pid = pid;
	e->ppid = ppid;
	e->tid = tid;
	e->ptid = ptid;
	e->flag = from_proc;
	return 0;
}

int ana_procs_exit(struct processes *p, int pid, int tid, uint64_t time)
{
	struct proc_event *e = queue(p, PROC_EV_EXIT, time);
	if (!e)
		return -spe_nomem;
	e->pid = pid;
	e->tid = tid;
	return 0;
}

int ana_procs_comm(struct processes *p, int pid, int tid, const char *comm, uint64_t time, int exec)
{
	char *c = comm ? strdup(comm) : NULL;
	if (comm && !c)
		return -spe_nomem;
	struct proc_event *e = queue(p, PROC_EV_COMM, time);
	if (!e) {
		free(c);
		return -spe_nomem;
	}
	e->pid = pid;
	e->tid = tid;
	e->comm = c;
	e->flag = exec;
	return 0;
}

int ana_procs_mmap_kind(struct processes *p, int pid, uint64_t start, uint64_t end, uint32_t mapping, uint64_t time,
			int kind)
{
	struct proc_event *e = queue(p, PROC_EV_MMAP, time);
	if (!e)
		return -spe_nomem;
	e->pid = pid;
	e->start = start;
	e->end = end;
	e->mapping = mapping;
	e->flag = kind;
	return 0;
}

int ana_procs_mmap(struct processes *p, int pid, uint64_t start, uint64_t end, uint32_t mapping, uint64_t time)
{
	return ana_procs_mmap_kind(p, pid, start, end, mapping, time, PROC_MAP_PLAIN);
}

int ana_procs_munmap(struct processes *p, int pid, uint64_t start, uint64_t end, uint64_t time)
{
	struct proc_event *e = queue(p, PROC_EV_MUNMAP, time);
	if (!e)
		return -spe_nomem;
	e->pid = pid;
	e->start = start;
	e->end = end;
	return 0;
}

/* ---- lookups ---------------------------------------------------------------- */

static uint32_t latest(const struct util_map *index, int key)
{
	uint64_t k = (uint64_t)(int64_t)key;
	const uint32_t *i = util_map_get(index, &k);
	return i ? *i : PROC_NONE;
}

/* Remember @p i as the latest of @p key in @p index; 0, or -1 without memory. */
static int set_latest(struct util_map *index, int key, uint32_t i)
{
	uint64_t k = (uint64_t)(int64_t)key;
	uint32_t *v = util_map_put(index, &k);
	if (!v)
		return -1;
	*v = i;
	return 0;
}

/* Lookups at "no time" see the latest state; map windows end at PROC_NO_TIME exclusive. */
static uint64_t lookup_time(uint64_t time)
{
	return time == PROC_NO_TIME ? PROC_NO_TIME - 1 : time;
}

uint32_t ana_procs_space_at(const struct processes *p, int pid, uint64_t time)
{
	if (pid < 0)
		return p->kernel;
	uint32_t s = latest(&p->latest_space, pid), earliest = s;
	time = lookup_time(time);
	while (s != PROC_NONE && p->spaces[s].from > time) {
		earliest = s;
		s = p->spaces[s].prev_same_pid;
	}
	/* a time before the pid's first FORK (clocks of sideband and trace disagree a little): its first process */
	return s != PROC_NONE ? s : earliest;
}

uint32_t ana_procs_thread_at(const struct processes *p, int tid, uint64_t time)
{
	uint32_t t = latest(&p->latest_thread, tid), earliest = t;
	time = lookup_time(time);
	while (t != PROC_NONE && p->threads[t].from > time) {
		earliest = t;
		t = p->threads[t].prev_same_tid;
	}
	return t != PROC_NONE ? t : earliest;
}

static int by_start_cmp(const void *a, const void *b, void *ctx)
{
	const struct proc_map *maps = ctx;
	uint64_t x = maps[*(const uint32_t *)a].start, y = maps[*(const uint32_t *)b].start;
	return x < y ? -1 : x > y;
}

/* The space's lookup index: maps sorted by start, each with the highest end of those before it. */
static int index_space(struct processes *p, struct proc_space *s)
{
	uint32_t *by = realloc(s->by_start, s->n_maps * sizeof *by);
	if (!by && s->n_maps)
		return -spe_nomem;
	s->by_start = by;
	uint64_t *me = realloc(s->max_end, s->n_maps * sizeof *me);
	if (!me && s->n_maps)
		return -spe_nomem;
	s->max_end = me;
	uint64_t *st = realloc(s->starts, s->n_maps * sizeof *st);
	if (!st && s->n_maps)
		return -spe_nomem;
	s->starts = st;
	memcpy(by, s->maps, s->n_maps * sizeof *by);
	qsort_r(by, s->n_maps, sizeof *by, by_start_cmp, p->maps);
	uint64_t hi = 0;
	for (size_t i = 0; i < s->n_maps; i++) {
		if (p->maps[by[i]].end > hi)
			hi = p->maps[by[i]].end;
		me[i] = hi;
		st[i] = p->maps[by[i]].start;
	}
	s->n_indexed = s->n_maps;
	return 0;
}

/* The map of one layer (a space's maps, or its code layer's) holding @p addr at @p time, and its span. */
static uint32_t layer_span(struct processes *p, uint32_t space, uint64_t addr, uint64_t time, uint64_t *from,
			   uint64_t *to)
{
	*from = 0;
	*to = PROC_NO_TIME;
	struct proc_space *s = &p->spaces[space];
	if (s->n_indexed != s->n_maps && index_space(p, s) < 0)
		return PROC_NONE; /* out of memory: the map stays unknown rather than guessed */
	size_t lo = 0, hi = s->n_maps;
	while (lo < hi) { /* the first map starting above addr */
		size_t mid = (lo + hi) / 2;
		if (s->starts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint64_t t = lookup_time(time);
	for (size_t i = lo; i > 0 && s->max_end[i - 1] > addr; i--) {
		const struct proc_map *m = &p->maps[s->by_start[i - 1]];
		if (addr >= m->end)
			continue;
		if (m->from <= t && t < m->to) {
			*from = m->from;
			*to = m->to;
			return s->by_start[i - 1];
		}
		/* a map of this address at another time bounds the gap */
		if (m->to <= t && m->to > *from)
			*from = m->to;
		if (m->from > t && m->from < *to)
			*to = m->from;
	}
	return PROC_NONE;
}

uint32_t ana_procs_map_span(struct processes *p, uint32_t space, uint64_t addr, uint64_t time, uint64_t *from,
			    uint64_t *to)
{
	*from = 0;
	*to = PROC_NO_TIME;
	if (space == PROC_NONE)
		return PROC_NONE;
	uint64_t cf = 0, ct = PROC_NO_TIME;
	uint32_t code = p->spaces[space].code;
	if (code != PROC_NONE) {
		uint32_t m = layer_span(p, code, addr, time, &cf, &ct);
		if (m != PROC_NONE) {
			*from = cf;
			*to = ct;
			return m;
		}
	}
	uint32_t m = layer_span(p, space, addr, time, from, to);
	/* the answer below holds while no code lies above */
	if (cf > *from)
		*from = cf;
	if (ct < *to)
		*to = ct;
	return m;
}

uint32_t ana_procs_map_at(struct processes *p, uint32_t space, uint64_t addr, uint64_t time)
{
	uint64_t from, to;
	return ana_procs_map_span(p, space, addr, time, &from, &to);
}

/* ---- applying the sideband --------------------------------------------------- */

static uint32_t new_space(struct processes *p, int pid, uint64_t from)
{
	struct proc_space *s = util_grow(p->spaces, &p->cap_spaces, p->n_spaces + 1, sizeof *s);
	if (!s)
		return PROC_NONE;
	p->spaces = s;
	uint32_t i = (uint32_t)p->n_spaces;
	s = &p->spaces[i];
	memset(s, 0, sizeof *s);
	s->pid = pid;
	s->from = from;
	s->code = PROC_NONE;
	s->prev_same_pid = pid >= 0 ? latest(&p->latest_space, pid) : PROC_NONE;
	if (pid >= 0 && set_latest(&p->latest_space, pid, i) < 0)
		return PROC_NONE;
	p->n_spaces++;
	return i;
}

/* The process @p pid is at @p time, made (as one alive since before the capture) if it has none. */
static uint32_t space_for(struct processes *p, int pid, uint64_t time)
{
	if (pid < 0) {
		if (p->kernel == PROC_NONE)
			p->kernel = new_space(p, -1, 0);
		return p->kernel;
	}
	uint32_t s = ana_procs_space_at(p, pid, time);
	return s != PROC_NONE ? s : new_space(p, pid, 0);
}

static uint32_t new_thread(struct processes *p, int tid, uint32_t space, uint64_t from, const char *comm)
{
	char *c = comm ? strdup(comm) : NULL;
	if (comm && !c)
		return PROC_NONE;
	struct proc_thread *t = util_grow(p->threads, &p->cap_threads, p->n_threads + 1, sizeof *t);
	if (!t) {
		free(c);
		return PROC_NONE;
	}
	p->threads = t;
	uint32_t i = (uint32_t)p->n_threads;
	uint32_t prev = latest(&p->latest_thread, tid);
	if (set_latest(&p->latest_thread, tid, i) < 0) {
		free(c);
		return PROC_NONE;
	}
	if (prev != PROC_NONE && p->threads[prev].to > from)
		p->threads[prev].to = from; /* the tid is someone else's from now on */
	t = &p->threads[i];
	*t = (struct proc_thread){ .tid = tid, .space = space, .from = from, .to = PROC_NO_TIME,
				   .prev_same_tid = prev, .comm = c };
	p->n_threads++;
	return i;
}

static int add_map(struct processes *p, uint32_t space, uint64_t start, uint64_t end, uint32_t mapping,
		   uint64_t from)
{
	struct proc_map *m = util_grow(p->maps, &p->cap_maps, p->n_maps + 1, sizeof *m);
	if (!m)
		return -spe_nomem;
	p->maps = m;
	struct proc_space *s = &p->spaces[space];
	uint32_t *idx = util_grow(s->maps, &s->cap_maps, s->n_maps + 1, sizeof *idx);
	if (!idx)
		return -spe_nomem;
	s->maps = idx;
	s->maps[s->n_maps++] = (uint32_t)p->n_maps;
	p->maps[p->n_maps++] = (struct proc_map){ .start = start, .end = end, .from = from, .to = PROC_NO_TIME,
						  .mapping = mapping, .space = space };
	return 0;
}

/* The code layer of @p space, made on first need (a space of no pid's: lookups reach it through @p space). */
static uint32_t code_layer(struct processes *p, uint32_t space)
{
	if (p->spaces[space].code != PROC_NONE)
		return p->spaces[space].code;
	struct proc_space *s = util_grow(p->spaces, &p->cap_spaces, p->n_spaces + 1, sizeof *s);
	if (!s)
		return PROC_NONE;
	p->spaces = s;
	uint32_t i = (uint32_t)p->n_spaces++;
	s = &p->spaces[i];
	memset(s, 0, sizeof *s);
	s->pid = p->spaces[space].pid;
	s->from = p->spaces[space].from;
	s->code = PROC_NONE;
	s->prev_same_pid = PROC_NONE;
	p->spaces[space].code = i;
	return i;
}

/* A live map of code layer @p cs: a map, and its place in the layer's live set. */
static int add_code_map(struct processes *p, uint32_t cs, uint64_t start, uint64_t end, uint32_t mapping,
			uint64_t from)
{
	if (add_map(p, cs, start, end, mapping, from) < 0)
		return -spe_nomem;
	struct range_item it = { start, end, (uint32_t)(p->n_maps - 1) };
	return ana_range_set_insert(&p->spaces[cs].live, it);
}

/* Cut the live code of layer @p cs overlapping [start, end) at @p time: what is outside goes on. */
static int cut_code(struct processes *p, uint32_t cs, uint64_t start, uint64_t end, uint64_t time)
{
	long n = ana_range_set_take(&p->spaces[cs].live, start, end, &p->taken, &p->cap_taken);
	if (n < 0)
		return -spe_nomem;
	for (long i = 0; i < n; i++) {
		struct range_item it = p->taken[i];
		struct proc_map *m = &p->maps[it.value];
		m->to = time;
		uint32_t mapping = m->mapping;
		if (it.start < start && add_code_map(p, cs, it.start, start, mapping, time) < 0)
			return -spe_nomem;
		if (it.end > end && add_code_map(p, cs, end, it.end, mapping, time) < 0)
			return -spe_nomem;
	}
	return 0;
}

/* A new process's copy of its parent's code layer @p from, as it is at @p time. */
static int copy_code(struct processes *p, uint32_t from, uint32_t space, uint64_t time)
{
	uint32_t cs = code_layer(p, space);
	if (cs == PROC_NONE)
		return -spe_nomem;
	const struct range_set *live = &p->spaces[from].live; /* the parent's: adding to the child's leaves it be */
	for (size_t b = 0; b < live->n_blocks; b++)
		for (uint32_t i = 0; i < live->blocks[b]->n; i++) {
			const struct proc_map m = p->maps[live->blocks[b]->items[i].value];
			if (m.from <= time && time < m.to && add_code_map(p, cs, m.start, m.end, m.mapping, time) < 0)
				return -spe_nomem;
		}
	return 0;
}

/* @p tid is named @p comm (a copy, or NULL: unknown) from @p time on. */
static int log_comm(struct processes *p, int tid, uint64_t time, const char *comm)
{
	char *c = comm ? strdup(comm) : NULL;
	if (comm && !c)
		return -spe_nomem;
	struct proc_comm_change *l = util_grow(p->comm_changes, &p->cap_comm_changes, p->n_comm_changes + 1, sizeof *l);
	if (!l) {
		free(c);
		return -spe_nomem;
	}
	p->comm_changes = l;
	l[p->n_comm_changes++] = (struct proc_comm_change){ .tid = tid, .time = time, .comm = c };
	return 0;
}

static int apply_fork(struct processes *p, const struct proc_event *e)
{
	uint32_t parent_thread = ana_procs_thread_at(p, e->ptid, e->time);
	uint32_t parent = parent_thread != PROC_NONE && p->spaces[p->threads[parent_thread].space].pid == e->ppid
				  ? p->threads[parent_thread].space
				  : space_for(p, e->ppid, e->time);
	if (parent == PROC_NONE)
		return -spe_nomem;
	const char *comm = parent_thread != PROC_NONE ? p->threads[parent_thread].comm : NULL;
	uint32_t space = parent;
	if (e->pid != p->spaces[parent].pid) {
		/* a new process: its own space, a copy of the parent's maps unless perf made this FORK from /proc */
		if ((space = new_space(p, e->pid, e->time)) == PROC_NONE)
			return -spe_nomem;
		if (!e->flag) {
			size_t n = p->spaces[parent].n_maps;
			for (size_t i = 0; i < n; i++) {
				uint32_t mi = p->spaces[parent].maps[i];
				const struct proc_map m = p->maps[mi];
				if (m.from <= e->time && e->time < m.to &&
				    add_map(p, space, m.start, m.end, m.mapping, e->time) < 0)
					return -spe_nomem;
			}
			if (p->spaces[parent].code != PROC_NONE && copy_code(p, p->spaces[parent].code, space, e->time) < 0)
				return -spe_nomem;
		}
	}
	if (log_comm(p, e->tid, e->time, comm) < 0)
		return -spe_nomem;
	return new_thread(p, e->tid, space, e->time, comm) == PROC_NONE ? -spe_nomem : 0;
}

static void apply_exit(struct processes *p, const struct proc_event *e)
{
	uint32_t t = ana_procs_thread_at(p, e->tid, e->time);
	if (t != PROC_NONE && p->spaces[p->threads[t].space].pid == e->pid && p->threads[t].to > e->time)
		p->threads[t].to = e->time;
}

static int apply_comm(struct processes *p, struct proc_event *e)
{
	uint32_t t = ana_procs_thread_at(p, e->tid, e->time);
	if (t == PROC_NONE || p->spaces[p->threads[t].space].pid != e->pid) {
		/* first seen (alive since before the capture), or the tid now in another process without a FORK */
		uint32_t s = space_for(p, e->pid, e->time);
		if (s == PROC_NONE || (t = new_thread(p, e->tid, s, t == PROC_NONE ? 0 : e->time, NULL)) == PROC_NONE)
			return -spe_nomem;
	}
	if (e->comm) {
		if (log_comm(p, e->tid, e->time, e->comm) < 0)
			return -spe_nomem;
		free(p->threads[t].comm);
		p->threads[t].comm = e->comm;
		e->comm = NULL;
	}
	return 0;
}

/* MMAP, MUNMAP: cut what [start, end) overlaps (the old map ends now, its parts outside go on); MMAP adds its map. */
static int apply_mmap(struct processes *p, const struct proc_event *e)
{
	uint32_t space = space_for(p, e->pid, e->time);
	if (space == PROC_NONE)
		return -spe_nomem;
	p->spaces[space].changes++;
	if (e->flag == PROC_MAP_CODE) {
		uint32_t cs = code_layer(p, space);
		if (cs == PROC_NONE || cut_code(p, cs, e->start, e->end, e->time) < 0)
			return -spe_nomem;
		return add_code_map(p, cs, e->start, e->end, e->mapping, e->time);
	}
	if (e->flag == PROC_MAP_PLAIN && p->spaces[space].code != PROC_NONE &&
	    cut_code(p, p->spaces[space].code, e->start, e->end, e->time) < 0)
		return -spe_nomem;
	/* cut what it overlaps: the old map ends now, its parts outside the new one go on */
	size_t n = p->spaces[space].n_maps;
	for (size_t i = 0; i < n; i++) {
		uint32_t mi = p->spaces[space].maps[i];
		struct proc_map old = p->maps[mi];
		if (old.to != PROC_NO_TIME || old.end <= e->start || old.start >= e->end)
			continue;
		p->maps[mi].to = e->time;
		if (old.start < e->start && add_map(p, space, old.start, e->start, old.mapping, e->time) < 0)
			return -spe_nomem;
		if (old.end > e->end && add_map(p, space, e->end, old.end, old.mapping, e->time) < 0)
			return -spe_nomem;
	}
	return e->kind == PROC_EV_MMAP ? add_map(p, space, e->start, e->end, e->mapping, e->time) : 0;
}

static int by_time(const void *a, const void *b)
{
	const struct proc_event *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int ana_procs_settle(struct processes *p)
{
	if (!p->n_pending)
		return 0;
	qsort(p->pending, p->n_pending, sizeof *p->pending, by_time);
	int rc = 0;
	size_t i;
	for (i = 0; i < p->n_pending && rc == 0; i++) {
		struct proc_event *e = &p->pending[i];
		if (e->time < p->applied_time)
			p->out_of_order++;
		else
			p->applied_time = e->time;
		switch (e->kind) {
		case PROC_EV_FORK: rc = apply_fork(p, e); break;
		case PROC_EV_EXIT: apply_exit(p, e); break;
		case PROC_EV_COMM: rc = apply_comm(p, e); break;
		case PROC_EV_MMAP:
		case PROC_EV_MUNMAP: rc = apply_mmap(p, e); break;
		}
	}
	for (size_t j = 0; j < p->n_pending; j++)
		free(p->pending[j].comm);
	p->n_pending = 0;
	return rc;
}
