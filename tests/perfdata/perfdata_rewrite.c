/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test tool (not a test): rewrites a little-endian perf.data's data records,
 * with libzstd and its own walk of the file, never libspe's reader, so what
 * it finds is an independent check of the reader.
 *
 *   perfdata_rewrite --stats FILE
 *       the file's compressed records (81 COMPRESSED, 83 COMPRESSED2): how
 *       many, the bytes their one zstd stream decompresses to, the records in
 *       that stream and how many straddle two compressed records.
 *   perfdata_rewrite --to-compressed2 IN OUT
 *       every COMPRESSED record becomes a COMPRESSED2 with the same zstd
 *       bytes (u64 data_size, then the bytes, zero-padded to 8), as perf 7.x
 *       writes them (perf 6.1 cannot read those).
 *   perfdata_rewrite --rechunk=N IN OUT
 *       the decompressed stream of IN's compressed records, compressed again
 *       in pieces of N bytes cut anywhere (one zstd stream, flushed after each
 *       piece, as perf flushes after each ring buffer read), so records
 *       straddle compressed records.  A piece goes where the compressed record
 *       that completed it was; plain records stay in order.
 *   perfdata_rewrite --compress=N IN OUT
 *       a file without compression: its kernel records (types below 64, the
 *       ones perf record -z compresses) become COMPRESSED records in pieces of
 *       N bytes as above, and the HEADER_COMPRESSED feature is added
 *       (zstd, level 1, mmap length 528384), so perf 6.1 reads the result.
 *   perfdata_rewrite --corrupt-feature=BIT IN OUT
 *       the first 8 bytes of feature BIT's section become 0xff (its counts and
 *       string lengths then lie), the section itself keeps its place and size.
 *   perfdata_rewrite --rename=TID,TIME,NAME IN OUT
 *       TID renames itself to NAME at perf time TIME (ns), as prctl(PR_SET_NAME)
 *       does: a COMM record without the exec flag, a copy of the file's last
 *       COMM of TID (its pid, its sample_id trailer with the time changed),
 *       placed after it.  File mode, a sample_type with TIME.
 *
 * File mode (104-byte header) and pipe mode (16-byte header) inputs; the
 * feature changes need file mode.  Exit 0, or 1 with a message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define MAX_PAYLOAD (65536 - 8 - 1) /* what perf 6.1 puts in one COMPRESSED record */

struct bytes {
	uint8_t *p;
	size_t len, cap;
};

static __attribute__((noreturn)) void die(const char *what)
{
	fprintf(stderr, "perfdata_rewrite: %s\n", what);
	exit(1);
}

static void put(struct bytes *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("out of memory");
	}
	if (d)
		memcpy(b->p + b->len, d, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
}

static uint16_t le16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t le32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t le64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void set64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static struct bytes slurp(const char *path)
{
	struct bytes b = { 0 };
	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot open the input");
	uint8_t tmp[65536];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		put(&b, tmp, n);
	fclose(f);
	if (b.len < 16 || memcmp(b.p, "PERFILE2", 8))
		die("not a little-endian perf.data");
	return b;
}

static void spill(const char *path, const struct bytes *b)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b->p, 1, b->len, f) != b->len || fclose(f) != 0)
		die("cannot write the output");
}

/* The input's layout: where its records are. */
struct layout {
	int pipe;
	uint64_t data_off, data_end;
};

static struct layout layout_of(const struct bytes *in)
{
	struct layout l = { 0 };
	if (le64(in->p + 8) == 16) {
		l.pipe = 1;
		l.data_off = 16;
		l.data_end = in->len;
		return l;
	}
	if (in->len < 104)
		die("cut inside the header");
	l.data_off = le64(in->p + 40);
	l.data_end = l.data_off + le64(in->p + 48);
	if (l.data_end > in->len || l.data_end < l.data_off)
		die("data section beyond the end of the file");
	return l;
}

