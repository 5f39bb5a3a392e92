/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bounded inputs: opening a file never blocks, and text is read with limits.
 *
 * open(2) of a FIFO without a writer blocks until one appears, forever if
 * none does; reading /dev/zero never ends.  Every spekit input that is not a
 * stream by design (replay inputs, kallsyms copies, sysfs attributes,
 * imported text, perf.data to be loaded) is opened through
 * spe_infile_open(): O_NONBLOCK, then fstat, then refused unless it is a
 * regular file.  Text inputs go through spe_infile_read_text(), which caps
 * the size and the length of a line.
 *
 * Errors: negative spe_error_code values with a message naming the file in
 * @p err: -spe_io (cannot open or read: missing, no permission),
 * -spe_unsupported (not a regular file), -spe_bad_file (over a limit),
 * -spe_nomem.  A command maps the first two to exit 66, the third to 65.
 */
#ifndef SPE_INFILE_H
#define SPE_INFILE_H

#include <stddef.h>
#include <stdio.h>

#include "spe/spe.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Open @p path read-only without blocking; returns a descriptor (blocking
 * mode restored, close-on-exec) of a regular file, or a negative code.
 */
SPE_API int spe_infile_open(const char *path, char *err, size_t errlen);

/* The same, as a stdio stream ("r"); NULL with the reason in @p err (and *@p code if not NULL). */
SPE_API FILE *spe_infile_fopen(const char *path, int *code, char *err, size_t errlen);

/*
 * Read all of the regular file @p path (at most @p max_bytes bytes, no line
 * longer than @p max_line bytes; 0: no line limit) into a NUL-terminated
 * malloc'd buffer.  Over a limit: -spe_bad_file with the limit and the line
 * number in @p err.
 */
SPE_API int spe_infile_read_text(const char *path, size_t max_bytes, size_t max_line, char **text, size_t *len,
				 char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
