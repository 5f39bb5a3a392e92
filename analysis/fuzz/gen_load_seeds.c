/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The seeds of fuzz_load (fixtures/fuzz/load/): the fixture traces
 * (fixtures/workloads/traces) and a public sample in fuzz_load's input
 * format, under each of its flags and both sinks, and issue 30's capture.
 *
 *   gen_load_seeds TRACES_DIR PUBLIC_DIR OUT_DIR
 *
 * issue30-prefetch-overflow: 480 loads over 4 CPUs, each at its own PC of
 * datawork-pie's text and without a data object, so each is a latency
 * group of its own kept for the prefetch settle; the first 8 groups' loads
 * have an even total latency (bit 32 of their pending word set), the
 * others an odd one or none.  A sort one digit too wide put group 7 last
 * and the prefetch array was sized for 16 groups of 480.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe/encoder.h"
#include "spe/record.h"

/* One seed being built. */
struct seed {
	uint8_t buf[1 << 16];
	size_t len;
};

static void put(struct seed *s, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes && s->len < sizeof s->buf; i++)
		s->buf[s->len++] = (uint8_t)(v >> (8 * i));
}

/* The flags byte and the sink byte (1: the counting sink, 0: SQLite) of fuzz_load.c. */
static void header(struct seed *s, unsigned flags, unsigned counting)
{
	s->len = 0;
	put(s, flags, 1);
	put(s, counting, 1);
}

/* A records operation: @p n bytes of @p raw on @p cpu as who @p who. */
static void put_records(struct seed *s, unsigned cpu, unsigned who, const uint8_t *raw, size_t n)
{
	put(s, 0, 1);
	put(s, cpu, 1);
	put(s, who, 1);
	put(s, n, 2);
	if (s->len + n <= sizeof s->buf) {
		memcpy(s->buf + s->len, raw, n);
		s->len += n;
	}
}

/* @p n bytes at @p offset of DIR/NAME (whole 64-byte records); NULL if they cannot be read. */
static uint8_t *slice(const char *dir, const char *name, long offset, size_t n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	uint8_t *b = malloc(n);
	if (!f || !b || fseek(f, offset, SEEK_SET) != 0 || fread(b, 1, n, f) != n) {
		fprintf(stderr, "gen_load_seeds: %s: cannot read %zu bytes at %ld\n", path, n, offset);
		if (f)
			fclose(f);
		free(b);
		return NULL;
	}
	fclose(f);
	return b;
}

static int add_slice(struct seed *s, const char *dir, const char *name, long offset, size_t n, unsigned cpu,
		     unsigned who)
{
	uint8_t *b = slice(dir, name, offset, n);
	if (!b)
		return -1;
	put_records(s, cpu, who, b, n);
	free(b);
	return 0;
}

static int write_seed(const char *dir, const char *name, const struct seed *s)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(s->buf, 1, s->len, f) != s->len || fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

