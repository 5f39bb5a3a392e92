/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Replay end to end at the library level: generated SPE streams go through
 * the simulated rings into a perf.data (libspe's writer), which is read back
 * with libspe's reader and record decoder.
 *  - lossless: the AUXTRACE bytes equal the input and decode to the same records;
 *  - wrap-around: small AUX areas, chunk boundaries on record boundaries;
 *  - truncation: bursts larger than the area lose whole records, counted exactly;
 *  - manifests: sideband, several CPUs, AUXTRACE_INFO v2 when MIDRs differ.
 */
#include "check.h"
#include "spe/encoder.h"
#include "spe/rec_output.h"
#include "spe/replay.h"
#include "spe/spe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void)
{
	return check_xorshift(&rng);
}

/* @p n records of varying length (some 64-byte padded, some not), every one ending in TS. */
static uint8_t *gen_stream(int n, size_t *len)
{
	struct spe_enc enc;
	spe_enc_init(&enc, NULL, 0);
	for (int i = 0; i < n; i++) {
		struct spe_record r;
		memset(&r, 0, sizeof r);
		r.has = SPE_HAS_PC | SPE_HAS_TIMESTAMP | SPE_HAS_OP_TYPE | SPE_HAS_EVENTS | SPE_HAS_TOTAL_LATENCY;
		r.pc.addr = 0xaaaac17c3000ull + 4 * (next_rand() % 1024);
		r.pc.el = 0;
		r.pc.ns = 1;
		r.op_raw_class = 1; /* load/store */
		r.op_raw = 0x00;    /* LD GP-REG */
		r.events = 0x2 | (next_rand() & 0x4);
		r.total_latency = (uint16_t)(next_rand() % 300);
		r.timestamp = 1000000 + 40 * (uint64_t)i;
		if (next_rand() & 1) {
			r.has |= SPE_HAS_DATA_VA;
			r.data_va = 0xffffa0000000ull + (next_rand() & 0xfffff8);
		}
		spe_enc_record(&enc, &r, (next_rand() & 1) ? SPE_ENC_PAD_TO_64 : 0);
	}
	*len = enc.len;
	return enc.buf; /* owned: freed by the caller */
}

static char *write_file(const char *name, const void *data, size_t len)
{
	static char path[4][512];
	static int k;
	char *p = path[k++ & 3];
	snprintf(p, 512, "%s/%s", tmpdir, name);
	FILE *f = fopen(p, "wb");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
	return p;
}

struct readback {
	uint8_t *aux[4];        /* AUXTRACE bytes per idx, concatenated */
	size_t aux_len[4];
	uint64_t next_offset[4];
	int chunks, contiguous_ok;
	int aux_records, aux_truncated;
	uint64_t aux_sizes;     /* sum of AUX record sizes */
	uint64_t records;       /* SPE records decoded chunk by chunk (no joining, like perf) */
	uint64_t partial, bad;
	int comms, mmap2s, itrace_starts;
	char comm[32], mmap_name[256];
	uint64_t mmap_start;
	uint8_t mmap_bid_size;
	int32_t cpu_of_idx[4];
	struct spe_perf_info info;
};

static void read_back(const char *path, struct readback *rb)
{
	memset(rb, 0, sizeof *rb);
	rb->contiguous_ok = 1;
	struct spe_perf_config pc = SPE_OPTS(spe_perf_config);
	struct spe_perf_file *f = spe_perf_alloc_file(&pc);
	CHECK_INT_EQ(spe_perf_open(f, path), 0);
	struct spe_perf_event ev;
	int r;
	while ((r = spe_perf_next(f, &ev, sizeof ev)) == 0) {
		switch (ev.type) {
		case SPE_PERF_RECORD_AUXTRACE: {
			const struct spe_perf_auxtrace *a = &ev.u.auxtrace;
			if (a->idx >= 4)
				break;
			/* The writer pads each chunk to 8 with zeros; the next offset says where it really ended. */
			if (rb->aux_len[a->idx] && a->offset >= rb->next_offset[a->idx] - 7 &&
			    a->offset < rb->next_offset[a->idx])
				rb->aux_len[a->idx] -= (size_t)(rb->next_offset[a->idx] - a->offset);
			rb->next_offset[a->idx] = a->offset + a->size;
			rb->aux[a->idx] = realloc(rb->aux[a->idx], rb->aux_len[a->idx] + a->size);
			memcpy(rb->aux[a->idx] + rb->aux_len[a->idx], a->data, a->size);
			rb->aux_len[a->idx] += a->size;
			rb->cpu_of_idx[a->idx] = a->cpu;
			rb->chunks++;
			struct spe_rec_config rc = SPE_OPTS(spe_rec_config);
			struct spe_rec_decoder *d = spe_rec_alloc_decoder(&rc);
			spe_rec_feed(d, a->data, a->size, 0, 0);
			struct spe_record rec;
			while (spe_rec_next(d, &rec, sizeof rec) == 0)
				rb->records++;
			spe_rec_flush(d);
			struct spe_rec_stats st;
			spe_rec_get_stats(d, &st, sizeof st);
			rb->partial += st.partial_records;
			rb->bad += st.bad_bytes;
			spe_rec_free_decoder(d);
			break;
		}
		case SPE_PERF_RECORD_AUX:
			rb->aux_records++;
			rb->aux_truncated += (ev.u.aux.flags & SPE_PERF_AUX_TRUNCATED) != 0;
			rb->aux_sizes += ev.u.aux.aux_size;
			break;
		case SPE_PERF_RECORD_COMM:
			rb->comms++;
			snprintf(rb->comm, sizeof rb->comm, "%s", ev.u.comm.comm);
			break;
		case SPE_PERF_RECORD_MMAP2:
			rb->mmap2s++;
			snprintf(rb->mmap_name, sizeof rb->mmap_name, "%s", ev.u.mmap.filename);
			rb->mmap_start = ev.u.mmap.start;
			rb->mmap_bid_size = ev.u.mmap.build_id_size;
			break;
		case SPE_PERF_RECORD_ITRACE_START:
			rb->itrace_starts++;
			break;
		}
	}
	CHECK_INT_EQ(r, -spe_eos);
	if (r != -spe_eos)
		printf("  reader: %s\n", spe_perf_errmsg(f));
	spe_perf_get_info(f, &rb->info, sizeof rb->info);
	spe_perf_free_file(f);
}

/* The bytes read back are @p want plus at most 7 zero bytes of padding after the last chunk. */
static int same_bytes(const uint8_t *got, size_t got_len, const uint8_t *want, size_t want_len)
{
	if (!got || got_len < want_len || got_len - want_len > 7 || memcmp(got, want, want_len))
		return 0;
	for (size_t i = want_len; i < got_len; i++)
		if (got[i])
			return 0;
	return 1;
}

static void free_readback(struct readback *rb)
{
	for (int i = 0; i < 4; i++)
		free(rb->aux[i]);
}

static uint64_t count_records(const uint8_t *buf, size_t len)
{
	struct spe_rec_config rc = SPE_OPTS(spe_rec_config);
	struct spe_rec_decoder *d = spe_rec_alloc_decoder(&rc);
	spe_rec_feed(d, buf, len, 0, 0);
	struct spe_record rec;
	uint64_t n = 0;
	while (spe_rec_next(d, &rec, sizeof rec) == 0)
		n++;
	spe_rec_free_decoder(d);
	return n;
}

/* Replay @p m into @p out with the given ring sizes. */
static int replay_to(const struct spe_replay_manifest *m, const char *out, uint64_t aux_size, uint64_t burst,
		     struct spe_session_stats *st, struct spe_replay_stats *rs)
{
	uint32_t cpus[8];
	uint64_t midrs[8];
	for (size_t i = 0; i < m->n_cpus && i < 8; i++) {
		cpus[i] = m->cpus[i].cpu;
		midrs[i] = m->cpus[i].midr;
	}
	struct spe_rec_output_config oc = { .n_cpus = (uint32_t)m->n_cpus,
						   .cpus = cpus, .midrs = midrs, .hostname = "test" };
	struct spe_rec_output *o;
	char err[512];
	int r = spe_rec_output_open(out, &oc, &o, err, sizeof err);
	CHECK_INT_EQ(r, 0);
	if (r)
		return r;
	struct spe_replay_config rc = { .aux_size = aux_size, .burst = burst,
					       .sample_type = spe_rec_output_sample_type(),
					       .sample_id = SPE_REC_OUTPUT_SAMPLE_ID };
	struct spe_session_sink sink = spe_rec_output_sink(o);
	r = spe_replay_run(m, &rc, &sink, st, rs, err, sizeof err);
	if (r)
		printf("  replay: %s\n", err);
	CHECK_INT_EQ(spe_rec_output_close(o, err, sizeof err), 0);
	return r;
}

TEST(lossless_with_wraparound)
{
	size_t len;
	uint8_t *in = gen_stream(2000, &len);
	uint64_t want_records = count_records(in, len);
	CHECK_INT_EQ(want_records, 2000);
	const char *raw = write_file("stream.bin", in, len);
	struct spe_replay_manifest *m;
	CHECK_INT_EQ(spe_replay_manifest_for_raw(raw, 3, 0x410fd0c0, &m), 0);
	char out[512];
	snprintf(out, sizeof out, "%s/lossless.data", tmpdir);
	struct spe_session_stats st;
	struct spe_replay_stats rs;
	/* 4 KiB area, 2 KiB bursts: the ring wraps about len / 4096 times. */
	CHECK_INT_EQ(replay_to(m, out, 4096, 0, &st, &rs), 0);
	CHECK_U64_EQ(rs.input_bytes, len);
	CHECK_U64_EQ(rs.aux_dropped, 0);
	CHECK_U64_EQ(st.aux_truncated, 0);
	CHECK_U64_EQ(st.aux_bytes, len);
	CHECK(st.auxtrace_records > len / 2048);

	struct readback rb;
	read_back(out, &rb);
	CHECK(same_bytes(rb.aux[0], rb.aux_len[0], in, len));
	CHECK_INT_EQ(rb.cpu_of_idx[0], 3);
	/* Every chunk holds whole records: decoding chunk by chunk, as perf does, loses nothing. */
	CHECK_U64_EQ(rb.records, want_records);
	CHECK_U64_EQ(rb.partial, 0);
	CHECK_U64_EQ(rb.bad, 0);
	CHECK_INT_EQ(rb.aux_records, rb.chunks);
	CHECK_U64_EQ(rb.aux_sizes, len);
	CHECK_INT_EQ(rb.info.auxtrace_info.version, 1);
	CHECK_INT_EQ(rb.info.midr, 0x410fd0c0);
	CHECK_INT_EQ(rb.info.n_auxtrace_index, rb.chunks);
	free_readback(&rb);
	spe_replay_manifest_free(m);
	free(in);
}

TEST(truncation_drops_whole_records)
{
	size_t len;
	uint8_t *in = gen_stream(3000, &len);
	const char *raw = write_file("trunc.bin", in, len);
	struct spe_replay_manifest *m;
	CHECK_INT_EQ(spe_replay_manifest_for_raw(raw, 0, 0, &m), 0);
	char out[512];
	snprintf(out, sizeof out, "%s/trunc.data", tmpdir);
	struct spe_session_stats st;
	struct spe_replay_stats rs;
	/* The hardware writes 6000 bytes between wakeups into a 4096-byte area. */
	CHECK_INT_EQ(replay_to(m, out, 4096, 6000, &st, &rs), 0);
	CHECK(rs.aux_dropped > 0);
	CHECK_U64_EQ(rs.aux_written + rs.aux_dropped, len);
	CHECK_U64_EQ(st.aux_bytes, rs.aux_written);
	CHECK(st.aux_truncated >= len / 6000);

	struct readback rb;
	read_back(out, &rb);
	CHECK(rb.aux_len[0] >= rs.aux_written && rb.aux_len[0] - rs.aux_written < 8);
	CHECK_INT_EQ(rb.aux_truncated, st.aux_truncated);
	/* What survives is whole records only. */
	CHECK_U64_EQ(rb.partial, 0);
	CHECK_U64_EQ(rb.bad, 0);
	CHECK_U64_EQ(rb.records, count_records(rb.aux[0], rb.aux_len[0]));
	CHECK(rb.records < 3000);
	free_readback(&rb);
	spe_replay_manifest_free(m);
	free(in);
}

TEST(manifest_two_cpus_sideband)
{
	size_t l0, l1;
	uint8_t *a = gen_stream(100, &l0), *b = gen_stream(50, &l1);
	write_file("cpu0.bin", a, l0);
	write_file("cpu5.bin", b, l1);
	const char *text = "spekit-replay 1\n"
			   "time_conv 0 1 0\n"
			   "comm 1234 1234 memstress\n"
			   "mmap2 1234 1234 0xaaaac17c3000 0x1000 0x1000 /usr/bin/memstress build_id=00112233445566778899aabbccddeeff00112233\n"
			   "midr 0x410fd0c0\n"
			   "cpu 0\naux cpu0.bin\nitrace_start 1234 1234\n"
			   "cpu 5\nmidr 0x410fd490\naux cpu5.bin\n";
	const char *mpath = write_file("two.replay", text, strlen(text));
	struct spe_replay_manifest *m;
	char err[512];
	CHECK_INT_EQ(spe_replay_manifest_parse(mpath, &m, err, sizeof err), 0);
	if (!m)
		return;
	char out[512];
	snprintf(out, sizeof out, "%s/two.data", tmpdir);
	struct spe_session_stats st;
	struct spe_replay_stats rs;
	CHECK_INT_EQ(replay_to(m, out, 0, 0, &st, &rs), 0);
	struct readback rb;
	read_back(out, &rb);
	CHECK(same_bytes(rb.aux[0], rb.aux_len[0], a, l0));
	CHECK(same_bytes(rb.aux[1], rb.aux_len[1], b, l1));
	CHECK_INT_EQ(rb.cpu_of_idx[0], 0);
	CHECK_INT_EQ(rb.cpu_of_idx[1], 5);
	CHECK_INT_EQ(rb.comms, 1);
	CHECK_STR_EQ(rb.comm, "memstress");
	CHECK_INT_EQ(rb.mmap2s, 1);
	CHECK_STR_EQ(rb.mmap_name, "/usr/bin/memstress");
	CHECK_U64_EQ(rb.mmap_start, 0xaaaac17c3000ull);
	CHECK_INT_EQ(rb.mmap_bid_size, 20);
	CHECK_INT_EQ(rb.itrace_starts, 1);
	CHECK_INT_EQ(rb.info.n_build_ids, 1);
	/* Different MIDRs: AUXTRACE_INFO v2 with both CPUs. */
	CHECK_INT_EQ(rb.info.auxtrace_info.version, 2);
	CHECK_INT_EQ(rb.info.auxtrace_info.n_cpus, 2);
	free_readback(&rb);
	spe_replay_manifest_free(m);
	free(a);
	free(b);
}

/* Bytes with no record boundary (not SPE at all) still go through whole, cut at the burst size. */
TEST(bytes_without_records)
{
	static uint8_t junk[20000];
	memset(junk, 0xff, sizeof junk);
	const char *raw = write_file("junk.bin", junk, sizeof junk);
	struct spe_replay_manifest *m;
	CHECK_INT_EQ(spe_replay_manifest_for_raw(raw, 0, 0, &m), 0);
	char out[512];
	snprintf(out, sizeof out, "%s/junk.data", tmpdir);
	struct spe_session_stats st;
	struct spe_replay_stats rs;
	CHECK_INT_EQ(replay_to(m, out, 4096, 0, &st, &rs), 0);
	CHECK_U64_EQ(rs.aux_dropped, 0);
	CHECK_U64_EQ(st.aux_bytes, sizeof junk);
	CHECK_U64_EQ(st.auxtrace_records, (sizeof junk + 2047) / 2048);
	struct readback rb;
	read_back(out, &rb);
	CHECK(same_bytes(rb.aux[0], rb.aux_len[0], junk, sizeof junk));
	free_readback(&rb);
	spe_replay_manifest_free(m);
}

static volatile sig_atomic_t stop_now = 1;

static int count_event(void *ctx, const struct perf_event_header *ev)
{
	(void)ev;
	((uint64_t *)ctx)[0]++;
	return 0;
}

static int count_aux(void *ctx, const void *data, uint64_t size, uint64_t offset, uint32_t idx, int32_t tid,
		     int32_t cpu)
{
	(void)data, (void)offset, (void)idx, (void)tid, (void)cpu;
	((uint64_t *)ctx)[1] += size;
	return 0;
}

static int failing_aux(void *ctx, const void *data, uint64_t size, uint64_t offset, uint32_t idx, int32_t tid,
		       int32_t cpu)
{
	(void)ctx, (void)data, (void)size, (void)offset, (void)idx, (void)tid, (void)cpu;
	return -spe_io; /* as the writer reports a full disk */
}

TEST(stop_flag_sink_error_missing_file)
{
	size_t len;
	uint8_t *in = gen_stream(2000, &len);
	const char *raw = write_file("stop.bin", in, len);
	struct spe_replay_manifest *m;
	CHECK_INT_EQ(spe_replay_manifest_for_raw(raw, 0, 0, &m), 0);
	struct spe_session_stats st;
	struct spe_replay_stats rs;
	char err[512];
	struct spe_replay_config rc = { .aux_size = 4096,
					       .sample_type = spe_rec_output_sample_type(), .sample_id = 1,
					       .stop = &stop_now };
	uint64_t counts[2] = { 0, 0 };
	struct spe_session_sink sink = { counts, count_event, count_aux };
	/* Stop requested before the start: one burst goes through, then the replay ends cleanly. */
	CHECK_INT_EQ(spe_replay_run(m, &rc, &sink, &st, &rs, err, sizeof err), 0);
	CHECK_INT_EQ(rs.stopped, 1);
	CHECK(counts[1] > 0 && counts[1] <= 2048);
	CHECK_U64_EQ(counts[1], st.aux_bytes);
	CHECK_U64_EQ(counts[0], 1); /* the AUX record of that burst */

	/* A sink error (disk full) stops the replay with that error. */
	rc.stop = NULL;
	struct spe_session_sink bad = { counts, count_event, failing_aux };
	CHECK_INT_EQ(spe_replay_run(m, &rc, &bad, &st, &rs, err, sizeof err), -spe_io);
	CHECK(strstr(err, "input/output error") != NULL);
	spe_replay_manifest_free(m);

	CHECK_INT_EQ(spe_replay_manifest_for_raw("/nonexistent/x.bin", 0, 0, &m), 0);
	CHECK_INT_EQ(spe_replay_run(m, &rc, &sink, &st, &rs, err, sizeof err), -spe_io);
	CHECK_STR_EQ(err, "/nonexistent/x.bin: cannot open: No such file or directory");
	spe_replay_manifest_free(m);
	free(in);
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/spe-test-replay-XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(lossless_with_wraparound);
	RUN(truncation_drops_whole_records);
	RUN(manifest_two_cpus_sideband);
	RUN(bytes_without_records);
	RUN(stop_flag_sink_error_missing_file);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", tmpdir);
	return check_summary();
}
