/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ClickHouse row sink (spe/clickhouse.h, spe/row_sink.h).  Rows are
 * encoded as RowBinary (ClickHouse's native row encoding: little-endian
 * integers, strings as LEB128 length + bytes, Nullable as a 1-byte NULL
 * flag before the value) into one buffer per table; a buffer past
 * BLOCK_BYTES is gzip-compressed and sent as one INSERT, by the sending
 * thread of ch_sender.c while the loader carries on.  Large blocks: each
 * INSERT becomes a part on disk that ClickHouse merges later, so fewer,
 * bigger inserts are what it wants.
 *
 * Visibility: every view reads only captures whose source row exists, and
 * the source row is the last insert of a commit.  A load that fails or is
 * interrupted -- a shard down, the network cut, Ctrl-C, kill -9 -- leaves
 * the rows it sent invisible (and unreferenced: the ids of the next load
 * differ); docs/scaling-out.md says how to delete them.
 *
 * Tables whose SQLite statements are INSERT OR REPLACE (thread, numa_node,
 * numa_cpu) are kept until the commit and written once per key, the last
 * row winning, as SQLite would leave them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "ana/file_digest.h"
#include "ch_functions.h"
#include "ch_internal.h"
#include "ch_rowbinary.h"
#include "util/grow.h"

/*
 * Uncompressed bytes of a table's rows per INSERT; SPE_CLICKHOUSE_BLOCK_BYTES
 * (at least 64K) changes it: smaller for a server with little memory (the
 * server holds a block while it sorts it into a part), and for tests that
 * interrupt a load between blocks.
 */
#define BLOCK_BYTES (48u << 20)
#define MIN_BLOCK_BYTES (64u << 10)

/* A row kept until the commit, keyed for last-wins. */
struct kept_row {
	int64_t k1, k2;
	struct ch_buf enc; /* its RowBinary */
};

struct ch_sink {
	struct spe_ch *ch;
	struct ch_buf rows[CHT_COUNT];
	struct kept_row *kept[CHT_COUNT]; /* thread, numa_node, numa_cpu */
	size_t n_kept[CHT_COUNT], cap_kept[CHT_COUNT];
	struct ch_sender *sender; /* the INSERTs of rows, one block in flight */
	struct ch_insn_pc *insns; /* the capture's instructions by id - source_id, for its record rows */
	struct ch_functions functions; /* the capture's functions, for function_stat and function_latency */
	size_t n_insns, cap_insns;
	struct ch_buf gz;         /* the source row, compressed */
	int64_t source_id, next_record_id;
	struct ch_buf source_row; /* sent last, at commit */
	int have_source;
	int already_loaded; /* the last capture was refused: its digest is loaded */
	long long sent_rows;
	size_t block_bytes;
};

/* Room for a row of @p ints integers and the strings @p s (NULL-terminated list). */
static int reserve_row(struct ch_buf *b, int ints, const char *const *s)
{
	size_t need = (size_t)ints * 9 + 16;
	for (; *s != (const char *)-1; s++)
		need += (*s ? strlen(*s) : 0) + 11;
	return ch_buf_reserve(b, need);
}
#define STRINGS(...) ((const char *const[]){ __VA_ARGS__, (const char *)-1 })

/* ---- sending -------------------------------------------------------------- */

/* Hand the rows of @p b for table @p t to the sending thread (@p b is then empty); an earlier block's failure. */
static int send_rows(struct ch_sink *s, enum ch_table_id t, struct ch_buf *b)
{
	return b->len ? ch_sender_put(s->sender, t, b, s->ch) : 0;
}

static int maybe_send(struct ch_sink *s, enum ch_table_id t)
{
	return s->rows[t].len >= s->block_bytes ? send_rows(s, t, &s->rows[t]) : 0;
}

/* ---- ids and identity ------------------------------------------------------ */

