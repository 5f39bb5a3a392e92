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

/*
 * Pieces are copied with fixed-size moves, the last overlapping when n is
 * not a power of two: nearly all are short, and a memcpy call (or the
 * rep movs a compiler may inline) costs more than the copy.
 */
static inline void out_mem(struct text_out *o, const char *s, size_t n)
{
	size_t room = (size_t)(o->end - o->p);
	char *d = o->p;
	o->len += n;
	if (n > room)
		n = room;
	if (n > 16) {
		/* 16-byte pieces, the last one overlapping: no rep movs for a 17..20-digit number */
		for (size_t i = 0; i + 16 < n; i += 16)
			memcpy(d + i, s + i, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n >= 2 && n < 4) {
		memcpy(d, s, 2);
		memcpy(d + n - 2, s + n - 2, 2);
	} else if (n == 1) {
		*d = *s;
	}
	o->p = d + n;
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

/* "000102...ff": the two hex digits of each byte value, for writing a byte at a time. */
#define SPE_HEX_ROW(h) h "0" h "1" h "2" h "3" h "4" h "5" h "6" h "7" h "8" h "9" h "a" h "b" h "c" h "d" h "e" h "f"
static const char spe_hex_pairs[513] = SPE_HEX_ROW("0") SPE_HEX_ROW("1") SPE_HEX_ROW("2") SPE_HEX_ROW("3")
	SPE_HEX_ROW("4") SPE_HEX_ROW("5") SPE_HEX_ROW("6") SPE_HEX_ROW("7") SPE_HEX_ROW("8") SPE_HEX_ROW("9")
	SPE_HEX_ROW("a") SPE_HEX_ROW("b") SPE_HEX_ROW("c") SPE_HEX_ROW("d") SPE_HEX_ROW("e") SPE_HEX_ROW("f");
#undef SPE_HEX_ROW

/* Zero-padded to at least @p width digits (the dump's %08x offset). */
static inline void out_hex_width(struct text_out *o, uint64_t v, int width)
{
	char tmp[16];
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1; /* significant hex digits */
	if (n < width)
		n = width < 16 ? width : 16;
	for (int i = 14; i > 14 - n; i -= 2, v >>= 8) /* two digits at a time, from the right */
		memcpy(tmp + i, spe_hex_pairs + 2 * (v & 0xFF), 2);
	out_mem(o, tmp + 16 - n, (size_t)n);
}

static inline void out_hex(struct text_out *o, uint64_t v)
{
	out_hex_width(o, v, 1);
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
