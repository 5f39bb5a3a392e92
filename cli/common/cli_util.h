/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the commands: exit codes and stdout handling. */
#ifndef SPE_CLI_UTIL_H
#define SPE_CLI_UTIL_H

#include <stdio.h>
#include <sysexits.h>

/* Exit codes every command documents (sysexits.h, plus 1 for "partial"). */
enum cli_exit {
	CLI_OK = 0,
	CLI_PARTIAL = 1,          /* done, but the input had errors */
	CLI_USAGE = EX_USAGE,     /* 64 */
	CLI_DATAERR = EX_DATAERR, /* 65 */
	CLI_NOINPUT = EX_NOINPUT, /* 66 */
	CLI_UNAVAILABLE = EX_UNAVAILABLE, /* 69 */
	CLI_IOERR = EX_IOERR,     /* 74 */
	CLI_NOPERM = EX_NOPERM,   /* 77 */
};

/*
 * Flush and close stdout; a failed write (disk full, closed pipe other
 * than EPIPE) turns @p status into CLI_IOERR with a message naming @p prog.
 */
int cli_finish_stdout(const char *prog, int status);

/* Write @p s as a JSON string literal (quotes, backslashes and control bytes escaped). */
void cli_json_string(FILE *out, const char *s);

#endif
