/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe-report's output file: written in full to a temporary beside the
 * target (spe/outfile.h) and renamed over it only when complete, so a
 * failure, a signal or a mistyped option never truncates or replaces a file
 * the user had.  All of spe-report's file writing goes through here.
 */
#ifndef SPE_CLI_REPORT_OUTPUT_H
#define SPE_CLI_REPORT_OUTPUT_H

#include <stdio.h>

/*
 * Check that @p path can be an output: absent, or a regular file (a symbolic
 * link to one: the file it names is replaced), in a writable directory.  "-"
 * is standard output.  Returns CLI_OK, CLI_USAGE (not a regular file) or
 * CLI_IOERR, with a message naming @p prog.
 */
int cli_report_output_check(const char *prog, const char *path);

/*
 * Run @p write on a stream to @p path ("-": standard output) and keep what
 * it wrote only when it returns CLI_OK and every byte reached the disk.
 * Returns @p write's status, CLI_IOERR when writing failed (message printed),
 * or CLI_USAGE for a path that cannot be an output.
 */
int cli_report_output_write(const char *prog, const char *path, int (*write)(FILE *out, void *arg), void *arg);

/* When values were cut at UTIL_VISIBLE_MAX characters (util/visible.h): how many, on stderr. */
void cli_report_cuts(const char *prog);

#endif
