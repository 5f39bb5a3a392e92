/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory views (docs/schema.md, "Memory") and the rows of the facts
 * tables they join with (generated from decoder/include/spe/facts.h, never
 * retyped; the tables are described in spe/tables.h): the views
 * hot_data_object, data_page, numa_traffic, cacheline_sharing and prefetch.
 *
 * Each view is one plain SQL statement over spe_record, so its definition is
 * its documentation (tests/analysis/test_memory_views.c recomputes each from
 * the records by other means).
 */
#include <stdio.h>
#include <string.h>

#include "ana/data_object.h"
#include "ana/fact_names.h" /* op_class_LOAD ...; op_word_ATOMIC: atomics write the line too */
#include "ana/memory_schema.h"
#include "spe/analysis.h"
#include "spe/row_sink.h"

static const char *sql_bool(int v)
{
	return v > 0 ? "1" : v == 0 ? "0" : "NULL";
}

/* The rows of the facts tables, from facts.h through libspe's lookups (SQL both SQLite and ClickHouse read). */
void ana_memory_schema_fact_rows(struct util_text *t)
{
	static const struct {
		uint32_t impl, part;
	} parts[] = {
#define SPE_X(impl, part, name, version, map) { impl, part },
		SPE_CPU_LIST(SPE_X)
#undef SPE_X
	};
	/* one INSERT per table: a statement per row cost more than the rest of the schema */
	const char *sep = "INSERT INTO spe_part_fact VALUES";
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		uint32_t midr = parts[i].impl << 24 | parts[i].part << 4;
		const struct spe_cpu_info *c = spe_cpu_lookup(midr);
		int late = spe_impdef_event_bit(midr, "late_prefetch");
		char late_text[16] = "NULL";
		if (late >= 0)
			snprintf(late_text, sizeof late_text, "%d", late);
		util_text_appendf(t, "%s('%s', %s%s%s, %s, %s)", sep, c->name, *c->spe_version ? "'" : "",
				*c->spe_version ? c->spe_version : "NULL", *c->spe_version ? "'" : "",
				sql_bool(spe_cpu_has_event(c, SPE_EV_CACHE_DATA_MODIFIED)), late_text);
		sep = ", ";
	}
	util_text_append(t, ";\n");
	sep = "INSERT INTO spe_data_source_fact VALUES";
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		const struct spe_cpu_info *c = spe_cpu_lookup(parts[i].impl << 24 | parts[i].part << 4);
		struct spe_ds_entry ds[64];
		size_t n = spe_cpu_data_sources(c, ds, 64);
		for (size_t k = 0; k < n && k < 64; k++, sep = ", ")
			util_text_appendf(t, "%s('%s', %d, '%s', %d, %d, %d)", sep, c->name, ds[k].code,
					spe_mem_level_name(ds[k].level), spe_mem_level_is_peer(ds[k].level), ds[k].modified,
					spe_mem_level_is_remote(ds[k].level));
	}
	util_text_append(t, ";\nINSERT INTO data_object_kind VALUES");
	sep = "";
#define SPE_X(id, code, name, desc)                                           \
	util_text_appendf(t, "%s(%d, '%s', '%s')", sep, code, name, desc); \
	sep = ", ";
	SPE_DATA_OBJECT_KIND_LIST(SPE_X)
#undef SPE_X
	util_text_append(t, ";\n");
}

/* Joins that give a record its CPU part's facts (pf) and its data-source code's (df). */
#define PART_FACTS                                                                           \
	"LEFT JOIN cpu c ON c.source_id = r.source_id AND c.cpu = r.cpu\n"                   \
	"LEFT JOIN spe_part_fact pf ON pf.part = c.part\n"                                   \
	"LEFT JOIN spe_data_source_fact df ON df.part = c.part AND df.code = r.data_source\n"

#define HEX(x) "CASE WHEN " x " IS NULL THEN NULL ELSE printf('0x%x', " x ") END"
#define HEXF(x) "CASE WHEN " x " IS NULL THEN NULL ELSE printf('0x%%x', " x ") END"

