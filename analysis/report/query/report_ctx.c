/* SPDX-License-Identifier: Apache-2.0 */
/* The report context: options with their defaults, and the error message. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/memory_report.h"
#include "report_internal.h"

int report_ctx_init(struct report_ctx *c, sqlite3 *db, struct spe_ch *ch, FILE *out, const struct spe_report_opts *opts, char *err,
		    size_t errlen)
{
	memset(c, 0, sizeof *c);
	c->db = db;
	c->ch = ch;
	c->h.out = out;
	c->err = err;
	c->errlen = errlen;
	if (opts)
		c->o = *opts;
	if (c->o.top <= 0)
		c->o.top = 10;
	if (c->o.annotations == 0)
		c->o.annotations = 5;
	else if (c->o.annotations < 0)
		c->o.annotations = 0;
	if (err && errlen)
		err[0] = '\0';
	if (db && spe_page_regions_stored(db))
		c->stored |= REPORT_STORED_REGIONS;
	return 0;
}

int report_fail(struct report_ctx *c, int code, const char *fmt, ...)
{
	if (c->err && c->errlen && !c->err[0]) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}
