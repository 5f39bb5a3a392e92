/* SPDX-License-Identifier: Apache-2.0 */
/* Distinct values of small sets (value_pool.h). */
#include "value_pool.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define RUN_FIRST_ROOM 4
#define ROOM(head) ((uint32_t)((head) >> 32))
#define USED(head) ((uint32_t)(head))

/* A new run of @p room values at the end of the array: its index, 0 without memory. */
static size_t new_run(struct value_pool *p, uint32_t room)
{
	size_t at = p->n ? p->n : 1; /* word 0 is "none" */
	if (at + 1 + room > UINT32_MAX)
		return 0;
	uint64_t *w = util_grow(p->words, &p->cap, at + 1 + room, sizeof *w);
	if (!w)
		return 0;
	p->words = w;
	w[at] = (uint64_t)room << 32;
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
	uint64_t word = (uint64_t)value << 2 | kind;
	uint64_t head = *run ? p->words[*run] : 0;
	for (uint32_t i = 0; i < USED(head); i++)
		if (p->words[*run + 1 + i] == word)
			return 0;
	if (USED(head) == ROOM(head)) { /* full (or none): twice the room at the end */
		size_t at = new_run(p, head ? 2 * ROOM(head) : RUN_FIRST_ROOM);
		if (!at)
			return -1;
		if (head)
			memcpy(&p->words[at + 1], &p->words[*run + 1], USED(head) * sizeof *p->words);
		p->words[at] |= USED(head);
		*run = (uint32_t)at;
	}
	uint64_t *h = &p->words[*run];
	p->words[*run + 1 + USED(*h)] = word;
	(*h)++;
	return 1;
}

size_t ana_value_pool_list(const struct value_pool *p, uint32_t run, unsigned kind, int seen, int64_t first,
			   int64_t *out)
{
	if (!seen)
		return 0;
	size_t n = 0;
	out[n++] = first;
	uint32_t used = run ? USED(p->words[run]) : 0;
	for (uint32_t i = 0; i < used; i++) {
		uint64_t w = p->words[run + 1 + i];
		if ((w & 3) == kind)
			out[n++] = (int64_t)(w >> 2);
	}
	return n;
}

size_t ana_value_pool_widest(const struct value_pool *p)
{
	size_t widest = 0;
	for (size_t at = 1; at < p->n; at += 1 + ROOM(p->words[at]))
		if (USED(p->words[at]) > widest)
			widest = USED(p->words[at]);
	return widest;
}

void ana_value_pool_free(struct value_pool *p)
{
	free(p->words);
	memset(p, 0, sizeof *p);
}
