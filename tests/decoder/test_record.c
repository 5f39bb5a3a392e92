/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Record decoder: encoder round trips of random records, chunked feeding
 * (join=1 gives the same records as one buffer, whatever the chunk sizes),
 * error callbacks and statistics, struct-size handling and bad arguments.
 */
#include <stdlib.h>

#include "check.h"
#include "test_util.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

#define ADDR_MASK UINT64_C(0x00FFFFFFFFFFFFFF)

static void random_ip(struct spe_ip *ip)
{
	ip->el = (uint8_t)(rnd() & 3);
	ip->ns = (uint8_t)(rnd() & 1);
	ip->nse = (uint8_t)(rnd() & 1);
	ip->addr = rnd() & ADDR_MASK;
	if (ip->ns && (ip->el == 1 || ip->el == 2))
		ip->addr |= ~ADDR_MASK; /* canonical form */
}

/* A random record in canonical form, as the decoder would return it. */
static void random_record(struct spe_record *r)
{
	memset(r, 0, sizeof *r);
	r->has = (uint32_t)rnd() & 0x1FFF;
	if (r->has & SPE_HAS_PC)
		random_ip(&r->pc);
	if (r->has & SPE_HAS_BRANCH_TARGET)
		random_ip(&r->branch_target);
	if (r->has & SPE_HAS_PREV_BRANCH_TARGET)
		random_ip(&r->prev_branch_target);
	if (r->has & SPE_HAS_DATA_VA) {
		r->data_va = rnd() & ADDR_MASK;
		if (((r->data_va >> 52) & 0xF) == 0xF)
			r->data_va |= ~ADDR_MASK;
		r->data_va_tag = (uint8_t)rnd();
	}
	if (r->has & SPE_HAS_DATA_PA) {
		r->data_pa = rnd() & ADDR_MASK;
		r->data_pa_ns = (uint8_t)(rnd() & 1);
		r->data_pa_ch = (uint8_t)(rnd() & 1);
		r->data_pa_pat = (uint8_t)(rnd() & 15);
	}
	if (r->has & SPE_HAS_TIMESTAMP)
		r->timestamp = rnd();
	else
		r->has |= SPE_HAS_END;
	if (r->has & SPE_HAS_EVENTS)
		r->events = rnd() >> (rnd() & 63);
	if (r->has & SPE_HAS_TOTAL_LATENCY)
		r->total_latency = (uint16_t)rnd();
	if (r->has & SPE_HAS_ISSUE_LATENCY)
		r->issue_latency = (uint16_t)rnd();
	if (r->has & SPE_HAS_TRANSLATION_LATENCY)
		r->translation_latency = (uint16_t)rnd();
	if (r->has & SPE_HAS_CONTEXT) {
		r->context = (uint32_t)rnd();
		r->context_index = (uint8_t)(rnd() & 1);
	}
	if (r->has & SPE_HAS_OP_TYPE) {
		r->op_raw_class = (uint8_t)(rnd() % 3);
		r->op_raw = (uint8_t)rnd();
		spe_op_decode(r->op_raw_class, r->op_raw, &r->op_class, &r->op_flags, &r->sve_evl);
	}
	if (r->has & SPE_HAS_DATA_SOURCE)
		r->data_source = rnd() & 0xFFFF;
	r->n_extra_counters = (uint8_t)(rnd() % 3);
	for (unsigned i = 0; i < r->n_extra_counters; i++) {
		r->extra_counters[i].index = (uint8_t)(3 + rnd() % 29);
		r->extra_counters[i].value = (uint16_t)rnd();
	}
	r->n_extra_addresses = (uint8_t)(rnd() % 2);
	for (unsigned i = 0; i < r->n_extra_addresses; i++) {
		r->extra_addresses[i].index = (uint8_t)(5 + rnd() % 27);
		r->extra_addresses[i].value = rnd();
	}
	r->n_unknown_packets = (uint8_t)(r->n_extra_counters + r->n_extra_addresses);
}

static int same_record(const struct spe_record *a, const struct spe_record *b)
{
	return !memcmp(a, b, sizeof *a);
}

#define N_RECORDS 2000

static struct spe_record want[N_RECORDS], got[N_RECORDS];

