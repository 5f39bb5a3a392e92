/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf record -z: the records inside COMPRESSED (81) and COMPRESSED2 (83).
 *
 * perf compresses what it drains from the kernel's ring buffers into one
 * zstd stream per data file and cuts that stream into compressed records of
 * at most 64 KiB; it never ends the frame (tools/perf/util/zstd.c,
 * zstd_compress_stream_to_records).  So one decompression stream runs
 * through all of a file's compressed records, and a record of the
 * decompressed stream may start in one compressed record and end in the
 * next.  perf's reader (perf_session__process_compressed_event in
 * tools/perf/util/session.c, 6.1) reports each decompressed record with the
 * file offset of the compressed record whose bytes completed it; so do we.
 *
 * Memory is bounded whatever the input: the decompressed bytes pass through
 * a fixed window (a record is at most 64 KiB: header.size is 16 bits), so a
 * compressed record is decompressed a window at a time rather than whole.
 * What one compressed record may decompress to is bounded too (a "zstd
 * bomb" fails): by HEADER_COMPRESSED's comp_mmap_len, the buffer perf's own
 * reader decompresses one record into, else by PD_DECOMP_DEFAULT_LIMIT.
 * zstd's own window is bounded by its default ZSTD_d_windowLogMax (2^27).
 */
#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

#include "perfdata_internal.h"

/* Decompressed bytes held at once: a whole record (< 64 KiB) always fits beside a tail. */
#define PD_DECOMP_WINDOW ((size_t)256 << 10)
/* Without HEADER_COMPRESSED (a file cut before its features): the most one compressed record may give. */
#define PD_DECOMP_DEFAULT_LIMIT ((uint64_t)1 << 30)
#define PD_COMP_ZSTD 1 /* HEADER_COMPRESSED comp_type of zstd */
/*
 * ZSTD_decompressStream's hint when it waits for the next block's 3-byte
 * header (ZSTD_blockHeaderSize, zstd's format: RFC 8878 3.1.1.2): the
 * stream stopped between blocks, where perf's flushes leave it.  Any other
 * value but 0 (a frame ended) means it stopped inside a block.
 */
#define PD_ZSTD_BETWEEN_BLOCKS 3

struct pd_decomp {
	ZSTD_DStream *ds;
	uint8_t *in;           /* the current compressed record's zstd bytes (a copy: a stream's buffer moves) */
	size_t in_cap, in_size, in_pos;
	uint8_t *win;          /* decompressed bytes [head, fill) not yet returned */
	size_t head, fill;
	uint64_t win_stream_off; /* decompressed-stream offset of win[0] */
	int active;            /* in[] is not used up, or zstd may still hold output for it */
	int out_full;          /* the last call filled the window: zstd may hold more output */
	uint64_t rec_off;      /* file offset of the current compressed record */
	uint64_t produced;     /* what it decompressed to so far */
	uint64_t limit;
	size_t hint;           /* ZSTD_decompressStream's last return: where the stream stopped */
};

static int create(struct spe_perf_file *f)
{
	struct pd_decomp *d = calloc(1, sizeof *d);
	if (!d)
		return -spe_nomem;
	f->decomp = d;
	d->win = malloc(PD_DECOMP_WINDOW);
	d->ds = ZSTD_createDStream();
	if (!d->win || !d->ds)
		return -spe_nomem;
	size_t r = ZSTD_initDStream(d->ds);
	return ZSTD_isError(r) ? -spe_nomem : 0;
}

void pd_decomp_free(struct spe_perf_file *f)
{
	struct pd_decomp *d = f->decomp;
	if (!d)
		return;
	ZSTD_freeDStream(d->ds);
	free(d->in);
	free(d->win);
	free(d);
	f->decomp = NULL;
}

int pd_decomp_begin(struct spe_perf_file *f, uint64_t off, const uint8_t *zstd_bytes, size_t n)
{
	if (f->info.has_comp_header && f->info.comp_type != PD_COMP_ZSTD)
		return pd_fail(f, -spe_unsupported, off,
			       "compressed record, but HEADER_COMPRESSED names compression type %u (only zstd, 1, exists)",
			       f->info.comp_type);
	int err = f->decomp ? 0 : create(f);
	if (err)
		return pd_fail(f, err, off, "out of memory for the zstd decompressor");
	struct pd_decomp *d = f->decomp;
	if (n > d->in_cap) {
		uint8_t *ni = realloc(d->in, n);
		if (!ni)
			return pd_fail(f, -spe_nomem, off, "out of memory");
		d->in = ni;
		d->in_cap = n;
	}
	if (n)
		memcpy(d->in, zstd_bytes, n);
	d->in_size = n;
	d->in_pos = 0;
	d->active = 1;
	d->out_full = 0;
	d->rec_off = off;
	d->produced = 0;
	d->limit = f->info.comp_mmap_len ? f->info.comp_mmap_len : PD_DECOMP_DEFAULT_LIMIT;
	f->info.n_compressed++;
	f->info.compressed_bytes += n;
	return 0;
}

/* Types that carry bytes beyond header.size, or nest: perf never compresses them. */
static int never_compressed(uint32_t type)
{
	return type == SPE_PERF_RECORD_AUXTRACE || type == SPE_PERF_RECORD_HEADER_TRACING_DATA ||
	       type == SPE_PERF_RECORD_COMPRESSED || type == SPE_PERF_RECORD_COMPRESSED2;
}

/* The record at the window's head (whole, @p size bytes) into @p ev. */
static int take_record(struct spe_perf_file *f, struct pd_decomp *d, uint16_t size, struct spe_perf_event *ev)
{
	const uint8_t *p = d->win + d->head;
	memset(ev, 0, sizeof *ev);
	ev->type = pd_le32(p);
	ev->misc = pd_le16(p + 4);
	ev->header_size = size;
	ev->file_offset = d->rec_off;
	ev->total_size = size;
	ev->raw = p;
	ev->compressed = 1;
	ev->stream_offset = d->win_stream_off + d->head;
	f->fail_stream_off = ev->stream_offset;
	int err;
	if (never_compressed(ev->type)) {
		const char *name = spe_perf_record_name(ev->type);
		err = pd_fail(f, -spe_bad_file, d->rec_off, "a %s record inside compressed data (perf never compresses one)",
			      name);
	} else {
		err = pd_parse_event(f, p, size, d->rec_off, ev);
	}
	f->fail_stream_off = UINT64_MAX;
	d->head += size;
	return err ? err : 1;
}

int pd_decomp_next(struct spe_perf_file *f, struct spe_perf_event *ev)
{
	struct pd_decomp *d = f->decomp;
	if (!d)
		return 0;
	for (;;) {
		size_t avail = d->fill - d->head;
		if (avail >= PD_EVENT_HEADER_SIZE) {
			uint16_t size = pd_le16(d->win + d->head + 6);
			if (size < PD_EVENT_HEADER_SIZE) {
				f->fail_stream_off = d->win_stream_off + d->head;
				int err = pd_fail(f, -spe_bad_file, d->rec_off,
						  "decompressed record header size %u is smaller than 8 (type %u)", size,
						  pd_le32(d->win + d->head));
				f->fail_stream_off = UINT64_MAX;
				return err;
			}
			if (avail >= size)
				return take_record(f, d, size, ev);
		}
		if (!d->active || (d->in_pos == d->in_size && !d->out_full)) {
			d->active = 0;
			return 0; /* an incomplete record waits for the next compressed record */
		}
		if (d->head) {
			memmove(d->win, d->win + d->head, avail);
			d->win_stream_off += d->head;
			d->fill = avail;
			d->head = 0;
		}
		ZSTD_outBuffer out = { d->win, PD_DECOMP_WINDOW, d->fill };
		ZSTD_inBuffer in = { d->in, d->in_size, d->in_pos };
		size_t r = ZSTD_decompressStream(d->ds, &out, &in);
		if (ZSTD_isError(r))
			return pd_fail(f, -spe_bad_file, d->rec_off, "zstd cannot decompress the record: %s",
				       ZSTD_getErrorName(r));
		size_t got = out.pos - d->fill;
		int progress = got || in.pos != d->in_pos;
		d->produced += got;
		f->info.decompressed_bytes += got;
		d->fill = out.pos;
		d->in_pos = in.pos;
		d->out_full = out.pos == out.size;
		d->hint = r;
		if (d->produced > d->limit)
			return pd_fail(f, -spe_bad_file, d->rec_off,
				       "compressed record decompresses to more than %llu bytes, %s (damaged or hostile data)",
				       (unsigned long long)d->limit,
				       f->info.comp_mmap_len ? "HEADER_COMPRESSED's mmap length, the most perf puts in one"
							     : "the limit without HEADER_COMPRESSED");
		if (!progress)
			return pd_fail(f, -spe_bad_file, d->rec_off, "zstd makes no progress on the record");
	}
}

int pd_decomp_finish(struct spe_perf_file *f)
{
	struct pd_decomp *d = f->decomp;
	if (d && d->fill == d->head && d->hint != 0 && d->hint != PD_ZSTD_BETWEEN_BLOCKS) {
		/* whole records, but zstd holds part of a block: whether it held records is unknown */
		size_t hint = d->hint;
		d->hint = 0; /* said once */
		return pd_warn(f, d->rec_off,
			       "the compressed data ends inside a zstd block (zstd expects %zu more bytes): records in "
			       "the rest of it, if any, are lost",
			       hint);
	}
	if (!d || d->fill == d->head)
		return 0;
	size_t avail = d->fill - d->head;
	uint64_t missing = 0;
	f->fail_stream_off = d->win_stream_off + d->head;
	if (avail >= PD_EVENT_HEADER_SIZE) {
		uint32_t type = pd_le32(d->win + d->head);
		uint16_t size = pd_le16(d->win + d->head + 6);
		const char *name = spe_perf_record_name(type);
		char what[32];
		if (name)
			snprintf(what, sizeof what, "%s", name);
		else
			snprintf(what, sizeof what, "type %u", type);
		missing = size - avail;
		pd_fail(f, -spe_truncated, d->rec_off,
			"the compressed data ends inside a %u-byte %s record: %zu of its bytes are present", size, what,
			avail);
	} else {
		pd_fail(f, -spe_truncated, d->rec_off,
			"the compressed data ends inside a record header: %zu of its 8 bytes are present", avail);
	}
	f->fail_stream_off = UINT64_MAX;
	f->info.cut = 1;
	f->info.cut_offset = d->rec_off;
	f->info.cut_bytes = missing;
	d->head = d->fill; /* reported once */
	return -spe_truncated;
}
