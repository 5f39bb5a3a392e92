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
 * Rows are encoded from their tables' descriptions (spe/tables.h) into the
 * columns ch_schema.c gives each table.  Tables whose SQLite statements are
 * INSERT OR REPLACE (SPE_TABLE_REPLACE: thread, numa_node, numa_cpu) are
 * kept until the commit and written once per key, the last row winning, as
 * SQLite would leave them.
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
	struct kept_row *kept[CHT_COUNT]; /* the tables whose rows replace those of the same key (SPE_TABLE_REPLACE) */
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

/* ---- rows as RowBinary --------------------------------------------------- */

/* The most bytes row @p row of the table of @p cols (@p n columns; described by @p ti) takes. */
static size_t row_bytes(const struct ch_column *cols, int n, const struct spe_table_info *ti, const void *row)
{
	size_t bytes = 16;
	for (int i = 0; i < n; i++) {
		bytes += 9;
		if (cols[i].from < 0)
			continue;
		const struct spe_column *c = &ti->columns[cols[i].from];
		const void *p = c->kind >= SPE_KIND_TEXT ? spe_column_pointer(c, row) : NULL;
		if (c->kind == SPE_KIND_TEXT)
			bytes += p ? strlen(p) + 10 : 10;
		else if (c->kind == SPE_KIND_BYTES || c->kind == SPE_KIND_IDS)
			bytes += (p ? spe_column_count(c, row) * (c->kind == SPE_KIND_IDS ? 8 : 1) : 0) + 10;
	}
	return bytes;
}

/*
 * Append row @p row of the table of @p cols (@p n columns, ch_schema.c;
 * described by @p ti, spe/tables.h) to @p b, room reserved: each column
 * from its kind, with its NULL flag when ClickHouse's type is Nullable.  A
 * NULL in a column that is not Nullable is written as 0, "" or [].
 */
static void put_row(struct ch_buf *b, const struct ch_column *cols, int n, const struct spe_table_info *ti,
		    const void *row, int64_t source_id)
{
	for (int i = 0; i < n; i++) {
		if (cols[i].from == CH_FROM_SINK)
			break;
		if (cols[i].from == CH_FROM_SOURCE_ID) {
			put_i64(b, source_id);
			continue;
		}
		const struct spe_column *c = &ti->columns[cols[i].from];
		int null = c->kind != SPE_KIND_IDS && spe_column_is_null(c, row);
		if (cols[i].nullable) {
			put_u8(b, null ? 1 : 0);
			if (null)
				continue;
		}
		switch (c->kind) {
		case SPE_KIND_TEXT:
			put_text(b, null ? NULL : spe_column_pointer(c, row));
			break;
		case SPE_KIND_BYTES:
			put_str(b, null ? "" : spe_column_pointer(c, row), null ? 0 : spe_column_count(c, row));
			break;
		case SPE_KIND_IDS:
			put_i64_array(b, spe_column_pointer(c, row), spe_column_count(c, row));
			break;
		default:
			put_i64(b, null ? 0 : spe_column_int(c, row));
		}
	}
}

/* Append @p n rows of table @p t to @p b (0, or -spe_nomem). */
static int put_rows(struct ch_sink *s, struct ch_buf *b, enum ch_table_id t, const void *rows, size_t n)
{
	int ncols;
	const struct ch_column *cols = ch_table_columns(t, &ncols);
	const struct spe_table_info *ti = spe_table_info((enum spe_table)t);
	for (size_t k = 0; k < n; k++) {
		const void *row = (const char *)rows + k * ti->row_size;
		if (ch_buf_reserve(b, row_bytes(cols, ncols, ti, row)) < 0)
			return -spe_nomem;
		put_row(b, cols, ncols, ti, row, s->source_id);
	}
	return 0;
}

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

/*
 * The committed capture with this digest, if any: refused unless replace.
 * A database written before XXH3 digests holds first digests
 * (ana/file_digest.h): the file's is looked for too, and a capture found by
 * it is replaced under it (*@p digest becomes @p first), so the source view,
 * which keeps a digest's latest commit, shows one.
 */