/* Encode N random records (some padded to 64 bytes); remember their offsets. */
static uint8_t *encode_stream(size_t *len)
{
	struct spe_enc enc;
	spe_enc_init(&enc, NULL, 0);
	for (int i = 0; i < N_RECORDS; i++) {
		random_record(&want[i]);
		want[i].offset = enc.len;
		/* A record of just a terminator starts at the terminator: pad only records with content. */
		int content = (want[i].has & ~(SPE_HAS_END | SPE_HAS_TIMESTAMP)) || want[i].n_unknown_packets;
		CHECK(spe_enc_record(&enc, &want[i], content && (rnd() & 1) ? SPE_ENC_PAD_TO_64 : 0) > 0);
	}
	*len = enc.len;
	return enc.buf;
}

TEST(encoder_round_trip)
{
	size_t len;
	uint8_t *buf = encode_stream(&len);
	struct spe_rec_stats st;
	int n = test_records(buf, len, got, N_RECORDS, &st);
	CHECK_INT_EQ(n, N_RECORDS);
	CHECK_U64_EQ(st.bad_bytes, 0);
	CHECK_U64_EQ(st.records, N_RECORDS);
	for (int i = 0; i < n && i < N_RECORDS; i++) {
		/* the encoder writes PC first, so a record's offset is where it starts */
		if (!same_record(&want[i], &got[i])) {
			CHECK_FAIL_("record %d differs (has 0x%x / 0x%x, offset %" PRIu64 " / %" PRIu64 ")", i,
				    want[i].has, got[i].has, want[i].offset, got[i].offset);
			break;
		}
	}
	free(buf);
}

/* Feed @p buf in random chunks; collect records and stats. */
static int decode_chunked(const uint8_t *buf, size_t len, int join, size_t max_chunk, struct spe_rec_stats *st)
{
	struct spe_rec_decoder *dec = spe_rec_alloc_decoder(NULL);
	struct spe_record r;
	int n = 0;
	for (size_t pos = 0; pos < len;) {
		size_t k = 1 + rnd() % max_chunk;
		if (k > len - pos)
			k = len - pos;
		CHECK_INT_EQ(spe_rec_feed(dec, buf + pos, k, pos, join), 0);
		/* Garbage in the caller's struct: records are assembled in it and must overwrite all of it. */
		for (memset(&r, 0xA5, sizeof r); spe_rec_next(dec, &r, sizeof r) == 0; memset(&r, 0xA5, sizeof r))
			if (n < N_RECORDS)
				got[n++] = r;
		pos += k;
	}
	spe_rec_flush(dec);
	while (spe_rec_next(dec, &r, sizeof r) == 0)
		if (n < N_RECORDS)
			got[n++] = r;
	spe_rec_get_stats(dec, st, sizeof *st);
	spe_rec_free_decoder(dec);
	return n;
}

TEST(chunked_join_equals_whole)
{
	size_t len;
	uint8_t *buf = encode_stream(&len);
	static const size_t max_chunks[] = { 1, 3, 10, 17, 64, 4096 };
	for (size_t c = 0; c < sizeof max_chunks / sizeof max_chunks[0]; c++) {
		struct spe_rec_stats st;
		int n = decode_chunked(buf, len, 1, max_chunks[c], &st);
		CHECK_INT_EQ(n, N_RECORDS);
		CHECK_U64_EQ(st.bad_bytes, 0);
		for (int i = 0; i < n && i < N_RECORDS; i++)
			if (!same_record(&want[i], &got[i])) {
				CHECK_FAIL_("max chunk %zu: record %d differs", max_chunks[c], i);
				break;
			}
	}
	free(buf);
}

/* Without join, a chunked stream loses records but never crashes, and accounts for every bad byte. */
TEST(chunked_no_join_counts_damage)
{
	size_t len;
	uint8_t *buf = encode_stream(&len);
	struct spe_rec_stats st;
	int n = decode_chunked(buf, len, 0, 50, &st);
	CHECK(n < N_RECORDS);
	CHECK(st.bad_bytes > 0);
	CHECK(st.skipped_bytes >= st.bad_bytes);
	CHECK_U64_EQ(st.records, (uint64_t)n);
	free(buf);
}

struct errors {
	int n;
	uint64_t offsets[8];
	int codes[8];
};

static void collect(void *ctx, uint64_t offset, int err, const char *reason)
{
	struct errors *e = ctx;
	CHECK(reason && *reason);
	if (e->n < 8) {
		e->offsets[e->n] = offset;
		e->codes[e->n] = err;
	}
	e->n++;
}

