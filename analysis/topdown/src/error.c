/* SPDX-License-Identifier: Apache-2.0 */
#include "topdown/error.h"

#include <stdarg.h>
#include <stdio.h>

int td_fail(struct td_diag *diag, int code, long line, const char *fmt, ...)
{
	if (diag) {
		va_list ap;
		va_start(ap, fmt);
		diag->line = line;
		vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
		va_end(ap);
	}
	return -code;
}

int td_failf(char *err, size_t errlen, int code, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -code;
}
