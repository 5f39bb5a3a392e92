/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One load: records and sideband in, rows out.  Attribution (who ran a
 * record: attribution.c) and resolution (what its PC is: resolve.c) fill
 * each record's row; the rows, and at the end the thread, cpu, mapping,
 * pc_latency and load_stats rows, go to a row sink (spe/row_sink.h), the
 * SQLite one for spe-load.  Ids of mapping, symbol and insn rows are the
 * loader's, counted from the first free ids the sink reports at begin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attribution.h"
#include "data_attrib.h"
#include "db_internal.h"
#include "jit_loads.h"
#include "ana/latency_hist.h"
#include "loader_internal.h"
#include "numa_tables.h"
#include "record_summary.h"
#include "record_tally.h"
#include "resolve.h"
#include "sink_async.h"
#include "time_conv_sql.h"
#include "spe/analysis.h"
#include "spe/row_sink.h"
#include "util/grow.h"

#define NO_TIME UINT64_MAX
/* Record rows handed to the sink per call. */
#define ROW_BATCH 256

struct jit_marker {
	int pid;
	char *path;
	uint64_t time;
};

struct spe_loader {
	struct spe_row_sink sink;
	int own_sink;                  /* the SQLite sink spe_loader_new made */
	int async;                     /* sink is sink_async.h's: the tally is its stage, on its thread */
	int finished;                  /* the sink saw commit (else abort at free) */
	struct spe_row_ids next;       /* next free ids */
	int64_t source_id;
	struct spe_load_opts opts;
	char err[512];
	struct spe_load_counts counts;
	/* the records' span, for load_stats (as SQLite compares the stored integers: signed) */
	uint64_t timed, stamped; /* records with a perf time, with a raw timestamp */
	int64_t first_time, last_time, first_ts, last_ts;

	int has_time_conv;
	struct spe_perf_time_conv tc;
	int time_conv_written;            /* the sink has row_tc: times equal to its conversion stay NULL */
	struct spe_row_time_conv row_tc;

	struct attribution at;
	struct resolver res;
	struct jit_marker *markers;    /* jitdump markers, read before the first record (jit_loads.h) */
	size_t n_markers, cap_markers;
	int monotonic;                 /* every event used CLOCK_MONOTONIC (perf record -k 1) */
	struct data_attrib dattr;      /* data addresses -> data_object rows */
	struct latency_hist_map latency; /* by (pc, insn, symbol): the pc_histogram rows */
	int64_t no_pc_group;           /* records without a PC; -1 until one is seen */
	/*
	 * The summaries (record_tally.h), counted from the rows: with an async
	 * sink, on whichever thread has time (sink_async.h, the stage), and
	 * this thread's again after loader_sync().
	 */
	struct record_tally tally;

	struct spe_row_record rows[ROW_BATCH]; /* rows waiting for the sink */
	struct tally_note notes[ROW_BATCH];    /* and what the tally needs of them beside */
	int n_rows;
	uint64_t ordinal; /* records seen, for opts.keep */
};

/* A failed sink operation: its message, after what was being written. */
static int sink_fail(struct spe_loader *ld, int rc, const char *what)
{
	const char *m = ld->sink.errmsg ? ld->sink.errmsg(ld->sink.ctx) : "";
	snprintf(ld->err, sizeof ld->err, "%s: %s", what, m && *m ? m : spe_errstr(rc));
	return rc;
}

static int out_of_memory(struct spe_loader *ld)
{
	snprintf(ld->err, sizeof ld->err, "out of memory");
	return -spe_nomem;
}

/* The rows to the sink, and to the tally (on the sink's thread if async). */
static int flush_rows(struct spe_loader *ld)
{
	size_t n = (size_t)ld->n_rows;
	ld->n_rows = 0;
	if (!n)
		return 0;
	int rc = ld->async ? ana_async_sink_records_noted(ld->sink.ctx, ld->rows, ld->notes, n)
			   : ld->sink.rows(ld->sink.ctx, SPE_TABLE_RECORD, ld->rows, n);
	if (rc < 0)
		return sink_fail(ld, rc, "records");
	if (!ld->async && ana_record_tally(&ld->tally, ld->rows, ld->notes, n) < 0)
		return out_of_memory(ld);
	return 0;
}

/* Every row given so far stored and counted: the tally is this thread's again. */
static int loader_sync(struct spe_loader *ld)
{
	int rc = flush_rows(ld);
	if (rc == 0 && ld->async && (rc = ana_async_sink_sync(ld->sink.ctx)) < 0)
		sink_fail(ld, rc, "records");
	return rc;
}

/* ---- setup -------------------------------------------------------------- */

static int begin_source(struct spe_loader *ld, const struct spe_source_info *src)
{
	int rc = ld->sink.begin(ld->sink.ctx, &ld->next);
	if (rc < 0)
		return sink_fail(ld, rc, "source");
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	struct spe_row_source row = { .id = ld->next.source++,
				      .file = src->file ? src->file : "",
				      .kind = src->kind ? src->kind : "perf.data",
				      .host = src->host,
				      .command_line = src->command_line,
				      .cpus = src->nr_cpus >= 0 ? src->nr_cpus : -1,
				      .loaded_at = now,
				      .digest = src->digest };
	ld->source_id = row.id;
	rc = spe_sink_rows(&ld->sink, &row, 1);
	return rc < 0 ? sink_fail(ld, rc, "source") : 0;
}