/* Issue 30's capture (see the file's comment). */
static int issue30(struct seed *s)
{
	uint8_t load_raw = 0;
	for (unsigned raw = 0; raw < 256; raw++) { /* a plain load of class 1 (load/store/atomic) */
		uint8_t cls;
		uint32_t flags;
		uint16_t evl;
		spe_op_decode(1, (uint8_t)raw, &cls, &flags, &evl);
		if (cls == SPE_OP_CLASS_LOAD && !(flags & SPE_OPF(ATOMIC))) {
			load_raw = (uint8_t)raw;
			break;
		}
	}
	header(s, 0, 0); /* Neoverse N1, one job, NUMA, TIME_CONV, SQLite */
	for (unsigned cpu = 0; cpu < 4; cpu++) {
		struct spe_enc enc;
		spe_enc_init(&enc, NULL, 0);
		for (unsigned k = 0; k < 120; k++) {
			unsigned i = cpu * 120 + k;
			struct spe_record rec;
			memset(&rec, 0, sizeof rec);
			rec.has = SPE_HAS_PC | SPE_HAS_OP_TYPE | SPE_HAS_CONTEXT | SPE_HAS_EVENTS;
			rec.pc = (struct spe_ip){ .addr = 0xaaaab0000000 + 4 * (uint64_t)i, .el = 0, .ns = 1 };
			rec.op_raw_class = 1;
			rec.op_raw = load_raw;
			rec.context = 5151 + i % 3; /* datawork's threads */
			rec.events = 1u << 1;      /* retired */
			if (i < 8 || i % 3) {
				rec.has |= SPE_HAS_TOTAL_LATENCY;
				rec.total_latency = (uint16_t)(i < 8 ? 4 + 2 * i : 7 + 2 * (i % 40));
			}
			spe_enc_record(&enc, &rec, SPE_ENC_PAD_TO_64);
		}
		if (enc.error) {
			spe_enc_fini(&enc);
			return -1;
		}
		put_records(s, cpu, cpu % 3, enc.buf, enc.len);
		spe_enc_fini(&enc);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: gen_load_seeds TRACES_DIR PUBLIC_DIR OUT_DIR\n");
		return 64;
	}
	const char *traces = argv[1], *pub = argv[2], *out = argv[3];
	static struct seed s;
	int rc = 0;

	/* memwork: its two CPUs as memwork.replay gives them (who 3: pid 4242) */
	header(&s, 0x00, 1);
	rc |= add_slice(&s, traces, "memwork-cpu0.bin", 0, 4096, 0, 3);
	rc |= add_slice(&s, traces, "memwork-cpu1.bin", 0, 2048, 1, 4);
	rc |= write_seed(out, "memwork", &s);

	/* datawork: three CPUs, data objects and NUMA nodes */
	header(&s, 0x00, 0);
	rc |= add_slice(&s, traces, "datawork-cpu0.bin", 0, 4096, 0, 0);
	rc |= add_slice(&s, traces, "datawork-cpu1.bin", 0, 2048, 1, 1);
	rc |= add_slice(&s, traces, "datawork-cpu2.bin", 0, 2048, 2, 2);
	rc |= write_seed(out, "datawork", &s);

	/* datawork-after with two jobs: the summaries counted on the writer thread */
	header(&s, 0x01, 0);
	rc |= add_slice(&s, traces, "datawork-after-cpu0.bin", 8192, 4096, 0, 0);
	rc |= add_slice(&s, traces, "datawork-after-cpu1.bin", 0, 2048, 1, 1);
	rc |= add_slice(&s, traces, "datawork-after-cpu2.bin", 0, 2048, 2, 2);
	rc |= write_seed(out, "datawork-after-jobs2", &s);

	/* the middle of datawork's busiest CPU, a line budget of 4 and partial records kept */
	header(&s, 0x12, 1);
	rc |= add_slice(&s, traces, "datawork-cpu0.bin", 65536, 8192, 0, 0);
	rc |= write_seed(out, "datawork-budget4-partial", &s);

	/* memwork without NUMA nor TIME_CONV, with every sideband operation between its records */
	header(&s, 0x0c, 0);
	put(&s, 1, 1); /* switch-in: cpu 0, who 3, time 1000 */
	put(&s, 0, 1);
	put(&s, 3, 1);
	put(&s, 1000, 4);
	put(&s, 2, 1); /* comm: tid 4245 in who 3's process */
	put(&s, 3, 1);
	put(&s, 4245, 2);
	put(&s, 3, 1); /* data mapping: who 3, 64 KiB at 0xaaaaac000000, read-write */
	put(&s, 3, 1);
	put(&s, 0xaaaaac000000, 8);
	put(&s, 0x10000, 4);
	put(&s, 3, 1);
	put(&s, 4, 1); /* code mapping: who 3, memwork-nopie at 0x400000 */
	put(&s, 3, 1);
	put(&s, 2, 1);
	put(&s, 0x400000, 8);
	rc |= add_slice(&s, traces, "memwork-cpu0.bin", 16384, 2048, 0, 3);
	rc |= add_slice(&s, traces, "memwork-cpu1.bin", 4096, 2048, 3, 5);
	rc |= write_seed(out, "memwork-sideband", &s);

	/* the public quipper records (EL2 addresses) on the last CPU read, and on one past it */
	header(&s, 0x00, 1);
	rc |= add_slice(&s, pub, "quipper-test_neoverse_2records.bin", 0, 128, 249, 6);
	rc |= add_slice(&s, pub, "quipper-test_neoverse_2records.bin", 0, 128, 250, 6);
	rc |= write_seed(out, "quipper-last-cpu", &s);

	rc |= issue30(&s);
	rc |= write_seed(out, "issue30-prefetch-overflow", &s);
	s.buf[1] = 1; /* the same through the counting sink */
	rc |= write_seed(out, "issue30-prefetch-overflow-counting", &s);
	return rc ? 1 : 0;
}
