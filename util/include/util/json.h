/* SPDX-License-Identifier: Apache-2.0 */
/* JSON output: the one string escaper (RFC 8259 section 7). */
#ifndef SPE_UTIL_JSON_H
#define SPE_UTIL_JSON_H

#include <stdio.h>

/*
 * Write @p s as a JSON string literal: quotes; '"' and '\\' escaped; \b \f
 * \n \r \t by name and every other byte below 0x20 (and 0x7f) as \u00XX,
 * never dropped.  Other bytes are copied (the caller's strings are UTF-8).
 * NULL is written as "".
 */
void util_json_string(FILE *out, const char *s);

#endif
