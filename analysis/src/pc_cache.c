/* SPDX-License-Identifier: Apache-2.0 */
#include "pc_cache.h"

#include <stdlib.h>

static size_t slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

struct pc_value *pc_cache_find(const struct pc_cache *c, uint64_t key)
{
	if (!c->cap)
		return NULL;
	for (size_t i = slot(key, c->cap);; i = (i + 1) & (c->cap - 1)) {
		if (!c->used[i])
			return NULL;
		if (c->keys[i] == key)
			return &c->values[i];
	}
}

static int grow(struct pc_cache *c)
{
	size_t cap = c->cap ? c->cap * 2 : 1024;
	struct pc_cache n = { calloc(cap, sizeof *n.keys), calloc(cap, sizeof *n.values), calloc(cap, 1), cap, 0 };
	if (!n.keys || !n.values || !n.used) {
		pc_cache_free(&n);
		return -1;
	}
	for (size_t i = 0; i < c->cap; i++)
		if (c->used[i])
			pc_cache_put(&n, c->keys[i], c->values[i]);
	pc_cache_free(c);
	*c = n;
	return 0;
}

struct pc_value *pc_cache_put(struct pc_cache *c, uint64_t key, struct pc_value v)
{
	struct pc_value *p = pc_cache_find(c, key);
	if (p) {
		*p = v;
		return p;
	}
	if ((c->count + 1) * 4 > c->cap * 3 && grow(c) < 0)
		return NULL;
	size_t i = slot(key, c->cap);
	while (c->used[i])
		i = (i + 1) & (c->cap - 1);
	c->used[i] = 1;
	c->keys[i] = key;
	c->values[i] = v;
	c->count++;
	return &c->values[i];
}

void pc_cache_free(struct pc_cache *c)
{
	free(c->keys);
	free(c->values);
	free(c->used);
	c->keys = NULL;
	c->values = NULL;
	c->used = NULL;
	c->cap = c->count = 0;
}
