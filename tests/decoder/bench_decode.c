/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_decode [MiB]: decode speed of typical 64-byte Neoverse N1 records
 * (loads, stores, branches mixed), for the record decoder and the dumper.
 * Prints GB/s of CPU time; not a pass/fail test (ctest runs it small, label bench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "spe/spe.h"

static double now(void)
{
	struct timespec ts;
	/* CPU time, so that other jobs on a shared machine do not count */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 88172645463325252u;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void n1_record(struct spe_record *r, uint64_t ts)
{
	memset(r, 0, sizeof *r);
	r->has = SPE_HAS_PC | SPE_HAS_OP_TYPE | SPE_HAS_EVENTS | SPE_HAS_ISSUE_LATENCY | SPE_HAS_TOTAL_LATENCY |
		 SPE_HAS_CONTEXT | SPE_HAS_TIMESTAMP;
	r->pc.addr = 0xaaaae4a90000 + (rnd() & 0xfffc);
	r->pc.ns = 1;
	r->context = 1234;
	r->timestamp = ts;
	r->issue_latency = (uint16_t)(rnd() & 15);
	r->total_latency = (uint16_t)(r->issue_latency + (rnd() & 63));
	switch (rnd() % 3) {
	case 0: /* load */
		r->op_raw_class = 1;
		r->op_raw = 0x00;
		r->events = 0x16;
		r->has |= SPE_HAS_DATA_VA | SPE_HAS_TRANSLATION_LATENCY | SPE_HAS_DATA_SOURCE;
		r->data_va = 0xffff00001000 + (rnd() & 0xffff8);
		r->translation_latency = 1;
		r->data_source = rnd() & 1 ? 0 : 0xe;
		break;
	case 1: /* store */
		r->op_raw_class = 1;
		r->op_raw = 0x01;
		r->events = 0x12;
		r->has |= SPE_HAS_DATA_VA | SPE_HAS_TRANSLATION_LATENCY;
		r->data_va = 0xffff00001000 + (rnd() & 0xffff8);
		break;
	default: /* branch */
		r->op_raw_class = 2;
		r->op_raw = 0x01;
		r->events = rnd() & 1 ? 0x42 : 0x82;
		r->has |= SPE_HAS_BRANCH_TARGET;
		r->branch_target = r->pc;
		r->branch_target.addr += 0x40;
		break;
	}
}

static int null_sink(void *ctx, const char *text, size_t len)
{
	(void)text;
	*(size_t *)ctx += len;
	return 0;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? (size_t)atoi(argv[1]) : 64;
	struct spe_enc enc;
	struct spe_record r;
	spe_enc_init(&enc, NULL, 0);
	for (uint64_t i = 0; enc.len < mib << 20; i++) {
		n1_record(&r, 1000 + i);
		spe_enc_record(&enc, &r, SPE_ENC_PAD_TO_64);
	}

	double best = 1e9;
	uint64_t records = 0;
	for (int rep = 0; rep < 5; rep++) {
		struct spe_rec_decoder *dec = spe_rec_alloc_decoder(NULL);
		double t0 = now();
		uint64_t sum = 0;
		records = 0;
		spe_rec_feed(dec, enc.buf, enc.len, 0, 0);
		while (spe_rec_next(dec, &r, sizeof r) == 0) {
			records++;
			sum += r.pc.addr;
		}
		double t = now() - t0;
		if (t < best)
			best = t;
		if (!sum)
			printf("(unlikely)\n");
		spe_rec_free_decoder(dec);
	}
	printf("records: %zu MiB, %" PRIu64 " records of 64 bytes: %.2f GB/s, %.1f M records/s\n", enc.len >> 20, records,
	       (double)enc.len / best / 1e9, (double)records / best / 1e6);

	size_t text = 0;
	struct spe_dump_config cfg = SPE_OPTS(spe_dump_config, .write = null_sink, .ctx = &text);
	double t0 = now();
	spe_dump_buffer(&cfg, enc.buf, enc.len, NULL);
	double t = now() - t0;
	printf("dump:    %.0f MB/s of trace (%.0f MB/s of text)\n", (double)enc.len / t / 1e6, (double)text / t / 1e6);
	spe_enc_fini(&enc);
	return 0;
}
