/* SPDX-License-Identifier: Apache-2.0 */
/* Distinct values of small sets (value_pool.h). */
#include "value_pool.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define RUN_FIRST_ROOM 4

/* A new run of @p room values at the end of the array: its index, 0 without memory. */
static size_t new_run(struct value_pool *p, uint32_t room)
{
	size_t at = p->n ? p->n : 1; /* entry 0 is "none" */
	if (at + 1 + room > UINT32_MAX)
		return 0;
	struct pool_entry *e = util_grow(p->entries, &p->cap, at + 1 + room, sizeof *e);
	if (!e)
		return 0;
	p->entries = e;
	e[at] = (struct pool_entry){ .value = room, .kind = 0 };
	p->n = at + 1 + room;
	return at;
}

int ana_value_pool_add(struct value_pool *p, uint32_t *run, unsigned kind, int64_t value, int seen, int64_t *first)
{
	if (!seen) {
		*first = value;
		return 1;
	}
	if (*first == value)
		return 0;
	uint32_t used = *run ? p->entries[*run].kind : 0, room = *run ? (uint32_t)p->entries[*run].value : 0;
	const struct pool_entry *v = *run ? &p->entries[*run + 1] : NULL;
	for (uint32_t i = 0; i < used; i++)
		if (v[i].value == value && v[i].kind == kind)
			return 0;
	if (used == room) { /* full (or none): twice the room at the end */
		size_t at = new_run(p, room ? 2 * room : RUN_FIRST_ROOM);
		if (!at)
			return -1;
		if (used)
			memcpy(&p->entries[at + 1], &p->entries[*run + 1], used * sizeof *p->entries);
		p->entries[at].kind = used;
		*run = (uint32_t)at;
	}
	p->entries[*run + 1 + used] = (struct pool_entry){ .value = value, .kind = kind };
	p->entries[*run].kind = used + 1;
	return 1;
}

size_t ana_value_pool_list(const struct value_pool *p, uint32_t run, unsigned kind, int seen, int64_t first,
			   int64_t *out)
{
	if (!seen)
		return 0;
	size_t n = 0;
	out[n++] = first;
	uint32_t used = run ? p->entries[run].kind : 0;
	for (uint32_t i = 0; i < used; i++)
		if (p->entries[run + 1 + i].kind == kind)
			out[n++] = p->entries[run + 1 + i].value;
	return n;
}

size_t ana_value_pool_widest(const struct value_pool *p)
{
	size_t widest = 0;
	for (size_t at = 1; at < p->n; at += 1 + (size_t)p->entries[at].value)
		if (p->entries[at].kind > widest)
			widest = p->entries[at].kind;
	return widest;
}

void ana_value_pool_fini(struct value_pool *p)
{
	free(p->entries);
	memset(p, 0, sizeof *p);
}
