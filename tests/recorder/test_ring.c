/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ring arithmetic: the consumer of spe/ring.h against the simulated producer
 * of spe/ring_sim.h.  Wrap-around of the data ring and the AUX area,
 * truncation at record boundaries, LOST records, free-running 64-bit heads.
 */
#include "check.h"
#include "spe/ring_sim.h"
#include "spe/spe.h"

#include <stdlib.h>
#include <string.h>

struct seen {
	int n;
	uint32_t types[64];
	uint64_t first_word[64];
	uint64_t lost;
	uint8_t aux[8192];
	uint64_t aux_n, aux_offsets[16];
	size_t aux_calls, aux_split;
};

static int on_event(void *ctx, const struct perf_event_header *ev)
{
	struct seen *s = ctx;
	if (s->n < 64) {
		s->types[s->n] = ev->type;
		memcpy(&s->first_word[s->n], ev + 1, ev->size >= 16 ? 8 : 0);
	}
	s->n++;
	if (ev->type == PERF_RECORD_LOST)
		s->lost += ((const uint64_t *)(ev + 1))[1];
	return 0;
}

static int on_aux(void *ctx, uint64_t offset, const uint8_t *p1, size_t n1, const uint8_t *p2, size_t n2)
{
	struct seen *s = ctx;
	if (s->aux_calls < 16)
		s->aux_offsets[s->aux_calls] = offset;
	s->aux_calls++;
	s->aux_split += n2 != 0;
	if (s->aux_n + n1 + n2 <= sizeof s->aux) {
		memcpy(s->aux + s->aux_n, p1, n1);
		if (n2)
			memcpy(s->aux + s->aux_n + n1, p2, n2);
	}
	s->aux_n += n1 + n2;
	return 0;
}

/* A record of @p len bytes (multiple of 8) whose first payload word is @p tag. */
static size_t make_rec(uint8_t *buf, uint32_t type, size_t len, uint64_t tag)
{
	struct perf_event_header h = { type, 0, (uint16_t)len };
	memset(buf, 0xee, len);
	memcpy(buf, &h, sizeof h);
	memcpy(buf + 8, &tag, 8);
	return len;
}

TEST(data_ring_wraps)
{
	struct spe_ring_sim sim;
	CHECK_INT_EQ(spe_ring_sim_init(&sim, 4096, 0), 0);
	uint8_t rec[512];
	uint64_t tag = 0;
	struct seen s = { 0 };
	/* 40-byte records do not divide 4096: records straddle the end. */
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < 20; i++)
			CHECK_INT_EQ(spe_ring_sim_emit(&sim, rec, make_rec(rec, PERF_RECORD_COMM, 40, tag++)), 0);
		memset(&s, 0, sizeof s);
		CHECK_INT_EQ(spe_ring_read_events(&sim.ring, on_event, &s), 20);
		CHECK_U64_EQ(s.first_word[0], tag - 20);
		CHECK_U64_EQ(s.first_word[19], tag - 1);
	}
	CHECK_U64_EQ(sim.ring.page->data_tail, 50 * 20 * 40);
	CHECK_U64_EQ(spe_ring_data_pending(&sim.ring), 0);
	spe_ring_sim_fini(&sim);
}

TEST(data_ring_full_gives_lost)
{
	struct spe_ring_sim sim;
	CHECK_INT_EQ(spe_ring_sim_init(&sim, 4096, 0), 0);
	uint8_t rec[1024];
	/* 4 x 1024 fills the ring; the next 3 are dropped. */
	for (int i = 0; i < 7; i++)
		spe_ring_sim_emit(&sim, rec, make_rec(rec, PERF_RECORD_MMAP2, 1024, (uint64_t)i));
	CHECK_U64_EQ(sim.records_dropped, 3);
	struct seen s = { 0 };
	CHECK_INT_EQ(spe_ring_read_events(&sim.ring, on_event, &s), 4);
	/* After the consumer frees space, LOST comes first, then the new record. */
	spe_ring_sim_emit(&sim, rec, make_rec(rec, PERF_RECORD_MMAP2, 64, 99));
	memset(&s, 0, sizeof s);
	CHECK_INT_EQ(spe_ring_read_events(&sim.ring, on_event, &s), 2);
	CHECK_INT_EQ(s.types[0], PERF_RECORD_LOST);
	CHECK_U64_EQ(s.lost, 3);
	CHECK_INT_EQ(s.types[1], PERF_RECORD_MMAP2);
	CHECK_U64_EQ(s.first_word[1], 99);
	spe_ring_sim_fini(&sim);
}

TEST(data_ring_rejects_bad_size)
{
	struct spe_ring_sim sim;
	CHECK_INT_EQ(spe_ring_sim_init(&sim, 4096, 0), 0);
	uint8_t rec[64];
	make_rec(rec, PERF_RECORD_COMM, 64, 1);
	((struct perf_event_header *)rec)->size = 4; /* smaller than a header */
	memcpy(sim.ring.data, rec, 64);
	sim.ring.page->data_head = 64;
	struct seen s = { 0 };
	CHECK_INT_EQ(spe_ring_read_events(&sim.ring, on_event, &s), -spe_bad_file);
	((struct perf_event_header *)sim.ring.data)->size = 72; /* past the head */
	CHECK_INT_EQ(spe_ring_read_events(&sim.ring, on_event, &s), -spe_bad_file);
	CHECK_INT_EQ(s.n, 0);
	spe_ring_sim_fini(&sim);
}

