/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A growable text buffer (SQL built from the facts lists, report queries):
 * append, then check once.
 *
 *   struct util_text t = { 0 };
 *   util_text_appendf(&t, "SELECT %s FROM spe_record", col);
 *   if (!util_text_ok(&t)) ...out of memory...;  use t.buf;  util_text_fini(&t);
 */
#ifndef SPE_UTIL_TEXT_H
#define SPE_UTIL_TEXT_H

#include <stddef.h>

struct util_text {
	char *buf;
	size_t len, cap;
	int failed; /* an allocation failed; buf holds what fit */
};

void util_text_append(struct util_text *t, const char *s);
void util_text_appendf(struct util_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1 if every append succeeded. */
int util_text_ok(const struct util_text *t);
void util_text_fini(struct util_text *t);

#endif