/* Bytes of the record at @p off: header.size, plus what follows AUXTRACE (71) and TRACING_DATA (66). */
static uint64_t record_extent(const struct bytes *in, uint64_t off, uint64_t end)
{
	if (end - off < 8)
		die("a record header is cut");
	uint32_t type = le32(in->p + off);
	uint64_t size = le16(in->p + off + 6);
	if (size < 8 || size > end - off)
		die("a record size lies");
	if (type == 71 && size >= 16)
		size += le64(in->p + off + 8);
	if (type == 66 && size >= 12)
		size += le32(in->p + off + 8);
	if (size > end - off)
		die("a record's trailing data runs past the data");
	return size;
}

/* The zstd bytes of compressed record @p r (81 or 83). */
static void zstd_bytes(const uint8_t *r, const uint8_t **z, size_t *n)
{
	uint32_t type = le32(r);
	uint16_t size = le16(r + 6);
	if (type == 81) {
		*z = r + 8;
		*n = size - 8u;
		return;
	}
	if (size < 16 || le64(r + 8) > size - 16u)
		die("a COMPRESSED2 data size lies");
	*z = r + 16;
	*n = (size_t)le64(r + 8);
}

/* Decompress @p n zstd bytes of the file's one stream, appending to @p out. */
static void inflate(ZSTD_DStream *ds, const uint8_t *z, size_t n, struct bytes *out)
{
	ZSTD_inBuffer in = { z, n, 0 };
	uint8_t tmp[65536];
	for (;;) {
		ZSTD_outBuffer o = { tmp, sizeof tmp, 0 };
		size_t r = ZSTD_decompressStream(ds, &o, &in);
		if (ZSTD_isError(r))
			die(ZSTD_getErrorName(r));
		put(out, tmp, o.pos);
		if (in.pos == in.size && o.pos < o.size)
			return;
	}
}

/* --stats */
static void stats(const char *path)
{
	struct bytes in = slurp(path), stream = { 0 };
	struct layout l = layout_of(&in);
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_initDStream(ds);
	uint64_t n_comp = 0, n_comp2 = 0, *ends = NULL;
	for (uint64_t off = l.data_off; off < l.data_end;) {
		uint64_t ext = record_extent(&in, off, l.data_end);
		uint32_t type = le32(in.p + off);
		if (type == 81 || type == 83) {
			const uint8_t *z;
			size_t n;
			zstd_bytes(in.p + off, &z, &n);
			inflate(ds, z, n, &stream);
			ends = realloc(ends, (n_comp + n_comp2 + 1) * sizeof *ends);
			ends[n_comp + n_comp2] = stream.len; /* the stream's length after this record */
			n_comp += type == 81;
			n_comp2 += type == 83;
		}
		off += ext;
	}
	uint64_t n_rec = 0, straddle = 0, k = 0;
	size_t pos = 0;
	while (pos + 8 <= stream.len) {
		uint16_t size = le16(stream.p + pos + 6);
		if (size < 8 || pos + size > stream.len)
			break;
		while (ends[k] <= pos)
			k++;
		straddle += pos + size > ends[k]; /* starts in compressed record k, ends in a later one */
		n_rec++;
		pos += size;
	}
	printf("compressed %llu compressed2 %llu decompressed %zu records %llu straddling %llu tail %zu\n",
	       (unsigned long long)n_comp, (unsigned long long)n_comp2, stream.len, (unsigned long long)n_rec,
	       (unsigned long long)straddle, stream.len - pos);
	ZSTD_freeDStream(ds);
	free(ends);
	free(stream.p);
	free(in.p);
}

static void put_header(struct bytes *out, uint32_t type, uint16_t size)
{
	uint16_t misc = 0;
	put(out, &type, 4);
	put(out, &misc, 2);
	put(out, &size, 2);
}

/* Compressor state of --rechunk and --compress: a stream, and the bytes not yet compressed. */
struct packer {
	ZSTD_CStream *cs;
	size_t piece;
	struct bytes pending;
};