/* A random key no committed or failed capture uses: its source id is key << 32. */
static int choose_source_id(struct ch_sink *s, int64_t *id)
{
	for (int attempt = 0; attempt < 8; attempt++) {
		uint32_t r = 0;
		if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			r = (uint32_t)(ts.tv_nsec ^ ts.tv_sec * 2654435761u ^ (uint32_t)getpid() << 16);
		}
		int64_t key = (int64_t)(r & 0x7fffffffu);
		if (!key)
			continue;
		char sql[512];
		long long used;
		snprintf(sql, sizeof sql,
			 "SELECT (SELECT count() FROM %s WHERE id = %lld) + (SELECT count() FROM %s WHERE source_id = %lld)",
			 ch_table_name(CHT_SOURCE), (long long)(key << 32), ch_table_name(CHT_RECORD), (long long)(key << 32));
		int rc = ch_select_int(s->ch, sql, &used);
		if (rc < 0)
			return rc;
		if (!used) {
			*id = key << 32;
			return 0;
		}
	}
	return ch_fail(s->ch, -spe_internal, "no unused capture key found in 8 draws");
}

static int sink_begin(void *ctx, struct spe_row_ids *next)
{
	struct ch_sink *s = ctx;
	int64_t id;
	int rc = s->sender ? 0 : ch_sender_new(s->ch, &s->sender);
	if (rc < 0)
		return rc;
	ch_sender_reset(s->sender); /* a new capture: an earlier one's failure is behind */
	s->already_loaded = 0;
	rc = choose_source_id(s, &id);
	if (rc < 0)
		return rc;
	s->source_id = id;
	s->next_record_id = id + 1;
	s->n_insns = 0;
	ch_functions_begin(&s->functions, id);
	*next = (struct spe_row_ids){ .source = id, .mapping = id + 1, .symbol = id + 1, .insn = id + 1, .data_object = id + 1 };
	return 0;
}

/* The committed capture with this digest, if any: refused unless replace. */
static int check_loaded(struct ch_sink *s, const char *digest, const char *file)
{
	char sql[512];
	snprintf(sql, sizeof sql,
		 "SELECT id, ifNull(host, ''), file, loaded_at FROM _source WHERE digest = '%s'"
		 " AND id GLOBAL IN (SELECT id FROM source) LIMIT 1 FORMAT TabSeparated",
		 digest);
	int rc = ch_select(s->ch, sql);
	if (rc < 0 || !s->ch->resp.len || s->ch->replace)
		return rc;
	s->already_loaded = 1;
	char *f[4] = { 0 };
	char *p = s->ch->resp.p;
	for (int i = 0; i < 4 && p; i++) {
		f[i] = p;
		p = strpbrk(p, "\t\n");
		if (p)
			*p++ = 0;
	}
	return ch_fail(s->ch, -spe_bad_file,
		       "%s is already loaded in %s as source %s (file %s%s%s, loaded %s); --replace loads it again in its "
		       "place",
		       file, s->ch->name, f[0] ? f[0] : "?", f[2] ? f[2] : "?", f[1] && *f[1] ? ", host " : "",
		       f[1] ? f[1] : "", f[3] ? f[3] : "?");
}

