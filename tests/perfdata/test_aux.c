/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AUX stream layer (spe/aux.h): the one place for the rules the loader,
 * the --jobs decode thread and spe-dump each wrote their own way.  Each
 * place where those copies disagreed is a test here:
 *
 *   - an AUXTRACE cpu of 5000 ("out of memory" in spe-load, cpu 0 with
 *     --jobs=2), 4096 (exit 74), 0xfffffffe (silently cpu 0): bad data,
 *     with the file, offset and value; -1 (per-thread) is valid;
 *   - contiguous chunks join (the loader) or, as perf, do not (spe-dump);
 *   - a gap ends the record in progress (the loader) instead of gluing its
 *     head to the next chunk's bytes (spe-dump);
 *   - queue order (ring order per queue) or file order; pipes;
 *   - a non-SPE perf.data is refused (spe-dump accepted one without
 *     AUXTRACE_INFO);
 *   - one statistics struct, dropped_extras included (only spe-dump summed it).
 *
 * Files are written by the perf.data writer and read from memory or from a
 * file or a pipe.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "spe/spe.h"

static const char *fixtures;

/* ---- building inputs ----------------------------------------------------- */

struct chunk_spec {
	uint32_t idx;
	int32_t cpu, tid;
	uint64_t aux_offset;
	const uint8_t *data;
	size_t len;
};

struct built {
	uint8_t *buf;
	size_t len;
	char path[64];
	uint64_t auxtrace_at[8]; /* file offsets of the AUXTRACE records, in file order */
	uint64_t data_at[8];     /* and of their data */
};

static void fill_offsets(struct built *b)
{
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open_mem(f, b->buf, b->len, "scan"), 0);
	struct spe_perf_event ev;
	int n = 0;
	while (spe_perf_next(f, &ev, sizeof ev) == 0)
		if (ev.type == SPE_PERF_RECORD_AUXTRACE && n < 8) {
			b->auxtrace_at[n] = ev.file_offset;
			b->data_at[n++] = ev.u.auxtrace.data_offset;
		}
	spe_perf_free_file(f);
}

/* A perf.data with @p n AUXTRACE chunks, written in the order given; the file stays at b->path. */
static void build(struct built *b, const struct spe_perf_writer_config *cfg, const struct chunk_spec *c, size_t n,
		  uint64_t lost)
{
	memset(b, 0, sizeof *b);
	strcpy(b->path, "/tmp/spe-aux-XXXXXX");
	int fd = mkstemp(b->path);
	CHECK(fd >= 0);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, cfg);
	for (size_t i = 0; i < n; i++)
		CHECK_INT_EQ(spe_perf_write_auxtrace(w, c[i].data, c[i].len, c[i].aux_offset, i, c[i].idx, c[i].tid,
						     c[i].cpu),
			     0);
	if (lost) {
		CHECK_INT_EQ(spe_perf_write_lost(w, 1, lost, NULL), 0);
		CHECK_INT_EQ(spe_perf_write_aux(w, 0, 64, SPE_PERF_AUX_TRUNCATED, NULL), 0);
	}
	CHECK_INT_EQ(spe_perf_writer_close(w), 0);
	struct stat st;
	fstat(fd, &st);
	b->len = (size_t)st.st_size;
	b->buf = malloc(b->len);
	CHECK(pread(fd, b->buf, b->len, 0) == (ssize_t)b->len);
	close(fd);
	fill_offsets(b);
}

static void unbuild(struct built *b)
{
	unlink(b->path);
	free(b->buf);
}

/* A record: PC then TIMESTAMP (18 bytes).  Returns bytes written. */
static size_t put_record(uint8_t *p, uint64_t pc, uint64_t ts)
{
	struct spe_enc e;
	spe_enc_init(&e, p, 64);
	spe_enc_address(&e, SPE_ADDR_PC, spe_enc_ip_payload(pc, 0, 1, 0), 0);
	spe_enc_timestamp(&e, ts);
	return e.len;
}

#define REC 18

static const struct spe_perf_writer_config default_cfg = { .size = sizeof default_cfg, .midr = 0x410fd0c0,
							    .nr_cpus_avail = 8 };

/* ---- running the layer --------------------------------------------------- */

