/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The asynchronous row sink (sink_async.h): a writer thread stores batches
 * of rows in another sink while the loader decodes, resolves and builds the
 * next ones.  On the load benchmark, SQLite's inserts are about 45 % of a
 * load's CPU: on a second core they overlap the rest.  The stage (the
 * loader's counting of the summaries, another 15 %) goes to whichever
 * thread has time: the writer stages each batch before storing it, unless
 * the caller, finding every batch queued (the writer is behind), has taken
 * that batch's stage while it would otherwise wait (as many batches' as are
 * queued and not yet staged, before it sleeps).  Batches are staged one
 * at a time and in order, so the counts are the same either way.
 *
 * A ring of ANA_ASYNC_BATCHES batches: the caller fills one while the thread
 * stores the queued ones, oldest first; a caller that finds every batch
 * queued waits.  A batch holds copies of the rows and of the strings and
 * arrays they point to (the sink's contract: pointers in rows are valid only
 * during the call), so memory stays at the ring whatever the load's size.
 * Besides the records and their names, the tables written at the end of a
 * load are queued too: the loader builds one while the writer stores another.
 *
 * Synchronisation is one mutex and two condition variables (work: a batch
 * was queued, a stage finished or the thread must quit; room: a batch was
 * stored or a stage finished), always
 * waited on in a loop over the state they guard, and signalled with the
 * mutex held, so no wakeup is lost and a spurious one is harmless.  The
 * thread is created with every signal blocked: SIGINT and SIGTERM reach the
 * loading thread, whose handler sets the flag the loader polls
 * (spe_load_opts.cancel); the writer is then told to drop what is queued
 * (abort) and joined (free).  Nothing here spins or polls, and no signal is
 * used between the threads, which is what makes it behave the same under
 * qemu-user (docs/architecture.md, "qemu-user", says why forks and threads once hung there).
 */
#include "sink_async.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe/spe.h"

#define BATCH_ENTRIES 4096

/* The operations queued; the rest run on the caller's thread after the queue (SYNC_OP). */
enum op {
	OP_RECORDS,
	OP_INSNS,
	OP_SYMBOLS,
	OP_DATA_OBJECTS,
	/* the tables written at the end of a load: the loader builds the next rows while they are stored */
	OP_PC_LATENCY,
	OP_MEM_LEVEL_STATS,
	OP_LATENCY_BUCKETS,
	OP_BRANCH_STATS,
	OP_PAGE_STATS,
	OP_CACHELINE_STATS,
	OP_NUMA_STATS,
	OP_PREFETCH_STATS,
};

struct entry {
	enum op op;
	size_t n;
	void *rows;  /* in the batch's data */
	void *notes; /* OP_RECORDS given with notes for the stage (in the batch's data), else NULL */
};

struct batch {
	size_t used, n;                        /* bytes of data used, entries */
	struct entry e[BATCH_ENTRIES];
	_Alignas(16) unsigned char data[ANA_ASYNC_BATCH_BYTES]; /* rows, then their strings */
};

struct async_sink {
	struct spe_row_sink inner;
	struct ana_async_stage stage; /* none when stage.records is NULL */
	uint64_t text_columns; /* record columns holding strings (none since schema 4) */
	pthread_t thread;
	int started;
	pthread_mutex_t mu;
	pthread_cond_t work, room;
	struct batch *ring[ANA_ASYNC_BATCHES];
	unsigned head;   /* the oldest queued batch (the thread's) */
	unsigned queued; /* batches queued, the one being stored included */
	unsigned fill;   /* the batch the caller fills: (head + queued) % ANA_ASYNC_BATCHES */
	unsigned staged; /* queued batches from head whose stage is done or under way (see stage_next) */
	int staging;     /* the last of them is under way (on either thread) */
	int quit, drop;  /* the thread ends once the queue is empty; queued batches are dropped */
	int rc;          /* the thread's first failure: every later operation returns it */
	char err[512];
};

/* ---- the writer thread ------------------------------------------------------ */