/*
 * A loader writing to @p sink, which it owns (frees) from then on, even on
 * failure, if @p own; with @p async, through sink_async.h's wrapper of it,
 * which also counts the rows on its thread.
 */
static int loader_new(const struct spe_row_sink *sink, int own, int async, const struct spe_source_info *src,
		      const struct spe_load_opts *opts, struct spe_loader **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!sink || !sink->rows || !src) {
		snprintf(err, errlen, "no sink or source");
		return -spe_invalid;
	}
	struct spe_loader *ld = calloc(1, sizeof *ld);
	if (!ld) {
		if (own)
			sink->free(sink->ctx);
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	ld->sink = *sink;
	ld->own_sink = own;
	if (async) {
		struct ana_async_stage stage = { .ctx = &ld->tally,
						 .note_size = sizeof(struct tally_note),
						 .records = ana_record_tally_stage };
		int rc = ana_async_sink_new_staged(sink, &stage, &ld->sink, err, errlen);
		if (rc < 0) {
			spe_loader_free(ld); /* frees sink if own */
			return rc;
		}
		ld->async = 1; /* the wrapper owns sink now */
	}
	ana_attrib_init(&ld->at);
	ld->no_pc_group = -1;
	if (opts)
		ld->opts = *opts;
	ana_record_tally_init(&ld->tally);
	ld->tally.summary.line_budget = ld->opts.line_budget ? ld->opts.line_budget : SPE_LOAD_LINE_BUDGET;
	ld->tally.summary.page_budget = ld->opts.page_budget ? ld->opts.page_budget : SPE_LOAD_PAGE_BUDGET;
	/* the pages past the budget are in page_region_stat only: a sink without it (ClickHouse's data_page
	   groups page_stat itself) keeps every page's row */
	if (!spe_sink_takes(&ld->sink, PAGE_REGION_STAT))
		ld->tally.summary.page_budget = SIZE_MAX;
	int rc = ana_resolver_init(&ld->res, &ld->opts, &ld->at, &ld->sink, &ld->next, ld->err, sizeof ld->err);
	if (rc == 0)
		rc = begin_source(ld, src);
	if (rc == 0)
		ana_data_attrib_init(&ld->dattr, &ld->sink, &ld->next, ld->source_id, ld->res.sym, &ld->at);
	if (rc < 0) {
		snprintf(err, errlen, "%s", ld->err);
		spe_loader_free(ld);
		return rc;
	}
	*out = ld;
	return 0;
}

int spe_loader_new_sink(const struct spe_row_sink *sink, const struct spe_source_info *src,
			const struct spe_load_opts *opts, struct spe_loader **out, char *err, size_t errlen)
{
	return loader_new(sink, 0, 0, src, opts, out, err, errlen);
}

int spe_loader_new(struct spe_db *db, const struct spe_source_info *src, const struct spe_load_opts *opts,
		   struct spe_loader **out, char *err, size_t errlen)
{
	struct spe_row_sink sink;
	int rc = spe_sqlite_sink_new(db, &sink, err, errlen);
	if (rc < 0)
		return rc;
	/*
	 * jobs >= 2: SQLite's inserts and the counting (record_tally.h) on a
	 * thread of their own (sink_async.h); decoding, attribution and
	 * resolution here.
	 */
	int async = opts && opts->jobs >= 2;
	spe_db_set_threads(db, async ? 2 : 1);
	return loader_new(&sink, 1, async, src, opts, out, err, errlen);
}

/* ---- sideband ----------------------------------------------------------- */

void spe_loader_cpu(struct spe_loader *ld, int cpu, uint32_t midr)
{
	struct ana_attrib_cpu *c = ana_attrib_cpu(&ld->at, cpu);
	if (c) {
		c->midr = midr ? midr : ld->opts.midr;
		c->known = 1;
	}
}

void spe_loader_time_conv(struct spe_loader *ld, const struct spe_perf_time_conv *tc)
{
	ld->tc = *tc;
	ld->has_time_conv = 1;
}

/*
 * The source's time_conv row, written once, before the first record: the
 * conversion in force then.  Rows whose time it gives exactly (see
 * sql_time) leave `time` NULL.
 */
static int write_time_conv(struct spe_loader *ld)
{
	if (ld->time_conv_written || !ld->has_time_conv || !spe_sink_takes(&ld->sink, TIME_CONV))
		return 0;
	ld->row_tc = (struct spe_row_time_conv){ .source_id = ld->source_id,
						 .time_shift = ld->tc.time_shift,
						 .time_mult = ld->tc.time_mult,
						 .time_zero = ld->tc.time_zero,
						 .time_cycles = ld->tc.time_cycles,
						 .time_mask = ld->tc.time_mask,
						 .cap_user_time_short = ld->tc.cap_user_time_short };
	int rc = spe_sink_rows(&ld->sink, &ld->row_tc, 1);
	if (rc < 0)
		return sink_fail(ld, rc, "time_conv");
	ld->time_conv_written = 1;
	return 0;
}

int spe_loader_comm(struct spe_loader *ld, int pid, int tid, const char *comm, uint64_t time)
{
	return ana_attrib_comm(&ld->at, pid, tid, comm, time) < 0 ? out_of_memory(ld) : 0;
}

int spe_loader_fork(struct spe_loader *ld, int pid, int ppid, int tid, int ptid, uint64_t time, int from_proc)
{
	return ana_attrib_fork(&ld->at, pid, ppid, tid, ptid, time, from_proc) < 0 ? out_of_memory(ld) : 0;
}

