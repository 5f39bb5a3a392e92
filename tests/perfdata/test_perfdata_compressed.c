/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reader on perf record -z data (COMPRESSED 81 and COMPRESSED2 83) and
 * on the records skipped by their size: streams compressed here with libzstd
 * in pieces cut anywhere (one zstd stream, flushed after each piece, as perf
 * writes it), so records straddle compressed records; every record must come
 * out whole, in order, with the offset of the compressed record that
 * completed it (what perf report -D prints).  Then what must fail, and how:
 * a zstd bomb, a stream cut inside a record, bytes that are not zstd, records
 * perf never compresses found inside, a compression type that is not zstd, a
 * COMPRESSED2 size that lies; HEADER_TRACING_DATA's trailing bytes in memory
 * and through a real pipe; unknown record types and feature ids; the layout
 * perf 7.x writes.  The real captures are in real_captures.sh.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "check.h"
#include "perf_bytes.h"
#include "spe/spe.h"

/* ---- a stream of records, compressed in pieces ---- */

/* @p n records: COMM with names of growing length, MMAP2, FORK and an unknown type 200 in turn. */
static struct buf plain_records(int n)
{
	struct buf s = { 0 };
	for (int i = 0; i < n; i++) {
		switch (i % 4) {
		case 0: {
			char name[64];
			int len = snprintf(name, sizeof name, "task-%d-%.*s", i, i % 40, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
			uint16_t size = (uint16_t)(16 + ((len + 8) & ~7));
			hdr(&s, SPE_PERF_RECORD_COMM, size);
			put32(&s, 1000 + i);
			put32(&s, 2000 + i);
			size_t at = s.len;
			put(&s, NULL, size - 16u);
			memcpy(s.p + at, name, (size_t)len);
			break;
		}
		case 1:
			hdr(&s, SPE_PERF_RECORD_MMAP2, 72 + 16);
			put32(&s, 1000 + i);
			put32(&s, 1000 + i);
			put64(&s, 0x400000 + 0x1000ull * i);
			put64(&s, 0x1000);
			put64(&s, 0);
			put(&s, NULL, 32); /* maj, min, ino, generation, prot, flags */
			put(&s, "/bin/ls\0\0\0\0\0\0\0\0\0", 16);
			break;
		case 2:
			hdr(&s, SPE_PERF_RECORD_FORK, 40);
			put32(&s, 3000 + i);
			put32(&s, 1);
			put32(&s, 3000 + i);
			put32(&s, 1);
			put64(&s, 77);
			put64(&s, 0);
			break;
		default:
			hdr(&s, 200, 24); /* a type no perf writes: skipped by its size */
			put(&s, NULL, 16);
		}
	}
	return s;
}

struct pieces {
	struct buf z[4096];  /* zstd bytes of each compressed record */
	size_t end[4096];    /* stream bytes decompressed once record i is read */
	int n;
};

/* Compress @p s in pieces of @p piece bytes, flushing after each (one zstd stream, never ended). */
static void compress_pieces(const struct buf *s, size_t piece, struct pieces *out)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	ZSTD_initCStream(cs, 1);
	out->n = 0;
	for (size_t at = 0; at < s->len; at += piece) {
		size_t n = s->len - at < piece ? s->len - at : piece;
		struct buf *z = &out->z[out->n];
		*z = (struct buf){ 0 };
		put(z, NULL, ZSTD_compressBound(n) + 64);
		ZSTD_inBuffer in = { s->p + at, n, 0 };
		ZSTD_outBuffer o = { z->p, z->len, 0 };
		while (in.pos < in.size)
			ZSTD_compressStream(cs, &o, &in);
		while (ZSTD_flushStream(cs, &o) != 0)
			;
		z->len = o.pos;
		out->end[out->n++] = at + n;
	}
	ZSTD_freeCStream(cs);
}

static void free_pieces(struct pieces *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->z[i].p);
}

/* A COMPRESSED (81) or COMPRESSED2 (83: u64 size, bytes, zero padding to 8) record of @p z. */
static void put_compressed(struct buf *b, uint32_t type, const struct buf *z)
{
	if (type == SPE_PERF_RECORD_COMPRESSED) {
		hdr(b, type, (uint16_t)(8 + z->len));
		put(b, z->p, z->len);
		return;
	}
	size_t size = (16 + z->len + 7) & ~(size_t)7;
	hdr(b, type, (uint16_t)size);
	put64(b, z->len);
	put(b, z->p, z->len);
	put(b, NULL, size - 16 - z->len);
}