static int sink_sources(void *ctx, const struct spe_row_source *rows, size_t n)
{
	struct ch_sink *s = ctx;
	for (size_t k = 0; k < n; k++) {
		const struct spe_row_source *r = &rows[k];
		/* the file front ends give it (load_file.c); a hand-made source row: computed here, the same way */
		char own[SPE_FILE_DIGEST_SIZE], err[512];
		int rc = r->digest ? 0 : ana_file_digest(r->file, own, sizeof own, err, sizeof err);
		if (rc < 0)
			return ch_fail(s->ch, rc, "%s", err);
		const char *digest = r->digest ? r->digest : own;
		if (!*digest || digest[strspn(digest, "0123456789abcdef-")]) /* it goes into SQL text */
			return ch_fail(s->ch, -spe_invalid, "%s: malformed digest '%s'", r->file, digest);
		if ((rc = check_loaded(s, digest, r->file)) < 0)
			return rc;
		struct ch_buf *b = &s->source_row;
		b->len = 0;
		if (reserve_row(b, 3, STRINGS(r->file, r->kind, r->host, r->command_line, r->loaded_at, digest)) < 0)
			return ch_fail(s->ch, -spe_nomem, "out of memory");
		put_i64(b, r->id);
		put_text(b, r->file);
		put_text(b, r->kind);
		put_nstr(b, r->host);
		put_nstr(b, r->command_line);
		put_nint(b, r->cpus >= 0, r->cpus);
		put_text(b, r->loaded_at);
		put_text(b, digest);
		/* committed_ns: written at commit */
		s->have_source = 1;
	}
	return 0;
}

/*
 * Append rows of table T: for each row r, reserve room (INTS integers, the
 * strings) and run the encoding (the last argument), then send the block if it is full.
 */
#define ROWS(s, T, rows, n, INTS, STRS, ...)                                \
	do {                                                                   \
		struct ch_buf *b = &(s)->rows[T];                              \
		for (size_t k = 0; k < (n); k++) {                             \
			const __typeof__(*(rows)) *r = &(rows)[k];             \
			if (reserve_row(b, INTS, STRS) < 0)                    \
				return ch_fail((s)->ch, -spe_nomem, "out of memory"); \
			__VA_ARGS__                                            \
		}                                                              \
		return maybe_send(s, T);                                       \
	} while (0)

static int sink_cpus(void *ctx, const struct spe_row_cpu *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_CPU, rows, n, 3, STRINGS(r->part, r->spe_version), {
		put_i64(b, r->source_id);
		put_i64(b, r->cpu);
		put_nint(b, r->midr != 0, r->midr);
		put_nstr(b, r->part);
		put_nstr(b, r->spe_version);
	});
}

/* Keep an encoded row of table @p t under (k1, k2) until the commit. */
static struct ch_buf *keep(struct ch_sink *s, enum ch_table_id t, int64_t k1, int64_t k2)
{
	struct kept_row *p = util_grow(s->kept[t], &s->cap_kept[t], s->n_kept[t] + 1, sizeof *p);
	if (!p)
		return NULL;
	s->kept[t] = p;
	struct kept_row *k = &s->kept[t][s->n_kept[t]++];
	*k = (struct kept_row){ .k1 = k1, .k2 = k2 };
	return &k->enc;
}

#define KEEP(s, T, rows, n, K1, K2, INTS, STRS, ...)                                              \
	do {                                                                                         \
		for (size_t k = 0; k < (n); k++) {                                                   \
			const __typeof__(*(rows)) *r = &(rows)[k];                                   \
			struct ch_buf *b = keep(s, T, K1, K2);                                       \
			if (!b || reserve_row(b, INTS, STRS) < 0)                                    \
				return ch_fail((s)->ch, -spe_nomem, "out of memory");               \
			__VA_ARGS__                                                                  \
		}                                                                                    \
		return 0;                                                                            \
	} while (0)

static int sink_threads(void *ctx, const struct spe_row_thread *rows, size_t n)
{
	struct ch_sink *s = ctx;
	KEEP(s, CHT_THREAD, rows, n, r->source_id, r->tid, 3, STRINGS(r->comm), {
		put_i64(b, r->source_id);
		put_i64(b, r->tid);
		put_nint(b, r->pid >= 0, r->pid);
		put_nstr(b, r->comm);
	});
}

static int sink_numa_nodes(void *ctx, const struct spe_row_numa_node *rows, size_t n)
{
	struct ch_sink *s = ctx;
	KEEP(s, CHT_NUMA_NODE, rows, n, r->source_id, r->node, 4, STRINGS(r->cpus), {
		put_i64(b, r->source_id);
		put_i64(b, r->node);
		put_nstr(b, r->cpus);
		put_nint(b, r->mem_total_kb != 0, (int64_t)r->mem_total_kb);
		put_nint(b, r->mem_free_kb != 0, (int64_t)r->mem_free_kb);
	});
}

