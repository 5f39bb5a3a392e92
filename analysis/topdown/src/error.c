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