/* HEADER_FEATURE of HEADER_COMPRESSED: version 0, @p comp_type, level 1, ratio 0, @p mmap_len. */
static void put_comp_feature(struct buf *b, uint32_t comp_type, uint32_t mmap_len)
{
	hdr(b, SPE_PERF_RECORD_HEADER_FEATURE, 36);
	put64(b, SPE_PERF_FEAT_COMPRESSED);
	put32(b, 0);
	put32(b, comp_type);
	put32(b, 1);
	put32(b, 0);
	put32(b, mmap_len);
}

static void pipe_header(struct buf *b)
{
	put(b, "PERFILE2", 8);
	put64(b, 16);
}

/*
 * A pipe-mode file: HEADER_COMPRESSED, then the pieces as @p type records
 * with a plain FINISHED_ROUND after every third; *@p rec_off gets each
 * compressed record's offset.
 */
static struct buf compressed_file(const struct pieces *pc, uint32_t type, uint64_t *rec_off)
{
	struct buf b = { 0 };
	pipe_header(&b);
	put_comp_feature(&b, 1, 528384);
	for (int i = 0; i < pc->n; i++) {
		rec_off[i] = b.len;
		put_compressed(&b, type, &pc->z[i]);
		if (i % 3 == 2)
			hdr(&b, SPE_PERF_RECORD_FINISHED_ROUND, 8);
	}
	return b;
}

static struct spe_perf_file *open_buf(const struct buf *b)
{
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open_mem(f, b->p, b->len, "t.data"), 0);
	return f;
}

