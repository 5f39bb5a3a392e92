/* SPDX-License-Identifier: Apache-2.0 */
/* A growable text buffer for SQL built from the facts lists. */
#ifndef SPE_SQL_TEXT_H
#define SPE_SQL_TEXT_H

#include <stddef.h>

struct sql_text {
	char *buf;
	size_t len, cap;
	int failed; /* an allocation failed; buf holds what fit */
};

void sql_append(struct sql_text *t, const char *s);
/* @p s as an SQL string literal: quoted, its quotes doubled. */
void sql_append_literal(struct sql_text *t, const char *s);
void sql_appendf(struct sql_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1 if every append succeeded. */
int sql_ok(const struct sql_text *t);
void sql_free(struct sql_text *t);

#endif
