/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Errors of libspe_topdown: functions return >= 0 on success and a negative
 * spe_* code (spe/spe.h, spe_errstr) on failure.  A struct td_diag, when the
 * caller passes one, receives a sentence naming the line (or field) and the
 * problem.
 */
#ifndef TOPDOWN_ERROR_H
#define TOPDOWN_ERROR_H

#include "spe/spe.h"

/** Where and why an operation failed.  line is 1-based, 0 when not applicable. */
struct td_diag {
	long line;
	char msg[256];
};

/** Record a diagnostic (NULL @p diag is allowed) and return @p code (negative). */
int td_fail(struct td_diag *diag, int code, long line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