static int sink_numa_cpus(void *ctx, const struct spe_row_numa_cpu *rows, size_t n)
{
	struct ch_sink *s = ctx;
	KEEP(s, CHT_NUMA_CPU, rows, n, r->source_id, r->cpu, 3, STRINGS(NULL), {
		put_i64(b, r->source_id);
		put_i64(b, r->cpu);
		put_i64(b, r->node);
	});
}

static int sink_numa_memory(void *ctx, const struct spe_row_numa_memory *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_NUMA_MEMORY, rows, n, 4, STRINGS(NULL), {
		put_i64(b, r->source_id);
		put_i64(b, r->node);
		put_i64(b, (int64_t)r->start);
		put_i64(b, (int64_t)r->end);
	});
}

static int sink_mappings(void *ctx, const struct spe_row_mapping *rows, size_t n)
{
	struct ch_sink *s = ctx;
	for (size_t k = 0; k < n; k++)
		if (ch_functions_mapping(&s->functions, rows[k].id, rows[k].path, rows[k].pid < 0) < 0)
			return ch_fail(s->ch, -spe_nomem, "out of memory");
	ROWS(s, CHT_MAPPING, rows, n, 8, STRINGS(r->path, r->build_id, r->build_id_status), {
		put_i64(b, r->id);
		put_i64(b, r->source_id);
		put_nint(b, r->pid >= 0, r->pid);
		put_text(b, r->path);
		put_nstr(b, r->build_id);
		put_i64(b, (int64_t)r->start);
		put_i64(b, (int64_t)r->end);
		put_i64(b, (int64_t)r->pgoff);
		put_nint(b, r->time != SPE_ROW_NO_TIME, (int64_t)r->time);
		put_nint(b, r->prot >= 0, r->prot);
		put_nstr(b, r->build_id_status);
	});
}

static int sink_symbols(void *ctx, const struct spe_row_symbol *rows, size_t n)
{
	struct ch_sink *s = ctx;
	for (size_t k = 0; k < n; k++)
		if (ch_functions_symbol(&s->functions, &rows[k]) < 0)
			return ch_fail(s->ch, -spe_nomem, "out of memory");
	ROWS(s, CHT_SYMBOL, rows, n, 6, STRINGS(r->name, r->file), {
		put_i64(b, r->id);
		put_i64(b, s->source_id);
		put_nint(b, r->mapping_id != 0, r->mapping_id);
		put_text(b, r->name);
		put_i64(b, (int64_t)r->start);
		put_nint(b, r->size != 0, (int64_t)r->size);
		put_nstr(b, r->file);
		put_nint(b, r->line != 0, r->line);
	});
}

/* Remember what instruction @p r gives the records that name it. */
static int note_insn(struct ch_sink *s, const struct spe_row_insn *r)
{
	int64_t k = r->id - s->source_id;
	if (k < 0 || k > (int64_t)1 << 31)
		return 0;
	struct ch_insn_pc *p = util_grow(s->insns, &s->cap_insns, (size_t)k + 1, sizeof *p);
	if (!p)
		return ch_fail(s->ch, -spe_nomem, "out of memory");
	s->insns = p;
	for (; s->n_insns <= (size_t)k; s->n_insns++)
		p[s->n_insns].known = 0;
	p[k] = (struct ch_insn_pc){ (int64_t)r->pc, r->mapping_id, r->symbol_id, 1 };
	return 0;
}