TEST(errors_reported_with_stream_offsets)
{
	/* END, bad 0x02, PC cut at the end; fed at stream offset 1000 */
	static const uint8_t bytes[] = { 0x01, 0x02, 0xb0, 0x11, 0x22 };
	struct errors e = { 0 };
	struct spe_rec_config cfg = SPE_OPTS(spe_rec_config, .on_error = collect, .ctx = &e);
	struct spe_rec_decoder *dec = spe_rec_alloc_decoder(&cfg);
	struct spe_record r;
	struct spe_rec_stats st;
	CHECK_INT_EQ(spe_rec_feed(dec, bytes, sizeof bytes, 1000, 0), 0);
	CHECK_INT_EQ(spe_rec_next(dec, &r, sizeof r), 0);
	CHECK_U64_EQ(r.offset, 1000);
	CHECK_INT_EQ(r.has, SPE_HAS_END);
	CHECK_INT_EQ(spe_rec_next(dec, &r, sizeof r), -spe_eos);
	CHECK_INT_EQ(e.n, 1);
	CHECK_U64_EQ(e.offsets[0], 1001);
	CHECK_INT_EQ(e.codes[0], -spe_bad_packet);
	spe_rec_flush(dec); /* the cut PC: one bad byte, then 0x11 and 0x22 are not headers */
	CHECK_INT_EQ(spe_rec_next(dec, &r, sizeof r), -spe_eos);
	CHECK_INT_EQ(e.n, 4);
	CHECK_U64_EQ(e.offsets[1], 1002);
	CHECK_INT_EQ(e.codes[1], -spe_need_more);
	CHECK_U64_EQ(e.offsets[3], 1004);
	spe_rec_get_stats(dec, &st, sizeof st);
	CHECK_U64_EQ(st.records, 1);
	CHECK_U64_EQ(st.bad_bytes, 4);
	/* a short stats struct gets a prefix only */
	struct spe_rec_stats small = { 0 };
	spe_rec_get_stats(dec, &small, sizeof(uint64_t));
	CHECK_U64_EQ(small.records, 1);
	CHECK_U64_EQ(small.bad_bytes, 0);
	spe_rec_free_decoder(dec);
}

TEST(bad_arguments)
{
	static const uint8_t end = 0x01;
	struct spe_rec_config tiny = { .size = 4 };
	struct spe_record r;
	struct spe_rec_decoder *dec;
	CHECK(spe_rec_alloc_decoder(&tiny) == NULL);
	dec = spe_rec_alloc_decoder(NULL);
	CHECK(dec != NULL);
	CHECK_INT_EQ(spe_rec_feed(NULL, &end, 1, 0, 0), -spe_invalid);
	CHECK_INT_EQ(spe_rec_feed(dec, NULL, 1, 0, 0), -spe_invalid);
	CHECK_INT_EQ(spe_rec_next(NULL, &r, sizeof r), -spe_invalid);
	CHECK_INT_EQ(spe_rec_next(dec, NULL, sizeof r), -spe_invalid);
	CHECK_INT_EQ(spe_rec_next(dec, &r, 4), -spe_invalid);
	CHECK_INT_EQ(spe_rec_next(dec, &r, sizeof r), -spe_eos); /* nothing fed */
	CHECK_INT_EQ(spe_rec_feed(dec, &end, 1, 0, 0), 0);
	CHECK_INT_EQ(spe_rec_feed(dec, &end, 1, 1, 0), -spe_invalid); /* previous chunk not read */
	/* a caller with an older, shorter struct gets the prefix */
	memset(&r, 0xAA, sizeof r);
	CHECK_INT_EQ(spe_rec_next(dec, &r, offsetof(struct spe_record, op_flags)), 0);
	CHECK_INT_EQ(r.has, SPE_HAS_END);
	CHECK_INT_EQ(r.op_flags, 0xAAAAAAAA);
	CHECK_INT_EQ(spe_rec_next(dec, &r, sizeof r), -spe_eos);
	CHECK_INT_EQ(spe_rec_feed(dec, NULL, 0, 1, 1), 0); /* empty chunk is fine */
	spe_rec_flush(NULL);
	spe_rec_get_stats(NULL, NULL, 0);
	spe_rec_free_decoder(dec);
	spe_rec_free_decoder(NULL);
}

int main(void)
{
	RUN(encoder_round_trip);
	RUN(chunked_join_equals_whole);
	RUN(chunked_no_join_counts_damage);
	RUN(errors_reported_with_stream_offsets);
	RUN(bad_arguments);
	return check_summary();
}