/*
 * One row per data object: the records whose data address it holds, their
 * latency (total, mean, nearest-rank p99, share of all data-access latency),
 * TLB walks and the memory levels of its loads, most frequent first.
 * A record's data_object_id names a data_object row, so without any (a
 * capture without data mappings) there is nothing to scan for: a LIMIT of 0
 * skips each scan of the records (SQLite tested the EXISTS term on every
 * row and walked them all: 0.65 s of CPU at 10 M gen_bench records, 0.02 s
 * now); the latency scans read _spe_record's own columns, not the view's
 * derived ones.
 */
#define ANY_OBJECT "EXISTS (SELECT 1 FROM data_object) AND "
/* ...and a LIMIT, which SQLite tests once before a scan, where the WHERE term is tested on every row */
#define NO_OBJECT_NO_ROW " LIMIT CASE WHEN EXISTS (SELECT 1 FROM data_object) THEN -1 ELSE 0 END"
static void hot_data_object(struct util_text *t)
{
	util_text_appendf(t,
			"CREATE VIEW hot_data_object AS\n"
			"WITH g AS (\n"
			"  SELECT data_object_id AS id, count(*) AS samples, sum(op_class = '%s') AS loads,\n"
			"    sum(op_class = '%s') AS stores, sum(total_latency) AS total_latency,\n"
			"    count(total_latency) AS timed, sum(tlb_walk) AS tlb_walks\n"
			"  FROM spe_record WHERE " ANY_OBJECT "data_object_id IS NOT NULL GROUP BY data_object_id" NO_OBJECT_NO_ROW "),\n"
			"lat AS (SELECT data_object_id AS id, total_latency AS l, count(*) AS c FROM _spe_record\n"
			"  WHERE " ANY_OBJECT "data_object_id IS NOT NULL AND total_latency IS NOT NULL GROUP BY 1, 2" NO_OBJECT_NO_ROW "),\n"
			"cum AS (SELECT id, l, sum(c) OVER (PARTITION BY id ORDER BY l ROWS UNBOUNDED PRECEDING) AS run,\n"
			"  sum(c) OVER (PARTITION BY id) AS n FROM lat),\n"
			"p AS (SELECT id, min(l) AS p99 FROM cum WHERE run * 100 >= n * 99 GROUP BY id),\n"
			"lv AS (SELECT id, group_concat(mem_level || ' ' || n, ', ') AS levels FROM\n"
			"  (SELECT data_object_id AS id, mem_level, count(*) AS n FROM spe_record\n"
			"   WHERE " ANY_OBJECT "data_object_id IS NOT NULL AND mem_level IS NOT NULL AND op_class = '%s'\n"
			"   GROUP BY 1, 2 ORDER BY 1, n DESC, mem_level" NO_OBJECT_NO_ROW ") GROUP BY id),\n"
			"e AS (SELECT sum(total_latency) AS total FROM _spe_record WHERE " ANY_OBJECT "data_object_id IS NOT NULL" NO_OBJECT_NO_ROW ")\n"
			"SELECT d.source_id, d.pid, k.name AS kind, d.name, m.path AS mapping, d.type,\n"
			"  d.file AS src_file, d.line AS src_line, " HEXF("d.start") " AS start, d.size,\n"
			"  g.samples, g.loads, g.stores, g.total_latency,\n"
			"  round(1.0 * g.total_latency / nullif(g.timed, 0), 2) AS mean_latency, p.p99,\n"
			"  round(100.0 * g.total_latency / nullif(e.total, 0), 2) AS latency_share,\n"
			"  lv.levels, g.tlb_walks, d.id AS data_object_id, d.start AS start_value\n"
			"FROM g JOIN data_object d ON d.id = g.id CROSS JOIN e\n"
			"LEFT JOIN data_object_kind k ON k.id = d.kind\n"
			"LEFT JOIN mapping m ON m.id = d.mapping_id\n"
			"LEFT JOIN p ON p.id = g.id LEFT JOIN lv ON lv.id = g.id\n"
			"ORDER BY g.total_latency DESC, g.samples DESC;\n",
			op_class_LOAD, op_class_STORE, op_class_LOAD);
}
#undef ANY_OBJECT
#undef NO_OBJECT_NO_ROW

