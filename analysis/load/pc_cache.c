/* SPDX-License-Identifier: Apache-2.0 */
#include "pc_cache.h"

#include <stdlib.h>
#include <string.h>

#include "util/table_alloc.h"

static size_t slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

static struct pc_cache_entry *find_entry(const struct pc_cache *c, uint64_t key)
{
	if (!c->cap)
		return NULL;
	for (size_t i = slot(key, c->cap);; i = (i + 1) & (c->cap - 1)) {
		struct pc_cache_entry *e = &c->entries[i];
		if (!e->used)
			return NULL;
		if (e->key == key)
			return e;
	}
}

struct pc_value *ana_pc_cache_find(const struct pc_cache *c, uint64_t key)
{
	struct pc_cache_entry *e = find_entry(c, key);
	return e ? &e->value.pc : NULL;
}

int64_t *ana_pc_cache_find_id(const struct pc_cache *c, uint64_t key)
{
	struct pc_cache_entry *e = find_entry(c, key);
	return e ? &e->value.id : NULL;
}

static struct pc_cache_entry *empty_slot(const struct pc_cache *c, uint64_t key)
{
	size_t i = slot(key, c->cap);
	while (c->entries[i].used)
		i = (i + 1) & (c->cap - 1);
	return &c->entries[i];
}

static int grow(struct pc_cache *c)
{
	struct pc_cache n = { NULL, c->cap ? c->cap * 2 : 1024, c->count };
	n.entries = util_table_calloc(n.cap, sizeof *n.entries);
	if (!n.entries)
		return -1;
	for (size_t i = 0; i < c->cap; i++)
		if (c->entries[i].used)
			*empty_slot(&n, c->entries[i].key) = c->entries[i];
	free(c->entries);
	*c = n;
	return 0;
}

/* The entry of @p key, new (zeroed) if absent; NULL without memory. */
static struct pc_cache_entry *entry_for(struct pc_cache *c, uint64_t key)
{
	struct pc_cache_entry *e = find_entry(c, key);
	if (e)
		return e;
	if ((c->count + 1) * 4 > c->cap * 3 && grow(c) < 0)
		return NULL;
	e = empty_slot(c, key);
	memset(e, 0, sizeof *e);
	e->used = 1;
	e->key = key;
	c->count++;
	return e;
}

struct pc_value *ana_pc_cache_put(struct pc_cache *c, uint64_t key, struct pc_value v)
{
	struct pc_cache_entry *e = entry_for(c, key);
	if (!e)
		return NULL;
	e->value.pc = v;
	return &e->value.pc;
}

int ana_pc_cache_put_id(struct pc_cache *c, uint64_t key, int64_t id)
{
	struct pc_cache_entry *e = entry_for(c, key);
	if (!e)
		return -1;
	e->value.id = id;
	return 0;
}

struct pc_timed_id *ana_pc_cache_find_timed(const struct pc_cache *c, uint64_t key)
{
	struct pc_cache_entry *e = find_entry(c, key);
	return e ? &e->value.timed : NULL;
}

struct pc_timed_id *ana_pc_cache_put_timed(struct pc_cache *c, uint64_t key, struct pc_timed_id v)
{
	struct pc_cache_entry *e = entry_for(c, key);
	if (!e)
		return NULL;
	e->value.timed = v;
	return &e->value.timed;
}

void ana_pc_cache_prefetch(const struct pc_cache *c, uint64_t key)
{
	if (!c->cap)
		return;
	const char *e = (const char *)&c->entries[slot(key, c->cap)];
	__builtin_prefetch(e);
	__builtin_prefetch(e + sizeof *c->entries - 1); /* an entry may straddle two lines */
}

void ana_pc_cache_free(struct pc_cache *c)
{
	free(c->entries);
	c->entries = NULL;
	c->cap = c->count = 0;
}