static int sink_insns(void *ctx, const struct spe_row_insn *rows, size_t n)
{
	struct ch_sink *s = ctx;
	for (size_t k = 0; k < n; k++)
		if (note_insn(s, &rows[k]) < 0)
			return -spe_nomem;
	ROWS(s, CHT_INSN, rows, n, 6 + (int)(r->bytes ? r->n_bytes / 9 + 2 : 0),
	     STRINGS(r->mnemonic, r->operands, r->file, r->inline_function), {
		     put_i64(b, r->id);
		     put_i64(b, s->source_id);
		     put_nint(b, r->mapping_id != 0, r->mapping_id);
		     put_i64(b, (int64_t)r->pc);
		     put_nint(b, r->symbol_id != 0, r->symbol_id);
		     put_u8(b, r->bytes ? 0 : 1);
		     if (r->bytes)
			     put_str(b, (const char *)r->bytes, r->n_bytes);
		     put_nstr(b, r->mnemonic);
		     put_nstr(b, r->operands);
		     put_nstr(b, r->file);
		     put_nint(b, r->line != 0, r->line);
		     put_nstr(b, r->inline_function);
	     });
}

static int sink_data_objects(void *ctx, const struct spe_row_data_object *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_DATA_OBJECT, rows, n, 8, STRINGS(r->name, r->type, r->file), {
		put_i64(b, r->id);
		put_i64(b, r->source_id);
		put_nint(b, r->pid >= 0, r->pid);
		put_i64(b, r->kind);
		put_text(b, r->name);
		put_nint(b, r->mapping_id != 0, r->mapping_id);
		put_nint(b, 1, (int64_t)r->start);
		put_nint(b, r->size != 0, (int64_t)r->size);
		put_nstr(b, r->type);
		put_nstr(b, r->file);
		put_nint(b, r->line != 0, r->line);
	});
}

/* One row per (PC, latency) of each histogram, and one with latency NULL for its untimed records: pc_latency's rows. */
static int sink_pc_latency(void *ctx, const struct spe_row_pc_latency *rows, size_t n)
{
	struct ch_sink *s = ctx;
	struct ch_buf *b = &s->rows[CHT_PC_LATENCY];
	for (size_t k = 0; k < n; k++) {
		const struct spe_row_pc_latency *r = &rows[k];
		int64_t slot = r->insn_id - s->source_id; /* its instruction's mapping: kernel code without a symbol by its map */
		int64_t mapping = slot > 0 && (size_t)slot < s->n_insns && s->insns[slot].known ? s->insns[slot].mapping_id : 0;
		if (ch_functions_pc_latency(&s->functions, r, mapping) < 0)
			return ch_fail(s->ch, -spe_nomem, "out of memory");
		for (size_t i = 0; i <= r->n; i++) {
			int timed = i < r->n;
			uint64_t samples = timed ? r->samples[i] : r->untimed;
			if (!samples)
				continue;
			if (ch_buf_reserve(b, 6 * 9) < 0)
				return ch_fail(s->ch, -spe_nomem, "out of memory");
			put_i64(b, r->source_id);
			put_nint(b, r->has_pc, (int64_t)r->pc);
			put_nint(b, r->insn_id != 0, r->insn_id);
			put_nint(b, r->symbol_id != 0, r->symbol_id);
			put_nint(b, timed, timed ? r->latency[i] : 0);
			put_i64(b, (int64_t)samples);
		}
	}
	return maybe_send(s, CHT_PC_LATENCY);
}

static int sink_load_stats(void *ctx, const struct spe_row_load_stats *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_LOAD_STATS, rows, n, 14, STRINGS(r->cut ? r->cut_what : NULL), {
		const uint64_t v[] = { r->records,	 r->bad_bytes,	     r->skipped_bytes, r->partial_records,
				       r->unknown_packets, r->lost_aux,	     r->no_mapping,    r->no_symbol,
				       r->no_time,	 r->no_data_object,   (uint64_t)r->cacheline_scan };
		put_i64(b, r->source_id);
		for (size_t i = 0; i < sizeof v / sizeof *v; i++)
			put_i64(b, (int64_t)v[i]);
		put_nint(b, r->cut, (int64_t)r->cut_offset);
		put_i64(b, (int64_t)r->cut_bytes);
		put_nstr(b, r->cut ? r->cut_what : NULL);
	});
}