int spe_loader_exit(struct spe_loader *ld, int pid, int tid, uint64_t time)
{
	return ana_attrib_exit(&ld->at, pid, tid, time) < 0 ? out_of_memory(ld) : 0;
}

/* data_attrib's failure: its message, or the sink's. */
static int data_fail(struct spe_loader *ld, int rc)
{
	snprintf(ld->err, sizeof ld->err, "%s", *ld->dattr.err ? ld->dattr.err : spe_errstr(rc));
	return rc;
}

/*
 * What an executable user mapping is: anonymous memory perf gives
 * /tmp/perf-PID.map's names (tools/perf/util/map.c, map__new: //anon,
 * /dev/zero..., /anon_hugepage..., MAP_HUGETLB, [stack..., /SYSV..., [heap]),
 * other anonymous memory (//anon..., [anon:NAME], /memfd:NAME, which perf
 * inject --jit also takes for JIT memory), or a file.
 */
static int exec_kind(const char *path, uint32_t flags)
{
	if (!path)
		return ATTRIB_MAP_FILE;
	if (!strcmp(path, "//anon") || !strncmp(path, "/dev/zero", 9) || !strncmp(path, "/anon_hugepage", 14) ||
	    (flags & SPE_MAP_HUGETLB) || !strncmp(path, "[stack", 6) || !strncmp(path, "/SYSV", 5) ||
	    !strcmp(path, "[heap]"))
		return ATTRIB_MAP_ANON;
	if (!strncmp(path, "//anon", 6) || !strncmp(path, "[anon:", 6) || !strncmp(path, "/memfd:", 7))
		return ATTRIB_MAP_SCRATCH;
	return ATTRIB_MAP_FILE;
}

int spe_loader_exec_mmap(struct spe_loader *ld, int pid, uint64_t start, uint64_t len, uint64_t pgoff,
			 const char *path, const char *build_id, uint64_t time, uint32_t flags)
{
	if (pid < -1)
		pid = -1;
	if (pid >= 0 && ana_jit_marker_name(path)) {
		/* no code: its dump's code is, once the recording's clock is known (before the first record) */
		if (!ld->opts.symbolize)
			return 0;
		struct jit_marker *mk = util_grow(ld->markers, &ld->cap_markers, ld->n_markers + 1, sizeof *mk);
		if (!mk)
			return out_of_memory(ld);
		ld->markers = mk;
		mk = &ld->markers[ld->n_markers];
		if (!(mk->path = strdup(path)))
			return out_of_memory(ld);
		mk->pid = pid;
		mk->time = time;
		ld->n_markers++;
		return 0;
	}
	enum kernel_map_kind kind = KMAP_USER;
	const char *ref_symbol = "";
	if (pid == -1) /* `[kernel.kallsyms]_text` is the image's row `[kernel.kallsyms]`, its _text at pgoff */
		kind = ana_kernel_map_kind(path, &path, &ref_symbol);
	struct attrib_mapping *m =
		ana_attrib_add_mapping_kind(&ld->at, ld->next.mapping, pid, start, len, pgoff, path, build_id, time, -1,
					    pid >= 0 ? exec_kind(path, flags) : ATTRIB_MAP_FILE);
	if (!m)
		return out_of_memory(ld);
	m->kernel_kind = (uint8_t)kind;
	if (kind == KMAP_IMAGE)
		ana_ksyms_image_map(&ld->res.ksyms, ref_symbol, pgoff, build_id);
	ld->next.mapping++;
	return 0;
}

int spe_loader_mmap(struct spe_loader *ld, int pid, uint64_t start, uint64_t len, uint64_t pgoff,
		    const char *path, const char *build_id, uint64_t time)
{
	return spe_loader_exec_mmap(ld, pid, start, len, pgoff, path, build_id, time, 0);
}

void spe_loader_clock(struct spe_loader *ld, int monotonic)
{
	ld->monotonic = monotonic;
}

/* The code of the jitdumps the markers name, into the process model (jit_loads.h). */
static int add_jit_loads(struct spe_loader *ld)
{
	struct jit_clock clock = { .tc = ld->has_time_conv ? &ld->tc : NULL, .monotonic = ld->monotonic };
	int rc = 0;
	for (size_t i = 0; i < ld->n_markers; i++) {
		const struct jit_marker *mk = &ld->markers[i];
		int again = 0; /* the dump mapped again by its process (the runtime's marker re-mapped): read once */
		for (size_t j = 0; j < i && !again; j++)
			again = ld->markers[j].pid == mk->pid && !strcmp(ld->markers[j].path, mk->path);
		if (rc == 0 && !again)
			rc = ana_jit_loads_add(&ld->at, &ld->res.jit, &ld->next.mapping, mk->pid, mk->path, mk->time, &clock);
	}
	for (size_t i = 0; i < ld->n_markers; i++)
		free(ld->markers[i].path);
	ld->n_markers = 0;
	return rc < 0 ? out_of_memory(ld) : 0;
}

int spe_loader_ksymbol(struct spe_loader *ld, uint64_t addr, uint32_t len, int unregister, const char *name,
		       uint64_t time)
{
	if (!len)
		return 0;
	if (unregister)
		return ana_procs_munmap(&ld->at.procs, -1, addr, addr + len, time) < 0 ? out_of_memory(ld) : 0;
	struct attrib_mapping *m =
		ana_attrib_add_mapping(&ld->at, ld->next.mapping, -1, addr, len, 0, name, NULL, time, -1);
	if (!m)
		return out_of_memory(ld);
	m->kernel_kind = KMAP_KSYMBOL;
	ld->next.mapping++;
	return 0;
}