static int check_loaded(struct ch_sink *s, const char **digest, char *first, size_t first_size, const char *file)
{
	long long n_first = 0;
	int rc = ch_select_int(s->ch, "SELECT count() FROM _source WHERE " ANA_FILE_DIGEST_FIRST_SQL("digest"), &n_first);
	if (rc < 0)
		return rc;
	*first = 0;
	char err[512];
	if (n_first > 0 && !ana_file_digest_is_first(*digest) &&
	    (rc = ana_file_digest_first(file, first, first_size, err, sizeof err)) < 0)
		return ch_fail(s->ch, rc, "%s", err);
	char sql[640];
	snprintf(sql, sizeof sql,
		 "SELECT id, ifNull(host, ''), file, loaded_at, digest FROM _source WHERE digest IN ('%s', '%s')"
		 " AND id GLOBAL IN (SELECT id FROM source) LIMIT 1 FORMAT TabSeparated",
		 *digest, *first ? first : *digest);
	rc = ch_select(s->ch, sql);
	if (rc < 0 || !s->ch->resp.len)
		return rc;
	if (*first && strstr(s->ch->resp.p, first))
		*digest = first;
	if (s->ch->replace)
		return 0;
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

/* The source row, kept for the commit (its committed_ns then, and sent last). */
static int put_source(struct ch_sink *s, const struct spe_row_source *r)
{
	/* the file front ends give it (load_file.c); a hand-made source row: computed here, the same way */
	char own[SPE_FILE_DIGEST_SIZE], err[512];
	int rc = r->digest ? 0 : ana_file_digest(r->file, own, sizeof own, err, sizeof err);
	if (rc < 0)
		return ch_fail(s->ch, rc, "%s", err);
	const char *digest = r->digest ? r->digest : own;
	if (!*digest || digest[strspn(digest, "0123456789abcdefhx-")]) /* it goes into SQL text */
		return ch_fail(s->ch, -spe_invalid, "%s: malformed digest '%s'", r->file, digest);
	char first[SPE_FILE_DIGEST_SIZE];
	if ((rc = check_loaded(s, &digest, first, sizeof first, r->file)) < 0)
		return rc;
	struct spe_row_source row = *r;
	row.digest = digest;
	s->source_row.len = 0;
	if (put_rows(s, &s->source_row, CHT_SOURCE, &row, 1) < 0)
		return ch_fail(s->ch, -spe_nomem, "out of memory");
	s->have_source = 1; /* committed_ns: written at commit */
	return 0;
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

/* Rows of a table whose SQLite rows replace those of the same key: kept, keyed by their first two columns. */
static int keep_rows(struct ch_sink *s, enum ch_table_id t, const void *rows, size_t n)
{
	const struct spe_table_info *ti = spe_table_info((enum spe_table)t);
	for (size_t k = 0; k < n; k++) {
		const void *row = (const char *)rows + k * ti->row_size;
		struct ch_buf *b = keep(s, t, spe_column_int(&ti->columns[0], row), spe_column_int(&ti->columns[1], row));
		if (!b || put_rows(s, b, t, row, 1) < 0)
			return -spe_nomem;
	}
	return 0;
}

/* Remember what instruction @p r gives the records that name it. */
static int note_insn(struct ch_sink *s, const struct spe_row_insn *r)
{
	int64_t k = r->id - s->source_id;
	if (k < 0 || k > (int64_t)1 << 31)
		return 0;
	struct ch_insn_pc *p = util_grow(s->insns, &s->cap_insns, (size_t)k + 1, sizeof *p);
	if (!p)
		return -spe_nomem;
	s->insns = p;
	for (; s->n_insns <= (size_t)k; s->n_insns++)
		p[s->n_insns].known = 0;
	p[k] = (struct ch_insn_pc){ (int64_t)r->pc, r->mapping_id, r->symbol_id, 1 };
	return 0;
}

/* What the capture's mappings, symbols and instructions tell its records and function_stat, beside their rows. */
static int note_rows(struct ch_sink *s, enum ch_table_id t, const void *rows, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		int rc = 0;
		if (t == CHT_MAPPING)
		{
			const struct spe_row_mapping *m = (const struct spe_row_mapping *)rows + k;
			rc = ch_functions_mapping(&s->functions, m->id, m->path, m->pid < 0);
		}
		else if (t == CHT_SYMBOL)
			rc = ch_functions_symbol(&s->functions, (const struct spe_row_symbol *)rows + k);
		else if (t == CHT_INSN)
			rc = note_insn(s, (const struct spe_row_insn *)rows + k);
		if (rc < 0)
			return -spe_nomem;
	}
	return 0;
}

/* One row per (PC, latency) of each histogram, and one with latency NULL for its untimed records: pc_latency's rows. */
static int put_pc_latency(struct ch_sink *s, const struct spe_row_pc_histogram *rows, size_t n)
{
	struct ch_buf *b = &s->rows[CHT_PC_LATENCY];
	for (size_t k = 0; k < n; k++) {
		const struct spe_row_pc_histogram *r = &rows[k];
		int64_t slot = r->insn_id - s->source_id; /* its instruction's mapping: kernel code without a symbol by its map */
		int64_t mapping = slot > 0 && (size_t)slot < s->n_insns && s->insns[slot].known ? s->insns[slot].mapping_id : 0;
		if (ch_functions_pc_latency(&s->functions, r, mapping) < 0)
			return -spe_nomem;
		for (size_t i = 0; i <= r->n; i++) {
			int timed = i < r->n;
			uint64_t samples = timed ? r->samples[i] : r->untimed;
			if (!samples)
				continue;
			if (ch_buf_reserve(b, 6 * 9) < 0)
				return -spe_nomem;
			put_i64(b, r->source_id);
			put_nint(b, r->has_pc, (int64_t)r->pc);
			put_nint(b, r->insn_id != 0, r->insn_id);
			put_nint(b, r->symbol_id != 0, r->symbol_id);
			put_nint(b, timed, timed ? r->latency[i] : 0);
			put_i64(b, (int64_t)samples);
		}
	}
	return 0;
}

/*
 * Any table's rows (the tables of spe/tables.h ClickHouse has): records
 * widened (ch_widen.c), pc_histogram expanded, the source kept for the
 * commit, thread, numa_node and numa_cpu kept until then (the last row of a
 * key wins, as SQLite's INSERT OR REPLACE leaves it), the rest encoded from
 * their description into their table's block, which is sent once full.
 */
static int sink_rows(void *ctx, enum spe_table table, const void *rows, size_t n)
{
	struct ch_sink *s = ctx;
	enum ch_table_id t = (enum ch_table_id)table;
	int rc;
	switch (table) {
	case SPE_TABLE_SOURCE:
		for (size_t k = 0; k < n; k++)
			if ((rc = put_source(s, (const struct spe_row_source *)rows + k)) < 0)
				return rc;
		return 0;
	case SPE_TABLE_RECORD:
		for (size_t k = 0; k < n; k++)
			if (ch_put_record(&s->rows[CHT_RECORD], s->next_record_id++, (const struct spe_row_record *)rows + k,
					  s->insns, s->n_insns, s->source_id) < 0)
				return ch_fail(s->ch, -spe_nomem, "out of memory");
		s->sent_rows += (long long)n;
		break;
	case SPE_TABLE_PC_HISTOGRAM:
		rc = put_pc_latency(s, rows, n);
		if (rc < 0)
			return ch_fail(s->ch, rc, "out of memory");
		break;
	default:
		if (!ch_table_exists(t))
			return ch_fail(s->ch, -spe_invalid, "ClickHouse has no table %s", spe_table_info(table)->name);
		rc = note_rows(s, t, rows, n);
		if (rc == 0)
			rc = spe_table_info(table)->flags & SPE_TABLE_REPLACE ? keep_rows(s, t, rows, n)
									       : put_rows(s, &s->rows[t], t, rows, n);
		if (rc < 0)
			return ch_fail(s->ch, rc, "out of memory");
		if (spe_table_info(table)->flags & SPE_TABLE_REPLACE)
			return 0;
	}
	return maybe_send(s, t);
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
			ch_buf_fini(&s->kept[t][i].enc);
		s->n_kept[t] = 0;
	}
}

