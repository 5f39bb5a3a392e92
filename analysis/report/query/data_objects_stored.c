/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hot_data_object's rows from what the loads counted per data object
 * (data_object_stat, data_object_level: analysis/load/object_tally.c)
 * rather than the view's GROUP BYs and window over every record with a
 * data object (22 s of wall for the page's one query on memory_bound at
 * 10 M records).  The same columns, values and order as the view
 * (analysis/store/memory_schema.c), p99 included: the loads kept every
 * latency of each object, so it is the view's nearest rank, not a bound.
 * tests/report/stored_data_objects.sh compares the two.
 */
#include <sqlite3.h>

#include "report/memory_report.h"
#include "report_sqlite.h"

static const char stored_sql[] =
	"(WITH e AS (SELECT sum(total_latency) AS total FROM data_object_stat),\n"
	"lv AS (SELECT id, group_concat(mem_level || ' ' || n, ', ') AS levels FROM\n"
	"  (SELECT l.data_object_id AS id, ml.name AS mem_level, l.loads AS n FROM data_object_level l\n"
	"   JOIN spe_mem_level ml ON ml.code = l.mem_level ORDER BY 1, n DESC, mem_level) GROUP BY id)\n"
	"SELECT d.source_id, d.pid, k.name AS kind, d.name, m.path AS mapping, d.type,\n"
	"  d.file AS src_file, d.line AS src_line,"
	" CASE WHEN d.start IS NULL THEN NULL ELSE printf('0x%x', d.start) END AS start, d.size,\n"
	"  g.samples, g.loads, g.stores, g.total_latency,\n"
	"  round(1.0 * g.total_latency / nullif(g.timed, 0), 2) AS mean_latency, g.p99,\n"
	"  round(100.0 * g.total_latency / nullif(e.total, 0), 2) AS latency_share,\n"
	"  lv.levels, g.tlb_walks, d.id AS data_object_id, d.start AS start_value\n"
	"FROM data_object_stat g JOIN data_object d ON d.id = g.data_object_id CROSS JOIN e\n"
	"LEFT JOIN data_object_kind k ON k.id = d.kind\n"
	"LEFT JOIN mapping m ON m.id = d.mapping_id\n"
	"LEFT JOIN lv ON lv.id = g.data_object_id\n"
	/* the view's order, then (ties, which the view leaves to its plan) the object's id */
	"ORDER BY g.total_latency DESC, g.samples DESC, g.data_object_id)";

const char *spe_hot_data_object_from(int stored)
{
	return stored ? stored_sql : "hot_data_object";
}

int spe_data_objects_stored(sqlite3 *db)
{
	/*
	 * A database made before the tables has neither (the query fails); a
	 * source loaded before them (then --append) has data objects but no
	 * rows there.  A source whose objects no record pointed into has none
	 * either: it scans then, for the same answer.
	 */
	return report_sqlite_true(db, "SELECT NOT EXISTS (SELECT 1 FROM (SELECT DISTINCT source_id FROM data_object) d\n"
				      "  WHERE NOT EXISTS (SELECT 1 FROM data_object_stat s WHERE s.source_id = d.source_id))\n"
				      "  AND NOT EXISTS (SELECT 1 FROM data_object_level WHERE 0)");
}
