/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz util_visible (util/visible.h) on any bytes: the visible form holds no
 * control byte (but a tab with UTIL_VISIBLE_TABS), no DEL and no C1 control,
 * is well-formed UTF-8, its columns are what util_visible_columns says, at
 * most the cut when one is asked for, and util_visible_put writes the same
 * bytes.  The first byte chooses the flags and the cut.  Seeds:
 * fixtures/fuzz/visible/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/visible.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Length of the well-formed UTF-8 sequence at @p s (no overlong forms, surrogates or code points past U+10FFFF), or 0. */
static size_t utf8_ok(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0) || (c == 0xf0 && s[1] < 0x90) ||
	    (c == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned flags = data[0] & 1 ? UTIL_VISIBLE_TABS : 0;
	size_t max = data[0] >> 1; /* 0: no cut */
	char *in = malloc(size);
	if (!in)
		return 0;
	memcpy(in, data + 1, size - 1);
	in[size - 1] = 0;
	char *v = util_visible(in, flags | UTIL_VISIBLE_UNCOUNTED, max);
	if (v) {
		size_t cols = 0;
		for (const unsigned char *p = (const unsigned char *)v; *p;) {
			size_t n = utf8_ok(p);
			if (!n || (*p < 0x20 && !(*p == '\t' && flags)) || *p == 0x7f || (p[0] == 0xc2 && p[1] < 0xa0))
				abort();
			p += n;
			cols++;
		}
		if (cols != util_visible_columns(in, flags, max) || (max && cols > max))
			abort();
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		if (f) {
			util_visible_put(f, in, flags | UTIL_VISIBLE_UNCOUNTED, max, 0);
			fclose(f);
			if (!buf || strcmp(buf, v))
				abort();
			free(buf);
		}
		free(v);
	}
	free(in);
	return 0;
}