/* Stream @p b through a real pipe (a child writes it) into a reader with a @p max-byte record limit. */
static struct spe_perf_file *open_piped(const struct buf *b, size_t max, pid_t *child, int *fd)
{
	int fds[2];
	if (pipe(fds) != 0)
		return NULL;
	*child = fork();
	if (*child == 0) {
		close(fds[0]);
		size_t done = 0;
		while (done < b->len) {
			ssize_t n = write(fds[1], b->p + done, b->len - done);
			if (n <= 0)
				_exit(1);
			done += (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	*fd = fds[0];
	struct spe_perf_config cfg = SPE_OPTS(spe_perf_config, .max_stream_event = max);
	struct spe_perf_file *f = spe_perf_alloc_file(&cfg);
	CHECK_INT_EQ(spe_perf_open_fd(f, fds[0], "(pipe)"), 0);
	return f;
}

static void close_piped(struct spe_perf_file *f, pid_t child, int fd)
{
	spe_perf_free_file(f);
	close(fd);
	waitpid(child, NULL, 0);
}

/*
 * Read @p f to the end and check every record of @p s came out whole, with
 * the offset of the compressed record that completed it, and each
 * FINISHED_ROUND after the records its compressed records completed.
 */
static void check_stream(struct spe_perf_file *f, const struct buf *s, const struct pieces *pc, const uint64_t *rec_off)
{
	struct spe_perf_event ev;
	size_t at = 0; /* stream offset of the next record expected */
	int k = 0, rounds = 0, rc;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0) {
		if (ev.type == SPE_PERF_RECORD_FINISHED_ROUND) {
			CHECK_INT_EQ(ev.compressed, 0);
			rounds++;
			continue;
		}
		if (ev.type == SPE_PERF_RECORD_HEADER_FEATURE)
			continue;
		uint16_t size = (uint16_t)(s->p[at + 6] | s->p[at + 7] << 8);
		/* the compressed record whose bytes complete this one */
		while (pc->end[k] < at + size)
			k++;
		CHECK_INT_EQ(ev.compressed, 1);
		CHECK_U64_EQ(ev.stream_offset, at);
		CHECK_U64_EQ(ev.file_offset, rec_off[k]);
		CHECK_INT_EQ(ev.header_size, size);
		CHECK(memcmp(ev.raw, s->p + at, size) == 0);
		if (ev.type == SPE_PERF_RECORD_COMM) {
			char name[64];
			snprintf(name, sizeof name, "task-%d-", ev.u.comm.pid - 1000);
			CHECK(strncmp(ev.u.comm.comm, name, strlen(name)) == 0);
		}
		if (ev.type == SPE_PERF_RECORD_MMAP2)
			CHECK_STR_EQ(ev.u.mmap.filename, "/bin/ls");
		at += size;
	}
	CHECK_INT_EQ(rc, -spe_eos);
	CHECK_U64_EQ(at, s->len);
	CHECK_INT_EQ(rounds, pc->n / 3);
	struct spe_perf_info info;
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_U64_EQ(info.n_compressed, pc->n);
	CHECK_U64_EQ(info.decompressed_bytes, s->len);
	CHECK_INT_EQ(info.comp_mmap_len, 528384);
	CHECK_INT_EQ(info.comp_type, 1);
}

TEST(records_straddle_compressed_records)
{
	struct buf s = plain_records(400);
	static struct pieces pc;
	static const size_t piece_sizes[] = { 7, 100, 999, 1 << 20 };
	for (size_t i = 0; i < sizeof piece_sizes / sizeof piece_sizes[0]; i++) {
		compress_pieces(&s, piece_sizes[i], &pc);
		for (uint32_t type = SPE_PERF_RECORD_COMPRESSED; type <= SPE_PERF_RECORD_COMPRESSED2; type += 2) {
			static uint64_t rec_off[4096];
			struct buf b = compressed_file(&pc, type, rec_off);
			struct spe_perf_file *f = open_buf(&b);
			check_stream(f, &s, &pc, rec_off);
			spe_perf_free_file(f);
			/* through a pipe, with a record limit below the window: only a compressed record must fit */
			pid_t child;
			int fd;
			f = open_piped(&b, 70000, &child, &fd);
			check_stream(f, &s, &pc, rec_off);
			close_piped(f, child, fd);
			free(b.p);
		}
		free_pieces(&pc);
	}
	free(s.p);
}

/* Read @p b to its end: the error code, the message and the records read. */
static int read_to_end(const struct buf *b, char *msg, size_t len, int *n, struct spe_perf_info *info)
{
	struct spe_perf_file *f = open_buf(b);
	struct spe_perf_event ev;
	int rc;
	*n = 0;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0)
		++*n;
	snprintf(msg, len, "%s", spe_perf_errmsg(f));
	if (info)
		spe_perf_get_info(f, info, sizeof *info);
	spe_perf_free_file(f);
	return rc;
}

/* A pipe-mode file of one compressed record of @p s (COMPRESSED), after HEADER_COMPRESSED with @p mmap_len (0: none). */
static struct buf one_compressed(const struct buf *s, uint32_t mmap_len)
{
	static struct pieces pc;
	compress_pieces(s, s->len, &pc);
	struct buf b = { 0 };
	pipe_header(&b);
	if (mmap_len)
		put_comp_feature(&b, 1, mmap_len);
	put_compressed(&b, SPE_PERF_RECORD_COMPRESSED, &pc.z[0]);
	free_pieces(&pc);
	return b;
}

TEST(zstd_bomb_is_bounded)
{
	/* 800,000 bytes of FINISHED_ROUND records in a record of a few hundred bytes */
	struct buf s = { 0 };
	for (int i = 0; i < 100000; i++)
		hdr(&s, SPE_PERF_RECORD_FINISHED_ROUND, 8);
	struct buf b = one_compressed(&s, 528384);
	CHECK(b.len < 1000);
	char msg[640];
	int n;
	CHECK_INT_EQ(read_to_end(&b, msg, sizeof msg, &n, NULL), -spe_bad_file);
	CHECK_STR_EQ(msg, "t.data: offset 0x34: compressed record decompresses to more than 528384 bytes, "
			  "HEADER_COMPRESSED's mmap length, the most perf puts in one (damaged or hostile data)");
	CHECK(n <= 528384 / 8 + 1);
	free(b.p);
	/* without HEADER_COMPRESSED (a file cut before its features) the default bound (1 GiB) lets it through */
	b = one_compressed(&s, 0);
	struct spe_perf_info info;
	CHECK_INT_EQ(read_to_end(&b, msg, sizeof msg, &n, &info), -spe_eos);
	CHECK_INT_EQ(n, 100000);
	CHECK_U64_EQ(info.decompressed_bytes, 800000);
	CHECK_INT_EQ(info.has_comp_header, 0);
	free(b.p);
	free(s.p);
}

TEST(stream_cut_inside_a_record)
{
	struct buf s = plain_records(9); /* the last (index 8) is a COMM */
	size_t last = 0;
	for (size_t at = 0; at < s.len; at += (size_t)(s.p[at + 6] | s.p[at + 7] << 8))
		last = at;
	size_t whole = s.len;
	s.len = last + 20; /* 20 bytes of the last record */
	struct buf b = one_compressed(&s, 528384);
	char msg[640], want[640];
	int n;
	struct spe_perf_info info;
	CHECK_INT_EQ(read_to_end(&b, msg, sizeof msg, &n, &info), -spe_truncated);
	CHECK_INT_EQ(n, 1 + 8); /* the feature, the 8 whole records */
	uint16_t size = (uint16_t)(s.p[last + 6] | s.p[last + 7] << 8);
	snprintf(want, sizeof want,
		 "t.data: offset 0x34 (compressed; byte 0x%zx of the decompressed data): the compressed data ends inside a "
		 "%u-byte COMM record: 20 of its bytes are present",
		 last, size);
	CHECK_STR_EQ(msg, want);
	CHECK_INT_EQ(info.cut, 1);
	CHECK_U64_EQ(info.cut_offset, 0x34);
	CHECK_U64_EQ(info.cut_bytes, size - 20u);
	s.len = whole;
	free(b.p);
	free(s.p);
}

/*
 * Whole records, then zstd bytes cut inside a block: zstd holds them without
 * output, so whether records were lost is unknown: a warning says so.
 */
TEST(stream_cut_inside_a_zstd_block)
{
	struct buf s = plain_records(20);
	static struct pieces pc;
	size_t first = 0, n = 0;
	for (; n < 10; n++) /* the first 10 records, then the other 10, flushed apart */
		first += (size_t)(s.p[first + 6] | s.p[first + 7] << 8);
	compress_pieces(&s, first, &pc);
	CHECK(pc.n >= 2);
	CHECK(pc.z[1].len > 8);
	pc.z[1].len = 6; /* the second piece's block header and 3 bytes of the block */
	struct buf b = { 0 };
	pipe_header(&b);
	put_compressed(&b, SPE_PERF_RECORD_COMPRESSED, &pc.z[0]);
	put_compressed(&b, SPE_PERF_RECORD_COMPRESSED, &pc.z[1]);
	struct spe_perf_file *f = open_buf(&b);
	struct spe_perf_event ev;
	int n_events = 0, rc;
	while ((rc = spe_perf_next(f, &ev, sizeof ev)) == 0)
		n_events++;
	CHECK_INT_EQ(rc, -spe_eos);
	CHECK_INT_EQ(n_events, 10);
	struct spe_perf_info info;
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_INT_EQ(info.n_warnings, 1);
	char want[256];
	snprintf(want, sizeof want, "t.data: offset 0x%zx: the compressed data ends inside a zstd block (zstd expects ",
		 16 + 8 + pc.z[0].len);
	CHECK(spe_perf_warning(f, 0) && strncmp(spe_perf_warning(f, 0), want, strlen(want)) == 0);
	CHECK(spe_perf_warning(f, 0) && strstr(spe_perf_warning(f, 0), "records in the rest of it, if any, are lost"));
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), -spe_eos); /* said once */
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_INT_EQ(info.n_warnings, 1);
	spe_perf_free_file(f);
	/* the same stream whole: no warning */
	free(b.p);
	free_pieces(&pc);
	compress_pieces(&s, first, &pc);
	b = (struct buf){ 0 };
	pipe_header(&b);
	for (int i = 0; i < pc.n; i++)
		put_compressed(&b, SPE_PERF_RECORD_COMPRESSED, &pc.z[i]);
	char msg[640];
	CHECK_INT_EQ(read_to_end(&b, msg, sizeof msg, &n_events, &info), -spe_eos);
	CHECK_INT_EQ(n_events, 20);
	CHECK_INT_EQ(info.n_warnings, 0);
	free(b.p);
	free_pieces(&pc);
	free(s.p);
}

