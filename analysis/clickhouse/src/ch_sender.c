/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sink's INSERTs in a thread of their own: while the server sorts and
 * writes one block, the loader decodes and encodes the next.  One block in
 * flight: ch_sender_put waits for the previous one, so memory stays at two
 * blocks and the rows reach the server in the order they were put.  The
 * thread compresses (gzip, zlib level 1) and sends with its own session (its
 * own libcurl handle), so the loader's session stays free.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "ch_internal.h"

struct ch_sender {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct spe_ch *conn;     /* the thread's session */
	struct ch_buf block, gz; /* the block in flight, and its compressed bytes */
	enum ch_table_id table;
	int busy, quit, rc;      /* rc: the first failure, kept until ch_sender_reset */
	char err[sizeof ((struct spe_ch *)0)->err];
};

int ch_gzip(const struct ch_buf *in, struct ch_buf *out)
{
	z_stream z = { 0 };
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -spe_nomem;
	size_t bound = deflateBound(&z, in->len);
	out->len = 0;
	if (ch_buf_reserve(out, bound) < 0) {
		deflateEnd(&z);
		return -spe_nomem;
	}
	z.next_in = (Bytef *)in->p;
	z.avail_in = (uInt)in->len;
	z.next_out = (Bytef *)out->p;
	z.avail_out = (uInt)bound;
	int zr = deflate(&z, Z_FINISH);
	out->len = z.total_out;
	deflateEnd(&z);
	return zr == Z_STREAM_END ? 0 : -spe_nomem;
}

int ch_send_block(struct spe_ch *ch, enum ch_table_id t, const struct ch_buf *rows, struct ch_buf *gz)
{
	const char *insert = ch_insert_sql(t);
	if (!insert || ch_gzip(rows, gz) < 0)
		return ch_fail(ch, -spe_nomem, "out of memory");
	int rc = ch_insert(ch, insert, gz->p, gz->len);
	if (rc < 0) {
		char why[sizeof ch->err];
		snprintf(why, sizeof why, "%s", ch->err);
		ch_fail(ch, rc, "inserting into %s: %s", ch_table_name(t), why);
	}
	return rc;
}

static void *run(void *arg)
{
	struct ch_sender *s = arg;
	pthread_mutex_lock(&s->mu);
	for (;;) {
		while (!s->busy && !s->quit)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->quit)
			break;
		pthread_mutex_unlock(&s->mu);
		int rc = ch_send_block(s->conn, s->table, &s->block, &s->gz);
		pthread_mutex_lock(&s->mu);
		if (rc < 0 && s->rc == 0) {
			s->rc = rc;
			snprintf(s->err, sizeof s->err, "%s", s->conn->err);
		}
		s->block.len = 0;
		s->busy = 0;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

int ch_sender_new(struct spe_ch *ch, struct ch_sender **out)
{
	struct ch_sender *s = calloc(1, sizeof *s);
	if (!s)
		return ch_fail(ch, -spe_nomem, "out of memory");
	int rc = ch_open_host(ch, ch->host, ch->port, &s->conn);
	if (rc < 0) {
		free(s);
		return ch_fail(ch, rc, "out of memory");
	}
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	if (pthread_create(&s->thread, NULL, run, s) != 0) {
		pthread_mutex_destroy(&s->mu);
		pthread_cond_destroy(&s->cv);
		spe_ch_close(s->conn);
		free(s);
		return ch_fail(ch, -spe_nomem, "cannot start the sending thread");
	}
	*out = s;
	return 0;
}

/* Wait until no block is in flight (mutex held). */
static void wait_idle(struct ch_sender *s)
{
	while (s->busy)
		pthread_cond_wait(&s->cv, &s->mu);
}

/* The first failure so far, its message into @p ch (mutex held). */
static int failure(struct ch_sender *s, struct spe_ch *ch)
{
	return s->rc < 0 ? ch_fail(ch, s->rc, "%s", s->err) : 0;
}

int ch_sender_put(struct ch_sender *s, enum ch_table_id t, struct ch_buf *rows, struct spe_ch *ch)
{
	pthread_mutex_lock(&s->mu);
	wait_idle(s);
	int rc = failure(s, ch);
	if (rc == 0) {
		struct ch_buf spare = s->block; /* empty, with its memory: the caller's next buffer */
		s->block = *rows;
		*rows = spare;
		s->table = t;
		s->busy = 1;
		pthread_cond_broadcast(&s->cv);
	}
	rows->len = 0;
	pthread_mutex_unlock(&s->mu);
	return rc;
}

int ch_sender_wait(struct ch_sender *s, struct spe_ch *ch)
{
	pthread_mutex_lock(&s->mu);
	wait_idle(s);
	int rc = failure(s, ch);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

void ch_sender_reset(struct ch_sender *s)
{
	pthread_mutex_lock(&s->mu);
	wait_idle(s);
	s->rc = 0;
	s->err[0] = 0;
	pthread_mutex_unlock(&s->mu);
}

void ch_sender_free(struct ch_sender *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	wait_idle(s);
	s->quit = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thread, NULL);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	spe_ch_close(s->conn);
	ch_buf_fini(&s->block);
	ch_buf_fini(&s->gz);
	free(s);
}