/* ---- the summaries (row_sink.h), as the SQLite sink stores them ---------------- */

static int sink_mem_level_stats(void *ctx, const struct spe_row_mem_level_stat *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_MEM_LEVEL_STAT, rows, n, 5, STRINGS(NULL), {
		put_i64(b, r->source_id);
		put_nint(b, r->mem_level != 0, r->mem_level);
		put_i64(b, (int64_t)r->loads);
		put_i64(b, (int64_t)r->timed);
		put_nint(b, r->timed != 0, (int64_t)r->total_latency);
	});
}

static int sink_latency_buckets(void *ctx, const struct spe_row_latency_bucket *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_LATENCY_BUCKET, rows, n, 4, STRINGS(r->op_class), {
		put_i64(b, r->source_id);
		put_nstr(b, r->op_class);
		put_i64(b, r->latency_lo);
		put_i64(b, (int64_t)r->samples);
		put_i64(b, (int64_t)r->total_latency);
	});
}

static int sink_branch_stats(void *ctx, const struct spe_row_branch_stat *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_BRANCH_STAT, rows, n, 6, STRINGS(NULL), {
		put_i64(b, r->source_id);
		put_nint(b, r->has_pc, (int64_t)r->pc);
		put_nint(b, r->insn_id != 0, r->insn_id);
		put_i64(b, (int64_t)r->branches);
		put_nint(b, r->has_events, (int64_t)r->mispredicted);
		put_nint(b, r->has_events, (int64_t)r->not_taken);
	});
}

static int sink_page_stats(void *ctx, const struct spe_row_page_stat *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_PAGE_STAT, rows, n, 11 + (int)r->n_data_objects, STRINGS(NULL), {
		put_i64(b, r->source_id);
		put_nint(b, r->pid >= 0, r->pid);
		put_i64(b, (int64_t)r->page);
		put_i64(b, (int64_t)r->accesses);
		put_nint(b, r->has_events, (int64_t)r->tlb_walks);
		put_i64(b, (int64_t)r->translated);
		put_nint(b, r->translated != 0, (int64_t)r->translation_latency);
		put_i64(b, (int64_t)r->timed);
		put_nint(b, r->timed != 0, (int64_t)r->total_latency);
		put_i64_array(b, r->data_object_ids, r->n_data_objects);
	});
}

static int sink_cacheline_stats(void *ctx, const struct spe_row_cacheline_stat *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_CACHELINE_STAT, rows, n, 22 + (int)(r->n_symbols + r->n_data_objects), STRINGS(NULL), {
		const int64_t sums[] = { r->loads,	 r->stores,	      r->cpus,		 r->threads,
					 r->offsets,	 r->snooped,	      r->hitm,		 r->peer_hits,
					 r->total_latency, r->atomics,	      r->writes,	 r->modified_events,
					 r->modified_sources, r->remote_hits };
		put_i64(b, r->source_id);
		put_nint(b, r->pid >= 0, r->pid);
		put_i64(b, (int64_t)r->line);
		put_i64(b, (int64_t)r->accesses);
		for (size_t i = 0; i < sizeof sums / sizeof *sums; i++) {
			if (i >= 2 && i <= 4) /* cpus, threads, offsets: never NULL */
				put_i64(b, sums[i]);
			else
				put_nint(b, sums[i] >= 0, sums[i]);
		}
		put_i64_array(b, r->symbol_ids, r->n_symbols);
		put_i64_array(b, r->data_object_ids, r->n_data_objects);
	});
}

/* ---- the summaries only the memory views read ---------------------------- */