struct run {
	int n;                  /* records */
	uint64_t pc[64];
	int32_t cpu[64], tid[64];
	uint32_t queue[64];
	uint64_t offset[64], file_offset[64], time[64];
	int n_chunks;
	uint32_t chunk_flags[16];
	int events_after_first_chunk;
	int events;
	int rc;                 /* what ended the run: -spe_eos or an error */
	char errmsg[512];
	struct spe_aux_stats st;
	int n_errors;
	struct spe_aux_error errors[4];
};

static void collect_error(void *ctx, const struct spe_aux_error *e)
{
	struct run *r = ctx;
	if (r->n_errors < 4)
		r->errors[r->n_errors] = *e;
	r->n_errors++;
}

static void run_perf(struct run *r, struct spe_perf_file *f, enum spe_aux_order order, enum spe_aux_join join,
		     uint32_t items)
{
	memset(r, 0, sizeof *r);
	struct spe_aux_config cfg = SPE_OPTS(spe_aux_config, .perf = f, .order = order, .join = join, .items = items,
					     .on_error = collect_error, .ctx = r);
	struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&cfg);
	CHECK(aux != NULL);
	struct spe_aux_item it;
	int type;
	while ((type = spe_aux_next(aux, &it, sizeof it)) > 0) {
		if (type == SPE_AUX_RECORD && r->n < 64) {
			r->pc[r->n] = it.record->pc.addr;
			r->cpu[r->n] = it.cpu;
			r->tid[r->n] = it.tid;
			r->queue[r->n] = it.queue;
			r->offset[r->n] = it.offset;
			r->file_offset[r->n] = it.file_offset;
			r->time[r->n] = it.time;
			r->n++;
		} else if (type == SPE_AUX_CHUNK && r->n_chunks < 16) {
			r->chunk_flags[r->n_chunks++] = it.chunk_flags;
		} else if (type == SPE_AUX_EVENT) {
			r->events++;
			r->events_after_first_chunk += r->n_chunks > 0;
		}
	}
	r->rc = type;
	snprintf(r->errmsg, sizeof r->errmsg, "%s", spe_aux_errmsg(aux));
	/* errors are sticky */
	if (type != -spe_eos)
		CHECK_INT_EQ(spe_aux_next(aux, &it, sizeof it), type);
	spe_aux_get_stats(aux, &r->st, sizeof r->st);
	spe_aux_free_decoder(aux);
}

static void run_mem(struct run *r, const struct built *b, enum spe_aux_order order, enum spe_aux_join join)
{
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open_mem(f, b->buf, b->len, "aux.data"), 0);
	run_perf(r, f, order, join, SPE_AUX_WANT_CHUNKS);
	spe_perf_free_file(f);
}

/* ---- CPU range ---------------------------------------------------------- */

static void check_bad_cpu(int32_t cpu, uint32_t nr_cpus, const char *what)
{
	uint8_t rec[64];
	size_t n = put_record(rec, 0x1000, 5);
	struct spe_perf_writer_config cfg = default_cfg;
	cfg.nr_cpus_avail = nr_cpus;
	/* a good queue first, then the bad one */
	struct chunk_spec c[2] = { { 0, 0, -1, 0, rec, n }, { 1, cpu, -1, 0, rec, n } };
	struct built b;
	build(&b, &cfg, c, 2, 0);
	char want[256];
	snprintf(want, sizeof want, "aux.data: offset 0x%llx: %s", (unsigned long long)b.auxtrace_at[1], what);
	for (int order = SPE_AUX_ORDER_QUEUE; order <= SPE_AUX_ORDER_FILE; order++) {
		struct run r;
		run_mem(&r, &b, order, SPE_AUX_JOIN_CONTIGUOUS);
		CHECK_INT_EQ(r.rc, -spe_bad_file);
		CHECK_STR_EQ(r.errmsg, want);
		/* queue order checks every chunk before decoding any; file order stops at the bad one */
		CHECK_INT_EQ(r.n, order == SPE_AUX_ORDER_QUEUE ? 0 : 1);
	}
	unbuild(&b);
}

