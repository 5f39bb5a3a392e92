/* SPDX-License-Identifier: Apache-2.0 */
/* The visible form of text for a terminal (util/visible.h). */
#include "util/visible.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static atomic_ulong cuts;

/* Where the visible form goes: a stream, a buffer (NULL buf: counting only). */
struct sink {
	FILE *out;
	char *buf;
	size_t len;
};

static void put(struct sink *k, const char *s, size_t n)
{
	if (k->out)
		fwrite(s, 1, n, k->out);
	else if (k->buf)
		memcpy(k->buf + k->len, s, n);
	k->len += n;
}

/*
 * The code point of the well-formed UTF-8 sequence at @p s (RFC 3629: no
 * overlong forms, no surrogates, at most U+10FFFF) and its length in *@p n;
 * -1 when the bytes there are not one.
 */
static int32_t utf8_decode(const unsigned char *s, int *n)
{
	unsigned char c = s[0];
	int len;
	int32_t cp, min;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07, min = 0x10000;
	else
		return -1;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1; /* a NUL ends the string here too */
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*n = len;
	return cp;
}

/* Code points shown as \uXXXX: C1 controls are handled byte-wise; these reorder or break lines. */
static int hidden_format_char(int32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

/* One visible character of @p s: its bytes into @p piece (at most 24), its length in @p s into *used. */
static size_t one_char(const unsigned char *s, unsigned flags, char piece[24], size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = *s;
	*used = 1;
	if (c >= 0x20 && c < 0x7f) {
		piece[0] = (char)c;
		return 1;
	}
	if (c == '\t' && (flags & UTIL_VISIBLE_TABS)) {
		piece[0] = '\t';
		return 1;
	}
	if (c == '\n' || c == '\r' || c == '\t') {
		piece[0] = '\\';
		piece[1] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
		return 2;
	}
	if (c >= 0x80) {
		int n = 0;
		int32_t cp = utf8_decode(s, &n);
		if (cp >= 0xa0 && !hidden_format_char(cp)) {
			memcpy(piece, s, (size_t)n);
			*used = (size_t)n;
			return (size_t)n;
		}
		if (cp >= 0 && cp >= 0xa0) { /* a format character: \u202e */
			piece[0] = '\\';
			piece[1] = 'u';
			for (int i = 0; i < 4; i++)
				piece[2 + i] = hex[(cp >> (12 - 4 * i)) & 0xf];
			*used = (size_t)n;
			return 6;
		}
		if (cp >= 0) { /* C1: both bytes as \xNN */
			static const char c2[] = "\\xc2";
			memcpy(piece, c2, 4);
			piece[4] = '\\';
			piece[5] = 'x';
			piece[6] = hex[s[1] >> 4];
			piece[7] = hex[s[1] & 0xf];
			*used = 2;
			return 8;
		}
	}
	piece[0] = '\\';
	piece[1] = 'x';
	piece[2] = hex[c >> 4];
	piece[3] = hex[c & 0xf];
	return 4;
}

/* Columns of a piece: one per character (a UTF-8 sequence is one; an escape is as long as its text). */
static size_t piece_columns(const char *piece, size_t n)
{
	if ((unsigned char)piece[0] >= 0x80)
		return 1;
	if (piece[0] == '\t')
		return 1;
	return n;
}

/*
 * The visible form of @p s into @p k, at most @p limit columns (0: all);
 * its columns, and in *@p whole whether all of @p s fitted.
 */
static size_t walk(struct sink *k, const char *s, unsigned flags, size_t limit, int *whole)
{
	size_t cols = 0;
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		char piece[24];
		size_t used, n = one_char(p, flags, piece, &used);
		size_t w = piece_columns(piece, n);
		if (limit && cols + w > limit)
			break;
		put(k, piece, n);
		cols += w;
		p += used;
	}
	*whole = !*p;
	return cols;
}

/* The visible form of @p s into @p k cut at @p max columns (0: none), the "…" included; its columns. */
static size_t render(struct sink *k, const char *s, unsigned flags, size_t max, int *cut)
{
	int whole = 1;
	if (max) {
		struct sink count = { 0 };
		walk(&count, s, flags, max, &whole);
	}
	*cut = !whole;
	if (whole)
		return walk(k, s, flags, 0, &whole);
	size_t cols = max > 1 ? walk(k, s, flags, max - 1, &whole) : 0;
	put(k, "\xe2\x80\xa6", 3);
	return cols + 1;
}

char *util_visible(const char *s, unsigned flags, size_t max)
{
	struct sink count = { 0 };
	int cut;
	render(&count, s, flags, max, &cut);
	char *buf = malloc(count.len + 1);
	if (!buf)
		return NULL;
	struct sink k = { .buf = buf };
	render(&k, s, flags, max, &cut);
	buf[k.len] = 0;
	if (cut && !(flags & UTIL_VISIBLE_UNCOUNTED))
		util_visible_count_cut();
	return buf;
}

size_t util_visible_columns(const char *s, unsigned flags, size_t max)
{
	struct sink count = { 0 };
	int cut;
	return render(&count, s, flags, max, &cut);
}

size_t util_visible_put(FILE *out, const char *s, unsigned flags, size_t max, int width)
{
	size_t pad = 0;
	if (width) {
		size_t w = (size_t)(width < 0 ? -(long)width : width);
		size_t cols = util_visible_columns(s, flags, max);
		pad = cols < w ? w - cols : 0;
	}
	if (width < 0)
		for (size_t i = 0; i < pad; i++)
			fputc(' ', out);
	struct sink k = { .out = out };
	int cut;
	size_t cols = render(&k, s, flags, max, &cut);
	if (cut && !(flags & UTIL_VISIBLE_UNCOUNTED))
		util_visible_count_cut();
	if (width > 0)
		for (size_t i = 0; i < pad; i++)
			fputc(' ', out);
	return cols + pad;
}

unsigned long util_visible_cuts(void)
{
	return atomic_load(&cuts);
}

void util_visible_count_cut(void)
{
	atomic_fetch_add(&cuts, 1);
}
