/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Summaries of the records, counted while loading, for the views that
 * would otherwise scan spe_record (docs/schema.md, "Summaries"):
 * mem_level_summary, latency_histogram, branch_mispredict, tlb_hotspot,
 * cacheline_sharing, data_page, numa_traffic and prefetch.  Each row is one
 * source's, so an --append adds rows and the views add them up
 * (cacheline_sharing groups by source: its rows are complete per source).
 * Memory: fixed arrays for the levels and buckets, 40 bytes per branch PC
 * group, about 110 per (process, 4 KiB data page) plus 16 per distinct data
 * object beyond a page's first, up to the page budget (past it the coldest
 * pages go to their 2 MiB regions, about 300 bytes per region that has
 * such pages), about 110 per (load PC, data object) and
 * per (CPU, NUMA node or data source); the cache lines as line_share.h says
 * (memory for the written lines, a spill file for the other accesses).
 */
#ifndef SPE_RECORD_SUMMARY_H
#define SPE_RECORD_SUMMARY_H

#include <stdint.h>

#include "ana/latency_hist.h"
#include "line_share.h"
#include "spe/row_sink.h"
#include "spe/spe.h"

#define SUMMARY_LEVELS 32       /* spe_mem_level codes (0 = none) */
#define SUMMARY_OP_CLASSES 8    /* enum spe_op_class + 1 (0 = no op type) */
#define SUMMARY_BUCKETS 33      /* latency 0, then [2^k, 2^(k+1)) for k = 0..31 */

struct level_count {
	uint64_t loads, timed, total_latency;
};

struct bucket_count {
	uint64_t samples, total_latency;
};

struct branch_count {
	uint64_t branches, evented, mispredicted, not_taken;
};

/* 64 bytes: one cache line a page, up to the page budget of them */
struct page_count {
	uint64_t accesses, tlb_walks, translated, translation_latency;
	uint64_t timed, total_latency;  /* records with a total latency, their sum (data_page) */
	int64_t object0;                /* the first data object, 0 = none yet (data_page) */
	uint32_t more;                  /* its run of further distinct data objects (value_pool.h) */
	uint16_t written;               /* some store or atomic wrote a line of it (line_share.h's shortcut) */
	uint16_t evented;               /* some record had an EVENTS packet (page_stat.has_events) */
};

/*
 * A (process, 2 MiB region) with pages past the page budget: those pages'
 * counts (a page_count's, added up), and which of its 512 pages they are,
 * which of them walked the TLB and which were written (line_share.h's
 * shortcut).  Such a page never gets a page_stat row: its records come here.
 */
struct page_region {
	uint64_t accesses, evented, tlb_walks, translated, translation_latency, timed, total_latency;
	uint64_t unlisted[8], walked[8], written[8]; /* bit (page & 511) */
	int64_t last_object; /* the data object last added (most regions have one: no lookup) */
};

/*
 * The loads with a data address of one (CPU, where the data was): with a
 * physical address, the NUMA node whose memory holds it; without, the raw
 * data source (numa_traffic joins the CPU's node and the code's facts).
 */
struct numa_count {
	uint64_t loads, timed, total_latency, evented, remote_access;
};

/* A NUMA memory range of the capture (numa_memory), to find a physical address's node while counting. */
struct numa_range {
	uint64_t start, end;
	uint32_t node;
};

/*
 * The loads of one (PC group, data object), with the prefetch events
 * (prefetch); kept to 48 bytes: there is one per load PC, touched by each
 * load.  Counts of one PC's loads fit 32 bits, as line_count's do.
 */
struct prefetch_count {
	uint64_t total_latency, late_latency; /* late: the part's late-prefetch bit */
	uint32_t loads, timed, late_known, late, late_timed, evented, recently_fetched;
};

/* What a record is to cacheline_sharing, beside the record itself. */
struct record_where {
	int cpu, pid, tid;   /* -1 = unknown (pid, tid) */
	uint32_t midr;       /* the CPU's part: the data source's level and flags */
	int64_t symbol_id;   /* 0 = none */
	int64_t object_id;   /* data object, 0 = none */
};