/*
 * Data pages of 4 KiB and regions of 2 MiB (page_size), per source and
 * process: accesses, latency, TLB walks, translation latency and its share
 * of the source's, and for 2 MiB regions the distinct 4 KiB pages sampled
 * (all, and those with a walk).  Its 4 KiB rows are page_stat's rows, the
 * pages the loader counts (record_summary.c), one each: a row is one
 * source's, process's and page's, so none is grouped; its definition over
 * spe_record is in tests/analysis/cli_summary_views.sh, which checks it.
 *
 * Its 2 MiB rows are page_region_stat's for each source with rows there:
 * they count the pages past the load's page budget too, which have no
 * page_stat row (load_stats.pages_unlisted), and reading them groups no
 * page.  A source with pages but no region rows (loaded before the table,
 * then --append) has its pages grouped, as the view always did, and so is
 * the translation-latency total of its share.  A file made before the
 * table has none, and a view naming it would fail at its first read:
 * db_trust.c gives such a file the view without it (ana_data_page_of_pages,
 * the definition of then).  A row's data object names follow its ids'
 * order, as the report reads them (report_sql.c, RQ_DATA_PAGES).  With
 * neither grouping, `SELECT * FROM data_page` at 1 M memory_bound records
 * takes 2.2 s of CPU where it took 6.6 (docs/performance.md).
 */
#define PAGE_SUMS                                                                                         \
	"sum(p.accesses) AS accesses, sum(p.total_latency) AS total_latency, sum(p.timed) AS timed,\n"     \
	"    sum(p.tlb_walks) AS tlb_walks, sum(p.translation_latency) AS translation_latency,\n"             \
	"    count(*) AS pages_4k, count(CASE WHEN p.tlb_walks > 0 THEN 1 END) AS walked_pages_4k"
