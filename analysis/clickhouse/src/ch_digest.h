/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: a capture file's identity (ch_digest.c). */
#ifndef SPE_CH_DIGEST_H
#define SPE_CH_DIGEST_H

#include <stddef.h>

/* "SIZE-HASH" of the file at @p path into @p out (at least 64 bytes).  0, or -spe_io/-spe_nomem with a message. */
int ch_file_digest(const char *path, char *out, size_t size, char *err, size_t errlen);

#endif