TEST(cpu_beyond_nr_cpus_is_bad_data)
{
	check_bad_cpu(5000, 8, "AUXTRACE cpu 5000 is beyond the 8 CPUs of the file's HEADER_NRCPUS");
	check_bad_cpu(8, 8, "AUXTRACE cpu 8 is beyond the 8 CPUs of the file's HEADER_NRCPUS");
}

TEST(cpu_beyond_max_is_bad_data)
{
	/* even where the file claims more CPUs */
	check_bad_cpu(4096, 8192, "AUXTRACE cpu 4096 is beyond the 4096 CPUs spekit reads");
	check_bad_cpu(5000, 0xffffffffu, "AUXTRACE cpu 5000 is beyond the 4096 CPUs spekit reads");
}

TEST(negative_cpu_other_than_minus_one_is_bad_data)
{
	check_bad_cpu((int32_t)0xfffffffe, 8, "AUXTRACE cpu 0xfffffffe is neither -1 (per-thread) nor a CPU number");
	check_bad_cpu(INT32_MIN, 8, "AUXTRACE cpu 0x80000000 is neither -1 (per-thread) nor a CPU number");
}

TEST(per_thread_and_last_cpu_are_valid)
{
	uint8_t r0[64], r1[64];
	size_t n0 = put_record(r0, 0x1000, 5), n1 = put_record(r1, 0x2000, 6);
	struct chunk_spec c[2] = { { 0, -1, 4242, 0, r0, n0 }, { 1, 7, -1, 0, r1, n1 } };
	struct built b;
	build(&b, &default_cfg, c, 2, 0);
	for (int order = SPE_AUX_ORDER_QUEUE; order <= SPE_AUX_ORDER_FILE; order++) {
		struct run r;
		run_mem(&r, &b, order, SPE_AUX_JOIN_CONTIGUOUS);
		CHECK_INT_EQ(r.rc, -spe_eos);
		CHECK_INT_EQ(r.n, 2);
		CHECK_U64_EQ(r.pc[0], 0x1000);
		CHECK_INT_EQ(r.cpu[0], -1);
		CHECK_INT_EQ(r.tid[0], 4242);
		CHECK_U64_EQ(r.pc[1], 0x2000);
		CHECK_INT_EQ(r.cpu[1], 7);
		CHECK_INT_EQ(r.tid[1], -1);
		CHECK_INT_EQ(r.queue[1], 1);
	}
	unbuild(&b);
}

/* ---- joins and gaps ------------------------------------------------------ */

/* Two records, the stream cut @p cut bytes in (inside the second record's PC packet). */
static void build_cut(struct built *b, uint8_t *s, size_t cut)
{
	size_t n = put_record(s, 0x1000, 5);
	n += put_record(s + n, 0x2000, 6);
	struct chunk_spec c[2] = { { 0, 0, -1, 0, s, cut }, { 0, 0, -1, cut, s + cut, n - cut } };
	build(b, &default_cfg, c, 2, 0);
}

TEST(contiguous_chunks_join_a_cut_packet)
{
	/* cut 6 bytes into the PC packet, at 24: a multiple of 8, so perf writes no padding */
	uint8_t s[64];
	struct built b;
	build_cut(&b, s, REC + 6);
	for (int order = SPE_AUX_ORDER_QUEUE; order <= SPE_AUX_ORDER_FILE; order++) {
		struct run r;
		run_mem(&r, &b, order, SPE_AUX_JOIN_CONTIGUOUS);
		CHECK_INT_EQ(r.n, 2);
		CHECK_U64_EQ(r.pc[1], 0x2000);
		CHECK_U64_EQ(r.st.bad_bytes, 0);
		CHECK_INT_EQ(r.n_chunks, 2);
		CHECK_INT_EQ(r.chunk_flags[0], SPE_AUX_CHUNK_FIRST);
		CHECK_INT_EQ(r.chunk_flags[1], SPE_AUX_CHUNK_JOINED);
		/* the second record starts in the first chunk: its file offset is there */
		CHECK_U64_EQ(r.offset[1], REC);
		CHECK_U64_EQ(r.file_offset[1], b.data_at[0] + REC);
		CHECK_U64_EQ(r.st.gaps, 0);

		/* as perf: the cut packet's bytes are decoded on their own and the second record is lost */
		run_mem(&r, &b, order, SPE_AUX_JOIN_NEVER);
		CHECK_INT_EQ(r.n, 1);
		CHECK(r.st.bad_bytes > 0);
		CHECK(r.n_errors > 0);
		CHECK_INT_EQ(r.errors[0].queue, 0);
		CHECK_U64_EQ(r.errors[0].offset, REC);
		CHECK_U64_EQ(r.errors[0].file_offset, b.data_at[0] + REC);
	}
	unbuild(&b);
}