/* A pipe-mode file whose one COMPRESSED record holds @p z (@p n bytes, not compressed by us). */
static struct buf raw_compressed(const void *z, size_t n)
{
	struct buf b = { 0 }, zb = { (uint8_t *)z, n, n };
	pipe_header(&b);
	put_compressed(&b, SPE_PERF_RECORD_COMPRESSED, &zb);
	return b;
}

TEST(what_compressed_data_must_not_be)
{
	char msg[640];
	int n;
	/* bytes that are not zstd */
	struct buf b = raw_compressed("not a zstd frame at all", 23);
	CHECK_INT_EQ(read_to_end(&b, msg, sizeof msg, &n, NULL), -spe_bad_file);
	CHECK_STR_EQ(msg, "t.data: offset 0x10: zstd cannot decompress the record: Unknown frame descriptor");
	free(b.p);
	/* records perf never compresses: AUXTRACE and TRACING_DATA (bytes beyond header.size), compressed ones */
	static const uint32_t nested[] = { SPE_PERF_RECORD_AUXTRACE, SPE_PERF_RECORD_HEADER_TRACING_DATA,
					   SPE_PERF_RECORD_COMPRESSED, SPE_PERF_RECORD_COMPRESSED2 };
	for (size_t i = 0; i < 4; i++) {
		struct buf s = plain_records(2);
		hdr(&s, nested[i], 48);
		put(&s, NULL, 40);
		b = one_compressed(&s, 0);
		CHECK_INT_EQ(read_to_end(&b, msg, sizeof msg, &n, NULL), -spe_bad_file);
		CHECK_INT_EQ(n, 2);
		char want[640];
		snprintf(want, sizeof want,
			 "t.data: offset 0x10 (compressed; byte 0x%zx of the decompressed data): a %s record inside compressed "
			 "data (perf never compresses one)",
			 s.len - 48, spe_perf_record_name(nested[i]));
		CHECK_STR_EQ(msg, want);
		free(b.p);
		free(s.p);
	}
	/* a decompressed record whose size does not move the walk */
	struct buf s = plain_records(1);
	hdr(&s, SPE_PERF_RECORD_COMM, 4);
	b = one_compressed(&s, 0);
	CHECK_INT_EQ(read_to_end(&b, msg, sizeof msg, &n, NULL), -spe_bad_file);
	char want[640];
	snprintf(want, sizeof want,
		 "t.data: offset 0x10 (compressed; byte 0x%zx of the decompressed data): decompressed record header size 4 "
		 "is smaller than 8 (type 3)",
		 s.len - 8);
	CHECK_STR_EQ(msg, want);
	free(b.p);
	free(s.p);
	/* a compression type that is not zstd */
	b = (struct buf){ 0 };
	pipe_header(&b);
	put_comp_feature(&b, 2, 528384);
	hdr(&b, SPE_PERF_RECORD_COMPRESSED, 16);
	put64(&b, 0);
	CHECK_INT_EQ(read_to_end(&b, msg, sizeof msg, &n, NULL), -spe_unsupported);
	CHECK_STR_EQ(msg, "t.data: offset 0x34: compressed record, but HEADER_COMPRESSED names compression type 2 "
			  "(only zstd, 1, exists)");
	free(b.p);
	/* COMPRESSED2 whose data size exceeds the record */
	b = (struct buf){ 0 };
	pipe_header(&b);
	hdr(&b, SPE_PERF_RECORD_COMPRESSED2, 24);
	put64(&b, 9);
	put64(&b, 0);
	CHECK_INT_EQ(read_to_end(&b, msg, sizeof msg, &n, NULL), -spe_bad_file);
	CHECK_STR_EQ(msg, "t.data: offset 0x10: COMPRESSED2 data size 9 exceeds its 24-byte record");
	free(b.p);
}

