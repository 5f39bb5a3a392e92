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

struct entry {
	enum spe_table table;
	size_t n;
	void *rows;  /* in the batch's data */
	void *notes; /* records given with notes for the stage (in the batch's data), else NULL */
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
	uint64_t pointer_tables; /* tables whose rows point to strings or arrays (copied into the batch) */
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

/* Store batch @p b in the inner sink, in order; the first failure ends it. */
static int store(struct async_sink *s, const struct batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		int rc = s->inner.rows(s->inner.ctx, b->e[i].table, b->e[i].rows, b->e[i].n);
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

/* Copy @p bytes at *p into the batch, aligned to 8 (room was counted: bytes + 7), and point at the copy. */
static void copy_array(struct batch *b, const void **p, size_t bytes)
{
	if (!*p)
		return;
	b->used = (b->used + 7) & ~(size_t)7;
	memcpy(b->data + b->used, *p, bytes);
	*p = b->data + b->used;
	b->used += bytes;
}

/*
 * What a row of each table points to, generated from its column list
 * (spe/tables.h): payload_<table>(row, copy) is the bytes the row's
 * strings and arrays need in a batch (@p copy NULL), or copies them into
 * batch @p copy (room counted), the row pointing at the copies.
 * Straight-line code per table: no dispatch per column.
 */
#define PAYLOAD_COLUMN(table, name, kind, null, sql, doc) PAYLOAD_##kind(name)
#define PAYLOAD_I64(name)
#define PAYLOAD_U64(name)
#define PAYLOAD_I32(name)
#define PAYLOAD_U32(name)
#define PAYLOAD_INT(name)
#define PAYLOAD_FLAG(name)
#define PAYLOAD_TEXT(name)                        \
	if (copy)                                 \
		copy_string(copy, &r->name);      \
	else if (r->name)                         \
		bytes += strlen(r->name) + 1;
#define PAYLOAD_BYTES(name)                                                          \
	if (copy && r->name) {                                                       \
		r->name = memcpy(copy->data + copy->used, r->name, r->n_##name);     \
		copy->used += r->n_##name;                                           \
	} else if (r->name) {                                                        \
		bytes += r->n_##name;                                                \
	}
#define PAYLOAD_ARRAY(p, n, elem)                                   \
	if (copy)                                                   \
		copy_array(copy, (const void **)&(p), (n) * (elem)); \
	else if (p)                                                 \
		bytes += (n) * (elem) + 7;
#define PAYLOAD_IDS(name) PAYLOAD_ARRAY(r->name, r->n_##name, sizeof(int64_t))
#define PAYLOAD_HIST(name)                                   \
	PAYLOAD_ARRAY(r->latency, r->n, sizeof(int32_t))     \
	PAYLOAD_ARRAY(r->samples, r->n, sizeof(uint64_t))
#define PAYLOAD(name_, NAME, flags, key, order, title)                           \
	static size_t payload_##name_(void *row, struct batch *copy)              \
	{                                                                         \
		struct spe_row_##name_ *r = row;                                  \
		size_t bytes = 0;                                                 \
		(void)r, (void)copy;                                              \
		SPE_COLUMNS_##name_(PAYLOAD_COLUMN) return bytes;                 \
	}
SPE_TABLES(PAYLOAD)
#undef PAYLOAD

static size_t (*const payloads[SPE_TABLE_RECORD])(void *row, struct batch *copy) = {
#define PAYLOAD(name, NAME, flags, key, order, title) [SPE_TABLE_##NAME] = payload_##name,
	SPE_TABLES(PAYLOAD)
#undef PAYLOAD
};

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

/* Gives @p n rows of @p table (and the stage noted records) to inner on the caller's thread (a batch too big to queue). */
static int call_inner(struct async_sink *s, enum spe_table table, const void *rows, const void *notes, size_t n)
{
	int rc = drain(s);
	if (rc == 0)
		rc = s->inner.rows(s->inner.ctx, table, rows, n);
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
static void *put(struct async_sink *s, enum spe_table table, const void *rows, size_t n, size_t size, size_t extra,
		 int *rc)
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
	b->e[b->n++] = (struct entry){ .table = table, .n = n, .rows = to, .notes = NULL };
	return to;
}

/* Queue @p n records, with their notes for the stage when @p notes is not NULL. */
static int put_records(struct async_sink *s, const struct spe_row_record *rows, const void *notes, size_t n)
{
	int rc;
	size_t notes_size = notes ? align16(n * s->stage.note_size) : 0;
	struct spe_row_record *to =
		put(s, SPE_TABLE_RECORD, rows, n, sizeof *rows, notes_size + record_strings_size(s, rows, n), &rc);
	if (!to)
		return rc > 0 ? call_inner(s, SPE_TABLE_RECORD, rows, notes, n) : rc;
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

int ana_async_sink_records_noted(void *ctx, const struct spe_row_record *rows, const void *notes, size_t n)
{
	struct async_sink *s = ctx;
	return put_records(s, rows, s->stage.records ? notes : NULL, n);
}

int ana_async_sink_sync(void *ctx)
{
	return drain(ctx);
}

/* Queue @p n rows of table @p table with copies of what they point to (strings, bytes, arrays). */
static int put_rows(struct async_sink *s, enum spe_table table, const void *rows, size_t n)
{
	const struct spe_table_info *ti = spe_table_info(table);
	int pointers = s->pointer_tables >> table & 1;
	size_t extra = 0;
	for (size_t r = 0; pointers && r < n; r++)
		extra += payloads[table]((char *)rows + r * ti->row_size, NULL); /* only counts */
	int rc;
	char *to = put(s, table, rows, n, ti->row_size, extra, &rc);
	if (!to)
		return rc > 0 ? call_inner(s, table, rows, NULL, n) : rc;
	struct batch *b = s->ring[s->fill];
	for (size_t r = 0; pointers && r < n; r++)
		payloads[table](to + r * ti->row_size, b);
	return 0;
}

/*
 * Any table's rows.  Records, and the tables with many rows
 * (SPE_TABLE_QUEUED: instructions, symbols, data objects, and those written
 * at the end of a load, so the loader builds one while the thread stores
 * another) are queued; the rest (sideband, the source's rows) run on the
 * caller's thread once the queue is stored.
 */
static int async_rows(void *ctx, enum spe_table table, const void *rows, size_t n)
{
	struct async_sink *s = ctx;
	if (table == SPE_TABLE_RECORD)
		return put_records(s, rows, NULL, n);
	if (spe_table_info(table)->flags & SPE_TABLE_QUEUED)
		return put_rows(s, table, rows, n);
	int rc = drain(s);
	return rc < 0 ? rc : s->inner.rows(s->inner.ctx, table, rows, n);
}

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
	s->inner = *inner;
	if (stage)
		s->stage = *stage;
	for (int c = 0; c < SPE_RECORD_NCOLS; c++)
		if (spe_record_columns[c].kind == SPE_KIND_TEXT)
			s->text_columns |= 1ull << c;
	for (int t = 0; t < SPE_TABLE_RECORD; t++) {
		const struct spe_table_info *ti = spe_table_info((enum spe_table)t);
		for (int c = 0; c < ti->n_columns; c++)
			if (ti->columns[c].kind >= SPE_KIND_TEXT)
				s->pointer_tables |= 1ull << t;
	}
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
	*out = (struct spe_row_sink){ .ctx = s,
				      .tables = inner->tables,
				      .begin = async_begin,
				      .rows = async_rows,
				      .commit = async_commit,
				      .abort = async_abort,
				      .errmsg = async_errmsg,
				      .free = async_free };
	return 0;
}