TEST(padded_chunk_continues_its_queue)
{
	/*
	 * Cut at 23: perf's writer pads the first chunk to 24 bytes (its size
	 * says 24) while the second starts at ring offset 23.  That is no gap.
	 * Queue order sees the next chunk and decodes 23 bytes, so the packet
	 * joins; file order cannot know and decodes the padding, as perf does.
	 */
	uint8_t s[64];
	struct built b;
	build_cut(&b, s, REC + 5);
	struct run r;
	run_mem(&r, &b, SPE_AUX_ORDER_QUEUE, SPE_AUX_JOIN_CONTIGUOUS);
	CHECK_INT_EQ(r.n, 2);
	CHECK_U64_EQ(r.pc[1], 0x2000);
	CHECK_U64_EQ(r.st.bad_bytes, 0);
	CHECK_U64_EQ(r.st.gaps, 0);
	run_mem(&r, &b, SPE_AUX_ORDER_FILE, SPE_AUX_JOIN_CONTIGUOUS);
	CHECK_INT_EQ(r.chunk_flags[1], SPE_AUX_CHUNK_JOINED);
	CHECK_U64_EQ(r.st.gaps, 0);
	CHECK_INT_EQ(r.n, 1);
	CHECK(r.st.bad_bytes > 0);
	unbuild(&b);
}

TEST(gap_ends_the_record_in_progress)
{
	/* chunk 1: record A, then the PC of B; chunk 2, after a gap of 0x100 bytes: record C */
	uint8_t s1[64], s2[64];
	size_t n1 = put_record(s1, 0xa000, 1);
	n1 += put_record(s1 + n1, 0xb000, 2) - 9; /* B's TIMESTAMP never came */
	size_t n2 = put_record(s2, 0xc000, 3);
	struct chunk_spec c[2] = { { 0, 0, -1, 0, s1, n1 }, { 0, 0, -1, 0x100 + n1, s2, n2 } };
	struct built b;
	build(&b, &default_cfg, c, 2, 0);
	for (int order = SPE_AUX_ORDER_QUEUE; order <= SPE_AUX_ORDER_FILE; order++) {
		struct run r;
		run_mem(&r, &b, order, SPE_AUX_JOIN_CONTIGUOUS);
		CHECK_INT_EQ(r.n, 2);
		CHECK_U64_EQ(r.pc[0], 0xa000);
		CHECK_U64_EQ(r.pc[1], 0xc000); /* not B's PC glued to C's TIMESTAMP */
		CHECK_U64_EQ(r.offset[1], 0x100 + n1);
		CHECK_U64_EQ(r.file_offset[1], b.data_at[1]);
		CHECK_U64_EQ(r.st.partial_records, 1);
		CHECK_U64_EQ(r.st.gaps, 1);
		CHECK_INT_EQ(r.chunk_flags[1], SPE_AUX_CHUNK_GAP);
	}
	unbuild(&b);
}

/* ---- orders ------------------------------------------------------------- */