/* inner's operation @p op on @p n rows. */
static int store_rows(struct async_sink *s, enum op op, const void *rows, size_t n)
{
	const struct spe_row_sink *in = &s->inner;
	switch (op) {
	case OP_RECORDS:
		return in->records(in->ctx, rows, n);
	case OP_INSNS:
		return in->insns(in->ctx, rows, n);
	case OP_SYMBOLS:
		return in->symbols(in->ctx, rows, n);
	case OP_DATA_OBJECTS:
		return in->data_objects(in->ctx, rows, n);
	case OP_PC_LATENCY:
		return in->pc_latency(in->ctx, rows, n);
	case OP_MEM_LEVEL_STATS:
		return in->mem_level_stats(in->ctx, rows, n);
	case OP_LATENCY_BUCKETS:
		return in->latency_buckets(in->ctx, rows, n);
	case OP_BRANCH_STATS:
		return in->branch_stats(in->ctx, rows, n);
	case OP_PAGE_STATS:
		return in->page_stats(in->ctx, rows, n);
	case OP_CACHELINE_STATS:
		return in->cacheline_stats(in->ctx, rows, n);
	case OP_NUMA_STATS:
		return in->numa_stats(in->ctx, rows, n);
	case OP_PREFETCH_STATS:
		return in->prefetch_stats(in->ctx, rows, n);
	}
	return -spe_invalid;
}