static void data_page(struct util_text *t)
{
	util_text_append(t,
			"CREATE VIEW data_page AS\n"
			/* the sources whose regions the load stored */
			"WITH rs AS (SELECT DISTINCT source_id FROM page_region_stat),\n"
			"x AS (SELECT source_id, sum(translation_latency) AS total FROM page_region_stat GROUP BY source_id\n"
			"  UNION ALL SELECT source_id, sum(translation_latency) FROM page_stat\n"
			"  WHERE source_id NOT IN rs GROUP BY source_id),\n"
			/* a page_stat row is its page's (one a source, process and page): no grouping */
			"g AS (SELECT source_id, pid, 12 AS shift, page AS unit, accesses, total_latency, timed, tlb_walks,\n"
			"    translation_latency, 1 AS pages_4k, CASE WHEN tlb_walks > 0 THEN 1 ELSE 0 END AS walked_pages_4k,\n"
			"    data_object_ids\n"
			"  FROM page_stat\n"
			"  UNION ALL SELECT source_id, pid, 21, region, accesses, total_latency, timed, tlb_walks,\n"
			"    translation_latency, pages_4k, walked_pages_4k, data_object_ids FROM page_region_stat\n"
			"  UNION ALL SELECT p.source_id, p.pid, 21, p.page >> 9,\n"
			"    " PAGE_SUMS ", NULL\n"
			"  FROM page_stat p WHERE p.source_id NOT IN rs GROUP BY 1, 2, 3, 4),\n"
			/* the names of the regions grouped from pages: apart, most pages have no data object */
			"o AS (SELECT p.source_id, p.pid, p.page >> 9 AS unit, group_concat(DISTINCT d.name) AS data_objects\n"
			"  FROM page_stat p CROSS JOIN json_each(p.data_object_ids) j\n"
			"  JOIN data_object d ON d.id = j.value\n"
			"  WHERE p.data_object_ids IS NOT NULL AND p.source_id NOT IN rs GROUP BY 1, 2, 3)\n"
			"SELECT g.source_id, g.pid, 1 << g.shift AS page_size,\n"
			"  " HEX("g.unit << g.shift") " AS page, g.unit << g.shift AS page_value, g.accesses,\n"
			"  g.total_latency, round(1.0 * g.total_latency / nullif(g.timed, 0), 2) AS mean_latency,\n"
			"  g.tlb_walks, g.translation_latency,\n"
			"  round(100.0 * g.translation_latency /\n"
			"    nullif((SELECT x.total FROM x WHERE x.source_id = g.source_id), 0), 2) AS translation_share,\n"
			"  g.pages_4k, g.walked_pages_4k,\n"
			"  CASE WHEN g.data_object_ids IS NOT NULL THEN (SELECT group_concat(DISTINCT d.name)\n"
			"      FROM json_each(g.data_object_ids) j JOIN data_object d ON d.id = j.value)\n"
			"    WHEN g.shift = 21 AND g.source_id NOT IN rs THEN (SELECT o.data_objects FROM o\n"
			"      WHERE o.source_id = g.source_id AND o.pid IS g.pid AND o.unit = g.unit) END AS data_objects\n"
			/* g alone, not joined (every source of its rows has its total in x): SQLite then reads its
			   rows as they come instead of writing them all to a table first (1.2 s of 3.3 s of CPU) */
			"FROM g\n"
			"ORDER BY g.translation_latency DESC, g.tlb_walks DESC, g.accesses DESC;\n");
}

void ana_data_page_of_pages(struct util_text *t)
{
	util_text_append(t,
			"CREATE VIEW data_page AS\n"
			"WITH x AS (SELECT source_id, sum(translation_latency) AS total FROM page_stat GROUP BY source_id),\n"
			"z(shift) AS (VALUES (12), (21)),\n"
			"g AS (SELECT p.source_id, p.pid, z.shift, p.page >> (z.shift - 12) AS unit,\n"
			"    " PAGE_SUMS "\n"
			"  FROM page_stat p CROSS JOIN z GROUP BY 1, 2, 3, 4),\n"
			/* the names apart: most pages have no data object, and a name list joins each */
			"o AS (SELECT p.source_id, p.pid, z.shift, p.page >> (z.shift - 12) AS unit,\n"
			"    group_concat(DISTINCT d.name) AS data_objects\n"
			"  FROM page_stat p CROSS JOIN z CROSS JOIN json_each(p.data_object_ids) j\n"
			"  JOIN data_object d ON d.id = j.value\n"
			"  WHERE p.data_object_ids IS NOT NULL GROUP BY 1, 2, 3, 4)\n"
			"SELECT g.source_id, g.pid, 1 << g.shift AS page_size,\n"
			"  " HEX("g.unit << g.shift") " AS page, g.unit << g.shift AS page_value, g.accesses,\n"
			"  g.total_latency, round(1.0 * g.total_latency / nullif(g.timed, 0), 2) AS mean_latency,\n"
			"  g.tlb_walks, g.translation_latency,\n"
			"  round(100.0 * g.translation_latency / nullif(x.total, 0), 2) AS translation_share,\n"
			"  g.pages_4k, g.walked_pages_4k, o.data_objects\n"
			"FROM g JOIN x ON x.source_id = g.source_id\n"
			"LEFT JOIN o ON o.source_id = g.source_id AND o.pid IS g.pid AND o.shift = g.shift AND o.unit = g.unit\n"
			"ORDER BY g.translation_latency DESC, g.tlb_walks DESC, g.accesses DESC;\n");
}
#undef PAGE_SUMS