/* Every prefix of a compressed stream reads cleanly (the ASan build sees any over-read) and fails with a message. */
TEST(every_truncation_of_compressed_data)
{
	struct buf s = plain_records(40);
	static struct pieces pc;
	compress_pieces(&s, 150, &pc);
	static uint64_t rec_off[4096];
	struct buf b = compressed_file(&pc, SPE_PERF_RECORD_COMPRESSED2, rec_off);
	int whole_reads = 0;
	for (size_t len = 16; len < b.len; len++) {
		uint8_t *copy = malloc(len);
		memcpy(copy, b.p, len);
		struct buf t = { copy, len, len };
		char msg[640];
		int n;
		int rc = read_to_end(&t, msg, sizeof msg, &n, NULL);
		/* a prefix ending between compressed records whose stream ends between records reads whole */
		whole_reads += rc == -spe_eos;
		CHECK(rc == -spe_eos || rc == -spe_truncated);
		CHECK(rc == -spe_eos || strstr(msg, "t.data: offset 0x") == msg);
		free(copy);
	}
	CHECK(whole_reads > 0);
	free(b.p);
	free_pieces(&pc);
	free(s.p);
}

/* A pipe-mode file: HEADER_TRACING_DATA with @p payload bytes after it (0xff: no record), then one COMM. */
static struct buf tracing_data_file(uint32_t payload)
{
	struct buf b = { 0 };
	pipe_header(&b);
	hdr(&b, SPE_PERF_RECORD_HEADER_TRACING_DATA, 16);
	put32(&b, payload);
	put32(&b, 0);
	size_t at = b.len;
	put(&b, NULL, payload);
	memset(b.p + at, 0xff, payload);
	struct buf s = plain_records(1);
	put(&b, s.p, s.len);
	free(s.p);
	return b;
}