/* Compress @p n bytes and flush, into COMPRESSED records of at most MAX_PAYLOAD zstd bytes. */
static void pack(struct packer *k, const uint8_t *d, size_t n, struct bytes *out)
{
	static uint8_t buf[MAX_PAYLOAD];
	ZSTD_inBuffer in = { d, n, 0 };
	int flushed = 0;
	while (!flushed) {
		ZSTD_outBuffer o = { buf, sizeof buf, 0 };
		while (in.pos < in.size && o.pos < o.size) {
			size_t r = ZSTD_compressStream(k->cs, &o, &in);
			if (ZSTD_isError(r))
				die(ZSTD_getErrorName(r));
		}
		if (in.pos == in.size) {
			size_t r = ZSTD_flushStream(k->cs, &o);
			if (ZSTD_isError(r))
				die(ZSTD_getErrorName(r));
			flushed = r == 0;
		}
		if (o.pos) {
			put_header(out, 81, (uint16_t)(8 + o.pos));
			put(out, buf, o.pos);
		}
	}
}

/* Append @p n stream bytes; compress every whole piece. */
static void feed(struct packer *k, const uint8_t *d, size_t n, struct bytes *out)
{
	put(&k->pending, d, n);
	size_t used = 0;
	while (k->pending.len - used >= k->piece) {
		pack(k, k->pending.p + used, k->piece, out);
		used += k->piece;
	}
	memmove(k->pending.p, k->pending.p + used, k->pending.len - used);
	k->pending.len -= used;
}

static void drain(struct packer *k, struct bytes *out)
{
	if (k->pending.len)
		pack(k, k->pending.p, k->pending.len, out);
	k->pending.len = 0;
}

/* The feature sections of a file-mode input: bit -> bytes. */
struct feature {
	unsigned bit;
	const uint8_t *p;
	uint64_t size;
};

static size_t read_features(const struct bytes *in, const struct layout *l, struct feature *fs)
{
	size_t n = 0;
	uint64_t table = l->data_end;
	for (unsigned bit = 0; bit < 256; bit++) {
		if (!(le64(in->p + 72 + 8 * (bit / 64)) >> (bit % 64) & 1))
			continue;
		uint64_t e = table + 16 * n;
		if (e + 16 > in->len)
			die("feature table cut");
		uint64_t off = le64(in->p + e), size = le64(in->p + e + 8);
		if (off > in->len || size > in->len - off)
			die("feature section beyond the end of the file");
		fs[n++] = (struct feature){ bit, in->p + off, size };
	}
	return n;
}

/* [0, data_off) of @p in, @p data, then @p fs as the feature sections, the header patched to match. */
static struct bytes assemble(const struct bytes *in, const struct layout *l, const struct bytes *data,
			     const struct feature *fs, size_t nf)
{
	struct bytes out = { 0 };
	put(&out, in->p, l->data_off);
	put(&out, data->p, data->len);
	if (l->pipe)
		return out;
	set64(out.p + 48, data->len);
	uint64_t bits[4] = { 0 };
	for (size_t i = 0; i < nf; i++)
		bits[fs[i].bit / 64] |= 1ull << (fs[i].bit % 64);
	for (int w = 0; w < 4; w++)
		set64(out.p + 72 + 8 * w, bits[w]);
	uint64_t table = out.len, sec = table + 16 * nf;
	put(&out, NULL, 16 * nf);
	for (size_t i = 0; i < nf; i++) {
		set64(out.p + table + 16 * i, sec);
		set64(out.p + table + 16 * i + 8, fs[i].size);
		put(&out, fs[i].p, fs[i].size);
		sec += fs[i].size;
	}
	return out;
}

enum mode { TO_COMPRESSED2, RECHUNK, COMPRESS, CORRUPT, RENAME };

/* --rename's arguments. */
struct rename {
	uint32_t tid;
	uint64_t time;
	char name[16];
};

#define PERF_RECORD_COMM 3
#define PERF_RECORD_MISC_COMM_EXEC (1u << 13)
#define SAMPLE_TID (1u << 1)
#define SAMPLE_TIME (1u << 2)

