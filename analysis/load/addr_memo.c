/* SPDX-License-Identifier: Apache-2.0 */
/* The loader's per-record memos (addr_memo.h). */
#include "addr_memo.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash_map.h"
#include "util/table_alloc.h"

static uint64_t space_key(int64_t space)
{
	return (uint64_t)space ^ (UINT64_C(1) << 63); /* never 0 for a value of 32 bits, sign extended */
}

static size_t slot(uint64_t space, uint64_t addr, size_t cap)
{
	uint64_t w[2] = { space, addr };
	return (size_t)util_hash_words(w, 2) & (cap - 1);
}

static struct addr_memo_entry *find_entry(const struct addr_memo *m, uint64_t space, uint64_t addr)
{
	if (!m->cap)
		return NULL;
	for (size_t i = slot(space, addr, m->cap);; i = (i + 1) & (m->cap - 1)) {
		struct addr_memo_entry *e = &m->entries[i];
		if (!e->space)
			return NULL;
		if (e->space == space && e->addr == addr)
			return e;
	}
}

struct pc_value *ana_addr_memo_find(const struct addr_memo *m, int64_t space, uint64_t addr)
{
	struct addr_memo_entry *e = find_entry(m, space_key(space), addr);
	return e ? &e->value.pc : NULL;
}

int64_t *ana_addr_memo_find_id(const struct addr_memo *m, int64_t space, uint64_t addr)
{
	struct addr_memo_entry *e = find_entry(m, space_key(space), addr);
	return e ? &e->value.id : NULL;
}

static struct addr_memo_entry *empty_slot(const struct addr_memo *m, uint64_t space, uint64_t addr)
{
	size_t i = slot(space, addr, m->cap);
	while (m->entries[i].space)
		i = (i + 1) & (m->cap - 1);
	return &m->entries[i];
}

static int grow(struct addr_memo *m)
{
	struct addr_memo n = { NULL, m->cap ? m->cap * 2 : 1024, m->count, m->emptied };
	n.entries = util_table_calloc(n.cap, sizeof *n.entries);
	if (!n.entries)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->entries[i].space)
			*empty_slot(&n, m->entries[i].space, m->entries[i].addr) = m->entries[i];
	free(m->entries);
	*m = n;
	return 0;
}

/*
 * The entry of the key, new (its value zeroed) if absent; NULL without memory.
 * A memo at ADDR_MEMO_MAX_SLOTS that fills is emptied, not grown: it is a
 * cache of what can be resolved again, and a capture touching millions of
 * pages in thousands of processes would otherwise hold one entry for each
 * (1.2 GB of a 10 M-record busy host's 2.8 GB: docs/performance.md).
 */
static struct addr_memo_entry *entry_for(struct addr_memo *m, uint64_t space, uint64_t addr)
{
	struct addr_memo_entry *e = find_entry(m, space, addr);
	if (e)
		return e;
	if ((m->count + 1) * 4 > m->cap * 3) {
		if (m->cap >= ADDR_MEMO_MAX_SLOTS) {
			memset(m->entries, 0, m->cap * sizeof *m->entries);
			m->count = 0;
			m->emptied++;
		} else if (grow(m) < 0) {
			return NULL;
		}
	}
	e = empty_slot(m, space, addr);
	memset(e, 0, sizeof *e);
	e->space = space;
	e->addr = addr;
	m->count++;
	return e;
}

struct pc_value *ana_addr_memo_put(struct addr_memo *m, int64_t space, uint64_t addr, struct pc_value v)
{
	struct addr_memo_entry *e = entry_for(m, space_key(space), addr);
	if (!e)
		return NULL;
	e->value.pc = v;
	return &e->value.pc;
}

int ana_addr_memo_put_id(struct addr_memo *m, int64_t space, uint64_t addr, int64_t id)
{
	struct addr_memo_entry *e = entry_for(m, space_key(space), addr);
	if (!e)
		return -1;
	e->value.id = id;
	return 0;
}

struct addr_timed_id *ana_addr_memo_find_timed(const struct addr_memo *m, int64_t space, uint64_t addr)
{
	struct addr_memo_entry *e = find_entry(m, space_key(space), addr);
	return e ? &e->value.timed : NULL;
}

struct addr_timed_id *ana_addr_memo_put_timed(struct addr_memo *m, int64_t space, uint64_t addr, struct addr_timed_id v)
{
	struct addr_memo_entry *e = entry_for(m, space_key(space), addr);
	if (!e)
		return NULL;
	e->value.timed = v;
	return &e->value.timed;
}

void ana_addr_memo_prefetch(const struct addr_memo *m, int64_t space, uint64_t addr)
{
	if (!m->cap)
		return;
	const char *e = (const char *)&m->entries[slot(space_key(space), addr, m->cap)];
	__builtin_prefetch(e);
	__builtin_prefetch(e + sizeof *m->entries - 1); /* under 2 MiB the table is calloc's: an entry may straddle two lines */
}

void ana_addr_memo_fini(struct addr_memo *m)
{
	free(m->entries);
	memset(m, 0, sizeof *m);
}
