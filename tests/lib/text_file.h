/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a whole text file (a fixture, a source, a doc) in tests. */
#ifndef SPE_TEST_TEXT_FILE_H
#define SPE_TEST_TEXT_FILE_H

#include <stddef.h>

/*
 * The contents of "@p dir/@p name", NUL-terminated, in a malloc'd buffer
 * (the caller frees it); its length in *@p len when @p len is not NULL.
 * NULL, after printing "  cannot open PATH", when it cannot be read.
 */
char *test_read_text(const char *dir, const char *name, size_t *len);

#endif