int spe_loader_osrelease(struct spe_loader *ld, const char *release)
{
	return ana_ksyms_osrelease(&ld->res.ksyms, release) < 0 ? out_of_memory(ld) : 0;
}

void spe_loader_bpf_event(struct spe_loader *ld, int unload)
{
	if (unload)
		ld->counts.bpf_unloads++;
	else
		ld->counts.bpf_loads++;
}

int spe_loader_build_id(struct spe_loader *ld, int pid, uint16_t misc, const uint8_t *id, unsigned size,
			const char *name)
{
	return ana_bid_table_add(&ld->at.recorded_ids, pid, misc, id, size, name) < 0 ? out_of_memory(ld) : 0;
}

int spe_loader_data_mmap(struct spe_loader *ld, int pid, uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot,
			 uint32_t flags, const char *path, uint64_t time)
{
	if (pid < 0)
		return 0; /* the kernel's data: never a user data address */
	struct attrib_mapping *m = ana_attrib_add_mapping(&ld->at, ld->next.mapping, pid, start, len, pgoff,
							  path ? path : "", NULL, time, (int64_t)prot);
	if (!m)
		return out_of_memory(ld);
	m->flags = flags;
	ld->next.mapping++;
	return 0;
}

int spe_loader_numa(struct spe_loader *ld, const struct spe_perf_numa_node *nodes, uint32_t n, uint64_t block_size)
{
	ld->err[0] = 0;
	/* the summary's NUMA ranges must come before its first record: count those given first */
	int rc = loader_sync(ld);
	if (rc < 0)
		return rc;
	rc = ana_numa_tables_write(&ld->sink, ld->source_id, nodes, n, block_size, &ld->tally.summary, ld->err,
				   sizeof ld->err);
	return rc < 0 && !ld->err[0] ? sink_fail(ld, rc, "numa") : rc;
}

void spe_loader_switch_in(struct spe_loader *ld, int cpu, int pid, int tid, uint64_t time)
{
	ana_attrib_switch_in(&ld->at, cpu, pid, tid, time);
}

/* ---- records ------------------------------------------------------------ */

static inline void set_int(struct spe_row_record *row, enum spe_record_column c, int is_set, uint64_t v)
{
	if (is_set) {
		row->col[c].i = (int64_t)v;
		row->present |= 1ull << c;
	}
}

#define HAS(f) (rec->has & SPE_HAS_##f)

/* The `codes` column: op type, EL, memory level and two flags (SPE_CODES_*, spe/row_sink.h). */
static uint64_t record_codes(const struct spe_record *rec, const struct ana_attrib_cpu *c, int tid, uint64_t time)
{
	uint64_t codes = 0;
	if (HAS(OP_TYPE))
		codes |= SPE_CODES_HAS_OP | (uint64_t)((rec->op_raw_class & 3) << 8 | rec->op_raw);
	if (HAS(PC))
		codes |= (uint64_t)(rec->pc.el & 3) << SPE_CODES_EL_SHIFT;
	if (HAS(DATA_SOURCE)) {
		int modified = 0;
		int level = spe_mem_level(c->midr, rec->data_source, &modified);
		if (level >= 0)
			codes |= (uint64_t)(level + 1) << SPE_CODES_MEM_LEVEL_SHIFT;
	}
	if (HAS(CONTEXT) && tid >= 0 && rec->context == (uint64_t)tid)
		codes |= SPE_CODES_CONTEXT_IS_TID;
	if (time == NO_TIME)
		codes |= SPE_CODES_NO_TIME;
	return codes;
}

/* The record row of @p rec: one value per column of SPE_RECORD_COLUMNS (spe/row_sink.h). */
static void record_row(struct spe_loader *ld, struct spe_row_record *row, const struct spe_record *rec,
		       const struct ana_attrib_cpu *c, int cpu, int pid, int tid, uint64_t time, const struct pc_value *where,
		       int64_t data_object)
{
	uint64_t codes = record_codes(rec, c, tid, time);
	uint64_t derived;
	/* time only where the view's conversion of ts would not give it */
	int time_stored = time != NO_TIME && !(ld->time_conv_written && HAS(TIMESTAMP) &&
					       spe_time_conv_sql(&ld->row_tc, rec->timestamp, &derived) && derived == time);
	row->present = 0;
	set_int(row, SPE_RECORD_COL_SOURCE_ID, 1, (uint64_t)ld->source_id);
	set_int(row, SPE_RECORD_COL_TS, HAS(TIMESTAMP), rec->timestamp);
	set_int(row, SPE_RECORD_COL_TIME, time_stored, time);
	set_int(row, SPE_RECORD_COL_CPU, 1, (uint64_t)(int64_t)cpu);
	set_int(row, SPE_RECORD_COL_PID, pid >= 0, (uint64_t)pid);
	set_int(row, SPE_RECORD_COL_TID, tid >= 0, (uint64_t)tid);
	set_int(row, SPE_RECORD_COL_PC, HAS(PC) && !where->insn_id, rec->pc.addr); /* else insn.pc */
	set_int(row, SPE_RECORD_COL_CODES, 1, codes);
	set_int(row, SPE_RECORD_COL_EVENTS, HAS(EVENTS), rec->events);
	set_int(row, SPE_RECORD_COL_COUNTER_TOTAL, HAS(TOTAL_LATENCY), rec->total_latency);
	set_int(row, SPE_RECORD_COL_COUNTER_ISSUE, HAS(ISSUE_LATENCY), rec->issue_latency);
	set_int(row, SPE_RECORD_COL_COUNTER_TRANSLATION, HAS(TRANSLATION_LATENCY), rec->translation_latency);
	set_int(row, SPE_RECORD_COL_DATA_VA, HAS(DATA_VA), rec->data_va);
	set_int(row, SPE_RECORD_COL_DATA_PA, HAS(DATA_PA), rec->data_pa);
	set_int(row, SPE_RECORD_COL_DATA_SOURCE, HAS(DATA_SOURCE), rec->data_source);
	set_int(row, SPE_RECORD_COL_BRANCH_TARGET, HAS(BRANCH_TARGET), rec->branch_target.addr);
	set_int(row, SPE_RECORD_COL_PREV_BRANCH_TARGET, HAS(PREV_BRANCH_TARGET), rec->prev_branch_target.addr);
	set_int(row, SPE_RECORD_COL_CONTEXT, HAS(CONTEXT) && !(codes & SPE_CODES_CONTEXT_IS_TID), rec->context);
	set_int(row, SPE_RECORD_COL_INSN_ID, where->insn_id != 0, (uint64_t)where->insn_id);
	set_int(row, SPE_RECORD_COL_DATA_OBJECT_ID, data_object > 0, (uint64_t)data_object);
}

