/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Errors of libspe_topdown: functions return >= 0 on success and a negative
 * spe_* code (spe/spe.h, spe_errstr) on failure, with the reason where the
 * tree's convention puts it (docs/architecture.md, "Errors"): the importers
 * of text fill a struct td_diag (the line and the problem), the calls on a
 * td_session keep it on the session (td_session_errmsg), every other call
 * writes it to the caller's err buffer (NULL allowed).
 */
#ifndef TOPDOWN_ERROR_H
#define TOPDOWN_ERROR_H

#include <stddef.h>

#include "spe/spe.h"

/** Where and why an operation failed.  line is 1-based, 0 when not applicable. */
struct td_diag {
	long line;
	char msg[256];
};

/** Record a diagnostic (NULL @p diag is allowed) and return @p code (negative). */
int td_fail(struct td_diag *diag, int code, long line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** Write the message to @p err (NULL allowed) and return -@p code. */
int td_failf(char *err, size_t errlen, int code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
