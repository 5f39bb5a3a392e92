/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interned strings: each distinct string is stored once, keeps its address
 * for the table's life and has a dense index (pprof's string_table is the
 * index order; the text exporters use the stable pointers).
 */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "util/grow.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

int export_strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof *t);
	return export_strtab_add(t, "") == 0 ? 0 : -1;
}

void export_strtab_fini(struct strtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->str[i]);
	free(t->str);
	free(t->slots);
	memset(t, 0, sizeof *t);
}

static int grow_slots(struct strtab *t)
{
	size_t n = t->nslots ? 2 * t->nslots : 1024;
	uint32_t *slots = calloc(n, sizeof *slots);
	if (!slots)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		size_t j = hash_str(t->str[i]) & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	return 0;
}

int64_t export_strtab_add(struct strtab *t, const char *s)
{
	if (!s)
		s = "";
	if (2 * (t->n + 1) > t->nslots && grow_slots(t) < 0)
		return -1;
	size_t j = hash_str(s) & (t->nslots - 1);
	for (; t->slots[j]; j = (j + 1) & (t->nslots - 1))
		if (!strcmp(t->str[t->slots[j] - 1], s))
			return t->slots[j] - 1;
	char **str = util_grow(t->str, &t->cap, t->n + 1, sizeof *str);
	if (!str)
		return -1;
	t->str = str;
	if (t->n >= UINT32_MAX - 1 || !(t->str[t->n] = strdup(s)))
		return -1;
	t->slots[j] = (uint32_t)++t->n;
	return (int64_t)t->n - 1;
}

const char *export_strtab_intern(struct strtab *t, const char *s, int *oom)
{
	if (!s)
		return NULL;
	int64_t i = export_strtab_add(t, s);
	if (i < 0) {
		*oom = 1;
		return NULL;
	}
	return t->str[i];
}