/* Count the record in its latency group (the pc_histogram rows): its PC's, or the one of records without a PC. */
static int count_latency(struct spe_loader *ld, const struct spe_record *rec, struct pc_value *where,
			 uint32_t *group_out)
{
	int64_t group;
	if (!HAS(PC)) {
		if (ld->no_pc_group < 0) {
			struct latency_key none = { { 0, 0, 0 } };
			ld->no_pc_group = ana_latency_group_of(&ld->latency, &none);
		}
		group = ld->no_pc_group;
	} else if (where->latency_group == PC_NO_GROUP) {
		/* group keys are (pc, insn_id, symbol_id << 1 | has_pc), see write_latency */
		struct latency_key k = { { rec->pc.addr, (uint64_t)where->insn_id, (uint64_t)where->symbol_id << 1 | 1 } };
		group = ana_latency_group_of(&ld->latency, &k);
		where->latency_group = group < 0 || group >= PC_NO_GROUP ? PC_NO_GROUP : (uint32_t)group; /* 31 bits */
	} else {
		group = where->latency_group;
	}
	if (group < 0 || ana_latency_hist_map_count(&ld->latency, (uint32_t)group,
						  HAS(TOTAL_LATENCY) ? rec->total_latency : LATENCY_NONE) < 0)
		return out_of_memory(ld);
	*group_out = (uint32_t)group;
	return 0;
}

/* The record's time and raw timestamp widen the capture's span (load_stats.first_time ... last_ts). */
static void note_span(struct spe_loader *ld, const struct spe_record *rec, uint64_t time)
{
	if (time != NO_TIME) {
		int64_t t = (int64_t)time;
		if (!ld->timed++ || t < ld->first_time)
			ld->first_time = t;
		if (ld->timed == 1 || t > ld->last_time)
			ld->last_time = t;
	}
	if (HAS(TIMESTAMP)) {
		int64_t ts = (int64_t)rec->timestamp;
		if (!ld->stamped++ || ts < ld->first_ts)
			ld->first_ts = ts;
		if (ld->stamped == 1 || ts > ld->last_ts)
			ld->last_ts = ts;
	}
}

int spe_loader_record(struct spe_loader *ld, int cpu, int pid, int tid, const struct spe_record *rec)
{
	uint64_t time = NO_TIME;
	if (HAS(TIMESTAMP) && ld->has_time_conv)
		time = spe_perf_tsc_to_time(&ld->tc, rec->timestamp);
	return spe_loader_record_at(ld, cpu, pid, tid, rec, time);
}

int spe_loader_record_at(struct spe_loader *ld, int cpu, int pid, int tid, const struct spe_record *rec, uint64_t time)
{
	if (ld->opts.cancel && *ld->opts.cancel) {
		snprintf(ld->err, sizeof ld->err, "interrupted");
		return -spe_cancelled;
	}
	struct ana_attrib_cpu *c = ana_attrib_cpu(&ld->at, cpu);
	if (!c) {
		snprintf(ld->err, sizeof ld->err, "cpu %d is beyond the %d CPUs spekit reads", cpu, SPE_AUX_MAX_CPUS);
		return -spe_invalid;
	}
	if (!ld->time_conv_written && ld->has_time_conv) {
		int rc = write_time_conv(ld);
		if (rc < 0)
			return rc;
	}
	if (ld->n_markers) {
		int rc = add_jit_loads(ld);
		if (rc < 0)
			return rc;
	}
	uint32_t space;
	if (ana_attrib_record(&ld->at, c, rec, time, &pid, &tid, &space) < 0)
		return out_of_memory(ld);
	if (ld->opts.keep) { /* a selection: the CPU's thread is followed above, the record goes no further */
		uint64_t i = ld->ordinal++;
		if (i >= ld->opts.n_keep || !(ld->opts.keep[i / 64] >> (i % 64) & 1)) {
			ld->counts.unselected++;
			return 0;
		}
	}
	if (time == NO_TIME)
		ld->counts.no_time++;

	static struct pc_value nowhere = { .latency_group = PC_NO_GROUP };
	struct pc_value *where = &nowhere;
	if (HAS(PC)) {
		int rc = ana_resolver_pc(&ld->res, rec, space, time, &where);
		if (rc < 0)
			return rc == -spe_nomem ? out_of_memory(ld) : sink_fail(ld, rc, "resolving a PC");
	}
	int64_t object = 0; /* user data addresses only */
	if (HAS(DATA_VA) && space != PROC_NONE && !(rec->data_va >> 63) &&
	    (object = ana_data_attrib_resolve(&ld->dattr, space, rec->data_va, time)) < 0)
		return data_fail(ld, (int)object);
	uint32_t group;
	int rc = count_latency(ld, rec, where, &group);
	if (rc < 0)
		return rc;
	record_row(ld, &ld->rows[ld->n_rows], rec, c, cpu, pid, tid, time, where, object);
	ld->notes[ld->n_rows] = (struct tally_note){ .group = group,
						     .midr = c->midr,
						     .symbol_id = where->insn_id ? where->symbol_id : 0 };
	note_span(ld, rec, time);
	ld->counts.records++;
	return ++ld->n_rows == ROW_BATCH ? flush_rows(ld) : 0;
}

