/* SPDX-License-Identifier: Apache-2.0 */
/* Names by row id, each distinct name stored once (name_book.h). */
#include "name_book.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "spe/spe.h"

static uint64_t name_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h ^ h >> 29;
}

static const char *name_of(const struct name_book *b, size_t n)
{
	return b->text + b->starts[n];
}

/* The slot of name @p s (@p len bytes, hash @p h): its own, or the empty one it would take. */
static uint32_t *find_slot(const struct name_book *b, const char *s, size_t len, uint64_t h)
{
	for (size_t i = h & (b->slot_cap - 1);; i = (i + 1) & (b->slot_cap - 1)) {
		uint32_t v = b->slots[i];
		if (!v)
			return &b->slots[i];
		const char *t = name_of(b, v - 1);
		if (!memcmp(t, s, len) && !t[len])
			return &b->slots[i];
	}
}

static int grow_slots(struct name_book *b)
{
	size_t cap = b->slot_cap ? b->slot_cap * 2 : 256;
	uint32_t *slots = calloc(cap, sizeof *slots), *old = b->slots;
	if (!slots)
		return -1;
	b->slots = slots;
	b->slot_cap = cap;
	for (size_t n = 0; n < b->n_names; n++) {
		const char *s = name_of(b, n);
		size_t len = strlen(s);
		*find_slot(b, s, len, name_hash(s, len)) = (uint32_t)n + 1;
	}
	free(old);
	return 0;
}

/* The number of name @p s, stored on first sight: >= 0, or -1 without memory. */
static int64_t intern(struct name_book *b, const char *s)
{
	size_t len = strlen(s);
	uint64_t h = name_hash(s, len);
	if ((b->n_names + 1) * 4 > b->slot_cap * 3 && grow_slots(b) < 0)
		return -1;
	uint32_t *slot = find_slot(b, s, len, h);
	if (*slot)
		return *slot - 1;
	if (b->n_names >= UINT32_MAX - 1)
		return -1;
	char *text = util_grow(b->text, &b->text_cap, b->text_len + len + 1, 1);
	if (!text)
		return -1;
	b->text = text;
	size_t *starts = util_grow(b->starts, &b->starts_cap, b->n_names + 1, sizeof *starts);
	if (!starts)
		return -1;
	b->starts = starts;
	memcpy(b->text + b->text_len, s, len + 1);
	b->starts[b->n_names] = b->text_len;
	b->text_len += len + 1;
	*slot = (uint32_t)++b->n_names;
	return (int64_t)b->n_names - 1;
}

int ana_name_book_add(struct name_book *b, int64_t id, const char *name)
{
	int64_t n = intern(b, name ? name : "");
	if (n < 0 || ana_pc_cache_put_id(&b->ids, (uint64_t)id, n) < 0)
		return -spe_nomem;
	return 0;
}

const char *ana_name_book_name(const struct name_book *b, int64_t id)
{
	const int64_t *n = ana_pc_cache_find_id(&b->ids, (uint64_t)id);
	return n ? name_of(b, (size_t)*n) : NULL;
}

int ana_name_book_list(struct name_book *b, const int64_t *ids, size_t n, const char **out)
{
	*out = NULL;
	if (util_grow_zeroed((void **)&b->seen, &b->seen_cap, b->n_names, sizeof *b->seen) < 0)
		return -spe_nomem;
	if (++b->call == 0) { /* the marks' count wrapped: every name unseen again */
		memset(b->seen, 0, b->seen_cap * sizeof *b->seen);
		b->call = 1;
	}
	size_t len = 0, listed = 0;
	for (size_t i = 0; i < n; i++) {
		const int64_t *k = ana_pc_cache_find_id(&b->ids, (uint64_t)ids[i]);
		if (!k || b->seen[*k] == b->call) /* no such row, or its name given already */
			continue;
		b->seen[*k] = b->call;
		const char *s = name_of(b, (size_t)*k);
		size_t m = strlen(s);
		char *list = util_grow(b->list, &b->list_cap, len + m + 2, 1);
		if (!list)
			return -spe_nomem;
		b->list = list;
		if (listed++)
			b->list[len++] = ',';
		memcpy(b->list + len, s, m + 1); /* an empty name too: "" and ",x" as group_concat gives them */
		len += m;
	}
	if (listed)
		*out = b->list;
	return 0;
}

void ana_name_book_free(struct name_book *b)
{
	ana_pc_cache_free(&b->ids);
	free(b->text);
	free(b->starts);
	free(b->slots);
	free(b->seen);
	free(b->list);
	memset(b, 0, sizeof *b);
}