TEST(queue_order_reads_each_queue_in_ring_order)
{
	/* queue 0 in two chunks written in reverse ring order, queue 1 between them */
	uint8_t s0[64], s1[64];
	size_t n0 = put_record(s0, 0x1000, 1);
	n0 += put_record(s0 + n0, 0x1100, 2);
	size_t n1 = put_record(s1, 0x2000, 3);
	struct chunk_spec c[3] = { { 0, 0, -1, REC, s0 + REC, REC }, { 1, 1, -1, 0, s1, n1 }, { 0, 0, -1, 0, s0, REC } };
	(void)n0;
	struct built b;
	build(&b, &default_cfg, c, 3, 0);
	struct run r;
	run_mem(&r, &b, SPE_AUX_ORDER_QUEUE, SPE_AUX_JOIN_CONTIGUOUS);
	CHECK_INT_EQ(r.n, 3);
	CHECK_U64_EQ(r.pc[0], 0x1000);
	CHECK_U64_EQ(r.pc[1], 0x1100);
	CHECK_U64_EQ(r.pc[2], 0x2000);
	CHECK_U64_EQ(r.file_offset[0], b.data_at[2]);
	CHECK_U64_EQ(r.file_offset[1], b.data_at[0]);
	CHECK_U64_EQ(r.st.gaps, 0);
	CHECK_INT_EQ(r.chunk_flags[1], SPE_AUX_CHUNK_JOINED);

	/* file order: as written; queue 0's second chunk goes back in the ring, a gap */
	run_mem(&r, &b, SPE_AUX_ORDER_FILE, SPE_AUX_JOIN_CONTIGUOUS);
	CHECK_INT_EQ(r.n, 3);
	CHECK_U64_EQ(r.pc[0], 0x1100);
	CHECK_U64_EQ(r.pc[1], 0x2000);
	CHECK_U64_EQ(r.pc[2], 0x1000);
	CHECK_U64_EQ(r.st.gaps, 1);
	CHECK_INT_EQ(r.chunk_flags[2], SPE_AUX_CHUNK_GAP);
	unbuild(&b);
}

TEST(events_items_come_first_in_queue_order)
{
	uint8_t s[64];
	size_t n = put_record(s, 0x1000, 1);
	struct chunk_spec c[2] = { { 0, 0, -1, 0, s, n }, { 1, 1, -1, 0, s, n } };
	struct built b;
	build(&b, &default_cfg, c, 2, 0);
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open_mem(f, b.buf, b.len, "aux.data"), 0);
	struct run r;
	run_perf(&r, f, SPE_AUX_ORDER_QUEUE, SPE_AUX_JOIN_CONTIGUOUS, SPE_AUX_WANT_EVENTS | SPE_AUX_WANT_CHUNKS);
	/* TIME_CONV, AUXTRACE_INFO, 2 AUXTRACE, FINISHED_ROUND... all before the first chunk */
	CHECK(r.events >= 4);
	CHECK_INT_EQ(r.events_after_first_chunk, 0);
	CHECK_INT_EQ(r.n_chunks, 2);
	spe_perf_free_file(f);
	/* file order: the second AUXTRACE event comes after the first chunk */
	f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open_mem(f, b.buf, b.len, "aux.data"), 0);
	run_perf(&r, f, SPE_AUX_ORDER_FILE, SPE_AUX_JOIN_CONTIGUOUS, SPE_AUX_WANT_EVENTS | SPE_AUX_WANT_CHUNKS);
	CHECK(r.events_after_first_chunk >= 1);
	CHECK_INT_EQ(r.n, 2);
	spe_perf_free_file(f);
	unbuild(&b);
}

TEST(pipe_reads_in_file_order_only)
{
	uint8_t s[64];
	size_t n = put_record(s, 0x1000, 1);
	struct chunk_spec c[1] = { { 0, 0, -1, 0, s, n } };
	struct spe_perf_writer_config cfg = default_cfg;
	cfg.pipe_mode = 1;
	struct built b;
	build(&b, &cfg, c, 1, 0);
	for (int order = SPE_AUX_ORDER_QUEUE; order <= SPE_AUX_ORDER_FILE; order++) {
		int p[2];
		CHECK_INT_EQ(pipe(p), 0);
		CHECK(b.len < 4096); /* fits the pipe: no writer process needed */
		CHECK(write(p[1], b.buf, b.len) == (ssize_t)b.len);
		close(p[1]);
		struct spe_perf_file *f = spe_perf_alloc_file(NULL);
		CHECK_INT_EQ(spe_perf_open_fd(f, p[0], "(pipe)"), 0);
		struct run r;
		run_perf(&r, f, order, SPE_AUX_JOIN_CONTIGUOUS, 0);
		if (order == SPE_AUX_ORDER_QUEUE) {
			CHECK_INT_EQ(r.rc, -spe_unsupported);
			CHECK_STR_EQ(r.errmsg, "(pipe): AUX queues need a file, not a pipe");
		} else {
			CHECK_INT_EQ(r.rc, -spe_eos);
			CHECK_INT_EQ(r.n, 1);
			CHECK_U64_EQ(r.pc[0], 0x1000);
		}
		spe_perf_free_file(f);
		close(p[0]);
	}
	unbuild(&b);
}

