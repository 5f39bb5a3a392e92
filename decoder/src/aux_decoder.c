/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AUX stream layer (spe/aux.h): perf.data or raw bytes → records with
 * their queue, CPU, tid, time and file offset.  Every command that decodes
 * AUX data goes through here, so the rules of spe/aux.h hold everywhere.
 *
 * spe_aux_next() is a small state machine: records still in the current
 * queue's decoder come first; then a chunk that was set up (announced as an
 * SPE_AUX_CHUNK item when asked for) is fed; then the input gives the next
 * chunk — the next event in file order, the next chunk of the queue index
 * in queue order, the next window of raw input — and at its end every queue
 * is flushed.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "perfdata_internal.h"
#include "record_internal.h"
#include "util/grow.h"

enum aux_phase {
	PHASE_EVENTS,  /* reading perf events (file order: the whole input) */
	PHASE_QUEUES,  /* queue order: walking the chunk index */
	PHASE_FLUSH,   /* ending every queue's stream */
	PHASE_DONE,
};

enum chunk_step {
	STEP_NONE,
	STEP_ANNOUNCE, /* return the chunk item (if wanted), then feed */
	STEP_FEED,
};

/* Chunks back that a record's start is looked for in (records that span more have no file offset). */
#define AUX_HISTORY 16

struct aux_queue {
	uint32_t idx;
	int32_t cpu, tid;         /* of the chunk fed last */
	uint32_t midr;
	struct spe_rec_decoder *dec;
	int fed;                  /* a chunk was fed */
	uint64_t last_off, last_size; /* ring offset and size of the last chunk fed */
	/*
	 * Stream and file offsets of the first bytes of the chunks fed since the
	 * last gap, newest at hist[(head - 1) % AUX_HISTORY]: a record's file
	 * offset is in the chunk where it starts, which may be a few chunks back.
	 */
	struct { uint64_t off, file; } hist[AUX_HISTORY];
	uint32_t head, n_hist;
};

/* A piece of AUX bytes of one queue, from an AUXTRACE record or a raw window. */
struct aux_chunk {
	uint32_t idx;
	int32_t cpu, tid;
	const uint8_t *data;
	uint64_t size, offset, file_offset;
	uint32_t flags;
};

struct spe_aux_decoder {
	struct spe_aux_config cfg;
	struct spe_aux_stats st;  /* the AUX stream part; decoder counts are summed on request */
	int err;                  /* sticky */
	char errmsg[512];
	int cut;                  /* -spe_truncated once the events reached a cut; returned after the last record */
	char cutmsg[512];         /* ... with this message */

	struct aux_queue *queues;
	uint32_t n_queues, last_queue;
	size_t cap_queues;

	enum aux_phase phase;
	struct aux_queue *cur;    /* queue whose decoder may hold records */
	int draining;
	/* cur's context, copied where the per-record path reads it (set_current) */
	struct {
		struct spe_rec_decoder *dec;
		uint32_t queue, midr;
		int32_t cpu, tid;
		uint64_t chunk_off;   /* records starting here or later start in the last chunk fed, */
		uint64_t file_delta;  /* at file offset = offset + file_delta */
	} now;
	enum chunk_step step;
	struct aux_queue *step_queue;
	struct aux_chunk chunk;
	int release_pending;      /* queue order: give the fed chunk's pages back once decoded */
	int retire_pending;       /* queue order: free the ended queue's record decoder once drained */
	uint32_t next_queue, next_chunk, flush_queue;

	int has_time_conv;
	struct spe_perf_time_conv time_conv;
	int saw_spe_info, saw_auxtrace;
	uint64_t prev_aux_records;
	struct spe_perf_event ev;
	struct spe_record rec;
};

/* Make @p code the sticky error: no more records come (the per-record path of spe_aux_next() checks draining). */
static int fail_done(struct spe_aux_decoder *aux, int code)
{
	aux->err = code;
	aux->draining = 0;
	aux->step = STEP_NONE;
	return code;
}