/* The first attr's sample_type (file mode: the attrs section, each attr's sample_type at byte 24). */
static uint64_t sample_type_of(const struct bytes *in)
{
	uint64_t attrs = le64(in->p + 24), attrs_size = le64(in->p + 32);
	if (attrs_size < 32 || attrs > in->len || in->len - attrs < 32)
		die("no attr");
	return le64(in->p + attrs + 24);
}

/*
 * The renaming record made from COMM record @p r into @p out: the same pid
 * and tid, the new name, no exec flag, the trailer copied with the time
 * changed.
 */
static void renamed_comm(uint64_t sample_type, const uint8_t *r, const struct rename *rn,
			 struct bytes *out)
{
	uint16_t size = le16(r + 6);
	size_t old_len = strnlen((const char *)r + 16, size - 16u);
	size_t old_field = (old_len + 1 + 7) & ~(size_t)7, new_field = (strlen(rn->name) + 1 + 7) & ~(size_t)7;
	if (16 + old_field > size)
		die("a COMM record's name runs past it");
	size_t trailer = size - 16 - old_field;
	if (!(sample_type & SAMPLE_TIME) || trailer < 8u * (1 + !!(sample_type & SAMPLE_TID)))
		die("the COMM records carry no time (sample_id_all with TIME)");
	uint8_t rec[8 + 8 + 24 + 64];
	if (trailer > 64)
		die("a COMM record's trailer is longer than this tool expects");
	size_t n = 16 + new_field + trailer;
	memset(rec, 0, sizeof rec);
	memcpy(rec, r, 16); /* header, pid, tid */
	uint16_t misc = le16(r + 4) & (uint16_t)~PERF_RECORD_MISC_COMM_EXEC, size16 = (uint16_t)n;
	memcpy(rec + 4, &misc, 2);
	memcpy(rec + 6, &size16, 2);
	memcpy(rec + 16, rn->name, strlen(rn->name));
	memcpy(rec + 16 + new_field, r + 16 + old_field, trailer);
	set64(rec + 16 + new_field + ((sample_type & SAMPLE_TID) ? 8 : 0), rn->time);
	put(out, rec, n);
}