TEST(mapped_file_gives_the_same_records)
{
	/* from the file (mmapped; decoded chunks' pages released) rather than memory */
	uint8_t s[8192];
	size_t n = 0;
	for (int i = 0; i < 400; i++)
		n += put_record(s + n, 0x1000 + 4u * (unsigned)i, (uint64_t)i);
	struct chunk_spec c[3] = { { 0, 0, -1, 0, s, 5000 }, { 1, 1, -1, 0, s, n }, { 0, 0, -1, 5000, s + 5000, n - 5000 } };
	struct built b;
	build(&b, &default_cfg, c, 3, 0);
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open(f, b.path), 0);
	struct run r;
	run_perf(&r, f, SPE_AUX_ORDER_QUEUE, SPE_AUX_JOIN_CONTIGUOUS, 0);
	CHECK_INT_EQ(r.rc, -spe_eos);
	CHECK_U64_EQ(r.st.records, 800);
	CHECK_U64_EQ(r.st.bad_bytes, 0);
	CHECK_U64_EQ(r.st.chunks, 3);
	CHECK_U64_EQ(r.st.bytes, 2 * n);
	CHECK_U64_EQ(r.st.queues, 2);
	CHECK_U64_EQ(r.pc[63], 0x1000 + 4 * 63);
	spe_perf_free_file(f);
	unbuild(&b);
}

/* ---- not SPE -------------------------------------------------------------- */

TEST(not_spe_data_is_refused)
{
	uint8_t s[64];
	size_t n = put_record(s, 0x1000, 1);
	struct chunk_spec c[1] = { { 0, 0, -1, 0, s, n } };
	struct built b;
	build(&b, &default_cfg, c, 1, 0);
	/* AUXTRACE_INFO of kind 1 (Intel PT): patch the kind of the writer's record */
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open_mem(f, b.buf, b.len, "scan"), 0);
	struct spe_perf_event ev;
	uint64_t info_at = 0;
	while (spe_perf_next(f, &ev, sizeof ev) == 0)
		if (ev.type == SPE_PERF_RECORD_AUXTRACE_INFO)
			info_at = ev.file_offset;
	spe_perf_free_file(f);
	CHECK(info_at != 0);
	b.buf[info_at + 8] = 1;
	char want[256];
	snprintf(want, sizeof want, "aux.data: offset 0x%llx: no Arm SPE data: its AUXTRACE_INFO is of kind 1, not arm_spe (4)",
		 (unsigned long long)info_at);
	for (int order = SPE_AUX_ORDER_QUEUE; order <= SPE_AUX_ORDER_FILE; order++) {
		struct run r;
		run_mem(&r, &b, order, SPE_AUX_JOIN_CONTIGUOUS);
		CHECK_INT_EQ(r.rc, -spe_bad_file);
		CHECK_STR_EQ(r.errmsg, want);
		CHECK_INT_EQ(r.n, 0);
	}
	unbuild(&b);
	/* an arm_spe session that sampled nothing: 0 records, no error */
	build(&b, &default_cfg, NULL, 0, 0);
	for (int order = SPE_AUX_ORDER_QUEUE; order <= SPE_AUX_ORDER_FILE; order++) {
		struct run r;
		run_mem(&r, &b, order, SPE_AUX_JOIN_CONTIGUOUS);
		CHECK_INT_EQ(r.rc, -spe_eos);
		CHECK_INT_EQ(r.n, 0);
	}
	unbuild(&b);
}