static int fail(struct spe_aux_decoder *aux, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct spe_aux_decoder *aux, int code, uint64_t off, const char *fmt, ...)
{
	char what[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	const char *name = aux->cfg.perf && aux->cfg.perf->name ? aux->cfg.perf->name : "(input)";
	if (off == SPE_AUX_NO_OFFSET)
		snprintf(aux->errmsg, sizeof aux->errmsg, "%s: %s", name, what);
	else
		snprintf(aux->errmsg, sizeof aux->errmsg, "%s: offset 0x%" PRIx64 ": %s", name, off, what);
	return fail_done(aux, code);
}

/* A failure of the reader below: its message is ours. */
static int fail_reader(struct spe_aux_decoder *aux, int code)
{
	snprintf(aux->errmsg, sizeof aux->errmsg, "%s", spe_perf_errmsg(aux->cfg.perf));
	return fail_done(aux, code);
}

struct spe_aux_decoder *spe_aux_alloc_decoder(const struct spe_aux_config *config)
{
	if (!config || config->size < offsetof(struct spe_aux_config, order))
		return NULL;
	struct spe_aux_decoder *aux = calloc(1, sizeof *aux);
	if (!aux)
		return NULL;
	memcpy(&aux->cfg, config, config->size < sizeof aux->cfg ? config->size : sizeof aux->cfg);
	aux->cfg.size = sizeof aux->cfg;
	const struct spe_aux_config *c = &aux->cfg;
	if (!c->perf == !c->raw || c->raw_cpu < -1 || c->raw_cpu >= SPE_AUX_MAX_CPUS ||
	    (c->order != SPE_AUX_ORDER_QUEUE && c->order != SPE_AUX_ORDER_FILE) ||
	    (c->join != SPE_AUX_JOIN_CONTIGUOUS && c->join != SPE_AUX_JOIN_NEVER)) {
		free(aux);
		return NULL;
	}
	/* raw input has one stream and no events: it is always in "file" order */
	aux->phase = c->raw ? PHASE_QUEUES : PHASE_EVENTS;
	if (c->perf && c->order == SPE_AUX_ORDER_QUEUE && c->perf->src.streamed)
		fail(aux, -spe_unsupported, SPE_AUX_NO_OFFSET, "AUX queues need a file, not a pipe");
	return aux;
}

void spe_aux_free_decoder(struct spe_aux_decoder *aux)
{
	if (!aux)
		return;
	for (uint32_t i = 0; i < aux->n_queues; i++)
		spe_rec_free_decoder(aux->queues[i].dec);
	free(aux->queues);
	free(aux);
}

const char *spe_aux_errmsg(const struct spe_aux_decoder *aux)
{
	return aux ? aux->errmsg : "";
}

/* Add the counts of a queue's record decoder to @p s. */
static void add_rec_stats(struct spe_aux_stats *s, const struct spe_rec_decoder *dec)
{
	struct spe_rec_stats r;
	memset(&r, 0, sizeof r);
	spe_rec_get_stats(dec, &r, sizeof r);
	s->records += r.records;
	s->bad_bytes += r.bad_bytes;
	s->skipped_bytes += r.skipped_bytes;
	s->partial_records += r.partial_records;
	s->unknown_packets += r.unknown_packets;
	s->dropped_extras += r.dropped_extras;
}

void spe_aux_get_stats(const struct spe_aux_decoder *aux, struct spe_aux_stats *stats, size_t size)
{
	if (!aux || !stats)
		return;
	struct spe_aux_stats s = aux->st; /* retired queues' decoder counts included */
	for (uint32_t i = 0; i < aux->n_queues; i++)
		add_rec_stats(&s, aux->queues[i].dec);
	s.queues = aux->n_queues;
	if (aux->cfg.perf) {
		struct spe_perf_info info;
		memset(&info, 0, sizeof info);
		spe_perf_get_info(aux->cfg.perf, &info, sizeof info);
		s.aux_records = info.n_aux;
		s.aux_truncated = info.n_aux_truncated;
		s.aux_partial = info.n_aux_partial;
		s.aux_collision = info.n_aux_collision;
		s.lost = info.n_lost_events;
	}
	memcpy(stats, &s, size < sizeof s ? size : sizeof s);
}

/* ---- queues ------------------------------------------------------------ */

static inline uint64_t file_offset_of(const struct aux_queue *q, uint64_t off)
{
	for (uint32_t i = 1; i <= q->n_hist; i++) {
		const uint32_t k = (q->head - i) % AUX_HISTORY;
		if (off >= q->hist[k].off)
			return q->hist[k].file + (off - q->hist[k].off);
	}
	return SPE_AUX_NO_OFFSET;
}

static void on_decode_error(void *ctx, uint64_t offset, int err, const char *reason)
{
	struct spe_aux_decoder *aux = ctx;
	const struct aux_queue *q = aux->cur;
	if (!aux->cfg.on_error || !q)
		return;
	struct spe_aux_error e = { .queue = q->idx,
				   .cpu = q->cpu,
				   .offset = offset,
				   .file_offset = file_offset_of(q, offset),
				   .code = err,
				   .reason = reason };
	aux->cfg.on_error(aux->cfg.ctx, &e);
}

static uint32_t midr_of(const struct spe_aux_decoder *aux, int32_t cpu)
{
	return aux->cfg.raw ? spe_raw_midr(aux->cfg.raw) : spe_perf_midr(aux->cfg.perf, cpu);
}

static struct spe_rec_decoder *new_rec_decoder(struct spe_aux_decoder *aux, const struct aux_queue *q)
{
	struct spe_rec_config rc = SPE_OPTS(spe_rec_config, .midr = q->midr, .on_error = on_decode_error, .ctx = aux,
					    .emit_partial = aux->cfg.emit_partial);
	return spe_rec_alloc_decoder(&rc);
}

static struct aux_queue *queue_of(struct spe_aux_decoder *aux, uint32_t idx, int32_t cpu)
{
	if (aux->last_queue < aux->n_queues && aux->queues[aux->last_queue].idx == idx)
		return &aux->queues[aux->last_queue];
	for (uint32_t i = 0; i < aux->n_queues; i++)
		if (aux->queues[i].idx == idx) {
			aux->last_queue = i;
			return &aux->queues[i];
		}
	struct aux_queue *nq = util_grow(aux->queues, &aux->cap_queues, (size_t)aux->n_queues + 1, sizeof *nq);
	if (!nq)
		return NULL;
	aux->queues = nq;
	struct aux_queue *q = &aux->queues[aux->n_queues];
	memset(q, 0, sizeof *q);
	q->idx = idx;
	q->cpu = cpu;
	q->midr = midr_of(aux, cpu);
	if (!(q->dec = new_rec_decoder(aux, q)))
		return NULL;
	aux->last_queue = aux->n_queues++;
	return q;
}

/*
 * Queue order: a queue that has ended (its last chunk fed, its records out)
 * is never fed again (the index holds each idx once), so its record decoder
 * (about 18 KB) is freed, its counts kept: a capture of thousands of CPUs
 * holds one, not thousands.
 */
static void retire_queue(struct spe_aux_decoder *aux, struct aux_queue *q)
{
	aux->retire_pending = 0;
	add_rec_stats(&aux->st, q->dec);
	spe_rec_free_decoder(q->dec);
	q->dec = NULL;
	if (aux->cur == q)
		aux->now.dec = NULL;
}

/* Make @p q the queue whose records (and decode errors) come next. */
static void set_current(struct spe_aux_decoder *aux, struct aux_queue *q)
{
	aux->cur = q;
	aux->now.dec = q->dec;
	aux->now.queue = q->idx;
	aux->now.midr = q->midr;
	aux->now.cpu = q->cpu;
	aux->now.tid = q->tid;
	aux->now.chunk_off = UINT64_MAX;
	if (q->n_hist) {
		const uint32_t k = (q->head - 1) % AUX_HISTORY;
		aux->now.chunk_off = q->hist[k].off;
		aux->now.file_delta = q->hist[k].file - q->hist[k].off;
	}
}

/* End @p q's stream (a record in progress is partial); its last records are drained next. */
static void end_stream(struct spe_aux_decoder *aux, struct aux_queue *q)
{
	set_current(aux, q); /* decode errors of the flush are this queue's */
	spe_rec_flush(q->dec);
	aux->draining = 1;
}

/*
 * The join and gap rule.  A chunk continues its queue when it starts where
 * the data of the queue's last chunk ended (pd_aux_continues: perf's padding
 * allowed); then a record may span the two, and (unless config.join is
 * NEVER) so may a packet.  Any other chunk is a gap: the record in progress
 * cannot continue in these bytes, so the queue's stream is ended first (what
 * was cut is partial), and its records come out before the new chunk is fed.
 */
static int begin_chunk(struct spe_aux_decoder *aux, const struct aux_chunk *c)
{
	struct aux_queue *q = queue_of(aux, c->idx, c->cpu);
	if (q && !q->dec) /* retired: cannot happen in queue order, but a decoder is all it needs */
		q->dec = new_rec_decoder(aux, q);
	if (!q || !q->dec)
		return fail(aux, -spe_nomem, SPE_AUX_NO_OFFSET, "out of memory");
	aux->chunk = *c;
	if (!q->fed)
		aux->chunk.flags = SPE_AUX_CHUNK_FIRST;
	else if (pd_aux_continues(q->last_off, q->last_size, c->offset))
		aux->chunk.flags = SPE_AUX_CHUNK_JOINED;
	else
		aux->chunk.flags = SPE_AUX_CHUNK_GAP;
	if (aux->chunk.flags & SPE_AUX_CHUNK_GAP) {
		aux->st.gaps++;
		end_stream(aux, q);
	}
	aux->step = STEP_ANNOUNCE;
	aux->step_queue = q;
	return 0;
}

static int feed_chunk(struct spe_aux_decoder *aux)
{
	struct aux_queue *q = aux->step_queue;
	const struct aux_chunk *c = &aux->chunk;
	int join = (c->flags & SPE_AUX_CHUNK_JOINED) && (aux->cfg.raw || aux->cfg.join == SPE_AUX_JOIN_CONTIGUOUS);
	if (q->cpu != c->cpu)
		q->midr = midr_of(aux, c->cpu);
	q->cpu = c->cpu;
	q->tid = c->tid;
	/* a record may start in an earlier chunk only when no gap lies between */
	if (!(c->flags & SPE_AUX_CHUNK_JOINED))
		q->n_hist = 0;
	q->hist[q->head % AUX_HISTORY].off = c->offset;
	q->hist[q->head % AUX_HISTORY].file = c->file_offset;
	q->head++;
	if (q->n_hist < AUX_HISTORY)
		q->n_hist++;
	set_current(aux, q);
	int rc = spe_rec_feed(q->dec, c->data, (size_t)c->size, c->offset, join);
	if (rc < 0)
		return fail(aux, rc, c->file_offset, "AUX queue %" PRIu32 ": %s", q->idx, spe_errstr(rc));
	q->fed = 1;
	q->last_off = c->offset;
	q->last_size = c->size;
	aux->st.chunks++;
	aux->st.bytes += c->size;
	aux->draining = 1;
	aux->release_pending = aux->cfg.perf && aux->cfg.order == SPE_AUX_ORDER_QUEUE;
	aux->step = STEP_NONE;
	return 0;
}

static void fill_chunk_item(const struct spe_aux_decoder *aux, struct spe_aux_item *it)
{
	const struct aux_chunk *c = &aux->chunk;
	it->type = SPE_AUX_CHUNK;
	it->queue = c->idx;
	it->cpu = c->cpu;
	it->tid = c->tid;
	it->midr = aux->step_queue->midr;
	it->chunk_flags = c->flags;
	it->offset = c->offset;
	it->file_offset = c->file_offset;
	it->time = SPE_AUX_NO_TIME;
	it->record = NULL;
	it->event = NULL;
	it->data = c->data;
	it->size = c->size;
}

static inline void fill_record_item(const struct spe_aux_decoder *aux, struct spe_aux_item *it)
{
	const struct spe_record *r = &aux->rec;
	it->type = SPE_AUX_RECORD;
	it->queue = aux->now.queue;
	it->cpu = aux->now.cpu;
	it->tid = aux->now.tid;
	it->midr = aux->now.midr;
	it->chunk_flags = 0;
	it->offset = r->offset;
	it->file_offset = r->offset >= aux->now.chunk_off ? r->offset + aux->now.file_delta
							 : file_offset_of(aux->cur, r->offset);
	it->time = (r->has & SPE_HAS_TIMESTAMP) && aux->has_time_conv ? pd_tsc_to_time(&aux->time_conv, r->timestamp)
								      : SPE_AUX_NO_TIME;
	it->record = r;
	it->event = NULL;
	it->data = NULL;
	it->size = 0;
}

/* ---- perf events --------------------------------------------------------- */

/* The CPU rule: -1 (per-thread), or a CPU the file can have. */
static int check_cpu(struct spe_aux_decoder *aux, int32_t cpu, uint64_t off)
{
	if (cpu == -1)
		return 0;
	if (cpu < 0)
		return fail(aux, -spe_bad_file, off,
			    "AUXTRACE cpu 0x%" PRIx32 " is neither -1 (per-thread) nor a CPU number", (uint32_t)cpu);
	uint32_t nr = aux->cfg.perf->info.nr_cpus_avail; /* highest CPU id + 1, as perf writes it; 0 = absent */
	if (nr && (uint32_t)cpu >= nr)
		return fail(aux, -spe_bad_file, off,
			    "AUXTRACE cpu %" PRId32 " is beyond the %" PRIu32 " CPUs of the file's HEADER_NRCPUS", cpu, nr);
	if (cpu >= SPE_AUX_MAX_CPUS)
		return fail(aux, -spe_bad_file, off, "AUXTRACE cpu %" PRId32 " is beyond the %d CPUs spekit reads",
			    cpu, SPE_AUX_MAX_CPUS);
	return 0;
}

/* What the layer takes from an event; an AUXTRACE in file order becomes the next chunk. */
static int process_event(struct spe_aux_decoder *aux, const struct spe_perf_event *ev)
{
	switch (ev->type) {
	case SPE_PERF_RECORD_TIME_CONV:
		aux->has_time_conv = 1;
		aux->time_conv = ev->u.time_conv;
		return 0;
	case SPE_PERF_RECORD_AUXTRACE_INFO:
		if (ev->u.auxtrace_info.kind != SPE_PERF_AUXTRACE_ARM_SPE)
			return fail(aux, -spe_bad_file, ev->file_offset,
				    "no Arm SPE data: its AUXTRACE_INFO is of kind %" PRIu32 ", not arm_spe (%d)",
				    ev->u.auxtrace_info.kind, SPE_PERF_AUXTRACE_ARM_SPE);
		aux->saw_spe_info = 1;
		return 0;
	case SPE_PERF_RECORD_AUXTRACE: {
		const struct spe_perf_auxtrace *a = &ev->u.auxtrace;
		aux->saw_auxtrace = 1;
		int rc = check_cpu(aux, a->cpu, ev->file_offset);
		if (rc < 0 || aux->cfg.order != SPE_AUX_ORDER_FILE)
			return rc;
		struct aux_chunk c = { .idx = a->idx,
				       .cpu = a->cpu,
				       .tid = a->tid,
				       .data = a->data,
				       .size = a->size,
				       .offset = a->offset,
				       .file_offset = a->data_offset };
		return begin_chunk(aux, &c);
	}
	default:
		return 0;
	}
}

/*
 * After the last event: a perf.data recorded without arm_spe (cpu-clock)
 * would otherwise decode as "0 records" and look like a success.  AUX data
 * with no AUXTRACE_INFO is still decoded as SPE (a writer may leave the
 * record out); an arm_spe AUXTRACE_INFO without AUX data is a session that
 * sampled nothing.
 */
static int check_spe_data(struct spe_aux_decoder *aux)
{
	if (aux->saw_spe_info || aux->saw_auxtrace)
		return 0;
	return fail(aux, -spe_bad_file, SPE_AUX_NO_OFFSET,
		    "no Arm SPE data: no AUXTRACE_INFO of kind arm_spe and no AUX data"
		    " (record with perf record -e arm_spe//, or spe-record)");
}

/* The next event: 1 with aux->ev read, 0 at the end of the events, or an error. */
static int next_event(struct spe_aux_decoder *aux)
{
	int rc = spe_perf_next(aux->cfg.perf, &aux->ev, sizeof aux->ev);
	if (rc == -spe_truncated && (aux->saw_spe_info || aux->saw_auxtrace)) {
		/* the file ends before its data: decode what is there, then say what was cut */
		struct spe_perf_info info;
		memset(&info, 0, sizeof info);
		spe_perf_get_info(aux->cfg.perf, &info, sizeof info);
		if (info.cut) {
			snprintf(aux->cutmsg, sizeof aux->cutmsg, "%s", spe_perf_errmsg(aux->cfg.perf));
			aux->cut = rc;
			aux->st.cut = 1;
			aux->st.cut_offset = info.cut_offset;
			aux->st.cut_bytes = info.cut_bytes;
			rc = -spe_eos;
		}
	}
	if (rc == -spe_eos) {
		if ((rc = check_spe_data(aux)) < 0)
			return rc;
		if (aux->cfg.order == SPE_AUX_ORDER_QUEUE) {
			/* a cut file indexes its chunks up to the cut, then reports the cut already noted */
			if ((rc = spe_perf_index_aux(aux->cfg.perf)) < 0 && !(rc == -spe_truncated && aux->cut))
				return fail_reader(aux, rc);
			aux->phase = PHASE_QUEUES;
		} else {
			aux->phase = PHASE_FLUSH;
		}
		return 0;
	}
	if (rc < 0)
		return fail_reader(aux, rc);
	if ((rc = process_event(aux, &aux->ev)) < 0)
		return rc;
	return 1;
}

/* ---- chunk sources --------------------------------------------------------- */

/*
 * Queue order: the next chunk of the index, or the end of a queue (flushed).
 * A chunk the next one continues is cut where that one starts: the bytes
 * past it are perf's padding, and a packet cut there is joined whole.
 */
static int next_indexed_chunk(struct spe_aux_decoder *aux)
{
	struct spe_perf_file *f = aux->cfg.perf;
	uint32_t nq = spe_perf_aux_queue_count(f);
	while (aux->next_queue < nq) {
		uint32_t n = spe_perf_aux_chunk_count(f, aux->next_queue);
		if (aux->next_chunk < n) {
			struct spe_perf_aux_chunk pc, next;
			int rc = spe_perf_aux_chunk(f, aux->next_queue, aux->next_chunk++, &pc, sizeof pc);
			if (rc < 0)
				return fail(aux, rc, SPE_AUX_NO_OFFSET, "AUX queue index: %s", spe_errstr(rc));
			uint64_t size = pc.size;
			if (aux->next_chunk < n &&
			    spe_perf_aux_chunk(f, aux->next_queue, aux->next_chunk, &next, sizeof next) == 0 &&
			    next.contiguous)
				size = next.aux_offset - pc.aux_offset;
			struct aux_chunk c = { .idx = pc.idx,
					       .cpu = pc.cpu,
					       .tid = pc.tid,
					       .data = pc.data,
					       .size = size,
					       .offset = pc.aux_offset,
					       .file_offset = pc.file_offset };
			return begin_chunk(aux, &c);
		}
		/* the queue is done (its last chunk was fed): end its stream now, so its records stay together */
		int had_chunks = aux->next_chunk > 0;
		aux->next_queue++;
		aux->next_chunk = 0;
		if (had_chunks) {
			end_stream(aux, aux->step_queue);
			aux->retire_pending = 1;
			return 0;
		}
	}
	aux->phase = PHASE_DONE;
	return 0;
}

/* Raw input: the next window, contiguous with the last. */
static int next_raw_window(struct spe_aux_decoder *aux)
{
	const uint8_t *buf;
	size_t len;
	uint64_t off;
	int rc = spe_raw_next_window(aux->cfg.raw, &buf, &len, &off);
	if (rc == -spe_eos) {
		aux->phase = PHASE_FLUSH;
		return 0;
	}
	if (rc < 0)
		return fail(aux, rc, SPE_AUX_NO_OFFSET, "%s", spe_errstr(rc));
	struct aux_chunk c = { .idx = 0,
			       .cpu = aux->cfg.raw_cpu,
			       .tid = -1,
			       .data = buf,
			       .size = len,
			       .offset = off,
			       .file_offset = off };
	return begin_chunk(aux, &c);
}

/* End of input: end every queue's stream, one after the other. */
static void flush_next_queue(struct spe_aux_decoder *aux)
{
	if (aux->flush_queue >= aux->n_queues) {
		aux->phase = PHASE_DONE;
		return;
	}
	end_stream(aux, &aux->queues[aux->flush_queue++]);
}

/* ---- the iterator ------------------------------------------------------ */

static void release_fed_chunk(struct spe_aux_decoder *aux)
{
	struct spe_perf_file *f = aux->cfg.perf;
	aux->release_pending = 0;
	pd_source_release_range(&f->src, aux->chunk.file_offset, aux->chunk.size);
}

/* Everything but the next record of the current queue: chunks, events, flushes, errors. */
static __attribute__((noinline)) int next_item(struct spe_aux_decoder *aux, struct spe_aux_item *item, size_t size)
{
	if (!aux || !item || size < offsetof(struct spe_aux_item, event))
		return -spe_invalid;
	if (aux->err)
		return aux->err;
	struct spe_aux_item tmp;
	struct spe_aux_item *it = size >= sizeof tmp ? item : &tmp;
	int type = 0, rc = 0;
	while (!type && rc == 0) {
		if (aux->draining) {
			if (rec_next_reused(aux->now.dec, &aux->rec) == 0) {
				fill_record_item(aux, it);
				type = SPE_AUX_RECORD;
				break;
			}
			aux->draining = 0;
			if (aux->release_pending)
				release_fed_chunk(aux);
			if (aux->retire_pending)
				retire_queue(aux, aux->cur);
		}
		if (aux->step == STEP_ANNOUNCE) {
			aux->step = STEP_FEED;
			if (aux->cfg.items & SPE_AUX_WANT_CHUNKS) {
				fill_chunk_item(aux, it);
				type = SPE_AUX_CHUNK;
			}
			continue;
		}
		if (aux->step == STEP_FEED) {
			rc = feed_chunk(aux);
			continue;
		}
		switch (aux->phase) {
		case PHASE_EVENTS:
			rc = next_event(aux);
			if (rc == 1) {
				rc = 0;
				if (aux->cfg.items & SPE_AUX_WANT_EVENTS) {
					memset(it, 0, sizeof *it);
					it->type = SPE_AUX_EVENT;
					it->event = &aux->ev;
					type = SPE_AUX_EVENT;
				}
			}
			break;
		case PHASE_QUEUES:
			rc = aux->cfg.raw ? next_raw_window(aux) : next_indexed_chunk(aux);
			break;
		case PHASE_FLUSH:
			flush_next_queue(aux);
			break;
		case PHASE_DONE:
			if (!aux->cut)
				return -spe_eos;
			memcpy(aux->errmsg, aux->cutmsg, sizeof aux->errmsg);
			return fail_done(aux, aux->cut);
		}
	}
	if (rc < 0)
		return rc;
	if (it != item)
		memcpy(item, it, size);
	return type;
}

int spe_aux_next(struct spe_aux_decoder *aux, struct spe_aux_item *item, size_t size)
{
	/* the path of almost every call: one more record of the queue being read */
	if (aux && item && size >= sizeof *item && aux->draining && rec_next_reused(aux->now.dec, &aux->rec) == 0) {
		fill_record_item(aux, item);
		return SPE_AUX_RECORD;
	}
	return next_item(aux, item, size);
}