static void rewrite(enum mode mode, size_t arg, const struct rename *rn, const char *inpath, const char *outpath)
{
	struct bytes in = slurp(inpath), data = { 0 }, scratch = { 0 };
	struct layout l = layout_of(&in);
	struct feature fs[257];
	size_t nf = l.pipe ? 0 : read_features(&in, &l, fs);
	if ((mode == COMPRESS || mode == CORRUPT) && l.pipe)
		die("features of a pipe-mode file are records: give a file-mode perf.data");
	if (mode == RENAME && l.pipe)
		die("--rename reads the attr's sample_type: give a file-mode perf.data");
	uint64_t last_comm = 0; /* offset after the last COMM of rn->tid in data, 0: none */
	const uint8_t *comm_rec = NULL;
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_initDStream(ds);
	struct packer k = { ZSTD_createCStream(), arg, { 0 } };
	ZSTD_initCStream(k.cs, 1);
	for (uint64_t off = l.data_off; off < l.data_end;) {
		uint64_t ext = record_extent(&in, off, l.data_end);
		const uint8_t *r = in.p + off;
		uint32_t type = le32(r);
		off += ext;
		if ((type == 81 || type == 83) && mode == TO_COMPRESSED2) {
			const uint8_t *z;
			size_t n;
			zstd_bytes(r, &z, &n);
			size_t size = (16 + n + 7) & ~(size_t)7;
			if (size > 65535)
				die("the zstd bytes do not fit a COMPRESSED2 record");
			uint64_t n64 = n;
			put_header(&data, 83, (uint16_t)size);
			put(&data, &n64, 8);
			put(&data, z, n);
			put(&data, NULL, size - 16 - n);
		} else if ((type == 81 || type == 83) && mode == RECHUNK) {
			const uint8_t *z;
			size_t n;
			zstd_bytes(r, &z, &n);
			scratch.len = 0;
			inflate(ds, z, n, &scratch);
			feed(&k, scratch.p, scratch.len, &data);
		} else if (type < 64 && mode == COMPRESS) {
			feed(&k, r, ext, &data);
		} else {
			if (mode == COMPRESS) /* a plain record ends what came before it, as a ring buffer read does */
				drain(&k, &data);
			put(&data, r, ext);
			if (mode == RENAME && type == PERF_RECORD_COMM && ext >= 16 && le32(r + 12) == rn->tid) {
				last_comm = data.len;
				comm_rec = r;
			}
		}
	}
	drain(&k, &data);
	if (mode == RENAME) {
		if (!comm_rec)
			die("no COMM record of that tid");
		struct bytes rec = { 0 }, tail = { 0 };
		renamed_comm(sample_type_of(&in), comm_rec, rn, &rec);
		put(&tail, data.p + last_comm, data.len - last_comm);
		data.len = last_comm;
		put(&data, rec.p, rec.len);
		put(&data, tail.p, tail.len);
		free(rec.p);
		free(tail.p);
	}
	if (mode == COMPRESS) {
		static const uint32_t comp[5] = { 0, 1, 1, 0, 528384 }; /* version, zstd, level, ratio, mmap length */
		size_t at = 0;
		while (at < nf && fs[at].bit < 27)
			at++;
		if (at < nf && fs[at].bit == 27)
			die("the input has HEADER_COMPRESSED already");
		memmove(fs + at + 1, fs + at, (nf - at) * sizeof fs[0]);
		fs[at] = (struct feature){ 27, (const uint8_t *)comp, sizeof comp };
		nf++;
	}
	uint8_t *corrupted = NULL;
	if (mode == CORRUPT) {
		size_t i = 0;
		while (i < nf && fs[i].bit != arg)
			i++;
		if (i == nf || fs[i].size < 8)
			die("the input has no such feature of 8 bytes or more");
		corrupted = malloc(fs[i].size);
		memcpy(corrupted, fs[i].p, fs[i].size);
		memset(corrupted, 0xff, 8);
		fs[i].p = corrupted;
	}
	struct bytes out = assemble(&in, &l, &data, fs, nf);
	spill(outpath, &out);
	free(corrupted);
	free(out.p);
	free(data.p);
	free(scratch.p);
	free(k.pending.p);
	ZSTD_freeCStream(k.cs);
	ZSTD_freeDStream(ds);
	free(in.p);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--stats")) {
		stats(argv[2]);
		return 0;
	}
	if (argc != 4)
		die("usage: --stats FILE | --to-compressed2 IN OUT | --rechunk=N IN OUT | --compress=N IN OUT | "
		    "--corrupt-feature=BIT IN OUT | --rename=TID,TIME,NAME IN OUT");
	unsigned long n = 0;
	enum mode mode;
	struct rename rn = { 0 };
	unsigned long long tid, time;
	int at = 0;
	if (sscanf(argv[1], "--rename=%llu,%llu,%n", &tid, &time, &at) == 2 && at > 0 && argv[1][at] &&
	    strlen(argv[1] + at) < sizeof rn.name) {
		mode = RENAME;
		rn.tid = (uint32_t)tid;
		rn.time = time;
		strcpy(rn.name, argv[1] + at);
	} else if (!strcmp(argv[1], "--to-compressed2"))
		mode = TO_COMPRESSED2;
	else if (sscanf(argv[1], "--rechunk=%lu", &n) == 1 && n > 0)
		mode = RECHUNK;
	else if (sscanf(argv[1], "--compress=%lu", &n) == 1 && n > 0)
		mode = COMPRESS;
	else if (sscanf(argv[1], "--corrupt-feature=%lu", &n) == 1 && n < 256)
		mode = CORRUPT;
	else
		die("unknown mode");
	rewrite(mode, n, &rn, argv[2], argv[3]);
	return 0;
}