TEST(perf_data_without_aux_is_refused)
{
	/* fixtures/perfdata/cpu-clock-true.data: perf record -e cpu-clock, no AUXTRACE_INFO, no AUX */
	char p[512];
	snprintf(p, sizeof p, "%s/perfdata/cpu-clock-true.data", fixtures);
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open(f, p), 0);
	for (int order = SPE_AUX_ORDER_QUEUE; order <= SPE_AUX_ORDER_FILE; order++) {
		struct run r;
		if (order == SPE_AUX_ORDER_FILE) {
			spe_perf_free_file(f);
			f = spe_perf_alloc_file(NULL);
			CHECK_INT_EQ(spe_perf_open(f, p), 0);
		}
		run_perf(&r, f, order, SPE_AUX_JOIN_CONTIGUOUS, 0);
		CHECK_INT_EQ(r.rc, -spe_bad_file);
		char want[1024];
		snprintf(want, sizeof want,
			 "%s: no Arm SPE data: no AUXTRACE_INFO of kind arm_spe and no AUX data"
			 " (record with perf record -e arm_spe//, or spe-record)",
			 p);
		CHECK_STR_EQ(r.errmsg, want);
	}
	spe_perf_free_file(f);
}

/* ---- time, statistics, raw input ---------------------------------------------- */

TEST(time_and_merged_stats)
{
	/* queue 0: a record; queue 1: a record with 11 unnamed counters (3 past the 8 kept) */
	uint8_t s0[64], s1[128];
	size_t n0 = put_record(s0, 0x1000, 1000);
	size_t n1 = 0;
	for (unsigned idx = 3; idx <= 13; idx++) {
		if (idx >= 8)
			s1[n1++] = (uint8_t)(0x20 | (idx >> 3));
		s1[n1++] = (uint8_t)(0x98 | (idx & 7));
		s1[n1++] = (uint8_t)idx;
		s1[n1++] = 0;
	}
	s1[n1++] = 0x01; /* END */
	struct spe_perf_time_conv tc = { .time_shift = 1, .time_mult = 3, .time_zero = 100, .cap_user_time_zero = 1 };
	struct spe_perf_writer_config cfg = default_cfg;
	cfg.time_conv = &tc;
	struct chunk_spec c[2] = { { 0, 0, -1, 0, s0, n0 }, { 1, 1, -1, 0, s1, n1 } };
	struct built b;
	build(&b, &cfg, c, 2, 42);
	for (int order = SPE_AUX_ORDER_QUEUE; order <= SPE_AUX_ORDER_FILE; order++) {
		struct run r;
		run_mem(&r, &b, order, SPE_AUX_JOIN_CONTIGUOUS);
		CHECK_INT_EQ(r.n, 2);
		CHECK_U64_EQ(r.time[0], 100 + (1000 >> 1) * 3);
		CHECK_U64_EQ(r.time[1], SPE_AUX_NO_TIME); /* END, no TIMESTAMP */
		CHECK_U64_EQ(r.st.records, 2);
		CHECK_U64_EQ(r.st.dropped_extras, 3);
		CHECK_U64_EQ(r.st.unknown_packets, 11);
		CHECK_U64_EQ(r.st.queues, 2);
		CHECK_U64_EQ(r.st.chunks, 2);
		CHECK_U64_EQ(r.st.bytes, 24 + n1); /* the writer pads each chunk to 8 bytes, as perf */
		CHECK_U64_EQ(r.st.lost, 42);
		CHECK_U64_EQ(r.st.aux_records, 1);
		CHECK_U64_EQ(r.st.aux_truncated, 1);
	}
	unbuild(&b);
}