/* Store batch @p b in the inner sink, in order; the first failure ends it. */
static int store(struct async_sink *s, const struct batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		int rc = store_rows(s, b->e[i].op, b->e[i].rows, b->e[i].n);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The stage on batch @p b's noted records, in order. */
static int stage_batch(struct async_sink *s, const struct batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct entry *e = &b->e[i];
		int rc = e->notes ? s->stage.records(s->stage.ctx, e->rows, e->notes, e->n) : 0;
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Keep the first failure (mutex held): every later operation returns it. */
static void failed(struct async_sink *s, int rc, const char *why)
{
	if (rc < 0 && s->rc == 0) {
		__atomic_store_n(&s->rc, rc, __ATOMIC_RELEASE); /* put() reads it without the mutex */
		snprintf(s->err, sizeof s->err, "%s", why && *why ? why : spe_errstr(rc));
	}
}

/*
 * Run the stage on the next queued batch not yet staged (mutex held, none
 * under way, staged < queued), on the calling thread: the writer after
 * storing a batch, or the caller instead of waiting for room.  Batches are
 * staged one at a time and in order, whichever thread does it, so the
 * stage's counts do not depend on which did; the stage's state passes
 * between the threads with the mutex.  Storing and staging only read a
 * queued batch, so they may run on the same batch at once; it is reused
 * once both are done.
 */
static void stage_next(struct async_sink *s)
{
	struct batch *b = s->ring[(s->head + s->staged) % ANA_ASYNC_BATCHES];
	s->staged++;
	s->staging = 1;
	int skip = s->drop || s->rc < 0;
	pthread_mutex_unlock(&s->mu);
	int rc = skip ? 0 : stage_batch(s, b);
	pthread_mutex_lock(&s->mu);
	s->staging = 0;
	failed(s, rc, NULL);
	pthread_cond_broadcast(&s->work);
	pthread_cond_broadcast(&s->room);
}

static void *writer(void *arg)
{
	struct async_sink *s = arg;
	pthread_mutex_lock(&s->mu);
	for (;;) {
		while (!s->queued && !s->quit)
			pthread_cond_wait(&s->work, &s->mu);
		if (!s->queued)
			break; /* quit, and nothing left */
		/*
		 * The stage first, unless the caller took it: the caller, when it
		 * finds every batch queued, stages the next batches meanwhile
		 * instead of this one, which the thread would then wait for.
		 */
		if (!s->staged)
			stage_next(s);
		struct batch *b = s->ring[s->head];
		int skip = s->drop || s->rc < 0;
		pthread_mutex_unlock(&s->mu);
		int rc = skip ? 0 : store(s, b);
		const char *why = rc < 0 && s->inner.errmsg ? s->inner.errmsg(s->inner.ctx) : NULL;
		pthread_mutex_lock(&s->mu);
		failed(s, rc, why);
		/* the batch's stage, unless the caller did it (or is doing it) meanwhile */
		while (!s->staged || (s->staged == 1 && s->staging)) {
			if (s->staging)
				pthread_cond_wait(&s->work, &s->mu);
			else
				stage_next(s);
		}
		b->used = b->n = 0;
		s->head = (s->head + 1) % ANA_ASYNC_BATCHES;
		s->queued--;
		s->staged--;
		pthread_cond_signal(&s->room);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* ---- the caller's side ------------------------------------------------------- */

/* Queue the batch being filled (if any rows) and take the next free one; the thread's failure, if any. */
static int submit(struct async_sink *s)
{
	pthread_mutex_lock(&s->mu);
	if (s->ring[s->fill]->n) {
		s->queued++;
		pthread_cond_signal(&s->work);
		/*
		 * Every batch queued: the writer is behind, so take the queued
		 * batches' stage work meanwhile, one after another, and wait only
		 * when none is left to take.  Checked again after every wakeup: a
		 * stage the writer was running when the ring filled ends with a
		 * signal on room, and the next batch's stage is then free to take
		 * (taking at most one, and only at the moment the ring filled, left
		 * the caller waiting 0.5 to 4 s of a 10 M-record load).
		 */
		while (s->queued == ANA_ASYNC_BATCHES) {
			if (s->stage.records && !s->staging && s->staged < s->queued)
				stage_next(s);
			else
				pthread_cond_wait(&s->room, &s->mu);
		}
		s->fill = (s->fill + 1) % ANA_ASYNC_BATCHES;
	}
	int rc = s->rc;
	pthread_mutex_unlock(&s->mu);
	return rc;
}

/* Queue what is filled and wait until the thread has stored everything: then inner is the caller's. */
static int drain(struct async_sink *s)
{
	int rc = submit(s);
	pthread_mutex_lock(&s->mu);
	while (s->queued)
		pthread_cond_wait(&s->room, &s->mu);
	rc = s->rc;
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static size_t align16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/* Copy string *p into the batch (room was counted) and point at the copy. */
static void copy_string(struct batch *b, const char **p)
{
	if (!*p)
		return;
	size_t len = strlen(*p) + 1;
	char *to = (char *)b->data + b->used;
	memcpy(to, *p, len);
	b->used += len;
	*p = to;
}

/* The string fields of each queued table's rows. */
#define STRINGS(type, ...)                        \
	static const size_t type##_strings[] = { __VA_ARGS__ }; \
	enum { type##_n_strings = sizeof type##_strings / sizeof type##_strings[0] }
STRINGS(spe_row_insn, offsetof(struct spe_row_insn, mnemonic), offsetof(struct spe_row_insn, operands),
	offsetof(struct spe_row_insn, file), offsetof(struct spe_row_insn, inline_function));
STRINGS(spe_row_symbol, offsetof(struct spe_row_symbol, name), offsetof(struct spe_row_symbol, file));
STRINGS(spe_row_data_object, offsetof(struct spe_row_data_object, name), offsetof(struct spe_row_data_object, type),
	offsetof(struct spe_row_data_object, file));

/* An array a queued row points to: its pointer and element count (size_t) fields, and element size. */
struct array_field {
	size_t pointer, count, elem;
};
/* The arrays of each queued table's rows that have any. */
static const struct array_field pc_latency_arrays[] = {
	{ offsetof(struct spe_row_pc_latency, samples), offsetof(struct spe_row_pc_latency, n), sizeof(uint64_t) },
	{ offsetof(struct spe_row_pc_latency, latency), offsetof(struct spe_row_pc_latency, n), sizeof(int32_t) },
};
static const struct array_field page_stat_arrays[] = {
	{ offsetof(struct spe_row_page_stat, data_object_ids), offsetof(struct spe_row_page_stat, n_data_objects),
	  sizeof(int64_t) },
};
static const struct array_field cacheline_stat_arrays[] = {
	{ offsetof(struct spe_row_cacheline_stat, symbol_ids), offsetof(struct spe_row_cacheline_stat, n_symbols),
	  sizeof(int64_t) },
	{ offsetof(struct spe_row_cacheline_stat, data_object_ids),
	  offsetof(struct spe_row_cacheline_stat, n_data_objects), sizeof(int64_t) },
};
STRINGS(spe_row_latency_bucket, offsetof(struct spe_row_latency_bucket, op_class));

static const char **field(void *row, size_t offset)
{
	return (const char **)(void *)((char *)row + offset);
}

static const void **array_pointer(void *row, const struct array_field *a)
{
	return (const void **)(void *)((char *)row + a->pointer);
}

static size_t array_bytes(const void *row, const struct array_field *a)
{
	return *(const size_t *)(const void *)((const char *)row + a->count) * a->elem;
}

/* Bytes the arrays of @p n rows need, with room to align each to 8. */
static size_t arrays_size(const void *rows, size_t n, size_t size, const struct array_field *arrays, size_t n_arrays)
{
	size_t bytes = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t a = 0; a < n_arrays; a++) {
			const void *row = (const char *)rows + r * size;
			if (*array_pointer((void *)row, &arrays[a]))
				bytes += array_bytes(row, &arrays[a]) + 7;
		}
	return bytes;
}

/* Copy each array of @p row into the batch (room was counted) and point at the copy. */
static void copy_arrays(struct batch *b, void *row, const struct array_field *arrays, size_t n_arrays)
{
	for (size_t a = 0; a < n_arrays; a++) {
		const void **p = array_pointer(row, &arrays[a]);
		if (!*p)
			continue;
		b->used = (b->used + 7) & ~(size_t)7;
		size_t bytes = array_bytes(row, &arrays[a]);
		memcpy(b->data + b->used, *p, bytes);
		*p = b->data + b->used;
		b->used += bytes;
	}
}

/* Bytes the strings of @p n rows (of @p size bytes, fields at @p offsets) need. */
static size_t strings_size(const void *rows, size_t n, size_t size, const size_t *offsets, size_t n_offsets)
{
	size_t bytes = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t f = 0; f < n_offsets; f++) {
			const char *v = *field((char *)rows + r * size, offsets[f]);
			bytes += v ? strlen(v) + 1 : 0;
		}
	return bytes;
}

/* The same, for record rows: their text columns that are set. */
static size_t record_strings_size(const struct async_sink *s, const struct spe_row_record *rows, size_t n)
{
	size_t bytes = 0;
	if (s->text_columns)
		for (size_t r = 0; r < n; r++)
			for (int c = 0; c < SPE_RECORD_NCOLS; c++)
				if ((s->text_columns & rows[r].present) >> c & 1)
					bytes += strlen(rows[r].col[c].s) + 1;
	return bytes;
}

/* Calls inner's operation @p op (and the stage on noted records) on the caller's thread (a batch too big to queue). */
static int call_inner(struct async_sink *s, enum op op, const void *rows, const void *notes, size_t n)
{
	int rc = drain(s);
	if (rc == 0)
		rc = store_rows(s, op, rows, n);
	if (rc == 0 && notes && (rc = s->stage.records(s->stage.ctx, rows, notes, n)) < 0) {
		pthread_mutex_lock(&s->mu);
		failed(s, rc, NULL); /* errmsg says what failed */
		pthread_mutex_unlock(&s->mu);
	}
	return rc;
}

/*
 * Copy @p n rows of @p size bytes into the batch being filled, with @p extra
 * bytes of their strings and blobs; the copied rows (to point at the copies),
 * or NULL with *rc set: the thread's failure, or 1 when the rows do not fit in
 * a batch at all (the caller then calls inner itself).
 */
static void *put(struct async_sink *s, enum op op, const void *rows, size_t n, size_t size, size_t extra, int *rc)
{
	size_t need = align16(n * size) + extra + 16;
	if ((*rc = __atomic_load_n(&s->rc, __ATOMIC_ACQUIRE)) < 0)
		return NULL; /* the thread failed: nothing more is queued */
	if (need > ANA_ASYNC_BATCH_BYTES) {
		*rc = 1;
		return NULL;
	}
	struct batch *b = s->ring[s->fill];
	if (b->n == BATCH_ENTRIES || b->used + need > ANA_ASYNC_BATCH_BYTES) {
		if ((*rc = submit(s)) < 0)
			return NULL;
		b = s->ring[s->fill];
	}
	b->used = align16(b->used);
	void *to = b->data + b->used;
	memcpy(to, rows, n * size);
	b->used += n * size;
	b->e[b->n++] = (struct entry){ .op = op, .n = n, .rows = to, .notes = NULL };
	return to;
}

/* Queue @p n records, with their notes for the stage when @p notes is not NULL. */
static int put_records(struct async_sink *s, const struct spe_row_record *rows, const void *notes, size_t n)
{
	int rc;
	size_t notes_size = notes ? align16(n * s->stage.note_size) : 0;
	struct spe_row_record *to =
		put(s, OP_RECORDS, rows, n, sizeof *rows, notes_size + record_strings_size(s, rows, n), &rc);
	if (!to)
		return rc > 0 ? call_inner(s, OP_RECORDS, rows, notes, n) : rc;
	struct batch *b = s->ring[s->fill];
	if (notes) {
		b->used = align16(b->used);
		b->e[b->n - 1].notes = memcpy(b->data + b->used, notes, n * s->stage.note_size);
		b->used += n * s->stage.note_size;
	}
	if (s->text_columns)
		for (size_t r = 0; r < n; r++)
			for (int c = 0; c < SPE_RECORD_NCOLS; c++)
				if ((s->text_columns & to[r].present) >> c & 1)
					copy_string(b, &to[r].col[c].s);
	return 0;
}

static int async_records(void *ctx, const struct spe_row_record *rows, size_t n)
{
	return put_records(ctx, rows, NULL, n);
}

int ana_async_sink_records_noted(void *ctx, const struct spe_row_record *rows, const void *notes, size_t n)
{
	struct async_sink *s = ctx;
	return put_records(s, rows, s->stage.records ? notes : NULL, n);
}

int ana_async_sink_sync(void *ctx)
{
	return drain(ctx);
}

/*
 * Queue @p n rows of @p size bytes with copies of their strings (the fields at
 * @p offsets) and room for @p extra bytes more; *copied is the copied rows,
 * NULL when they were not queued (the rows went to inner here, or failed).
 */
static int put_rows(struct async_sink *s, enum op op, const void *rows, size_t n, size_t size, const size_t *offsets,
		    size_t n_offsets, size_t extra, void **copied)
{
	int rc;
	void *to = put(s, op, rows, n, size, extra + strings_size(rows, n, size, offsets, n_offsets), &rc);
	*copied = to;
	if (!to)
		return rc > 0 ? call_inner(s, op, rows, NULL, n) : rc;
	struct batch *b = s->ring[s->fill];
	for (size_t r = 0; r < n; r++)
		for (size_t f = 0; f < n_offsets; f++)
			copy_string(b, field((char *)to + r * size, offsets[f]));
	return 0;
}

/* Queue @p n rows of @p size bytes with copies of the arrays they point to. */
static int put_rows_arrays(struct async_sink *s, enum op op, const void *rows, size_t n, size_t size,
			   const struct array_field *arrays, size_t n_arrays)
{
	void *copied;
	int rc = put_rows(s, op, rows, n, size, NULL, 0, arrays_size(rows, n, size, arrays, n_arrays), &copied);
	struct batch *b = s->ring[s->fill];
	for (size_t r = 0; copied && r < n; r++)
		copy_arrays(b, (char *)copied + r * size, arrays, n_arrays);
	return rc;
}

static int async_insns(void *ctx, const struct spe_row_insn *rows, size_t n)
{
	struct async_sink *s = ctx;
	size_t bytes = 0;
	for (size_t r = 0; r < n; r++)
		bytes += rows[r].bytes ? rows[r].n_bytes : 0;
	void *copied;
	int rc = put_rows(s, OP_INSNS, rows, n, sizeof *rows, spe_row_insn_strings, spe_row_insn_n_strings, bytes,
			  &copied);
	struct spe_row_insn *to = copied;
	struct batch *b = s->ring[s->fill];
	for (size_t r = 0; to && r < n; r++)
		if (to[r].bytes) {
			memcpy(b->data + b->used, to[r].bytes, to[r].n_bytes);
			to[r].bytes = b->data + b->used;
			b->used += to[r].n_bytes;
		}
	return rc;
}

static int async_symbols(void *ctx, const struct spe_row_symbol *rows, size_t n)
{
	void *copied;
	return put_rows(ctx, OP_SYMBOLS, rows, n, sizeof *rows, spe_row_symbol_strings, spe_row_symbol_n_strings, 0,
			&copied);
}

static int async_data_objects(void *ctx, const struct spe_row_data_object *rows, size_t n)
{
	void *copied;
	return put_rows(ctx, OP_DATA_OBJECTS, rows, n, sizeof *rows, spe_row_data_object_strings,
			spe_row_data_object_n_strings, 0, &copied);
}

/*
 * The tables written at the end of a load, queued like the records: while
 * the thread stores one table (and the SQLite sink turns pc_latency's
 * histograms into JSON), the loader builds the next.
 */
/* QUEUED_OP(name, row type, op, the rows' arrays and their count) */
#define QUEUED_OP(name, row_type, op, ...)                                        \
	static int async_##name(void *ctx, const struct row_type *rows, size_t n) \
	{                                                                         \
		return put_rows_arrays(ctx, op, rows, n, sizeof *rows, __VA_ARGS__); \
	}
#define ARRAYS(a) a, sizeof a / sizeof *a
QUEUED_OP(pc_latency, spe_row_pc_latency, OP_PC_LATENCY, ARRAYS(pc_latency_arrays))
QUEUED_OP(mem_level_stats, spe_row_mem_level_stat, OP_MEM_LEVEL_STATS, NULL, 0)
QUEUED_OP(branch_stats, spe_row_branch_stat, OP_BRANCH_STATS, NULL, 0)
QUEUED_OP(page_stats, spe_row_page_stat, OP_PAGE_STATS, ARRAYS(page_stat_arrays))
QUEUED_OP(cacheline_stats, spe_row_cacheline_stat, OP_CACHELINE_STATS, ARRAYS(cacheline_stat_arrays))
QUEUED_OP(numa_stats, spe_row_numa_stat, OP_NUMA_STATS, NULL, 0)
QUEUED_OP(prefetch_stats, spe_row_prefetch_stat, OP_PREFETCH_STATS, NULL, 0)
#undef QUEUED_OP
#undef ARRAYS

/* latency_bucket's rows point to a string, not an array */
static int async_latency_buckets(void *ctx, const struct spe_row_latency_bucket *rows, size_t n)
{
	void *copied;
	return put_rows(ctx, OP_LATENCY_BUCKETS, rows, n, sizeof *rows, spe_row_latency_bucket_strings,
			spe_row_latency_bucket_n_strings, 0, &copied);
}

/*
 * The rare operations (sideband, the source's last rows): after the
 * queue, on the caller's thread.  inner's operation may be absent (NULL) for
 * the optional ones; the wrapper's is then NULL too (see ana_async_sink_new).
 */
#define SYNC_OP(name, row_type)                                                   \
	static int async_##name(void *ctx, const struct row_type *rows, size_t n) \
	{                                                                         \
		struct async_sink *s = ctx;                                       \
		int rc = drain(s);                                                \
		return rc < 0 ? rc : s->inner.name(s->inner.ctx, rows, n);        \
	}
SYNC_OP(sources, spe_row_source)
SYNC_OP(cpus, spe_row_cpu)
SYNC_OP(threads, spe_row_thread)
SYNC_OP(mappings, spe_row_mapping)
SYNC_OP(numa_nodes, spe_row_numa_node)
SYNC_OP(numa_cpus, spe_row_numa_cpu)
SYNC_OP(numa_memory, spe_row_numa_memory)
SYNC_OP(load_stats, spe_row_load_stats)
SYNC_OP(time_convs, spe_row_time_conv)
#undef SYNC_OP

static int async_begin(void *ctx, struct spe_row_ids *next)
{
	struct async_sink *s = ctx;
	int rc = drain(s);
	return rc < 0 ? rc : s->inner.begin(s->inner.ctx, next);
}

static int async_commit(void *ctx)
{
	struct async_sink *s = ctx;
	int rc = drain(s);
	return rc < 0 ? rc : s->inner.commit(s->inner.ctx);
}

/* Drop what is queued (the thread skips it), then inner's abort. */
static void async_abort(void *ctx)
{
	struct async_sink *s = ctx;
	pthread_mutex_lock(&s->mu);
	s->drop = 1;
	pthread_mutex_unlock(&s->mu);
	drain(s);
	pthread_mutex_lock(&s->mu);
	s->drop = 0;
	pthread_mutex_unlock(&s->mu);
	if (s->inner.abort)
		s->inner.abort(s->inner.ctx);
}

/* The thread's failure, else inner's last message (the caller's own calls). */
static const char *async_errmsg(void *ctx)
{
	struct async_sink *s = ctx;
	pthread_mutex_lock(&s->mu);
	int failed = s->rc < 0;
	pthread_mutex_unlock(&s->mu);
	return failed ? s->err : s->inner.errmsg ? s->inner.errmsg(s->inner.ctx) : "";
}

static void async_free(void *ctx)
{
	struct async_sink *s = ctx;
	if (!s)
		return;
	if (s->started) {
		pthread_mutex_lock(&s->mu);
		s->quit = s->drop = 1;
		pthread_cond_signal(&s->work);
		pthread_mutex_unlock(&s->mu);
		pthread_join(s->thread, NULL);
	}
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->work);
	pthread_cond_destroy(&s->room);
	if (s->inner.free)
		s->inner.free(s->inner.ctx);
	for (int i = 0; i < ANA_ASYNC_BATCHES; i++)
		free(s->ring[i]);
	free(s);
}

/* A new operation of struct spe_row_sink must be forwarded here too (else a wrapped sink loses it). */
_Static_assert(sizeof(struct spe_row_sink) ==
		       offsetof(struct spe_row_sink, prefetch_stats) + sizeof((struct spe_row_sink *)0)->prefetch_stats,
	       "struct spe_row_sink has an operation sink_async.c does not forward");

/* Does inner (of @p size bytes) have the optional operation at @p offset? */
#define HAS_OP(in, member) \
	((in)->size >= offsetof(struct spe_row_sink, member) + sizeof (in)->member && (in)->member)

int ana_async_sink_new(const struct spe_row_sink *inner, struct spe_row_sink *out, char *err, size_t errlen)
{
	return ana_async_sink_new_staged(inner, NULL, out, err, errlen);
}

int ana_async_sink_new_staged(const struct spe_row_sink *inner, const struct ana_async_stage *stage,
			      struct spe_row_sink *out, char *err, size_t errlen)
{
	struct async_sink *s = calloc(1, sizeof *s);
	int ok = s != NULL;
	for (int i = 0; ok && i < ANA_ASYNC_BATCHES; i++)
		ok = (s->ring[i] = malloc(sizeof *s->ring[i])) != NULL;
	if (!ok) {
		if (s)
			for (int i = 0; i < ANA_ASYNC_BATCHES; i++)
				free(s->ring[i]);
		free(s);
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	memcpy(&s->inner, inner, inner->size < sizeof s->inner ? inner->size : sizeof s->inner);
	s->inner.size = sizeof s->inner;
	if (stage)
		s->stage = *stage;
	for (int c = 0; c < SPE_RECORD_NCOLS; c++)
		if (spe_record_columns[c].type == SPE_COLUMN_TEXT)
			s->text_columns |= 1ull << c;
	for (int i = 0; i < ANA_ASYNC_BATCHES; i++)
		s->ring[i]->used = s->ring[i]->n = 0;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->work, NULL);
	pthread_cond_init(&s->room, NULL);
	/* the thread starts with every signal blocked: they stay the loading thread's */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&s->thread, NULL, writer, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		s->inner.free = NULL; /* still the caller's */
		async_free(s);
		snprintf(err, errlen, "cannot start the writer thread: %s", strerror(rc));
		return -spe_nomem;
	}
	s->started = 1;
	const struct spe_row_sink *in = &s->inner;
	*out = (struct spe_row_sink){ .size = sizeof *out,
				      .ctx = s,
				      .begin = async_begin,
				      .sources = async_sources,
				      .cpus = async_cpus,
				      .threads = async_threads,
				      .mappings = async_mappings,
				      .symbols = async_symbols,
				      .insns = async_insns,
				      .records = async_records,
				      .data_objects = async_data_objects,
				      .numa_nodes = async_numa_nodes,
				      .numa_cpus = async_numa_cpus,
				      .numa_memory = async_numa_memory,
				      .pc_latency = async_pc_latency,
				      .load_stats = async_load_stats,
				      .commit = async_commit,
				      .abort = async_abort,
				      .errmsg = async_errmsg,
				      .free = async_free,
				      .time_convs = HAS_OP(in, time_convs) ? async_time_convs : NULL,
				      .mem_level_stats = HAS_OP(in, mem_level_stats) ? async_mem_level_stats : NULL,
				      .latency_buckets = HAS_OP(in, latency_buckets) ? async_latency_buckets : NULL,
				      .branch_stats = HAS_OP(in, branch_stats) ? async_branch_stats : NULL,
				      .page_stats = HAS_OP(in, page_stats) ? async_page_stats : NULL,
				      .cacheline_stats = HAS_OP(in, cacheline_stats) ? async_cacheline_stats : NULL,
				      .numa_stats = HAS_OP(in, numa_stats) ? async_numa_stats : NULL,
				      .prefetch_stats = HAS_OP(in, prefetch_stats) ? async_prefetch_stats : NULL };
	return 0;
}
