/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the whole load from a fuzzed record stream: attribution, symbols
 * and instructions from real aarch64 ELF files (fixtures/elf, mapped where
 * the fixture traces expect them), data objects (the datawork data
 * mappings), latency groups, every summary and its settle step, into an
 * in-memory database or, for speed, a sink of the harness's own that
 * reads every row it is given (its strings and arrays, so a bad pointer in
 * a row is caught) and counts them.  Then the sums the summaries must agree
 * on, with each other and with the records: every load is counted once by
 * mem_level_stat and once by prefetch_stat, every record with a total
 * latency once by latency_bucket (and, with the counting sink, every record
 * once by pc_histogram), so a lost or doubled count aborts even without ASan.
 *
 * Input: a flags byte, a sink byte (bit 0: the counting sink, else
 * SQLite; bit 1: a page budget of 2, so pages move to their regions), then operations, each a tag byte and its fields
 * (little-endian; a field cut by the end of the input is zero):
 *   tag % 5 == 0  records: cpu u8, who u8, len u16, then len bytes of raw
 *                 SPE (fewer at the end), decoded for the CPU's part; each
 *                 record goes to spe_loader_record as (cpu, who's pid, tid)
 *   tag % 5 == 1  switch-in: cpu u8, who u8, time u32
 *   tag % 5 == 2  comm: who u8, new tid u16 (in who's process)
 *   tag % 5 == 3  data mapping: who u8, start u64, len u32, prot u8
 *   tag % 5 == 4  code mapping: who u8, elf u8, start u64 (the ELF mapped there)
 * who % 8 picks a (pid, tid) of the fixtures' processes (or none).  Flags:
 * bit 0 two jobs (SQLite: the summaries counted on the writer thread), bit 1 a
 * line budget of 4 (cacheline_sharing falls back to its scan), bit 2 no
 * NUMA topology, bit 3 no TIME_CONV, bit 4 partial records kept, bits 5-7
 * the CPUs' part.  The seeds (fixtures/fuzz/load/) hold the fixture traces.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <sqlite3.h>

#include "spe/analysis.h"
#include "spe/perfdata.h"
#include "spe/record.h"
#include "spe/row_sink.h"

#ifndef SPE_FUZZ_ELF_DIR
#error "SPE_FUZZ_ELF_DIR: the fixtures' ELF directory (analysis/CMakeLists.txt)"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t midrs[8] = { 0x410fd0c0, 0x410fd0c0, 0, 0xc00fac40, 0x480fd060, 0x410fd490, 0x410fd400,
				   0x410fd0c0 };

/* The processes of the fixture traces (the .replay files of fixtures/workloads/traces), and nobody. */
static const int whos[8][2] = { { 5151, 5151 }, { 5151, 5152 }, { 5151, 5153 }, { 4242, 4242 },
				{ 4242, 4243 }, { 4242, 4244 }, { -1, -1 },	{ 77, 78 } };

static const char *elves[] = { "/datawork-pie", "/memwork-pie", "/memwork-nopie", "/memwork-stripped" };

struct input {
	const uint8_t *p;
	size_t left;
};

static uint64_t take(struct input *in, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		if (in->left) {
			v |= (uint64_t)*in->p++ << (8 * i);
			in->left--;
		}
	return v;
}

/* The capture's fixed sideband: what memwork.replay and datawork.replay give, and the NUMA nodes. */
static int sideband(struct spe_loader *ld, unsigned flags)
{
	for (int cpu = 0; cpu < 4; cpu++)
		spe_loader_cpu(ld, cpu, midrs[flags >> 5 & 7]);
	if (!(flags & 8)) {
		struct spe_perf_time_conv tc = { .time_shift = 21, .time_mult = 83886080, .time_zero = 1000000000 };
		spe_loader_time_conv(ld, &tc);
	}
	if (!(flags & 4)) {
		static const uint64_t node0 = 0xff, node1 = 0xff00; /* 128 MiB blocks 0-7 and 8-15 */
		struct spe_perf_numa_node nodes[2] = {
			{ .node = 0, .cpus = "0-1", .n_block_bits = 16, .blocks = &node0 },
			{ .node = 1, .cpus = "2-3", .n_block_bits = 16, .blocks = &node1 },
		};
		if (spe_loader_numa(ld, nodes, 2, 0x8000000) < 0)
			return -1;
	}
	for (int i = 0; i < 6; i++)
		if (spe_loader_comm(ld, whos[i][0], whos[i][1], i < 3 ? "datawork" : "memwork", UINT64_MAX) < 0)
			return -1;
	static const struct {
		uint64_t start, len, pgoff;
		uint32_t prot;
		const char *path;
	} data[] = {
		{ 0xaaaab0002000, 0x1000, 0x1000, PROT_READ, "/datawork-pie" },
		{ 0xaaaab0003000, 0x1000, 0x2000, PROT_READ | PROT_WRITE, "/datawork-pie" },
		{ 0xaaaab0004000, 0x80000, 0, PROT_READ | PROT_WRITE, "//anon" },
		{ 0xaaaac0000000, 0x200000, 0, PROT_READ | PROT_WRITE, "[heap]" },
		{ 0xffff80000000, 0x4001000, 0, PROT_READ | PROT_WRITE, "//anon" },
		{ 0xfffe00000000, 0x40000000, 0, PROT_READ | PROT_WRITE, "//anon" },
		{ 0xfffffffdf000, 0x21000, 0, PROT_READ | PROT_WRITE, "[stack]" },
	};
	if (spe_loader_mmap(ld, 5151, 0xaaaab0000000, 0x2000, 0, "/datawork-pie", NULL, UINT64_MAX) < 0 ||
	    spe_loader_mmap(ld, 4242, 0xaaaaab000000, 0x1000, 0, "/memwork-pie", NULL, UINT64_MAX) < 0)
		return -1;
	for (size_t i = 0; i < sizeof data / sizeof *data; i++)
		if (spe_loader_data_mmap(ld, 5151, data[i].start, data[i].len, data[i].pgoff, data[i].prot, MAP_PRIVATE,
					 data[i].path, UINT64_MAX) < 0)
			return -1;
	return 0;
}

/* Decode @p n raw bytes and load their records as (cpu, pid, tid).  0, or the loader's error. */
static int records(struct spe_loader *ld, const uint8_t *raw, size_t n, int cpu, int pid, int tid, unsigned flags)
{
	struct spe_rec_config rc = SPE_OPTS(spe_rec_config, .midr = cpu >= 0 && cpu < 4 ? midrs[flags >> 5 & 7] : 0,
					    .emit_partial = !!(flags & 16));
	struct spe_rec_decoder *dec = spe_rec_alloc_decoder(&rc);
	if (!dec)
		return -1;
	int rc_load = 0;
	struct spe_record rec;
	if (spe_rec_feed(dec, raw, n, 0, 0) == 0)
		while (rc_load == 0 && spe_rec_next(dec, &rec, sizeof rec) == 0)
			rc_load = spe_loader_record(ld, cpu, pid, tid, &rec);
	spe_rec_free_decoder(dec);
	return rc_load;
}

static int64_t one_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The sums two summaries must agree on (the counts of one load, settled twice). */
static void check_sums(sqlite3 *db)
{
	int64_t by_level = one_int(db, "SELECT coalesce(sum(loads), 0) FROM mem_level_stat");
	int64_t by_pc = one_int(db, "SELECT coalesce(sum(loads), 0) FROM prefetch_stat");
	int64_t bucketed = one_int(db, "SELECT coalesce(sum(samples), 0) FROM latency_bucket");
	int64_t timed = one_int(db, "SELECT count(*) FROM spe_record WHERE total_latency IS NOT NULL");
	if (by_level != by_pc || bucketed != timed) {
		fprintf(stderr, "summaries disagree: loads %lld by level, %lld by PC; timed records %lld, bucketed %lld\n",
			(long long)by_level, (long long)by_pc, (long long)timed, (long long)bucketed);
		abort();
	}
	/* every record with a data address in its page's row or past the page budget, and in its region's row */
	int64_t addressed = one_int(db, "SELECT count(*) FROM spe_record WHERE data_va IS NOT NULL");
	int64_t listed = one_int(db, "SELECT coalesce(sum(accesses), 0) FROM page_stat");
	int64_t unlisted = one_int(db, "SELECT unlisted_page_records FROM load_stats");
	int64_t by_region = one_int(db, "SELECT coalesce(sum(accesses), 0) FROM page_region_stat");
	int64_t pages = one_int(db, "SELECT count(*) FROM page_stat") + one_int(db, "SELECT pages_unlisted FROM load_stats");
	int64_t in_regions = one_int(db, "SELECT coalesce(sum(pages_4k), 0) FROM page_region_stat");
	if (listed + unlisted != addressed || by_region != addressed || pages != in_regions) {
		fprintf(stderr, "pages disagree: %lld records with a data address, %lld in page_stat + %lld past the budget, "
			"%lld by region; %lld pages, %lld by region\n", (long long)addressed, (long long)listed,
			(long long)unlisted, (long long)by_region, (long long)pages, (long long)in_regions);
		abort();
	}
}

/* ---- the counting sink ---- */

struct counts {
	uint64_t rows, records, timed, histogram, level_loads, pc_loads, bucketed, stats_records;
	size_t bytes; /* of the strings and arrays read */
};

static void read_str(struct counts *c, const char *s)
{
	if (s)
		c->bytes += strlen(s);
}

static void read_ids(struct counts *c, const int64_t *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		c->bytes += ids[i] != 0;
}

static int c_begin(void *ctx, struct spe_row_ids *next)
{
	(void)ctx;
	*next = (struct spe_row_ids){ 1, 1, 1, 1, 1 };
	return 0;
}

/* Every string, byte array and id list of a row, read as the table describes them (spe/tables.h). */
static void read_row(struct counts *c, const struct spe_table_info *ti, const void *row)
{
	for (int k = 0; k < ti->n_columns; k++) {
		const struct spe_column *col = &ti->columns[k];
		const void *p = col->kind >= SPE_KIND_TEXT ? spe_column_pointer(col, row) : NULL;
		if (!p)
			continue;
		if (col->kind == SPE_KIND_TEXT)
			read_str(c, p);
		else if (col->kind == SPE_KIND_IDS)
			read_ids(c, p, spe_column_count(col, row));
		else if (col->kind == SPE_KIND_BYTES && spe_column_count(col, row))
			c->bytes += ((const uint8_t *)p)[spe_column_count(col, row) - 1] != 0;
	}
}

/* A PC's histogram: latencies ascending in 0..65535 (row_sink.h), its records counted. */
static void check_histogram(struct counts *c, const struct spe_row_pc_histogram *r)
{
	c->histogram += r->untimed;
	for (size_t k = 0; k < r->n; k++) {
		if (r->latency[k] < 0 || r->latency[k] > 65535 || (k && r->latency[k] <= r->latency[k - 1])) {
			fprintf(stderr, "pc_histogram: latency %d after %d\n", r->latency[k], k ? r->latency[k - 1] : -1);
			abort();
		}
		c->histogram += r->samples[k];
	}
}

/* The sink's one entry point: every row read, the counts the summaries must agree on added up. */
static int c_rows(void *ctx, enum spe_table table, const void *rows, size_t n)
{
	struct counts *c = ctx;
	const struct spe_table_info *ti = spe_table_info(table);
	for (size_t i = 0; i < n; i++) {
		const void *row = (const char *)rows + i * ti->row_size;
		c->rows++;
		read_row(c, ti, row);
		switch (table) {
		case SPE_TABLE_RECORD: {
			const struct spe_row_record *r = row;
			c->records++;
			c->timed += r->present >> SPE_RECORD_COL_COUNTER_TOTAL & 1;
			break;
		}
		case SPE_TABLE_LOAD_STATS: c->stats_records += ((const struct spe_row_load_stats *)row)->records; break;
		case SPE_TABLE_MEM_LEVEL_STAT: c->level_loads += ((const struct spe_row_mem_level_stat *)row)->loads; break;
		case SPE_TABLE_LATENCY_BUCKET: c->bucketed += ((const struct spe_row_latency_bucket *)row)->samples; break;
		case SPE_TABLE_PREFETCH_STAT: c->pc_loads += ((const struct spe_row_prefetch_stat *)row)->loads; break;
		case SPE_TABLE_PC_HISTOGRAM: check_histogram(c, row); break;
		default: break;
		}
	}
	return 0;
}

static int c_commit(void *ctx)
{
	const struct counts *c = ctx;
	if (c->level_loads != c->pc_loads || c->bucketed != c->timed || c->histogram != c->records ||
	    c->stats_records != c->records) {
		fprintf(stderr,
			"summaries disagree: loads %llu by level, %llu by PC; timed records %llu, bucketed %llu; "
			"records %llu, in pc_histogram %llu, in load_stats %llu\n",
			(unsigned long long)c->level_loads, (unsigned long long)c->pc_loads, (unsigned long long)c->timed,
			(unsigned long long)c->bucketed, (unsigned long long)c->records, (unsigned long long)c->histogram,
			(unsigned long long)c->stats_records);
		abort();
	}
	return 0;
}

static void c_abort(void *ctx)
{
	(void)ctx;
}

static const char *c_errmsg(void *ctx)
{
	(void)ctx;
	return "counting sink";
}

static struct spe_row_sink counting_sink(struct counts *c)
{
	return (struct spe_row_sink){ .ctx = c,
				      .tables = ~(uint64_t)0,
				      .begin = c_begin,
				      .rows = c_rows,
				      .commit = c_commit,
				      .abort = c_abort,
				      .errmsg = c_errmsg };
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	struct input in = { data + 2, size - 2 };
	unsigned flags = data[0];
	int counting = data[1] & 1;
	char err[256];
	struct spe_db *db = NULL;
	struct counts counts = { 0 };
	struct spe_row_sink sink = counting_sink(&counts);
	if (!counting && spe_db_open_memory(&db, err, sizeof err) < 0)
		return 0;
	struct spe_source_info src = { .file = "fuzz", .kind = "raw", .nr_cpus = 4 };
	struct spe_load_opts opts = { .symbolize = 1,
				      .symfs = SPE_FUZZ_ELF_DIR,
				      .jobs = flags & 1 ? 2 : 1,
				      .line_budget = flags & 2 ? 4 : 0,
				      .page_budget = data[1] & 2 ? 2 : 0 };
	struct spe_loader *ld;
	if ((counting ? spe_loader_new_sink(&sink, &src, &opts, &ld, err, sizeof err)
		      : spe_loader_new(db, &src, &opts, &ld, err, sizeof err)) < 0) {
		spe_db_close(db);
		return 0;
	}
	int rc = sideband(ld, flags);
	while (rc == 0 && in.left) {
		unsigned tag = (unsigned)take(&in, 1) % 5;
		int cpu = 0;
		const int *who;
		switch (tag) {
		case 0: {
			cpu = (int)take(&in, 1);
			cpu = cpu < 248 ? cpu % 4 : cpu - 248 + 4094; /* a few past the CPUs read */
			who = whos[take(&in, 1) % 8];
			size_t n = (size_t)take(&in, 2);
			if (n > in.left)
				n = in.left;
			rc = records(ld, in.p, n, cpu, who[0], who[1], flags);
			in.p += n;
			in.left -= n;
			break;
		}
		case 1:
			cpu = (int)(take(&in, 1) % 4);
			who = whos[take(&in, 1) % 8];
			spe_loader_switch_in(ld, cpu, who[0], who[1], take(&in, 4));
			break;
		case 2:
			who = whos[take(&in, 1) % 8];
			rc = spe_loader_comm(ld, who[0], (int)take(&in, 2), "fuzz", UINT64_MAX);
			break;
		case 3: {
			who = whos[take(&in, 1) % 8];
			uint64_t start = take(&in, 8), len = take(&in, 4);
			uint32_t prot = (uint32_t)take(&in, 1) & (PROT_READ | PROT_WRITE);
			rc = spe_loader_data_mmap(ld, who[0], start, len, 0, prot, MAP_PRIVATE, "//anon", UINT64_MAX);
			break;
		}
		default: {
			who = whos[take(&in, 1) % 8];
			const char *elf = elves[take(&in, 1) % (sizeof elves / sizeof *elves)];
			uint64_t start = take(&in, 8);
			rc = spe_loader_mmap(ld, who[0], start, 0x2000, 0, elf, NULL, UINT64_MAX);
			break;
		}
		}
	}
	/* the views are fuzz_load_raw's; with them a run took half again as long (schema creation is most of the rest) */
	if (rc == 0 && spe_loader_finish(ld, NULL) == 0 && !counting)
		check_sums(spe_db_sqlite(db)); /* the counting sink checks its sums at the commit */
	spe_loader_free(ld);
	spe_db_close(db);
	return 0;
}