/*
 * Loads by the NUMA node of their CPU and of their data: with a physical
 * address, the node whose memory holds it (basis 'physical address');
 * without, remote = the data-source level is on another socket (basis
 * 'data source', memory_node NULL).  It adds up numa_stat, the loads the
 * loader counts by CPU and node or data source (record_summary.c), joined
 * here with the CPU's node and the data source's facts; its definition over
 * spe_record is in tests/analysis/cli_summary_views.sh.
 */
static void numa_traffic(struct util_text *t)
{
	util_text_append(t,
			"CREATE VIEW numa_traffic AS\n"
			"SELECT n.source_id, nc.node AS cpu_node, n.memory_node,\n"
			"  CASE WHEN n.physical THEN 'physical address' ELSE 'data source' END AS basis,\n"
			"  CASE WHEN NOT n.physical THEN df.remote WHEN n.memory_node IS NULL OR nc.node IS NULL THEN NULL\n"
			"    ELSE n.memory_node != nc.node END AS remote,\n"
			"  sum(n.loads) AS loads, sum(n.total_latency) AS total_latency,\n"
			"  round(1.0 * sum(n.total_latency) / nullif(sum(n.timed), 0), 2) AS mean_latency,\n"
			"  sum(n.remote_access) AS remote_access_events\n"
			"FROM numa_stat n\n"
			"LEFT JOIN cpu c ON c.source_id = n.source_id AND c.cpu = n.cpu\n"
			"LEFT JOIN spe_data_source_fact df ON df.part = c.part AND df.code = n.data_source\n"
			"LEFT JOIN numa_cpu nc ON nc.source_id = n.source_id AND nc.cpu = n.cpu\n"
			"GROUP BY 1, 2, 3, 4, 5\n"
			"ORDER BY total_latency DESC, loads DESC;\n");
}

/*
 * Cache lines written by one thread or CPU and touched by another (c2c's
 * shared lines).  hitm counts loads that hit a line another core modified:
 * the cache_data_modified event (SPEv1.4) or a data-source code the facts
 * table marks modified; peer_hits the loads served by a peer cache; writes
 * are stores and atomics.  The loader counts each source's lines while
 * loading (line_share.c) into cacheline_stat, which holds only the lines
 * this view shows, with the ids of their functions and data objects; the
 * names are joined here (a line's ids are distinct, so when no two symbols
 * share a name, its names are too: group_concat without DISTINCT's
 * per-row B-tree, 0.3 s of 1.9 at 10 M gen_bench records; a row without
 * ids skips the join).  Storing the names instead was tried: 0.3 s less
 * for the view at 10 M records, 1 byte a record more for gen_bench's short
 * names and more for real programs' long ones, so the ids stay.  A source
 * past the load's budget of written lines (load_stats.cacheline_scan) has
 * none there, and the view computes its
 * rows from its records (the second SELECT).  That fallback first screens
 * the lines cheaply on _spe_record's integer columns (the lines some store
 * or atomic wrote, then of those the ones touched by two CPUs or threads)
 * and aggregates, through spe_record's joins, only the records of the
 * lines left: 1M gen_bench records, 1.4 s CPU where a single grouping of
 * every record took 7.6 s.
 * tests/analysis/cli_summary_views.sh checks both against the view's
 * definition.
 */