TEST(raw_windows_join)
{
	uint8_t s[REC * 20];
	size_t n = 0;
	for (int i = 0; i < 20; i++)
		n += put_record(s + n, 0x4000 + 4u * (unsigned)i, (uint64_t)i);
	/* 64-byte windows cut packets; raw input joins them whatever config.join says */
	for (int join = SPE_AUX_JOIN_CONTIGUOUS; join <= SPE_AUX_JOIN_NEVER; join++) {
		struct spe_raw_config rc = SPE_OPTS(spe_raw_config, .midr = 0x410fd0c0, .window = 64);
		struct spe_raw_input *raw = spe_raw_alloc_input(&rc);
		CHECK_INT_EQ(spe_raw_open_mem(raw, s, n, "raw"), 0);
		struct spe_aux_config cfg = SPE_OPTS(spe_aux_config, .raw = raw, .raw_cpu = 3, .join = join);
		struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&cfg);
		struct spe_aux_item it;
		int type, k = 0;
		while ((type = spe_aux_next(aux, &it, sizeof it)) == SPE_AUX_RECORD) {
			CHECK_U64_EQ(it.record->pc.addr, 0x4000 + 4u * (unsigned)k);
			CHECK_INT_EQ(it.cpu, 3);
			CHECK_INT_EQ(it.tid, -1);
			CHECK_INT_EQ(it.midr, 0x410fd0c0);
			CHECK_U64_EQ(it.file_offset, (uint64_t)k * REC);
			k++;
		}
		CHECK_INT_EQ(type, -spe_eos);
		CHECK_INT_EQ(k, 20);
		struct spe_aux_stats st;
		spe_aux_get_stats(aux, &st, sizeof st);
		CHECK_U64_EQ(st.bad_bytes, 0);
		CHECK_U64_EQ(st.chunks, (n + 63) / 64);
		spe_aux_free_decoder(aux);
		spe_raw_free_input(raw);
	}
}

TEST(small_item_and_bad_config)
{
	CHECK(spe_aux_alloc_decoder(NULL) == NULL);
	struct spe_aux_config none = SPE_OPTS(spe_aux_config);
	CHECK(spe_aux_alloc_decoder(&none) == NULL);
	struct spe_raw_input *raw = spe_raw_alloc_input(NULL);
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	struct spe_aux_config both = SPE_OPTS(spe_aux_config, .raw = raw, .perf = f);
	CHECK(spe_aux_alloc_decoder(&both) == NULL);
	struct spe_aux_config cpu = SPE_OPTS(spe_aux_config, .raw = raw, .raw_cpu = SPE_AUX_MAX_CPUS);
	CHECK(spe_aux_alloc_decoder(&cpu) == NULL);
	struct spe_aux_config order = SPE_OPTS(spe_aux_config, .raw = raw, .order = 7);
	CHECK(spe_aux_alloc_decoder(&order) == NULL);
	CHECK_INT_EQ(spe_aux_next(NULL, NULL, 0), -spe_invalid);
	/* an older caller's item, up to the record pointer */
	uint8_t s[64];
	size_t n = put_record(s, 0x1000, 1);
	CHECK_INT_EQ(spe_raw_open_mem(raw, s, n, "raw"), 0);
	struct spe_aux_config ok = SPE_OPTS(spe_aux_config, .raw = raw, .raw_cpu = -1);
	struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&ok);
	struct spe_aux_item it;
	memset(&it, 0xee, sizeof it);
	CHECK_INT_EQ(spe_aux_next(aux, &it, 1), -spe_invalid);
	CHECK_INT_EQ(spe_aux_next(aux, &it, offsetof(struct spe_aux_item, event)), SPE_AUX_RECORD);
	CHECK_U64_EQ(it.record->pc.addr, 0x1000);
	CHECK_INT_EQ(it.cpu, -1);
	CHECK(*(uint8_t *)&it.event == 0xee); /* not written past the size given */
	CHECK_INT_EQ(spe_aux_next(aux, &it, sizeof it), -spe_eos);
	spe_aux_free_decoder(aux);
	spe_perf_free_file(f);
	spe_raw_free_input(raw);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_aux FIXTURES_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	RUN(cpu_beyond_nr_cpus_is_bad_data);
	RUN(cpu_beyond_max_is_bad_data);
	RUN(negative_cpu_other_than_minus_one_is_bad_data);
	RUN(per_thread_and_last_cpu_are_valid);
	RUN(contiguous_chunks_join_a_cut_packet);
	RUN(padded_chunk_continues_its_queue);
	RUN(gap_ends_the_record_in_progress);
	RUN(queue_order_reads_each_queue_in_ring_order);
	RUN(events_items_come_first_in_queue_order);
	RUN(pipe_reads_in_file_order_only);
	RUN(mapped_file_gives_the_same_records);
	RUN(not_spe_data_is_refused);
	RUN(perf_data_without_aux_is_refused);
	RUN(time_and_merged_stats);
	RUN(raw_windows_join);
	RUN(small_item_and_bad_config);
	return check_summary();
}
