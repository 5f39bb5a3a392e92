/* SPDX-License-Identifier: Apache-2.0 */
/* A tiny byte builder for the perf.data reader tests: files that lie are written byte by byte. */
#ifndef SPE_TEST_PERF_BYTES_H
#define SPE_TEST_PERF_BYTES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static inline void put(struct buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
	}
	if (d)
		memcpy(b->p + b->len, d, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
}
static inline void put16(struct buf *b, uint16_t v) { put(b, &v, 2); }
static inline void put32(struct buf *b, uint32_t v) { put(b, &v, 4); }
static inline void put64(struct buf *b, uint64_t v) { put(b, &v, 8); }
static inline void set64(struct buf *b, size_t off, uint64_t v) { memcpy(b->p + off, &v, 8); }
static inline void set32(struct buf *b, size_t off, uint32_t v) { memcpy(b->p + off, &v, 4); }
static inline void set16(struct buf *b, size_t off, uint16_t v) { memcpy(b->p + off, &v, 2); }
/* A record header: type, misc 0, size. */
static inline void hdr(struct buf *b, uint32_t type, uint16_t size)
{
	put32(b, type);
	put16(b, 0);
	put16(b, size);
}

#endif