void spe_loader_prefetch(struct spe_loader *ld, const struct spe_record *rec, uint64_t time)
{
	/* the process, when the record names its thread (else it is known only after the records before) */
	const struct processes *p = &ld->at.procs;
	uint32_t t = HAS(CONTEXT) && !p->n_pending ? ana_procs_thread_at(p, (int)rec->context, time) : PROC_NONE;
	uint32_t space = t != PROC_NONE ? p->threads[t].space : PROC_NONE;
	ana_resolver_prefetch(&ld->res, rec, space);
	/* the page memo of the data address (as spe_loader_record_at resolves it) */
	if (space != PROC_NONE && HAS(DATA_VA) && !(rec->data_va >> 63))
		ana_data_attrib_prefetch(&ld->dattr, space, rec->data_va);
}

void spe_loader_add_aux_stats(struct spe_loader *ld, const struct spe_aux_stats *s)
{
	ld->counts.bad_bytes += s->bad_bytes;
	ld->counts.skipped_bytes += s->skipped_bytes;
	ld->counts.partial_records += s->partial_records;
	ld->counts.unknown_packets += s->unknown_packets;
	ld->counts.dropped_extras += s->dropped_extras;
	ld->counts.lost_aux += s->aux_truncated + s->lost;
	ld->counts.aux_records += s->aux_records;
	ld->counts.aux_truncated += s->aux_truncated;
	ld->counts.aux_partial += s->aux_partial;
	ld->counts.aux_collision += s->aux_collision;
	ld->counts.lost_events += s->lost;
	if (s->cut) {
		ld->counts.cut = 1;
		ld->counts.cut_offset = s->cut_offset;
		ld->counts.cut_bytes = s->cut_bytes;
	}
}

void spe_loader_note_cut(struct spe_loader *ld, const char *what)
{
	snprintf(ld->counts.cut_what, sizeof ld->counts.cut_what, "%s", what);
}

/* ---- finish: the tables known only at the end ------------------------------ */

/* One row per tid: its latest thread (a reused tid's earlier threads are not rows), then the tids only records named. */
static int write_threads(struct spe_loader *ld)
{
	const struct processes *p = &ld->at.procs;
	for (size_t i = 0; i < p->n_threads; i++) {
		const struct proc_thread *t = &p->threads[i];
		if (ana_procs_thread_at(p, t->tid, PROC_NO_TIME) != i)
			continue;
		struct spe_row_thread row = { .source_id = ld->source_id, .tid = t->tid, .pid = p->spaces[t->space].pid,
					      .comm = t->comm };
		int rc = spe_sink_rows(&ld->sink, &row, 1);
		if (rc < 0)
			return sink_fail(ld, rc, "thread");
	}
	const struct util_map *named = &ld->at.record_tids;
	for (size_t i = 0; i < named->n; i++) {
		int tid = (int)*(const int64_t *)util_map_key(named, i);
		if (ana_procs_thread_at(p, tid, PROC_NO_TIME) != PROC_NONE)
			continue;
		struct spe_row_thread row = { .source_id = ld->source_id, .tid = tid,
					      .pid = (int32_t)*(const int64_t *)util_map_value(named, i) };
		int rc = spe_sink_rows(&ld->sink, &row, 1);
		if (rc < 0)
			return sink_fail(ld, rc, "thread");
	}
	return 0;
}

/* Every name of every thread, from when (processes.h, proc_comm_change), in the order applied. */
static int write_thread_comms(struct spe_loader *ld)
{
	const struct processes *p = &ld->at.procs;
	for (size_t i = 0; i < p->n_comm_changes; i++) {
		const struct proc_comm_change *c = &p->comm_changes[i];
		struct spe_row_thread_comm row = { .source_id = ld->source_id, .tid = c->tid, .time = c->time,
						   .comm = c->comm };
		int rc = spe_sink_rows(&ld->sink, &row, 1);
		if (rc < 0)
			return sink_fail(ld, rc, "thread_comm");
	}
	return 0;
}

