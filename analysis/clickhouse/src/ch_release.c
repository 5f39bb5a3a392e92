/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What differs by ClickHouse release, in one place.  spekit's SQL is written
 * so that one text serves Debian 12's 18.16 and current releases (24.x to
 * 26.x: docs/scaling-out.md, "Releases"); where one form cannot serve both,
 * the session asks the server's version once (SELECT version()) and the
 * form is picked here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ch_internal.h"

int ch_release(struct spe_ch *ch, int *major, int *minor)
{
	if (!ch->release[0]) {
		int rc = ch_select_server(ch, "SELECT version() FORMAT TabSeparated");
		if (rc < 0)
			return rc;
		int ma = 0, mi = 0;
		if (sscanf(ch->resp.p ? ch->resp.p : "", "%d.%d", &ma, &mi) != 2 || ma <= 0)
			return ch_fail(ch, -spe_bad_input, "%s: SELECT version() answered '%.40s', not a version", ch->name,
				       ch->resp.p ? ch->resp.p : "");
		ch->release[0] = ma;
		ch->release[1] = mi;
	}
	*major = ch->release[0];
	*minor = ch->release[1];
	return 0;
}

/* 1 when the server is release @p major.@p minor or later. */
static int at_least(struct spe_ch *ch, int major, int minor, int *rc)
{
	int ma, mi;
	*rc = ch_release(ch, &ma, &mi);
	return *rc == 0 && (ma > major || (ma == major && mi >= minor));
}

int ch_insert_wait_setting(struct spe_ch *ch, const char **setting)
{
	int rc;
	/* renamed in 23.10 (the old name stays an alias there, but not forever) */
	*setting = at_least(ch, 23, 10, &rc) ? "distributed_foreground_insert=1" : "insert_distributed_sync=1";
	return rc;
}

int ch_repeated_name_type(struct spe_ch *ch, const char *type, char *out, size_t size)
{
	int rc;
	/*
	 * LowCardinality (a dictionary per part, the rows its indexes) was
	 * experimental in 18.x (allow_experimental_low_cardinality_type) and a
	 * plain type from 19.3 (https://clickhouse.com/docs/whats-new/changelog/2019,
	 * release 19.3.3: the setting removed).  RowBinary writes it as @p type,
	 * so the sink is the same on both.
	 */
	if (at_least(ch, 19, 3, &rc))
		snprintf(out, size, "LowCardinality(%s)", type);
	else
		snprintf(out, size, "%s", type);
	return rc;
}