static void cacheline_sharing(struct util_text *t)
{
/* the records of the sources whose lines the load did not keep */
#define SCAN_SOURCES(col)                                               \
	"EXISTS (SELECT 1 FROM load_stats WHERE cacheline_scan)\n"      \
	"    AND " col " IN (SELECT source_id FROM load_stats WHERE cacheline_scan)"
/*
 * No scan at all when no source needs one: SQLite tests a WHERE term with a
 * subquery on every row, even a constant one (walking all of _spe_record
 * for nothing: about 0.5 s of the view's 1.18 s of CPU at 10 M records), but a
 * LIMIT once, before the loop.  The screen's scans (written_line,
 * shared_line) run only from inside that loop.
 */
#define ANY_SCAN "CASE WHEN EXISTS (SELECT 1 FROM load_stats WHERE cacheline_scan) THEN -1 ELSE 0 END"
	util_text_appendf(t,
		    "CREATE VIEW cacheline_sharing AS\n"
		    /* the screen for the sources with more lines than the load kept (load_stats.cacheline_scan):
		       the op codes that write a line, the lines they wrote, those with two CPUs or threads */
		    "WITH write_code AS (SELECT code FROM spe_op_code\n"
		    "  WHERE op_class = '%s' OR ' ' || op || ' ' LIKE '%% %s %%'),\n"
		    "written_line AS (SELECT DISTINCT data_va >> 6 AS line FROM _spe_record\n"
		    "  WHERE " SCAN_SOURCES("source_id") "\n"
		    "    AND data_va IS NOT NULL AND (codes & %u) IN write_code),\n"
		    "shared_line AS (SELECT DISTINCT line FROM (SELECT data_va >> 6 AS line FROM _spe_record\n"
		    "  WHERE " SCAN_SOURCES("source_id") "\n"
		    "    AND (data_va >> 6) IN written_line\n"
		    "  GROUP BY source_id, pid, data_va >> 6 HAVING min(cpu) < max(cpu) OR min(tid) < max(tid)))\n"
		    "SELECT * FROM (\n"
		    "SELECT c.source_id, c.pid, " HEXF("c.line << 6") " AS line, c.line << 6 AS line_value,\n"
		    "  c.accesses, c.loads, c.stores, c.cpus, c.threads, c.offsets, c.snooped, c.hitm, c.peer_hits,\n"
		    "  c.total_latency,\n"
		    "  CASE WHEN c.symbol_ids IS NULL THEN NULL WHEN (SELECT count(*) = count(DISTINCT name) FROM symbol)\n"
		    "    THEN (SELECT group_concat(s.name) FROM json_each(c.symbol_ids) j CROSS JOIN symbol s ON s.id = j.value)\n"
		    "    ELSE (SELECT group_concat(DISTINCT s.name) FROM json_each(c.symbol_ids) j\n"
		    "      CROSS JOIN symbol s ON s.id = j.value) END AS symbols,\n"
		    "  c.atomics, c.writes, c.modified_events, c.modified_sources, c.remote_hits,\n"
		    "  CASE WHEN c.data_object_ids IS NULL THEN NULL ELSE (SELECT group_concat(DISTINCT d.name)\n"
		    "    FROM json_each(c.data_object_ids) j CROSS JOIN data_object d ON d.id = j.value) END AS data_objects\n"
		    "FROM cacheline_stat c\n"
		    "UNION ALL\n"
		    /* the screened lines' records, by the view's definition (the HAVING still decides) */
		    "SELECT source_id, pid, " HEXF("line << 6") " AS line, line << 6 AS line_value,\n"
		    "  count(*) AS accesses, sum(op_class = '%s') AS loads, sum(op_class = '%s') AS stores,\n"
		    "  count(DISTINCT cpu) AS cpus, count(DISTINCT tid) AS threads,\n"
		    "  count(DISTINCT data_va & 63) AS offsets,\n"
		    "  sum(data_snooped) AS snooped,\n"
		    "  sum(op_class = '%s' AND (cache_data_modified = 1 OR modified_source = 1)) AS hitm,\n"
		    "  sum(op_class = '%s' AND peer = 1) AS peer_hits,\n"
		    "  sum(total_latency) AS total_latency, group_concat(DISTINCT symbol) AS symbols,\n"
		    "  sum(atomic) AS atomics, sum(op_class = '%s' OR atomic) AS writes,\n"
		    "  sum(cache_data_modified) AS modified_events, sum(modified_source) AS modified_sources,\n"
		    "  sum(op_class = '%s' AND remote = 1) AS remote_hits, group_concat(DISTINCT data_object) AS data_objects\n"
		    "FROM (SELECT r.source_id, r.pid, r.data_va >> 6 AS line, r.op_class, r.cpu, r.tid, r.data_va,\n"
		    "        r.data_snooped, r.cache_data_modified, r.total_latency, s.name AS symbol,\n"
		    "        ' ' || r.op || ' ' LIKE '%% %s %%' AS atomic, df.peer, df.modified AS modified_source,\n"
		    "        df.remote, d.name AS data_object\n"
		    "      FROM spe_record r\n" PART_FACTS
		    "      LEFT JOIN symbol s ON s.id = r.symbol_id\n"
		    "      LEFT JOIN data_object d ON d.id = r.data_object_id\n"
		    "      WHERE " SCAN_SOURCES("r.source_id") "\n"
		    "        AND (r.data_va >> 6) IN shared_line\n"
		    "      LIMIT " ANY_SCAN ")\n"
		    "GROUP BY source_id, pid, line\n"
		    "HAVING writes > 0 AND (threads > 1 OR cpus > 1))\n"
		    "ORDER BY hitm + peer_hits + coalesce(snooped, 0) DESC, accesses DESC;\n",
		    op_class_STORE, op_word_ATOMIC, SPE_CODES_HAS_OP | SPE_CODES_OP_RAW_MASK,
		    op_class_LOAD, op_class_STORE, op_class_LOAD, op_class_LOAD, op_class_STORE, op_class_LOAD,
		    op_word_ATOMIC);
}
#undef SCAN_SOURCES
#undef ANY_SCAN