static int write_cpus(struct spe_loader *ld)
{
	for (int i = 0; i < ld->at.n_cpus; i++) {
		const struct ana_attrib_cpu *c = &ld->at.cpus[i];
		if (!c->known)
			continue;
		const struct spe_cpu_info *info = c->midr ? spe_cpu_lookup(c->midr) : NULL;
		struct spe_row_cpu row = { .source_id = ld->source_id,
					   .cpu = i,
					   .midr = c->midr,
					   .part = info ? info->name : NULL,
					   .spe_version = info && info->spe_version && *info->spe_version ? info->spe_version
													   : NULL };
		int rc = spe_sink_rows(&ld->sink, &row, 1);
		if (rc < 0)
			return sink_fail(ld, rc, "cpu");
	}
	return 0;
}

/* Mappings at the end, with the build-ids resolution found in the files. */
static int write_mappings(struct spe_loader *ld)
{
	for (size_t i = 0; i < ld->at.n_maps; i++) {
		const struct attrib_mapping *m = &ld->at.maps[i];
		if (m->kind == ATTRIB_MAP_JIT)
			continue; /* a piece of a jitdump's code: its dump's row names it */
		/*
		 * The recorded build-id, and how its file was found: by the resolver,
		 * else (data addresses only) by data_attrib, else not looked up.
		 * Without a recorded id, the id of the file taken at the path.
		 */
		enum spe_sym_match match = m->bid_match;
		const char *build_id = m->build_id;
		if (m->pid >= 0 && m->prot < 0) {
			if (!build_id)
				build_id = ana_bid_table_find(&ld->at.recorded_ids, m->path, m->pid);
			if (!match)
				match = spe_sym_known_match(ld->res.sym, m->path, build_id);
			if (!build_id && match == SPE_SYM_UNRECORDED) {
				const struct spe_sym_binary *bin = spe_sym_binary(ld->res.sym, m->path, NULL); /* known */
				build_id = bin && *spe_sym_binary_build_id(bin) ? spe_sym_binary_build_id(bin) : NULL;
			}
		} else if (!build_id && (m->kernel_kind == KMAP_IMAGE || m->kernel_kind == KMAP_MODULE)) {
			/* the kernel's and its modules' recorded ids (HEADER_BUILD_ID, cpumode kernel) */
			build_id = ana_bid_table_find_kernel(&ld->at.recorded_ids, m->path);
		}
		struct spe_row_mapping row = { .id = m->id,
					       .source_id = ld->source_id,
					       .pid = m->pid >= 0 ? m->pid : -1,
					       .path = m->path,
					       .build_id = build_id,
					       .build_id_status = spe_sym_match_name(match),
					       .start = m->start,
					       .end = m->end,
					       .pgoff = m->pgoff,
					       .time = m->time,
					       .prot = m->prot };
		int rc = spe_sink_rows(&ld->sink, &row, 1);
		if (rc < 0)
			return sink_fail(ld, rc, "mapping");
	}
	return 0;
}

static int write_load_stats(struct spe_loader *ld)
{
	const struct spe_load_counts *k = &ld->counts;
	struct spe_row_load_stats row = { .source_id = ld->source_id,
					  .records = k->records,
					  .bad_bytes = k->bad_bytes,
					  .skipped_bytes = k->skipped_bytes,
					  .partial_records = k->partial_records,
					  .unknown_packets = k->unknown_packets,
					  .lost_aux = k->lost_aux,
					  .no_mapping = k->no_mapping,
					  .no_symbol = k->no_symbol,
					  .no_time = k->no_time,
					  .no_data_object = k->no_data_object,
					  .cacheline_scan = ld->tally.summary.lines_dropped,
					  .pages_unlisted = k->pages_unlisted,
					  .unlisted_page_records = k->unlisted_page_records,
					  .has_cut = !!k->cut,
					  .cut_offset = k->cut_offset,
					  .cut_bytes = k->cut_bytes,
					  .cut = k->cut ? k->cut_what : NULL,
					  .no_pid = k->no_pid,
					  .kernel_no_symbol = k->kernel_no_symbol,
					  .out_of_order = k->out_of_order,
					  .timed_records = ld->timed,
					  .has_time = ld->timed > 0,
					  .first_time = ld->first_time,
					  .last_time = ld->last_time,
					  .has_ts = ld->stamped > 0,
					  .first_ts = ld->first_ts,
					  .last_ts = ld->last_ts };
	int rc = spe_sink_rows(&ld->sink, &row, 1);
	return rc < 0 ? sink_fail(ld, rc, "load_stats") : 0;
}

