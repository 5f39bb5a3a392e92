/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: RowBinary, ClickHouse's row encoding, into a ch_buf with room
 * reserved: little-endian integers, strings as LEB128 length + bytes,
 * Nullable as a 1-byte NULL flag before the value.
 */
#ifndef SPE_CH_ROWBINARY_H
#define SPE_CH_ROWBINARY_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

#include "ch_internal.h"

static inline void put_bytes(struct ch_buf *b, const void *p, size_t n)
{
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static inline void put_i64(struct ch_buf *b, int64_t v)
{
	uint64_t u = htole64((uint64_t)v);
	put_bytes(b, &u, 8);
}

static inline void put_u8(struct ch_buf *b, uint8_t v)
{
	b->p[b->len++] = (char)v;
}

/* LEB128: the length of a string or an array */
static inline void put_uvarint(struct ch_buf *b, size_t v)
{
	do {
		uint8_t byte = v & 0x7f;
		v >>= 7;
		put_u8(b, byte | (v ? 0x80 : 0));
	} while (v);
}

static inline void put_str(struct ch_buf *b, const char *s, size_t n)
{
	put_uvarint(b, n);
	put_bytes(b, s, n);
}

/* Array(Int64): the count, then the values. */
static inline void put_i64_array(struct ch_buf *b, const int64_t *v, size_t n)
{
	put_uvarint(b, n);
	for (size_t i = 0; i < n; i++)
		put_i64(b, v[i]);
}

/* Nullable(Int64): 1 = NULL, else 0 and the value. */
static inline void put_nint(struct ch_buf *b, int is_set, int64_t v)
{
	put_u8(b, is_set ? 0 : 1);
	if (is_set)
		put_i64(b, v);
}

static inline void put_nstr(struct ch_buf *b, const char *s)
{
	put_u8(b, s ? 0 : 1);
	if (s)
		put_str(b, s, strlen(s));
}

static inline void put_text(struct ch_buf *b, const char *s)
{
	put_str(b, s ? s : "", s ? strlen(s) : 0);
}

#endif
