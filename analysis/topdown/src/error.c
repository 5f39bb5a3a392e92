/* SPDX-License-Identifier: Apache-2.0 */
#include "topdown/error.h"

#include <stdarg.h>
#include <stdio.h>

const char *td_errstr(int code)
{
	if (code < 0)
		code = -code;
	switch (code) {
	case td_ok: return "success";
	case td_invalid: return "invalid argument";
	case td_nomem: return "out of memory";
	case td_bad_input: return "malformed input";
	case td_unsupported: return "not supported";
	case td_io: return "input/output error";
	case td_db: return "database error";
	case td_no_data: return "no topdown data found";
	}
	return "unknown error";
}

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
