/* SPDX-License-Identifier: Apache-2.0 */
/* The growable arrays of the loader's tables (attribution, data objects): one way to grow them. */
#ifndef SPE_GROW_ARRAY_H
#define SPE_GROW_ARRAY_H

#include <stdlib.h>

/*
 * @p p (of *@p cap elements of @p elem bytes) with room for @p need:
 * doubled from 16 as needed.  NULL without memory (@p p is then unchanged).
 */
static inline void *grow_array(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	size_t n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(p, n * elem);
	if (q)
		*cap = n;
	return q;
}

#endif
