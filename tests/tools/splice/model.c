/* SPDX-License-Identifier: Apache-2.0 */
/* The recorded machine's threads and mappings over time (model.h). */
#define _GNU_SOURCE /* qsort_r */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		perror("spe-splice: realloc");
		exit(70);
	}
	return q;
}

static uint64_t ev_time(const struct cap_event *e)
{
	return e->has_time ? e->time : 0;
}

static int by_time(const void *a, const void *b, void *ctx)
{
	const struct capture *c = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t tx = ev_time(&c->events[x]), ty = ev_time(&c->events[y]);
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

static struct task_life *alive(struct model *m, uint32_t tid)
{
	for (uint32_t i = m->n_lives; i-- > 0;)
		if (m->lives[i].tid == tid && m->lives[i].death == UINT64_MAX)
			return &m->lives[i];
	return NULL;
}

static struct task_life *new_life(struct model *m, uint32_t tid, uint32_t pid, uint64_t birth)
{
	m->lives = xrealloc(m->lives, (m->n_lives + 1) * sizeof *m->lives);
	struct task_life *l = &m->lives[m->n_lives++];
	memset(l, 0, sizeof *l);
	l->tid = tid;
	l->pid = pid;
	l->birth = birth;
	l->death = UINT64_MAX;
	return l;
}

static void seen(struct model *m, uint32_t pid, uint32_t tid, uint64_t t)
{
	if (tid == UINT32_MAX)
		return;
	struct task_life *l = alive(m, tid);
	if (!l)
		new_life(m, tid, pid, t);
	else if (l->pid == UINT32_MAX)
		l->pid = pid;
}

static void maps_insert(struct maps *mp, const struct map_entry *e)
{
	/* cut what the new mapping overlaps, keeping the parts outside it */
	for (uint32_t i = 0; i < mp->n;) {
		struct map_entry *o = &mp->v[i];
		if (o->end <= e->start || o->start >= e->end) {
			i++;
			continue;
		}
		struct map_entry old = *o;
		memmove(o, o + 1, (mp->n - i - 1) * sizeof *o);
		mp->n--;
		struct map_entry parts[2];
		int np = 0;
		if (old.start < e->start) {
			parts[np] = old;
			parts[np++].end = e->start;
		}
		if (old.end > e->end) {
			parts[np] = old;
			parts[np].pgoff += e->end - old.start;
			parts[np++].start = e->end;
		}
		for (int k = 0; k < np; k++) {
			if (mp->n == mp->cap) {
				mp->cap = mp->cap ? 2 * mp->cap : 16;
				mp->v = xrealloc(mp->v, mp->cap * sizeof *mp->v);
			}
			mp->v[mp->n++] = parts[k];
		}
		i = 0; /* the array moved: start over (few mappings) */
	}
	if (mp->n == mp->cap) {
		mp->cap = mp->cap ? 2 * mp->cap : 16;
		mp->v = xrealloc(mp->v, mp->cap * sizeof *mp->v);
	}
	mp->v[mp->n++] = *e;
}

static void entry_of(const struct cap_event *e, struct map_entry *me)
{
	memset(me, 0, sizeof *me);
	me->start = e->u.mmap.start;
	me->end = e->u.mmap.start + e->u.mmap.len;
	me->pgoff = e->u.mmap.pgoff;
	me->prot = e->type == CAP_MMAP2 ? e->u.mmap.prot : (e->u.mmap.data ? 1 : 5);
	me->data = e->u.mmap.data;
	me->filename = e->u.mmap.filename;
	me->build_id = e->u.mmap.build_id_size ? e->u.mmap.build_id : NULL;
	me->build_id_size = e->u.mmap.build_id_size;
	me->time = ev_time(e);
}

int model_init(struct model *m, const struct capture *c)
{
	memset(m, 0, sizeof *m);
	m->cap = c;
	m->order = xrealloc(NULL, c->n_events * sizeof *m->order);
	for (uint32_t i = 0; i < c->n_events; i++)
		m->order[i] = i;
	qsort_r(m->order, c->n_events, sizeof *m->order, by_time, (void *)c);
	for (uint32_t k = 0; k < c->n_events; k++) {
		const struct cap_event *e = &c->events[m->order[k]];
		uint64_t t = ev_time(e);
		switch (e->type) {
		case CAP_FORK: {
			struct task_life *old = alive(m, e->u.task.tid);
			if (old)
				old->death = t; /* its EXIT was lost */
			struct task_life *l = new_life(m, e->u.task.tid, e->u.task.pid, t);
			l->forked = 1;
			l->parent_tid = e->u.task.ptid;
			l->process = e->u.task.pid != e->u.task.ppid;
			break;
		}
		case CAP_EXIT: {
			struct task_life *l = alive(m, e->u.task.tid);
			if (l)
				l->death = t;
			break;
		}
		case CAP_COMM:
			seen(m, e->u.comm.pid, e->u.comm.tid, t);
			break;
		case CAP_MMAP:
		case CAP_MMAP2:
			if (e->u.mmap.kernel) {
				struct map_entry me;
				entry_of(e, &me);
				maps_insert(&m->kernel, &me);
			} else {
				seen(m, e->u.mmap.pid, e->u.mmap.tid, t);
			}
			break;
		default:
			if (e->has_tid && e->sid_tid != UINT32_MAX && e->sid_tid != 0)
				seen(m, e->sid_pid, e->sid_tid, t);
			break;
		}
	}
	return 0;
}

void model_set_known_files(struct model *m, int (*known)(const void *ctx, const char *mapped), const void *ctx)
{
	m->known_file = known;
	m->known_ctx = ctx;
}

void model_free(struct model *m)
{
	free(m->order);
	free(m->lives);
	model_maps_free(&m->kernel);
	memset(m, 0, sizeof *m);
}

void model_maps_free(struct maps *mp)
{
	free(mp->v);
	memset(mp, 0, sizeof *mp);
}

static const struct task_life *life_at(const struct model *m, uint32_t tid, uint64_t t)
{
	const struct task_life *best = NULL;
	for (uint32_t i = 0; i < m->n_lives; i++) {
		const struct task_life *l = &m->lives[i];
		if (l->tid == tid && l->birth <= t && (l->death == UINT64_MAX || l->death >= t))
			best = l;
	}
	return best;
}

static int resolve(const struct model *m, const struct plan *p, const struct plan_task *pt, int depth,
		   const struct task_life **out, char *err, size_t errlen)
{
	const struct capture *c = m->cap;
	if (depth > 32) {
		snprintf(err, errlen, "%s:%d: task references nest too deep", p->name, pt->line);
		return -1;
	}
	unsigned found = 0;
	if (pt->ref == REF_TID) {
		for (uint32_t i = 0; i < m->n_lives; i++)
			if (m->lives[i].tid == pt->tid) {
				*out = &m->lives[i];
				return 0;
			}
		snprintf(err, errlen, "%s:%d: no thread %u in the capture", p->name, pt->line, pt->tid);
		return -1;
	}
	if (pt->ref == REF_COMM) {
		const struct task_life *prev[64];
		unsigned nprev = 0;
		for (uint32_t k = 0; k < c->n_events; k++) {
			const struct cap_event *e = &c->events[m->order[k]];
			if (e->type != CAP_COMM || strcmp(e->u.comm.name, pt->arg))
				continue;
			const struct task_life *l = life_at(m, e->u.comm.tid, ev_time(e));
			int dup = 0;
			for (unsigned i = 0; i < nprev; i++)
				dup |= prev[i] == l;
			if (!l || dup)
				continue;
			if (nprev < 64)
				prev[nprev++] = l;
			if (++found == pt->nth) {
				*out = l;
				return 0;
			}
		}
		snprintf(err, errlen, "%s:%d: %u thread(s) named '%s' in the capture, #%u asked", p->name, pt->line, found,
			 pt->arg, pt->nth);
		return -1;
	}
	const struct task_life *parent;
	if (resolve(m, p, plan_task(p, pt->arg), depth + 1, &parent, err, errlen) < 0)
		return -1;
	for (uint32_t i = 0; i < m->n_lives; i++) {
		const struct task_life *l = &m->lives[i];
		if (!l->forked || l->birth < parent->birth || (parent->death != UINT64_MAX && l->birth > parent->death))
			continue;
		int match = pt->ref == REF_CHILD ? l->process && l->parent_tid == parent->tid
						 : !l->process && l->pid == parent->pid && l->tid != l->pid;
		if (match && ++found == pt->nth) {
			*out = l;
			return 0;
		}
	}
	snprintf(err, errlen, "%s:%d: task '%s' (tid %u) has %u %s, #%u asked", p->name, pt->line, pt->arg,
		 parent->tid, found, pt->ref == REF_CHILD ? "child process(es)" : "other thread(s)", pt->nth);
	return -1;
}

int model_task(const struct model *m, const struct plan *p, const char *name, const struct task_life **life,
	       char *err, size_t errlen)
{
	const struct plan_task *pt = plan_task(p, name);
	if (!pt) {
		snprintf(err, errlen, "%s: unknown task '%s'", p->name, name);
		return -1;
	}
	return resolve(m, p, pt, 0, life, err, errlen);
}

static int file_matches(const char *mapped, const char *want)
{
	if (!strcmp(mapped, want))
		return 1;
	const char *base = strrchr(mapped, '/');
	return !strchr(want, '/') && base && !strcmp(base + 1, want);
}

int model_event_time(const struct model *m, const struct plan *p, const struct plan_event *ev, int line,
		     uint64_t *time, char *err, size_t errlen)
{
	const struct capture *c = m->cap;
	uint64_t t = 0;
	const struct task_life *l = NULL;
	if (ev->kind != EV_TIME && model_task(m, p, ev->task, &l, err, errlen) < 0)
		return -1;
	switch (ev->kind) {
	case EV_TIME:
		t = ev->time;
		break;
	case EV_START:
		t = l->birth;
		break;
	case EV_END:
		t = l->death == UINT64_MAX ? c->max_time : l->death;
		break;
	case EV_EXEC:
	case EV_MMAP:
		for (uint32_t k = 0; k < c->n_events && !t; k++) {
			const struct cap_event *e = &c->events[m->order[k]];
			uint64_t et = ev_time(e);
			if (et < l->birth || (l->death != UINT64_MAX && et > l->death))
				continue;
			if (ev->kind == EV_EXEC && e->type == CAP_COMM && e->u.comm.exec && e->u.comm.tid == l->tid)
				t = et;
			if (ev->kind == EV_MMAP && (e->type == CAP_MMAP || e->type == CAP_MMAP2) && !e->u.mmap.kernel &&
			    e->u.mmap.pid == l->pid && file_matches(e->u.mmap.filename, ev->file) &&
			    (!m->known_file || m->known_file(m->known_ctx, e->u.mmap.filename)))
				t = et;
		}
		if (!t) {
			snprintf(err, errlen, "%s:%d: no %s of task '%s' (tid %u) in the capture", p->name, line,
				 ev->kind == EV_EXEC ? "exec" : "mmap of that file", ev->task, l->tid);
			return -1;
		}
		break;
	}
	if (ev->delta_ns < 0 && (uint64_t)-ev->delta_ns > t) {
		snprintf(err, errlen, "%s:%d: the offset goes before time 0", p->name, line);
		return -1;
	}
	*time = t + (uint64_t)ev->delta_ns;
	return 0;
}

struct pid_maps {
	uint32_t pid;
	struct maps maps;
};

static struct maps *maps_of(struct pid_maps **tab, uint32_t *n, uint32_t pid)
{
	for (uint32_t i = 0; i < *n; i++)
		if ((*tab)[i].pid == pid)
			return &(*tab)[i].maps;
	*tab = xrealloc(*tab, (*n + 1) * sizeof **tab);
	memset(&(*tab)[*n], 0, sizeof **tab);
	(*tab)[*n].pid = pid;
	return &(*tab)[(*n)++].maps;
}

void model_maps_at(const struct model *m, uint32_t pid, uint64_t time, struct maps *out)
{
	const struct capture *c = m->cap;
	struct pid_maps *tab = NULL;
	uint32_t n = 0;
	for (uint32_t k = 0; k < c->n_events; k++) {
		const struct cap_event *e = &c->events[m->order[k]];
		if (ev_time(e) >= time && ev_time(e) != 0)
			break;
		switch (e->type) {
		case CAP_FORK:
			if (e->u.task.pid != e->u.task.ppid) {
				struct maps *child = maps_of(&tab, &n, e->u.task.pid);
				struct maps *parent = maps_of(&tab, &n, e->u.task.ppid);
				child = maps_of(&tab, &n, e->u.task.pid); /* the table may have moved */
				child->n = 0;
				for (uint32_t i = 0; i < parent->n; i++)
					maps_insert(child, &parent->v[i]);
			}
			break;
		case CAP_COMM:
			if (e->u.comm.exec)
				maps_of(&tab, &n, e->u.comm.pid)->n = 0;
			break;
		case CAP_EXIT:
			if (e->u.task.pid == e->u.task.tid)
				maps_of(&tab, &n, e->u.task.pid)->n = 0;
			break;
		case CAP_MMAP:
		case CAP_MMAP2:
			if (!e->u.mmap.kernel) {
				struct map_entry me;
				entry_of(e, &me);
				maps_insert(maps_of(&tab, &n, e->u.mmap.pid), &me);
			}
			break;
		default:
			break;
		}
	}
	memset(out, 0, sizeof *out);
	for (uint32_t i = 0; i < n; i++) {
		if (tab[i].pid == pid)
			*out = tab[i].maps;
		else
			model_maps_free(&tab[i].maps);
	}
	free(tab);
}

uint32_t model_runs(const struct model *m, const struct task_life *life, uint64_t from, uint64_t to,
		    struct run_interval **out)
{
	const struct capture *c = m->cap;
	struct run_interval *v = NULL;
	uint32_t n = 0, any = 0;
	int open = 0;
	uint64_t open_at = 0;
	uint32_t open_cpu = 0;
	uint64_t end = life->death == UINT64_MAX ? c->max_time : life->death;
	for (uint32_t k = 0; k < c->n_events; k++) {
		const struct cap_event *e = &c->events[m->order[k]];
		if ((e->type != CAP_SWITCH && e->type != CAP_SWITCH_CPU_WIDE) || !e->has_cpu || !e->has_tid ||
		    e->sid_tid != life->tid || e->time < life->birth || e->time > end)
			continue;
		any++;
		if (!e->u.sw.out) {
			if (!open) {
				open = 1;
				open_at = e->time;
				open_cpu = e->cpu;
			}
		} else if (open || n == 0) {
			/* a first switch-out: the thread ran since its birth */
			v = xrealloc(v, (n + 1) * sizeof *v);
			v[n++] = open ? (struct run_interval){ open_at, e->time, open_cpu }
				      : (struct run_interval){ life->birth, e->time, e->cpu };
			open = 0;
		}
	}
	if (open) {
		v = xrealloc(v, (n + 1) * sizeof *v);
		v[n++] = (struct run_interval){ open_at, end, open_cpu };
	}
	/* clip to [from, to] */
	uint32_t kept = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t s = v[i].start > from ? v[i].start : from, e = v[i].end < to ? v[i].end : to;
		if (e > s + 1)
			v[kept++] = (struct run_interval){ s, e, v[i].cpu };
	}
	if (!any || !kept) {
		free(v);
		*out = NULL;
		return 0;
	}
	*out = v;
	return kept;
}

int model_time_taken(const struct model *m, uint64_t time)
{
	const struct capture *c = m->cap;
	for (uint32_t i = 0; i < c->n_events; i++)
		if (c->events[i].has_time && c->events[i].time == time)
			return 1;
	return 0;
}