TEST(tracing_data_is_skipped)
{
	struct buf b = tracing_data_file(0x1500);
	for (int piped = 0; piped < 2; piped++) {
		pid_t child;
		int fd;
		struct spe_perf_file *f = piped ? open_piped(&b, 4096, &child, &fd) : open_buf(&b);
		struct spe_perf_event ev;
		CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0);
		CHECK_INT_EQ(ev.type, SPE_PERF_RECORD_HEADER_TRACING_DATA);
		CHECK_U64_EQ(ev.file_offset, 16);
		CHECK_U64_EQ(ev.total_size, 16 + 0x1500);
		CHECK_INT_EQ(ev.u.tracing_data.size, 0x1500);
		CHECK_INT_EQ(ev.raw[0], SPE_PERF_RECORD_HEADER_TRACING_DATA);
		CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0);
		CHECK_INT_EQ(ev.type, SPE_PERF_RECORD_COMM);
		CHECK_U64_EQ(ev.file_offset, 16 + 16 + 0x1500);
		CHECK_STR_EQ(ev.u.comm.comm, "task-0-");
		CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), -spe_eos);
		struct spe_perf_info info;
		spe_perf_get_info(f, &info, sizeof info);
		CHECK_U64_EQ(info.n_skipped, 1);
		if (piped)
			close_piped(f, child, fd);
		else
			spe_perf_free_file(f);
	}
	/* its bytes cut by the end of the input: a cut, in memory and through a pipe */
	b.len = 16 + 16 + 0x1000;
	for (int piped = 0; piped < 2; piped++) {
		pid_t child;
		int fd;
		struct spe_perf_file *f = piped ? open_piped(&b, 4096, &child, &fd) : open_buf(&b);
		struct spe_perf_event ev;
		CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), -spe_truncated);
		CHECK_STR_EQ(spe_perf_errmsg(f),
			     piped ? "(pipe): offset 0x10: the input ends inside the 5376 bytes after a HEADER_TRACING_DATA record"
				   : "t.data: offset 0x10: the 5376 bytes after a HEADER_TRACING_DATA record run past the end of "
				     "the data section (0x1020)");
		struct spe_perf_info info;
		spe_perf_get_info(f, &info, sizeof info);
		CHECK_INT_EQ(info.cut, 1);
		if (piped)
			close_piped(f, child, fd);
		else
			spe_perf_free_file(f);
	}
	free(b.p);
}

TEST(unknown_records_and_features_are_skipped)
{
	struct buf b = { 0 };
	pipe_header(&b);
	hdr(&b, 222, 13); /* no 8-alignment demanded after a record */
	put(&b, NULL, 5);
	hdr(&b, SPE_PERF_RECORD_HEADER_FEATURE, 24); /* a feature id no perf we know writes */
	put64(&b, 40);
	put64(&b, 0x1234);
	hdr(&b, SPE_PERF_RECORD_HEADER_FEATURE, 16); /* perf 7.2's end mark */
	put64(&b, 35);
	struct buf s = plain_records(1);
	put(&b, s.p, s.len);
	free(s.p);
	char msg[640];
	int n;
	struct spe_perf_info info;
	CHECK_INT_EQ(read_to_end(&b, msg, sizeof msg, &n, &info), -spe_eos);
	CHECK_INT_EQ(n, 4);
	CHECK_U64_EQ(info.n_skipped, 1);
	CHECK_U64_EQ(info.features[0], 1ull << 40); /* the end mark is no feature */
	CHECK_INT_EQ(info.n_warnings, 0);
	free(b.p);
}

/*
 * What perf 7.x writes: a 136-byte attr, feature ids up to 34 (32-34 unknown
 * to 6.1), COMPRESSED2 holding an MMAP2 in build-id form (misc bit 14).
 */