/* Heads near 2^64 - the counters are free-running: nothing may compare positions. */
TEST(heads_near_wrap_of_u64)
{
	struct spe_ring_sim sim;
	CHECK_INT_EQ(spe_ring_sim_init(&sim, 4096, 1024), 0);
	uint64_t start = UINT64_MAX - 100; /* not a multiple of anything */
	sim.ring.page->aux_head = sim.ring.page->aux_tail = start;
	uint8_t bytes[256];
	for (int i = 0; i < 256; i++)
		bytes[i] = (uint8_t)i;
	uint64_t cuts[] = { 64, 128, 192, 256 };
	CHECK_U64_EQ(spe_ring_sim_aux_burst(&sim, bytes, 256, cuts, 4, NULL, 0), 256);
	struct seen s = { 0 };
	(void)start;
	CHECK_INT_EQ(spe_ring_drain_aux(&sim.ring, on_aux, &s), 256);
	CHECK_U64_EQ(s.aux_offsets[0], UINT64_MAX - 100);
	CHECK(memcmp(s.aux, bytes, 256) == 0);
	spe_ring_sim_fini(&sim);
}

TEST(aux_wraps_and_truncates)
{
	struct spe_ring_sim sim;
	CHECK_INT_EQ(spe_ring_sim_init(&sim, 4096, 1024), 0);
	uint8_t input[4096];
	for (size_t i = 0; i < sizeof input; i++)
		input[i] = (uint8_t)(i * 7 + 3);
	uint64_t cuts[64];
	for (int i = 0; i < 64; i++)
		cuts[i] = 64 * (uint64_t)(i + 1);
	struct seen s = { 0 };

	/* 640 bytes then drain, 640 more then drain: the second burst wraps. */
	CHECK_U64_EQ(spe_ring_sim_aux_burst(&sim, input, 640, cuts, 10, NULL, 0), 640);
	CHECK_INT_EQ(spe_ring_drain_aux(&sim.ring, on_aux, &s), 640);
	CHECK_U64_EQ(spe_ring_sim_aux_burst(&sim, input + 640, 640, cuts, 10, NULL, 0), 640);
	CHECK_INT_EQ(spe_ring_drain_aux(&sim.ring, on_aux, &s), 640);
	CHECK_INT_EQ(s.aux_split, 1);
	CHECK_U64_EQ(s.aux_offsets[1], 640);
	CHECK(memcmp(s.aux, input, 1280) == 0);
	CHECK_INT_EQ(spe_ring_drain_aux(&sim.ring, on_aux, &s), 0); /* empty */

	/* Two bursts without a drain: 640 fit, of the next 640 only 384 (6 records). */
	CHECK_U64_EQ(spe_ring_sim_aux_burst(&sim, input + 1280, 640, cuts, 10, NULL, 0), 640);
	CHECK_U64_EQ(spe_ring_sim_aux_burst(&sim, input + 1920, 640, cuts, 10, NULL, 0), 384);
	CHECK_U64_EQ(sim.aux_dropped, 256);
	CHECK_INT_EQ(spe_ring_drain_aux(&sim.ring, on_aux, &s), 1024);
	CHECK(memcmp(s.aux + 1280, input + 1280, 640 + 384) == 0);
	/* The cut is at a record boundary that fits, not at the byte that fits: */
	uint64_t odd_cuts[] = { 100, 700 };
	CHECK_U64_EQ(spe_ring_sim_aux_burst(&sim, input, 700, odd_cuts, 2, NULL, 0), 700);
	CHECK_U64_EQ(spe_ring_sim_aux_burst(&sim, input, 700, odd_cuts, 2, NULL, 0), 100);

	/* The AUX records in the data ring: offsets, sizes and the T flag. */
	struct {
		uint64_t off, size, flags;
	} want[] = { { 0, 640, 0 }, { 640, 640, 0 }, { 1280, 640, 0 }, { 1920, 384, 1 }, { 2304, 700, 0 },
		     { 3004, 100, 1 } };
	int n = 0;
	uint64_t tail = sim.ring.page->data_tail;
	while (tail < sim.ring.page->data_head && n < 6) {
		const uint8_t *p = sim.ring.data + (tail & 4095);
		const struct perf_event_header *h = (const void *)p;
		const uint64_t *w = (const void *)(p + 8);
		CHECK_INT_EQ(h->type, PERF_RECORD_AUX);
		CHECK_U64_EQ(w[0], want[n].off);
		CHECK_U64_EQ(w[1], want[n].size);
		CHECK_U64_EQ(w[2], want[n].flags);
		tail += h->size;
		n++;
	}
	CHECK_INT_EQ(n, 6);
	spe_ring_sim_fini(&sim);
}

TEST(aux_overrun_detected)
{
	struct spe_ring_sim sim;
	CHECK_INT_EQ(spe_ring_sim_init(&sim, 4096, 1024), 0);
	sim.ring.page->aux_head = 2048; /* a producer that overwrote unread data */
	struct seen s = { 0 };
	CHECK_INT_EQ(spe_ring_drain_aux(&sim.ring, on_aux, &s), -spe_bad_file);
	CHECK_U64_EQ(sim.ring.page->aux_tail, 0);
	spe_ring_sim_fini(&sim);
}

int main(void)
{
	RUN(data_ring_wraps);
	RUN(data_ring_full_gives_lost);
	RUN(data_ring_rejects_bad_size);
	RUN(heads_near_wrap_of_u64);
	RUN(aux_wraps_and_truncates);
	RUN(aux_overrun_detected);
	return check_summary();
}
