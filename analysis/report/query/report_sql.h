/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every SQL statement the report runs, by name.  Sections ask for a query by
 * its id and never hold SQL of their own, so a query can move to another
 * view (a summary-backed one) or another engine in one place.  Parameters are positional (?1, ?2); a set of ids is
 * bound as a JSON array text and read with json_each (on ClickHouse: `IN ?1`, a tuple).
 */
#ifndef SPE_REPORT_SQL_H
#define SPE_REPORT_SQL_H

#include <sqlite3.h>

enum report_query {
	/* summary */
	RQ_SOURCES,       /* source x load_stats, one row per loaded file, by host and file (ids differ by engine) */
	RQ_SOURCES_BEFORE, /* the same on a database written before load_stats had no_pid, kernel_no_symbol and
			      out_of_order: NULL there (not counted, so unknown) */
	RQ_LOAD_COUNTS,   /* 1 when load_stats has those columns (RQ_SOURCES), 0 when not (RQ_SOURCES_BEFORE) */
	RQ_CPUS,          /* CPU parts: part, midr, spe_version, count, cpu list */
	RQ_SPAN,          /* records, min/max time, records with time, min/max ts */
	RQ_SPAN_STORED,   /* 1 when every source's load stored its span (else 0: RQ_SPAN), then RQ_SPAN's columns
			     from load_stats; ClickHouse: 0 */
	RQ_TOPDOWN_RUNS,  /* 1 when the database has the topdown tables (spe-topdown import made them) */
	/* where the latency goes */
	RQ_MEM_LEVELS,    /* mem_level_summary */
	RQ_LEVEL_LATENCY, /* (mem_level, total_latency, count): the histograms per level; SQLite streams every timed
			     load with count 1 (or, REPORT_STORED_LEVEL_LATENCY, reads level_latency_bucket's counts),
			     ClickHouse counts per (level, latency bucket) with its lowest latency */
	/* hot code */
	RQ_HOT_SYMBOL,    /* hot_symbol LIMIT ?1 */
	RQ_HOT_PC,        /* hot_pc LIMIT ?1 */
	RQ_PC_LATENCY_BY_PC,     /* pc_latency of the PCs in ?1 */
	RQ_PC_LATENCY_BY_SYMBOL, /* pc_latency of the symbol ids in ?1 */
	RQ_LEVELS_BY_SYMBOL,     /* loads of the symbol ids in ?1 by (symbol, pc, mem_level) */
	RQ_FUNCTION_COPIES,      /* symbol rows of function ?1 in binary ?2 */
	RQ_FUNCTION_BINARIES,    /* binaries holding a function named ?1, hottest first */
	RQ_INSN_BY_SYMBOL,       /* sampled instructions of the symbol ids in ?1 */
	RQ_SYMBOL_SHARE,         /* hot_symbol's latency_share of function ?1 in binary ?2 */
	/* latency over time */
	RQ_HEATMAP_TIME,  /* (cpu, time slot, total_latency, count), as RQ_LEVEL_LATENCY; ?1 t0, ?2 span, ?3 slots */
	RQ_HEATMAP_TS,    /* the same over the raw SPE timestamp when no record has a perf time */
	/* memory */
	RQ_DATA_OBJECTS,  /* hot_data_object LIMIT ?1 */
	RQ_TLB_TOTALS,    /* tlb_hotspot's accesses, walks, pages and pages with walks, summed */
	RQ_TLB_HOTSPOT,   /* tlb_hotspot's pages with walks LIMIT ?1 */
	RQ_HUGE_PAGE_HINT, /* spe_huge_page_hint_sql(): the one row spe_huge_page_hint_text() words */
	RQ_PAGE_BUDGET,   /* spe_page_budget_sql(): the one row spe_page_budget_text() words */
	RQ_DATA_PAGES,    /* data_page's top ?1 2 MiB regions by translation latency, each with `counted` (1 when
			     the huge-page hint counts it: SPE_HUGE_PAGE_REGION_WHERE), then its top ?1 4 KiB
			     pages by total latency; page_size last */
	RQ_NUMA_SUMMARY,  /* spe_numa_summary_sql(): the one row spe_numa_summary_text() words */
	RQ_NUMA_TRAFFIC,  /* numa_traffic, every row (nodes x nodes per source: few) */
	RQ_CACHELINE,     /* cacheline_sharing LIMIT ?1 */
	RQ_PREFETCH,      /* prefetch LIMIT ?1 */
	RQ_MEMORY_PARTS,  /* spe_memory_parts_sql(): per CPU part, what it can show */
	/* branches */
	RQ_MISPREDICT_BY_SYMBOL, /* branch_mispredict summed per function LIMIT ?1 */
	RQ_MISPREDICT_BY_PC,     /* branch_mispredict LIMIT ?1 */
	/* the flame graphs (SQLite only): latency by path, sorted by it, then the path's latency and the total */
	RQ_FLAME_CODE,    /* binary, function, file:line, instruction, memory level (else op class) */
	RQ_FLAME_DATA,    /* data object (type), function, instruction, memory level */
	/* the drill-down between data objects and code (SQLite only), top ?1 of each by total latency */
	RQ_DRILL_OBJECT_FUNCTIONS, /* data_object_id, function, its binary's path, samples, total latency */
	RQ_DRILL_FUNCTION_OBJECTS, /* function, its binary's path, data object, its type, samples, total latency */
	RQ_DRILL_LINE_FUNCTIONS, /* per line of ?1 ([[row, source_id, pid, line address], ...]): row, function, its
				    binary's path, samples, total latency */
	RQ_DRILL_LINE_THREADS,   /* the same per thread: row, "tid N", its comm, samples, total latency */
	/* the annotation of any function and an instruction's data, drawn on demand (SQLite only) */
	RQ_ANN_INSNS,            /* the instructions of the insn ids in ?1: id, function, its binary's path, file, line */
	RQ_PC_ADDRESSES,         /* the data of the insn ids in ?1: insn id, kind (0 the 4 KiB page, 1 the 64-byte
				    line, 2 the address, 3 the data object), the address (hex) or the object's name,
				    samples, total latency; the top ?2 of each */
	RQ_COUNT
};