static int sink_numa_stats(void *ctx, const struct spe_row_numa_stat *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_NUMA_STAT, rows, n, 9, STRINGS(NULL), {
		put_i64(b, r->source_id);
		put_nint(b, 1, r->cpu);
		put_i64(b, r->physical);
		put_nint(b, r->memory_node >= 0, r->memory_node);
		put_nint(b, r->has_data_source, (int64_t)r->data_source);
		put_i64(b, (int64_t)r->loads);
		put_i64(b, (int64_t)r->timed);
		put_nint(b, r->timed != 0, (int64_t)r->total_latency);
		put_nint(b, r->has_events, (int64_t)r->remote_access);
	});
}

static int sink_prefetch_stats(void *ctx, const struct spe_row_prefetch_stat *rows, size_t n)
{
	struct ch_sink *s = ctx;
	ROWS(s, CHT_PREFETCH_STAT, rows, n, 11, STRINGS(NULL), {
		put_i64(b, r->source_id);
		put_nint(b, r->has_pc, (int64_t)r->pc);
		put_nint(b, r->insn_id != 0, r->insn_id);
		put_nint(b, r->symbol_id != 0, r->symbol_id);
		put_nint(b, r->data_object_id != 0, r->data_object_id);
		put_i64(b, (int64_t)r->loads);
		put_i64(b, (int64_t)r->timed);
		put_nint(b, r->timed != 0, (int64_t)r->total_latency);
		put_nint(b, r->has_late, (int64_t)r->late_prefetch);
		put_nint(b, r->has_late_latency, (int64_t)r->late_latency);
		put_nint(b, r->has_events, (int64_t)r->recently_fetched);
	});
}

static int sink_records(void *ctx, const struct spe_row_record *rows, size_t n)
{
	struct ch_sink *s = ctx;
	for (size_t k = 0; k < n; k++)
		if (ch_put_record(&s->rows[CHT_RECORD], s->next_record_id++, &rows[k], s->insns, s->n_insns, s->source_id) < 0)
			return ch_fail(s->ch, -spe_nomem, "out of memory");
	s->sent_rows += (long long)n;
	return maybe_send(s, CHT_RECORD);
}

/* ---- commit ---------------------------------------------------------------- */

/* The kept rows of @p t, the last of each key, into its buffer. */
static int write_kept(struct ch_sink *s, enum ch_table_id t)
{
	struct kept_row *k = s->kept[t];
	size_t n = s->n_kept[t];
	for (size_t i = 0; i < n; i++) {
		int later = 0;
		for (size_t j = i + 1; j < n && !later; j++) /* few rows (threads, nodes, CPUs) */
			later = k[j].k1 == k[i].k1 && k[j].k2 == k[i].k2;
		if (!later && ch_buf_add(&s->rows[t], k[i].enc.p, k[i].enc.len) < 0)
			return ch_fail(s->ch, -spe_nomem, "out of memory");
	}
	return 0;
}

static void drop_kept(struct ch_sink *s)
{
	for (int t = 0; t < CHT_COUNT; t++) {
		for (size_t i = 0; i < s->n_kept[t]; i++)
			ch_buf_free(&s->kept[t][i].enc);
		s->n_kept[t] = 0;
	}
}

