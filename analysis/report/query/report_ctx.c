/* SPDX-License-Identifier: Apache-2.0 */
/* The report context: options with their defaults, and the error message. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/memory_report.h"
#include "report_internal.h"
#include "report_sqlite.h"

/*
 * 1 when every source's load stored its loads' latencies by memory level
 * (level_latency_bucket: a database made or a source loaded before that
 * table has none): the sources with timed loads in mem_level_stat, which the
 * page's levels read already, all have rows there.
 */
static int level_latencies_stored(sqlite3 *db)
{
	return report_sqlite_true(db, "SELECT NOT EXISTS (SELECT 1 FROM mem_level_stat m WHERE m.timed > 0\n"
				      "  AND NOT EXISTS (SELECT 1 FROM level_latency_bucket b WHERE b.source_id = m.source_id))");
}

/*
 * 1 when every source's load counted its loads by function, PC and level
 * (pc_level_stat: a database made or a source loaded before that table has
 * none): every source with loads and functions (those of its mappings, and
 * any without a mapping, whose source is not known) has rows there.  A
 * source whose loads all lie outside functions has none either, and the
 * query reads the records then (for the same answer).
 */
static int pc_levels_stored(sqlite3 *db)
{
	return report_sqlite_true(
		db, "SELECT NOT EXISTS (SELECT 1 FROM source s\n"
		    "  WHERE EXISTS (SELECT 1 FROM mem_level_stat m WHERE m.source_id = s.id AND m.loads > 0)\n"
		    "    AND (EXISTS (SELECT 1 FROM mapping mp JOIN symbol y ON y.mapping_id = mp.id WHERE mp.source_id = s.id)\n"
		    "      OR EXISTS (SELECT 1 FROM symbol y WHERE y.mapping_id IS NULL))\n"
		    "    AND NOT EXISTS (SELECT 1 FROM pc_level_stat p WHERE p.source_id = s.id))");
}

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
	if (db && level_latencies_stored(db))
		c->stored |= REPORT_STORED_LEVEL_LATENCY;
	if (db && spe_data_objects_stored(db))
		c->stored |= REPORT_STORED_DATA_OBJECTS;
	if (db && pc_levels_stored(db))
		c->stored |= REPORT_STORED_PC_LEVELS;
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
