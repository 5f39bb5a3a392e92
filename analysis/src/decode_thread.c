/* SPDX-License-Identifier: Apache-2.0 */
#include "decode_thread.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BATCH_RECORDS 2048
#define SLOTS 4
#define MAX_CPUS 4096

struct batch {
	size_t n;
	struct decoded_record recs[BATCH_RECORDS];
};

struct decode_thread {
	struct spe_perf_file *f;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t filled, emptied;
	struct batch *slots[SLOTS];
	size_t head, count;  /* consumer reads slots[head]; count filled slots */
	int consuming;       /* the consumer holds slots[head] */
	int done, stop, error;
	struct spe_rec_decoder **decs;
	int n_decs;
	struct spe_rec_stats stats;
};

/* Producer: publish the slot being filled, wait for a free one. */
static int publish(struct decode_thread *t, struct batch **cur)
{
	pthread_mutex_lock(&t->mu);
	t->count++;
	pthread_cond_signal(&t->filled);
	while (t->count == SLOTS && !t->stop)
		pthread_cond_wait(&t->emptied, &t->mu);
	int stop = t->stop;
	*cur = t->slots[(t->head + t->count) % SLOTS];
	pthread_mutex_unlock(&t->mu);
	(*cur)->n = 0;
	return stop ? -1 : 0;
}

static int drain(struct decode_thread *t, struct spe_rec_decoder *dec, int cpu, int tid, struct batch **cur)
{
	struct decoded_record *d;
	for (;;) {
		d = &(*cur)->recs[(*cur)->n];
		if (spe_rec_next(dec, &d->rec, sizeof d->rec) != 0)
			return 0;
		d->cpu = cpu;
		d->tid = tid;
		if (++(*cur)->n == BATCH_RECORDS && publish(t, cur) < 0)
			return -1;
	}
}

static void release_pages(const uint8_t *p, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p & ~(uintptr_t)(pg - 1), end = ((uintptr_t)p + len) & ~(uintptr_t)(pg - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_DONTNEED);
}

static struct spe_rec_decoder *decoder_for(struct decode_thread *t, int cpu, uint32_t midr, int *fresh)
{
	*fresh = 0;
	if (cpu >= t->n_decs) {
		struct spe_rec_decoder **p = realloc(t->decs, (size_t)(cpu + 1) * sizeof *p);
		if (!p)
			return NULL;
		memset(p + t->n_decs, 0, (size_t)(cpu + 1 - t->n_decs) * sizeof *p);
		t->decs = p;
		t->n_decs = cpu + 1;
	}
	if (!t->decs[cpu]) {
		struct spe_rec_config cfg = SPE_OPTS(spe_rec_config, .midr = midr);
		t->decs[cpu] = spe_rec_alloc_decoder(&cfg);
		*fresh = 1;
	}
	return t->decs[cpu];
}

static int run_queues(struct decode_thread *t, struct batch **cur)
{
	uint32_t nq = spe_perf_aux_queue_count(t->f);
	for (uint32_t q = 0; q < nq; q++) {
		uint32_t n = spe_perf_aux_chunk_count(t->f, q);
		for (uint32_t i = 0; i < n; i++) {
			struct spe_perf_aux_chunk ch;
			int rc = spe_perf_aux_chunk(t->f, q, i, &ch, sizeof ch);
			if (rc < 0)
				return rc;
			int cpu = ch.cpu >= 0 && ch.cpu < MAX_CPUS ? ch.cpu : 0, fresh;
			struct spe_rec_decoder *dec = decoder_for(t, cpu, spe_perf_midr(t->f, ch.cpu), &fresh);
			if (!dec)
				return -spe_nomem;
			int join = !fresh && i > 0 && ch.contiguous;
			if (!fresh && !join) { /* a gap: what was cut cannot continue */
				spe_rec_flush(dec);
				if (drain(t, dec, cpu, ch.tid, cur) < 0)
					return -1;
			}
			if ((rc = spe_rec_feed(dec, ch.data, (size_t)ch.size, ch.aux_offset, join)) < 0)
				return rc;
			if (drain(t, dec, cpu, ch.tid, cur) < 0)
				return -1;
			release_pages(ch.data, (size_t)ch.size);
		}
	}
	for (int c = 0; c < t->n_decs; c++) {
		if (!t->decs[c])
			continue;
		spe_rec_flush(t->decs[c]);
		if (drain(t, t->decs[c], c, -1, cur) < 0)
			return -1;
		struct spe_rec_stats s;
		memset(&s, 0, sizeof s);
		spe_rec_get_stats(t->decs[c], &s, sizeof s);
		t->stats.records += s.records;
		t->stats.bad_bytes += s.bad_bytes;
		t->stats.skipped_bytes += s.skipped_bytes;
		t->stats.partial_records += s.partial_records;
		t->stats.unknown_packets += s.unknown_packets;
	}
	return 0;
}

static void *producer(void *arg)
{
	struct decode_thread *t = arg;
	struct batch *cur = t->slots[0];
	cur->n = 0;
	int rc = run_queues(t, &cur);
	pthread_mutex_lock(&t->mu);
	if (rc == 0 && cur->n)
		t->count++; /* the last, partly filled batch */
	if (rc < 0 && !t->stop)
		t->error = rc;
	t->done = 1;
	pthread_cond_signal(&t->filled);
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

int decode_thread_start(struct spe_perf_file *f, struct decode_thread **out)
{
	struct decode_thread *t = calloc(1, sizeof *t);
	if (!t)
		return -spe_nomem;
	t->f = f;
	for (int i = 0; i < SLOTS; i++)
		if (!(t->slots[i] = malloc(sizeof *t->slots[i]))) {
			for (int j = 0; j < i; j++)
				free(t->slots[j]);
			free(t);
			return -spe_nomem;
		}
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->filled, NULL);
	pthread_cond_init(&t->emptied, NULL);
	if (pthread_create(&t->thread, NULL, producer, t) != 0) {
		for (int i = 0; i < SLOTS; i++)
			free(t->slots[i]);
		free(t);
		return -spe_nomem;
	}
	*out = t;
	return 0;
}

int decode_thread_next(struct decode_thread *t, const struct decoded_record **recs)
{
	pthread_mutex_lock(&t->mu);
	if (t->consuming) { /* give back the batch read last time */
		t->consuming = 0;
		t->head = (t->head + 1) % SLOTS;
		t->count--;
		pthread_cond_signal(&t->emptied);
	}
	while (!t->count && !t->done)
		pthread_cond_wait(&t->filled, &t->mu);
	int n;
	if (t->count) {
		t->consuming = 1;
		*recs = t->slots[t->head]->recs;
		n = (int)t->slots[t->head]->n;
	} else {
		n = t->error;
	}
	pthread_mutex_unlock(&t->mu);
	return n;
}

void decode_thread_stats(const struct decode_thread *t, struct spe_rec_stats *sum)
{
	*sum = t->stats;
}

void decode_thread_free(struct decode_thread *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->mu);
	t->stop = 1;
	pthread_cond_signal(&t->emptied);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->thread, NULL);
	for (int c = 0; c < t->n_decs; c++)
		spe_rec_free_decoder(t->decs[c]);
	free(t->decs);
	for (int i = 0; i < SLOTS; i++)
		free(t->slots[i]);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->filled);
	pthread_cond_destroy(&t->emptied);
	free(t);
}