struct record_summary {
	struct level_count levels[SUMMARY_LEVELS];
	struct bucket_count level_buckets[SUMMARY_LEVELS][SUMMARY_BUCKETS]; /* timed loads by level and latency */
	struct bucket_count buckets[SUMMARY_OP_CLASSES][SUMMARY_BUCKETS];
	struct branch_count *branches; /* by the loader's latency group (a PC and its insn) */
	size_t branch_cap;
	struct util_map page_index; /* (pid + 1, page, 0) -> number in pages */
	struct page_count *pages;
	size_t page_cap;
	struct value_pool page_values;
	size_t page_budget;        /* the most pages kept (0: SPE_LOAD_PAGE_BUDGET); past it, the coldest go to their regions */
	struct util_map page_regions;   /* (pid + 1, region, 0) -> struct page_region: the pages past the budget */
	struct util_map region_objects; /* (number in page_regions, data object): their data objects, first-met order */
	uint64_t pages_unlisted;        /* pages with no page_stat row (in page_regions) */
	uint64_t unlisted_page_records; /* their records */
	struct line_share lines;   /* cacheline_sharing's (line_share.h) */
	size_t line_budget;        /* the most written lines kept (0: SPE_LOAD_LINE_BUDGET); past it, none are */
	int lines_dropped;         /* past the budget: no cacheline_stat rows (set by ana_record_summary_settle) */
	struct numa_range *ranges; /* the capture's NUMA memory, set before the first record */
	size_t n_ranges;
	struct util_map numa_index; /* (cpu, has_pa | has_data_source << 1, node + 1 or data source) -> number in numa */
	struct numa_count *numa;
	size_t numa_cap;
	struct latency_key numa_last; /* the last key and its number: loads come in runs of one CPU */
	int64_t numa_last_n;          /* valid once numa_cap is not 0 */
	struct prefetch_count *prefetch_plain; /* the loads without a data object, by PC group */
	size_t prefetch_plain_cap;
	uint64_t *plain_pending;   /* those loads not yet added: group | what they were << 32 (record_summary.c) */
	uint64_t *plain_sort_tmp;
	size_t n_plain_pending;
	struct util_map prefetch_index; /* (PC group, data object, 0) -> number in prefetch, for the others */
	struct prefetch_count *prefetch;
	size_t prefetch_cap;
	uint32_t late_midr;        /* the MIDR late_bit is for (a one-entry memo) */
	int late_bit, late_valid;  /* its late-prefetch event bit, -1 = none */
	uint64_t counted;          /* records counted (the NUMA layout must come before the first) */
};

/*
 * Keep a NUMA memory range of the capture, which must come before the first
 * record (numa_traffic's node of a load is counted with it).  0,
 * -spe_nomem, or -spe_invalid after a record.
 */
int ana_record_summary_numa_range(struct record_summary *s, uint32_t node, uint64_t start, uint64_t end);

/*
 * Count a record: @p codes its `codes` column, @p group its latency group
 * (its PC and insn, or the group of records without a PC), @p w where it
 * ran and what it touched.  0, or -1 without memory.
 */
int ana_record_summary_count(struct record_summary *s, const struct spe_record *rec, uint64_t codes, uint32_t group,
			 const struct record_where *w);

/*
 * A hint that a record of process @p pid with data address @p data_va will
 * be counted soon: @p step 0 starts loading its page's index slot, step 1
 * (some records later) the page's entry the slot names.  Counting reads
 * them then from the cache instead of waiting for memory each time.
 */
void ana_record_summary_prefetch(const struct record_summary *s, int pid, uint64_t data_va, int step);

/*
 * At the end of the records: apply the counts kept for later, read the
 * lines' spill back (lines_dropped is then final).  0, or -1 without memory.
 */
int ana_record_summary_settle(struct record_summary *s);

/*
 * Write the rows of source @p source_id; @p group_pc gives a latency group's
 * (pc, insn_id, has_pc).  Returns 0 or the sink's negative code.
 */
int ana_record_summary_write(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id,
			 const struct latency_hist_map *groups);

void ana_record_summary_init(struct record_summary *s);
void ana_record_summary_fini(struct record_summary *s);

#endif
