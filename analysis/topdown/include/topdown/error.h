/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Error codes of libspe_topdown.  Functions return >= 0 on success and the
 * negated code on failure; a struct td_diag, when the caller passes one,
 * receives a sentence naming the line (or field) and the problem.
 */
#ifndef TOPDOWN_ERROR_H
#define TOPDOWN_ERROR_H

enum td_error_code {
	td_ok = 0,
	td_invalid,     /* bad argument */
	td_nomem,       /* out of memory */
	td_bad_input,   /* the input is malformed; td_diag says where */
	td_unsupported, /* well-formed, but a CPU or format we do not handle */
	td_io,          /* a read or system call failed; errno kept in td_diag */
	td_db,          /* SQLite reported an error; its message is in td_diag */
	td_no_data,     /* nothing usable was found */
};

/** Where and why an operation failed.  line is 1-based, 0 when not applicable. */
struct td_diag {
	long line;
	char msg[256];
};

/** Short static description of a code (negative or not). */
const char *td_errstr(int code);

/** Record a diagnostic (NULL @p diag is allowed) and return -@p code. */
int td_fail(struct td_diag *diag, int code, long line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
