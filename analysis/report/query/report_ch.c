/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report's queries on a ClickHouse session (report_internal.h):
 * spe_clickhouse's row cursor, with the session's message on failure.  A
 * build without spe_clickhouse (no libcurl) has the report on SQLite only.
 */
#include <stdio.h>

#include "report_internal.h"

#ifdef SPE_HAVE_CLICKHOUSE

#include "spe/clickhouse.h"

int report_ch_open(struct report_ctx *c, const char *name, const char *sql, struct spe_ch_rows **out)
{
	int rc = spe_ch_rows_open(c->ch, sql, out);
	return rc < 0 ? report_fail(c, rc, "query %s: %s", name, spe_ch_errmsg(c->ch)) : 0;
}

int report_ch_next(struct report_ctx *c, struct spe_ch_rows *r)
{
	int rc = spe_ch_rows_next(r);
	return rc < 0 ? report_fail(c, rc, "%s: the server's answer is not the table it announced", spe_ch_name(c->ch))
		      : rc;
}

int report_ch_ncols(struct spe_ch_rows *r)
{
	return spe_ch_rows_ncols(r);
}

const char *report_ch_text(struct spe_ch_rows *r, int col)
{
	return spe_ch_rows_text(r, col);
}

void report_ch_free(struct spe_ch_rows *r)
{
	spe_ch_rows_free(r);
}

#else

int report_ch_open(struct report_ctx *c, const char *name, const char *sql, struct spe_ch_rows **out)
{
	(void)name, (void)sql;
	*out = NULL;
	return report_fail(c, -spe_unsupported, "this spekit was built without ClickHouse support");
}

int report_ch_next(struct report_ctx *c, struct spe_ch_rows *r)
{
	(void)c, (void)r;
	return 0;
}

int report_ch_ncols(struct spe_ch_rows *r)
{
	(void)r;
	return 0;
}

const char *report_ch_text(struct spe_ch_rows *r, int col)
{
	(void)r, (void)col;
	return NULL;
}

void report_ch_free(struct spe_ch_rows *r)
{
	(void)r;
}

#endif
