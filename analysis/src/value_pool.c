/* SPDX-License-Identifier: Apache-2.0 */
/* Distinct values of small sets (value_pool.h). */
#include "value_pool.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

int ana_value_pool_add(struct value_pool *p, uint32_t *more, unsigned kind, int64_t value, int seen, int64_t *first)
{
	if (!seen) {
		*first = value;
		return 1;
	}
	if (*first == value)
		return 0;
	for (uint32_t i = *more; i; i = p->values[i].next)
		if (p->values[i].kind == kind && p->values[i].value == value)
			return 0;
	size_t n = p->n ? p->n : 1; /* node 0 is "none" */
	if (n >= UINT32_MAX)
		return -1;
	if (n >= p->cap) {
		void *q = util_grow(p->values, &p->cap, n + 1, sizeof *p->values);
		if (!q)
			return -1;
		p->values = q;
	}
	p->values[n] = (struct pool_value){ .value = value, .next = *more, .kind = kind };
	p->n = n + 1;
	*more = (uint32_t)n;
	return 1;
}

size_t ana_value_pool_list(const struct value_pool *p, uint32_t more, unsigned kind, int seen, int64_t first,
			   int64_t *out)
{
	if (!seen)
		return 0;
	size_t n = 0;
	out[n++] = first;
	for (uint32_t i = more; i; i = p->values[i].next)
		if (p->values[i].kind == kind)
			out[n++] = p->values[i].value;
	for (size_t a = 1, b = n - 1; a < b; a++, b--) { /* the list is newest first */
		int64_t t = out[a];
		out[a] = out[b];
		out[b] = t;
	}
	return n;
}

void ana_value_pool_free(struct value_pool *p)
{
	free(p->values);
	memset(p, 0, sizeof *p);
}