static int sink_commit(void *ctx)
{
	struct ch_sink *s = ctx;
	if (!s->have_source)
		return ch_fail(s->ch, -spe_invalid, "commit without a source row");
	int rc = 0;
	static const enum ch_table_id kept[] = { CHT_THREAD, CHT_NUMA_NODE, CHT_NUMA_CPU };
	for (size_t i = 0; i < sizeof kept / sizeof *kept && rc == 0; i++)
		rc = write_kept(s, kept[i]);
	if (rc == 0 && ch_functions_write(&s->functions, &s->rows[CHT_FUNCTION_STAT], &s->rows[CHT_FUNCTION_LATENCY]) < 0)
		rc = ch_fail(s->ch, -spe_nomem, "out of memory");
	for (int t = 0; t < CHT_COUNT && rc == 0; t++)
		rc = send_rows(s, (enum ch_table_id)t, &s->rows[t]);
	if (rc == 0)
		rc = ch_sender_wait(s->sender, s->ch);
	if (rc == 0) {
		/* every other row is on its shard (insert_distributed_sync): now the capture becomes visible */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		if (ch_buf_reserve(&s->source_row, 8) < 0)
			return ch_fail(s->ch, -spe_nomem, "out of memory");
		put_i64(&s->source_row, (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
		rc = ch_send_block(s->ch, CHT_SOURCE, &s->source_row, &s->gz);
		s->source_row.len = 0;
	}
	drop_kept(s);
	s->have_source = 0;
	return rc;
}

static void sink_abort(void *ctx)
{
	struct ch_sink *s = ctx;
	if (s->sender)
		ch_sender_wait(s->sender, s->ch); /* the block in flight ends (or fails) before the next load */
	for (int t = 0; t < CHT_COUNT; t++)
		s->rows[t].len = 0;
	s->source_row.len = 0;
	s->have_source = 0;
	drop_kept(s);
}

static const char *sink_errmsg(void *ctx)
{
	return ((struct ch_sink *)ctx)->ch->err;
}

static void sink_free(void *ctx)
{
	struct ch_sink *s = ctx;
	if (!s)
		return;
	ch_sender_free(s->sender);
	free(s->insns);
	ch_functions_free(&s->functions);
	drop_kept(s);
	for (int t = 0; t < CHT_COUNT; t++) {
		ch_buf_free(&s->rows[t]);
		free(s->kept[t]);
	}
	ch_buf_free(&s->gz);
	ch_buf_free(&s->source_row);
	free(s);
}

int spe_ch_sink_new(struct spe_ch *ch, struct spe_row_sink *out)
{
	struct ch_sink *s = calloc(1, sizeof *s);
	if (!s)
		return ch_fail(ch, -spe_nomem, "out of memory");
	s->ch = ch;
	s->block_bytes = BLOCK_BYTES;
	const char *env = getenv("SPE_CLICKHOUSE_BLOCK_BYTES");
	if (env && *env) {
		char *end;
		unsigned long long v = strtoull(env, &end, 10);
		if (!*end && v >= MIN_BLOCK_BYTES && v <= (1ull << 32))
			s->block_bytes = (size_t)v;
	}
	*out = (struct spe_row_sink){ .size = sizeof *out,
				      .ctx = s,
				      .begin = sink_begin,
				      .sources = sink_sources,
				      .cpus = sink_cpus,
				      .threads = sink_threads,
				      .mappings = sink_mappings,
				      .symbols = sink_symbols,
				      .insns = sink_insns,
				      .records = sink_records,
				      .data_objects = sink_data_objects,
				      .numa_nodes = sink_numa_nodes,
				      .numa_cpus = sink_numa_cpus,
				      .numa_memory = sink_numa_memory,
				      .pc_latency = sink_pc_latency,
				      .load_stats = sink_load_stats,
				      .commit = sink_commit,
				      .abort = sink_abort,
				      .errmsg = sink_errmsg,
				      .free = sink_free,
				      .mem_level_stats = sink_mem_level_stats,
				      .latency_buckets = sink_latency_buckets,
				      .branch_stats = sink_branch_stats,
				      .page_stats = sink_page_stats,
				      .cacheline_stats = sink_cacheline_stats,
				      .numa_stats = sink_numa_stats,
				      .prefetch_stats = sink_prefetch_stats };
	return 0;
}

int spe_ch_sink_already_loaded(const struct spe_row_sink *sink)
{
	return sink && sink->ctx ? ((const struct ch_sink *)sink->ctx)->already_loaded : 0;
}

long long spe_ch_sink_source_id(const struct spe_row_sink *sink)
{
	return sink && sink->ctx ? (long long)((const struct ch_sink *)sink->ctx)->source_id : 0;
}