TEST(perf7_layout)
{
	struct buf b = { 0 }, s = { 0 };
	hdr(&s, SPE_PERF_RECORD_MMAP2, 72 + 16);
	memcpy(s.p + 4, &(uint16_t){ SPE_PERF_MISC_MMAP_BUILD_ID | 2 }, 2);
	put32(&s, 42);
	put32(&s, 43);
	put64(&s, 0x400000);
	put64(&s, 0x1000);
	put64(&s, 0);
	put(&s, (const uint8_t[]){ 20, 0, 0, 0 }, 4); /* build_id_size, reserved */
	for (uint8_t i = 0; i < 20; i++)
		put(&s, &(uint8_t){ (uint8_t)(0xa0 + i) }, 1);
	put32(&s, 5);
	put32(&s, 2);
	put(&s, "/bin/ls\0\0\0\0\0\0\0\0\0", 16);
	static struct pieces pc;
	compress_pieces(&s, s.len, &pc);
	/* header, attr (136 bytes + ids section), data, features */
	put(&b, "PERFILE2", 8);
	put64(&b, 104);
	put64(&b, 136 + 16);
	put64(&b, 104);
	put64(&b, 136 + 16);
	put64(&b, 0);
	put64(&b, 0);
	put(&b, NULL, 104 - b.len);
	size_t attr = b.len;
	put(&b, NULL, 136);
	set32(&b, attr, 1);
	set32(&b, attr + 4, 136);
	put64(&b, 0);
	put64(&b, 0);
	uint64_t data = b.len;
	put_compressed(&b, SPE_PERF_RECORD_COMPRESSED2, &pc.z[0]);
	hdr(&b, SPE_PERF_RECORD_FINISHED_ROUND, 8);
	set64(&b, 40, data);
	set64(&b, 48, b.len - data);
	static const unsigned bits[] = { 27, 32, 33, 34 };
	uint64_t table = b.len, sec = table + 16 * 4;
	set64(&b, 72, (1ull << 27) | (7ull << 32));
	for (int i = 0; i < 4; i++) {
		put64(&b, sec);
		put64(&b, i ? 12 : 20);
		sec += i ? 12 : 20;
	}
	static const uint32_t comp[5] = { 0, 1, 1, 3, 528384 };
	put(&b, comp, 20);
	for (int i = 1; i < 4; i++)
		put(&b, "unknown 7.x", 12);
	struct spe_perf_file *f = open_buf(&b);
	struct spe_perf_event ev;
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0);
	CHECK_INT_EQ(ev.type, SPE_PERF_RECORD_MMAP2);
	CHECK_U64_EQ(ev.file_offset, data);
	CHECK_INT_EQ(ev.u.mmap.pid, 42);
	CHECK_INT_EQ(ev.u.mmap.build_id_size, 20);
	CHECK_INT_EQ(ev.u.mmap.build_id[19], 0xb3);
	CHECK_INT_EQ(ev.u.mmap.prot, 5);
	CHECK_STR_EQ(ev.u.mmap.filename, "/bin/ls");
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), 0);
	CHECK_INT_EQ(ev.type, SPE_PERF_RECORD_FINISHED_ROUND);
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), -spe_eos);
	struct spe_perf_info info;
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_INT_EQ(info.n_warnings, 0);
	CHECK_INT_EQ(info.comp_ratio, 3);
	CHECK_U64_EQ(info.n_compressed, 1);
	struct spe_perf_attr a;
	CHECK_INT_EQ(spe_perf_get_attr(f, 0, &a, sizeof a), 0);
	CHECK_INT_EQ(a.size, 136);
	spe_perf_free_file(f);
	for (unsigned i = 0; i < 4; i++)
		CHECK(spe_perf_feature_name(bits[i]) == NULL || i < 2);
	CHECK_STR_EQ(spe_perf_feature_name(27), "COMPRESSED");
	free_pieces(&pc);
	free(b.p);
	free(s.p);
}

int main(void)
{
	RUN(records_straddle_compressed_records);
	RUN(zstd_bomb_is_bounded);
	RUN(stream_cut_inside_a_record);
	RUN(stream_cut_inside_a_zstd_block);
	RUN(what_compressed_data_must_not_be);
	RUN(every_truncation_of_compressed_data);
	RUN(tracing_data_is_skipped);
	RUN(unknown_records_and_features_are_skipped);
	RUN(perf7_layout);
	return check_summary();
}