/* One pc_latency row per group: its histogram, latencies ascending. */
static int write_latency(struct spe_loader *ld)
{
	if (ana_latency_hist_map_settle(&ld->latency) < 0)
		return out_of_memory(ld);
	uint32_t widest = 0;
	for (uint32_t g = 0; g < ana_latency_hist_map_n(&ld->latency); g++)
		if (ana_latency_group(&ld->latency, g)->hist.n > widest)
			widest = ana_latency_group(&ld->latency, g)->hist.n;
	uint64_t *slots = malloc(((size_t)widest + 1) * sizeof *slots);
	int32_t *lat = malloc(((size_t)widest + 1) * sizeof *lat);
	uint64_t *count = malloc(((size_t)widest + 1) * sizeof *count);
	int rc = slots && lat && count ? 0 : out_of_memory(ld);
	/* group keys are (pc, insn_id, symbol_id << 1 | has_pc), see count_latency */
	for (uint32_t g = 0; g < ana_latency_hist_map_n(&ld->latency) && rc == 0; g++) {
		struct latency_group *grp = ana_latency_group(&ld->latency, g);
		size_t n = ana_latency_hist_sorted(&grp->hist, slots), timed = 0;
		struct spe_row_pc_histogram row = { .source_id = ld->source_id,
						  .has_pc = (int)(grp->key.w[2] & 1),
						  .pc = grp->key.w[0],
						  .insn_id = (int64_t)grp->key.w[1],
						  .symbol_id = (int64_t)(grp->key.w[2] >> 1),
						  .latency = lat,
						  .samples = count };
		for (size_t i = 0; i < n; i++) {
			if (latency_slot_latency(slots[i]) == LATENCY_NONE) {
				row.untimed += latency_slot_count(slots[i]);
				continue;
			}
			lat[timed] = latency_slot_latency(slots[i]);
			count[timed++] = latency_slot_count(slots[i]);
		}
		row.n = timed;
		if ((rc = spe_sink_rows(&ld->sink, &row, 1)) < 0)
			sink_fail(ld, rc, "pc_histogram");
		/* written: only the group's key is read from here on (the summaries'), and the sink may
		   keep a copy of the row (rollup_feed.h) in the memory given back */
		free(grp->hist.slots);
		grp->hist = (struct latency_hist){ 0 };
	}
	free(slots);
	free(lat);
	free(count);
	return rc;
}

int spe_loader_finish(struct spe_loader *ld, struct spe_load_counts *counts)
{
	ld->counts.no_mapping = ld->res.no_mapping;
	ld->counts.no_symbol = ld->res.no_symbol;
	ld->counts.no_pid = ld->res.no_pid;
	ld->counts.kernel_no_symbol = ld->res.kernel_no_symbol;
	ld->counts.kernel_no_map = ld->res.kernel_no_map;
	ana_ksyms_note(&ld->res.ksyms, ld->counts.kernel_symbols, sizeof ld->counts.kernel_symbols);
	ld->counts.out_of_order = ld->at.procs.out_of_order;
	ld->counts.jit_records = ld->res.jit_records;
	ld->counts.jit_no_symbol = ld->res.jit_no_symbol;
	ana_jit_symbols_note(&ld->res.jit, ld->counts.jit_what, sizeof ld->counts.jit_what);
	ld->counts.no_data_object = ld->dattr.unresolved;
	ld->counts.files_matched = ld->res.files[SPE_SYM_MATCHED];
	ld->counts.files_mismatch = ld->res.files[SPE_SYM_MISMATCH];
	ld->counts.files_unrecorded = ld->res.files[SPE_SYM_UNRECORDED];
	ld->counts.files_not_found = ld->res.files[SPE_SYM_NOT_FOUND];
	int rc = loader_sync(ld);
	/* settled first: the lines' spill decides load_stats.cacheline_scan */
	if (rc == 0 && ana_record_tally_settle(&ld->tally) < 0)
		rc = out_of_memory(ld);
	ld->counts.pages_unlisted = ld->tally.summary.pages_unlisted;
	ld->counts.unlisted_page_records = ld->tally.summary.unlisted_page_records;
	/*
	 * Every record is counted: the per-record memos (caches) go before the
	 * writes below build their rows, and each summary once written, so that
	 * their memory does not add up at the load's peak (many_pcs at 10 M
	 * records: docs/performance.md, "The load's peak at its end").
	 */
	ana_addr_memo_fini(&ld->res.pcs);
	ana_addr_memo_fini(&ld->dattr.pages);
	if (rc == 0)
		rc = write_threads(ld);
	if (rc == 0)
		rc = write_thread_comms(ld);
	if (rc == 0)
		rc = write_cpus(ld);
	if (rc == 0)
		rc = write_mappings(ld);
	if (rc == 0)
		rc = write_load_stats(ld);
	if (rc == 0)
		rc = write_latency(ld);
	if (rc == 0 &&
	    (rc = ana_record_summary_write(&ld->tally.summary, &ld->sink, ld->source_id, &ld->latency)) < 0)
		sink_fail(ld, rc, "summaries");
	ana_record_summary_fini(&ld->tally.summary); /* written (emptied again by spe_loader_free: harmless) */
	if (rc == 0 && (rc = ana_object_tally_write(&ld->tally.objects, &ld->sink, ld->source_id)) < 0)
		sink_fail(ld, rc, "data object summaries");
	if (rc == 0 && (rc = ana_pc_level_write(&ld->tally.pc_levels, &ld->sink, ld->source_id, &ld->latency)) < 0)
		sink_fail(ld, rc, "levels by PC");
	if (rc == 0 && (rc = ld->sink.commit(ld->sink.ctx)) < 0)
		sink_fail(ld, rc, "commit");
	ld->finished = rc == 0;
	if (counts)
		*counts = ld->counts;
	return rc;
}

const char *spe_loader_error(const struct spe_loader *ld)
{
	return ld ? ld->err : "";
}

void spe_loader_free(struct spe_loader *ld)
{
	if (!ld)
		return;
	if (!ld->finished && ld->sink.abort)
		ld->sink.abort(ld->sink.ctx);
	if (ld->own_sink && ld->sink.free)
		ld->sink.free(ld->sink.ctx);
	ana_data_attrib_fini(&ld->dattr);
	for (size_t i = 0; i < ld->n_markers; i++)
		free(ld->markers[i].path);
	free(ld->markers);
	ana_resolver_fini(&ld->res);
	ana_attrib_fini(&ld->at);
	ana_latency_hist_map_fini(&ld->latency);
	ana_record_tally_fini(&ld->tally);
	free(ld);
}
