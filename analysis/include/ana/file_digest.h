/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: a capture file's identity (file_digest.c), for the SQLite and ClickHouse sinks. */
#ifndef SPE_FILE_DIGEST_H
#define SPE_FILE_DIGEST_H

#include <stddef.h>

#define SPE_FILE_DIGEST_SIZE 64

/* "SIZE-HASH" of the file at @p path into @p out (at least SPE_FILE_DIGEST_SIZE bytes).  0, or -spe_io/-spe_nomem with a message. */
int ana_file_digest(const char *path, char *out, size_t size, char *err, size_t errlen);

#endif
