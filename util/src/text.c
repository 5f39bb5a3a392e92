/* SPDX-License-Identifier: Apache-2.0 */
#include "util/text.h"
#include "util/grow.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(struct util_text *t, size_t more)
{
	if (t->failed)
		return 0;
	if (t->len + more + 1 <= t->cap)
		return 1;
	char *p = util_grow(t->buf, &t->cap, t->len + more + 1, 1);
	if (!p) {
		t->failed = 1;
		return 0;
	}
	t->buf = p;
	return 1;
}

void util_text_append(struct util_text *t, const char *s)
{
	size_t n = strlen(s);
	if (!reserve(t, n))
		return;
	memcpy(t->buf + t->len, s, n + 1);
	t->len += n;
}

void util_text_appendf(struct util_text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(t, (size_t)n)) {
		t->failed = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

int util_text_ok(const struct util_text *t)
{
	return !t->failed && t->buf;
}

void util_text_fini(struct util_text *t)
{
	free(t->buf);
	t->buf = NULL;
	t->len = t->cap = 0;
	t->failed = 0;
}
