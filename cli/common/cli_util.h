/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the commands: exit codes and stdout handling. */
#ifndef SPE_CLI_UTIL_H
#define SPE_CLI_UTIL_H

#include <stdio.h>
#include <stdint.h>
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
 * The exit status of a negative spe_* code (spe/spe.h), the one table every
 * command uses (docs/architecture.md, "Errors"): spe_invalid 64 (a bad
 * request), spe_not_found 66, spe_unavailable 69, spe_io, spe_nomem and
 * spe_internal 74, spe_no_permission 77, spe_cancelled 130 (128 + SIGINT,
 * as a shell reports an interrupted command), every other code (bad or
 * truncated data, malformed input, nothing usable) 65; 0 gives 0.
 * A command whose documented status differs for one call says so where it
 * makes the call, from the code, never from the message.
 */
int cli_exit_status(int code);

/*
 * Flush and close stdout; a failed write (disk full, closed pipe other
 * than EPIPE) turns @p status into CLI_IOERR with a message naming @p prog.
 */
int cli_finish_stdout(const char *prog, int status);

/* Parse a byte count: "4096", "0x1000", "64K", "4M", "1G"; 0 on success, -1 if malformed or too big. */
int cli_parse_size(const char *s, uint64_t *out);

#endif
