/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A bounded text cursor for the dump writers: no printf on the hot path.
 * Writes stop at the end of the buffer (one byte kept for the NUL); the
 * cursor still counts, so callers can tell truncation (out_len > size - 1).
 */
#ifndef SPE_TEXT_OUT_H
#define SPE_TEXT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct text_out {
	char *p;      /* next byte to write */
	char *end;    /* last writable byte (kept for the NUL) */
	size_t len;   /* characters produced, written or not */
};

static inline void out_init(struct text_out *o, char *buf, size_t size)
{
	o->p = buf;
	o->end = size ? buf + size - 1 : buf;
	o->len = 0;
}

static inline void out_char(struct text_out *o, char c)
{
	if (o->p < o->end)
		*o->p++ = c;
	o->len++;
}

static inline void out_mem(struct text_out *o, const char *s, size_t n)
{
	size_t room = (size_t)(o->end - o->p);
	size_t k = n < room ? n : room;
	if (k) {
		memcpy(o->p, s, k);
		o->p += k;
	}
	o->len += n;
}

static inline void out_str(struct text_out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

/* " word": most description words follow a space. */
static inline void out_word(struct text_out *o, const char *s)
{
	out_char(o, ' ');
	out_str(o, s);
}

static inline void out_hex(struct text_out *o, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;
	do {
		tmp[15 - n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	out_mem(o, tmp + 16 - n, (size_t)n);
}

/* Zero-padded to at least @p width digits (the dump's %08x offset). */
static inline void out_hex_width(struct text_out *o, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;
	do {
		tmp[15 - n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	while (n < width && n < 16)
		tmp[15 - n++] = '0';
	out_mem(o, tmp + 16 - n, (size_t)n);
}

static inline void out_udec(struct text_out *o, uint64_t v)
{
	char tmp[20];
	int n = 0;
	do {
		tmp[19 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out_mem(o, tmp + 20 - n, (size_t)n);
}

static inline void out_sdec(struct text_out *o, int64_t v)
{
	if (v < 0) {
		out_char(o, '-');
		out_udec(o, (uint64_t)0 - (uint64_t)v);
	} else {
		out_udec(o, (uint64_t)v);
	}
}

static inline void out_finish(struct text_out *o)
{
	if (o->end >= o->p && o->p)
		*o->p = '\0';
}

#endif
