/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: a capture file's identity (file_digest.c), for the SQLite and
 * ClickHouse sinks: "xxh3-SIZE-HASH", its size in bytes and the XXH3-128 of
 * its bytes (libxxhash), HASH as xxhsum -H2 prints it.  Databases written
 * before spekit used XXH3 hold "SIZE-HASH" of a hash of its own (the first
 * digest); a sink holding such digests computes that one too, so a file
 * loaded then is still recognised.
 */
#ifndef SPE_FILE_DIGEST_H
#define SPE_FILE_DIGEST_H

#include <stddef.h>

#define SPE_FILE_DIGEST_SIZE 64

/* The digest of the file at @p path into @p out (at least SPE_FILE_DIGEST_SIZE bytes).  0, or -spe_io/-spe_nomem with a message. */
int ana_file_digest(const char *path, char *out, size_t size, char *err, size_t errlen);
/* The same in the first digest's form ("SIZE-HASH"), to find a file a database of then holds. */
int ana_file_digest_first(const char *path, char *out, size_t size, char *err, size_t errlen);
/* 1 when @p digest is of the first form (not "xxh3-..."). */
int ana_file_digest_is_first(const char *digest);
/* SQL's condition on a digest column @p col of the first form (for a query that looks for any). */
#define ANA_FILE_DIGEST_FIRST_SQL(col) col " NOT LIKE 'xxh3-%'"

#endif
