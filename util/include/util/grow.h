/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The growable array: the one way an array of the tree grows (libspe
 * included, so header-only).
 *
 *   struct item *v = util_grow(t->v, &t->cap, t->n + 1, sizeof *v);
 *   if (!v) return -spe_nomem;      (t->v is unchanged and still owned)
 *   t->v = v;
 */
#ifndef SPE_UTIL_GROW_H
#define SPE_UTIL_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * @p p (room for *@p cap elements of @p elem bytes) with room for at least
 * @p need: the capacity doubles from 16 (or from *@p cap).  Returns the
 * array, possibly moved, with *@p cap updated; NULL when memory is short or
 * the size overflows (@p p and *@p cap are then unchanged).
 */
static inline void *util_grow(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	size_t n = *cap ? *cap : 16;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return NULL;
		n *= 2;
	}
	if (elem && n > SIZE_MAX / elem)
		return NULL;
	void *q = realloc(p, n * elem);
	if (q)
		*cap = n;
	return q;
}

/*
 * Room for element @p i of *@p p (capacity *@p cap), the new elements
 * zeroed: 0, or -1 when memory is short (*@p p is then unchanged).
 */
static inline int util_grow_zeroed(void **p, size_t *cap, size_t i, size_t elem)
{
	if (i < *cap)
		return 0;
	size_t old = *cap;
	char *q = util_grow(*p, cap, i + 1, elem);
	if (!q)
		return -1;
	memset(q + old * elem, 0, (*cap - old) * elem);
	*p = q;
	return 0;
}

#endif