/*
 * Loads by PC and data object with the prefetch events: a late prefetch
 * (the IMPLEMENTATION DEFINED bit the facts table names for the part,
 * NULL on parts without one) and recently_fetched (SPEv1.4: the line was
 * already being fetched).  It adds up prefetch_stat, the loads the loader
 * counts by PC and data object (record_summary.c); its definition over
 * spe_record is in tests/analysis/cli_summary_views.sh.  Every load PC has
 * rows there, most without either event: only the PCs with one are grouped
 * (all their rows, so the sums stay whole), not all of them (0.65 s at
 * 200,000 PCs).
 */
static void prefetch(struct util_text *t)
{
	util_text_append(t,
			"CREATE VIEW prefetch AS\n"
			"WITH hot AS (SELECT pc FROM prefetch_stat WHERE late_prefetch > 0 OR recently_fetched > 0)\n"
			"SELECT " HEX("p.pc") " AS pc, s.name AS symbol, p.pc - s.start AS symbol_offset,\n"
			"  d.name AS data_object, sum(p.loads) AS loads, sum(p.late_prefetch) AS late_prefetch,\n"
			"  round(100.0 * sum(p.late_prefetch) / sum(p.loads), 1) AS late_rate,\n"
			"  sum(p.recently_fetched) AS recently_fetched, sum(p.late_latency) AS late_latency,\n"
			"  sum(p.total_latency) AS total_latency,\n"
			"  round(1.0 * sum(p.total_latency) / nullif(sum(p.timed), 0), 2) AS mean_latency,\n"
			"  p.pc AS pc_value, p.data_object_id\n"
			"FROM prefetch_stat p\n"
			"LEFT JOIN symbol s ON s.id = p.symbol_id\n"
			"LEFT JOIN data_object d ON d.id = p.data_object_id\n"
			"WHERE p.pc IN hot OR (p.pc IS NULL AND EXISTS (SELECT 1 FROM hot WHERE pc IS NULL))\n"
			"GROUP BY p.pc, p.data_object_id\n"
			"HAVING late_prefetch > 0 OR recently_fetched > 0\n"
			"ORDER BY coalesce(late_latency, 0) DESC, late_prefetch DESC, recently_fetched DESC;\n");
}

void ana_memory_schema_views(struct util_text *t)
{
	hot_data_object(t);
	data_page(t);
	numa_traffic(t);
	cacheline_sharing(t);
	prefetch(t);
}
