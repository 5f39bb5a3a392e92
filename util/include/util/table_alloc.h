/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Zeroed memory for a large hash table that is probed at random (the PC
 * memo, the summaries' indexes): from 2 MiB on, aligned to 2 MiB and marked
 * for transparent huge pages (madvise(2) MADV_HUGEPAGE; Debian's default
 * THP mode, "madvise", gives them only when asked).  With 4 KiB pages,
 * nearly every probe of a table of tens of MB also missed the TLB.  A hint:
 * where huge pages are off, it is plain zeroed memory.  Free with free().
 */
#ifndef SPE_UTIL_TABLE_ALLOC_H
#define SPE_UTIL_TABLE_ALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define UTIL_HUGE_PAGE ((size_t)2 << 20)

static inline void *util_table_calloc(size_t n, size_t elem)
{
	if (elem && n > SIZE_MAX / elem)
		return NULL;
	size_t bytes = n * elem;
	if (bytes < UTIL_HUGE_PAGE)
		return calloc(n, elem);
	void *p = NULL;
	if (posix_memalign(&p, UTIL_HUGE_PAGE, bytes) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, bytes, MADV_HUGEPAGE); /* before the first touch: memset then faults huge pages */
#endif
	return memset(p, 0, bytes);
}

#endif