static int sink_commit(void *ctx)
{
	struct ch_sink *s = ctx;
	if (!s->have_source)
		return ch_fail(s->ch, -spe_invalid, "commit without a source row");
	int rc = 0;
	for (int t = 0; t < CHT_COUNT && rc == 0; t++)
		rc = write_kept(s, (enum ch_table_id)t);
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
	ch_functions_fini(&s->functions);
	drop_kept(s);
	for (int t = 0; t < CHT_COUNT; t++) {
		ch_buf_fini(&s->rows[t]);
		free(s->kept[t]);
	}
	ch_buf_fini(&s->gz);
	ch_buf_fini(&s->source_row);
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
	/* every table but time_conv: the loader then writes each record's perf time (ClickHouse has no view to compute
	   it); nor the summaries only SQLite's report reads (the server groups _page_stat into regions itself,
	   ch_views.c, and counts the levels' latencies and the data objects from spe_record, report_sql.c) */
	*out = (struct spe_row_sink){ .ctx = s,
				      .tables = SPE_TABLES_ALL & ~SPE_TABLE_BIT(TIME_CONV) & ~SPE_TABLE_BIT(PAGE_REGION_STAT) &
						~SPE_TABLE_BIT(LEVEL_LATENCY_BUCKET) & ~SPE_TABLE_BIT(DATA_OBJECT_STAT) &
						~SPE_TABLE_BIT(DATA_OBJECT_LEVEL) & ~SPE_TABLE_BIT(PC_LEVEL_STAT),
				      .begin = sink_begin,
				      .rows = sink_rows,
				      .commit = sink_commit,
				      .abort = sink_abort,
				      .errmsg = sink_errmsg,
				      .free = sink_free };
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