/*
 * The two engines.  Most statements are one text for both; where SQLite's
 * SQL is not ClickHouse 18.16's (JOIN ... ON, json_each, printf, window
 * functions, EXISTS) or where ClickHouse should count on the server what
 * SQLite streams to C, the ClickHouse text is written beside SQLite's in
 * report_sql.c, giving the same rows.
 */
enum report_dialect { REPORT_SQLITE, REPORT_CLICKHOUSE };

/*
 * What the loads stored beside the views (SQLite): a query with a summary to
 * read reads it rather than scanning, for the same answer.  REPORT_STORED_REGIONS:
 * every source has its 2 MiB regions in page_region_stat
 * (spe_page_regions_stored()): RQ_HUGE_PAGE_HINT, RQ_DATA_PAGES and RQ_TLB_TOTALS read them.
 */
#define REPORT_STORED_REGIONS 1u
/* every source has level_latency_bucket's rows: RQ_LEVEL_LATENCY reads them (a row per level and bucket) */
#define REPORT_STORED_LEVEL_LATENCY 2u
/* every source has its data objects' counts (spe_data_objects_stored()): RQ_DATA_OBJECTS reads them */
#define REPORT_STORED_DATA_OBJECTS 4u
/* every source with loads in functions has pc_level_stat's rows: RQ_LEVELS_BY_SYMBOL reads them */
#define REPORT_STORED_PC_LEVELS 8u

/* Short name ("hot_symbol"). */
const char *report_query_name(enum report_query q);
/* The SQL text in dialect @p d, built from the facts table, reading the summaries in @p stored (REPORT_STORED_*;
   ignored for ClickHouse); the caller frees it; NULL without memory. */
char *report_query_sql(enum report_query q, enum report_dialect d, unsigned stored);

/* Number of log2 latency buckets: 0, 1, 2-3, 4-7, ... as the latency_histogram view. */
#define LATENCY_BUCKETS 33
/* The bucket of @p latency (>= 0): 0 for 0, else 1 + floor(log2(latency)). */
int report_latency_bucket(long long latency);
/* Lowest and highest latency of bucket @p b. */
long long report_latency_bucket_lo(int b);
long long report_latency_bucket_hi(int b);

#endif
