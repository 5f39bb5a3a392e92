/* SPDX-License-Identifier: Apache-2.0 */
/* Reading the input perf.data of spe-splice (capture.h). */
#include "capture.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#define MAGIC2 0x32454c4946524550ull /* "PERFILE2" */
#define FILE_HEADER_SIZE 104
#define PIPE_HEADER_SIZE 16
#define SAMPLE_ID_ALL (1ull << 18)

static int fail(char *err, size_t errlen, int *status, int code, const char *name, uint64_t off,
		const char *fmt, ...)
{
	char msg[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (off == UINT64_MAX)
		snprintf(err, errlen, "%s: %s", name, msg);
	else
		snprintf(err, errlen, "%s: offset 0x%llx: %s", name, (unsigned long long)off, msg);
	*status = code;
	return -1;
}

static void *grow(void *p, uint32_t n, uint32_t *cap, size_t elem)
{
	if (n < *cap)
		return p;
	uint32_t ncap = *cap ? *cap * 2 : 64;
	void *q = realloc(p, (size_t)ncap * elem);
	if (!q) {
		perror("spe-splice: realloc");
		exit(70);
	}
	*cap = ncap;
	return q;
}

static void attr_fields(struct cap_attr *a)
{
	a->type = cap_u32(a->raw);
	a->config = a->raw_size >= 16 ? cap_u64(a->raw + 8) : 0;
	a->sample_type = a->raw_size >= 32 ? cap_u64(a->raw + 24) : 0;
	a->read_format = a->raw_size >= 40 ? cap_u64(a->raw + 32) : 0;
	a->flags = a->raw_size >= 48 ? cap_u64(a->raw + 40) : 0;
}

/* Bytes of the sample_id trailer an attr's sample_type gives kernel records. */
static uint32_t trailer_size(uint64_t st)
{
	uint32_t n = 0;
	n += st & CAP_S_TID ? 8 : 0;
	n += st & CAP_S_TIME ? 8 : 0;
	n += st & CAP_S_ID ? 8 : 0;
	n += st & CAP_S_STREAM_ID ? 8 : 0;
	n += st & CAP_S_CPU ? 8 : 0;
	n += st & CAP_S_IDENTIFIER ? 8 : 0;
	return n;
}

static int attr_of_id(const struct capture *c, uint64_t id)
{
	for (uint32_t i = 0; i < c->n_attrs; i++)
		for (uint32_t k = 0; k < c->attrs[i].n_ids; k++)
			if (cap_u64(c->attrs[i].ids + 8 * k) == id)
				return (int)i;
	return -1;
}

/*
 * The attr and the sample_id trailer of a kernel record @p r of @p size
 * bytes; sets ev's time, cpu and tid.  Returns the trailer size, or 0 when
 * the record carries none that can be read.
 */
static uint32_t parse_trailer(const struct capture *c, const uint8_t *r, uint32_t size, struct cap_event *ev)
{
	if (c->n_attrs == 0)
		return 0;
	int ai = 0;
	if (c->identifier) {
		if (size < 16)
			return 0;
		ai = attr_of_id(c, cap_u64(r + size - 8));
		if (ai < 0)
			return 0;
	}
	const struct cap_attr *a = &c->attrs[ai];
	if (!(a->flags & SAMPLE_ID_ALL))
		return 0;
	uint64_t st = a->sample_type;
	uint32_t n = trailer_size(st);
	if (n + 8 > size)
		return 0;
	const uint8_t *p = r + size - n;
	if (st & CAP_S_TID) {
		ev->sid_pid = cap_u32(p);
		ev->sid_tid = cap_u32(p + 4);
		ev->has_tid = 1;
		p += 8;
	}
	if (st & CAP_S_TIME) {
		ev->time = cap_u64(p);
		ev->has_time = 1;
		p += 8;
	}
	p += st & CAP_S_ID ? 8 : 0;
	p += st & CAP_S_STREAM_ID ? 8 : 0;
	if (st & CAP_S_CPU) {
		ev->cpu = cap_u32(p);
		ev->has_cpu = 1;
	}
	return n;
}

/* The time of a SAMPLE record (its IP and TID come first; with IDENTIFIER, the id). */
static int sample_time(const struct capture *c, const uint8_t *r, uint32_t size, uint64_t *time)
{
	if (c->n_attrs == 0)
		return 0;
	uint32_t pos = 8;
	int ai = 0;
	if (c->identifier) {
		if (size < pos + 8)
			return 0;
		ai = attr_of_id(c, cap_u64(r + pos));
		if (ai < 0)
			return 0;
		pos += 8;
	}
	uint64_t st = c->attrs[ai].sample_type;
	if (!(st & CAP_S_TIME))
		return 0;
	pos += st & CAP_S_IP ? 8 : 0;
	pos += st & CAP_S_TID ? 8 : 0;
	if (size < pos + 8)
		return 0;
	*time = cap_u64(r + pos);
	return 1;
}

static char *string_in(const uint8_t *p, uint32_t max)
{
	uint32_t n = 0;
	while (n < max && p[n])
		n++;
	char *s = malloc(n + 1);
	if (!s) {
		perror("spe-splice: malloc");
		exit(70);
	}
	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

/*
 * Decode one kernel record (a top-level one or one out of a COMPRESSED
 * record) into c->events.  Records it does not need are only timed.
 */
static int decode_kernel(struct capture *c, const uint8_t *r, uint32_t size, uint32_t rec_index, int inner,
			 uint64_t off, char *err, size_t errlen, int *status)
{
	uint32_t type = cap_u32(r);
	struct cap_event ev;
	memset(&ev, 0, sizeof ev);
	ev.type = type;
	ev.misc = cap_u16(r + 4);
	ev.record = rec_index;
	ev.inner = inner;
	uint32_t body_end = size;
	if (type == CAP_SAMPLE) {
		uint64_t t;
		if (sample_time(c, r, size, &t)) {
			ev.time = t;
			ev.has_time = 1;
		}
	} else {
		body_end = size - parse_trailer(c, r, size, &ev);
	}
	if (ev.has_time) {
		struct cap_record *top = &c->records[rec_index];
		if (ev.time > top->max_time)
			top->max_time = ev.time;
	}
	const uint8_t *b = r + 8;
	uint32_t blen = body_end > 8 ? body_end - 8 : 0;
	switch (type) {
	case CAP_COMM:
		if (blen < 8)
			goto short_record;
		ev.u.comm.pid = cap_u32(b);
		ev.u.comm.tid = cap_u32(b + 4);
		ev.u.comm.exec = !!(ev.misc & (1u << 13));
		{
			uint32_t n = 0;
			while (8 + n < blen && b[8 + n] && n < sizeof ev.u.comm.name - 1)
				n++;
			memcpy(ev.u.comm.name, b + 8, n);
			ev.u.comm.name[n] = 0;
		}
		break;
	case CAP_FORK:
	case CAP_EXIT:
		if (blen < 16)
			goto short_record;
		ev.u.task.pid = cap_u32(b);
		ev.u.task.ppid = cap_u32(b + 4);
		ev.u.task.tid = cap_u32(b + 8);
		ev.u.task.ptid = cap_u32(b + 12);
		break;
	case CAP_MMAP:
	case CAP_MMAP2: {
		uint32_t fixed = type == CAP_MMAP ? 32 : 64;
		if (blen < fixed)
			goto short_record;
		ev.u.mmap.pid = cap_u32(b);
		ev.u.mmap.tid = cap_u32(b + 4);
		ev.u.mmap.start = cap_u64(b + 8);
		ev.u.mmap.len = cap_u64(b + 16);
		ev.u.mmap.pgoff = cap_u64(b + 24);
		ev.u.mmap.kernel = (ev.misc & 7) == 1;
		if (type == CAP_MMAP2) {
			if (ev.misc & (1u << 14)) { /* PERF_RECORD_MISC_MMAP_BUILD_ID */
				ev.u.mmap.build_id_size = b[32] <= 20 ? b[32] : 20;
				memcpy(ev.u.mmap.build_id, b + 36, 20);
			}
			ev.u.mmap.prot = cap_u32(b + 56);
			ev.u.mmap.data = !(ev.u.mmap.prot & 4);
		} else {
			ev.u.mmap.prot = 0;
			ev.u.mmap.data = !!(ev.misc & (1u << 13)); /* PERF_RECORD_MISC_MMAP_DATA */
		}
		ev.u.mmap.filename = string_in(b + fixed, blen - fixed);
		break;
	}
	case CAP_SWITCH:
	case CAP_SWITCH_CPU_WIDE:
		ev.u.sw.out = !!(ev.misc & (1u << 13));
		ev.u.sw.cpu_wide = type == CAP_SWITCH_CPU_WIDE;
		if (type == CAP_SWITCH_CPU_WIDE) {
			if (blen < 8)
				goto short_record;
			ev.u.sw.next_prev_pid = cap_u32(b);
			ev.u.sw.next_prev_tid = cap_u32(b + 4);
		}
		break;
	default:
		if (!ev.has_time)
			return 0;
		break;
	}
	c->events = grow(c->events, c->n_events, &c->events_cap, sizeof *c->events);
	c->events[c->n_events++] = ev;
	return 0;
short_record:
	return fail(err, errlen, status, 65, c->name, off, "%s%s record of %u bytes is too short", inner ? "compressed " : "",
		    type == CAP_COMM ? "COMM" : type == CAP_FORK ? "FORK" : type == CAP_EXIT ? "EXIT" :
		    type == CAP_SWITCH_CPU_WIDE ? "SWITCH_CPU_WIDE" : "MMAP", size);
}

struct zstate {
	ZSTD_DStream *ds;
	uint8_t *buf;    /* decompressed bytes not yet parsed into records */
	size_t len, cap;
};

static int zappend(struct zstate *z, size_t need)
{
	if (z->len + need <= z->cap)
		return 0;
	size_t ncap = z->cap ? z->cap : 1 << 16;
	while (ncap < z->len + need)
		ncap *= 2;
	uint8_t *p = realloc(z->buf, ncap);
	if (!p)
		return -1;
	z->buf = p;
	z->cap = ncap;
	return 0;
}

/* Decompress one COMPRESSED record and decode every record it completes. */
static int decompress(struct capture *c, struct zstate *z, const struct cap_record *rec, uint32_t rec_index,
		      char *err, size_t errlen, int *status)
{
	if (!z->ds) {
		z->ds = ZSTD_createDStream();
		if (!z->ds || ZSTD_isError(ZSTD_initDStream(z->ds)))
			return fail(err, errlen, status, 70, c->name, rec->offset, "cannot start a zstd stream");
	}
	ZSTD_inBuffer in = { rec->bytes + 8, rec->len - 8, 0 };
	for (;;) {
		if (zappend(z, 1 << 16) < 0)
			return fail(err, errlen, status, 70, c->name, rec->offset, "out of memory");
		ZSTD_outBuffer out = { z->buf + z->len, z->cap - z->len, 0 };
		size_t r = ZSTD_decompressStream(z->ds, &out, &in);
		if (ZSTD_isError(r))
			return fail(err, errlen, status, 65, c->name, rec->offset, "COMPRESSED record: zstd: %s",
				    ZSTD_getErrorName(r));
		z->len += out.pos;
		if (in.pos == in.size && out.pos < out.size)
			break;
	}
	c->n_compressed++;
	c->compressed_in += rec->len - 8;
	/* every whole record in the buffer; a record cut by the end waits for the next COMPRESSED record */
	size_t pos = 0;
	while (z->len - pos >= 8) {
		uint32_t type = cap_u32(z->buf + pos);
		uint16_t size = cap_u16(z->buf + pos + 6);
		if (size < 8)
			return fail(err, errlen, status, 65, c->name, rec->offset,
				    "a record of %u bytes inside a COMPRESSED record", size);
		if (z->len - pos < size)
			break;
		if (type >= CAP_USER_START)
			return fail(err, errlen, status, 65, c->name, rec->offset,
				    "record type %u inside a COMPRESSED record (perf compresses only kernel records)", type);
		if (decode_kernel(c, z->buf + pos, size, rec_index, 1, rec->offset, err, errlen, status) < 0)
			return -1;
		c->compressed_out += size;
		pos += size;
	}
	memmove(z->buf, z->buf + pos, z->len - pos);
	z->len -= pos;
	return 0;
}

static int read_records(struct capture *c, uint64_t start, uint64_t end, char *err, size_t errlen, int *status)
{
	uint32_t cap = 0;
	struct zstate z = { 0 };
	int rc = -1;
	uint64_t off = start;
	while (off < end) {
		if (end - off < 8) {
			fail(err, errlen, status, 65, c->name, off, "%llu bytes left, too few for a record header",
			     (unsigned long long)(end - off));
			goto out;
		}
		const uint8_t *r = c->buf + off;
		uint32_t type = cap_u32(r);
		uint16_t size = cap_u16(r + 6);
		uint64_t len = size;
		if (size < 8) {
			fail(err, errlen, status, 65, c->name, off, "record header size %u < 8", size);
			goto out;
		}
		if (size > end - off) {
			fail(err, errlen, status, 65, c->name, off, "record of %u bytes runs past the data (0x%llx)",
			     size, (unsigned long long)end);
			goto out;
		}
		if (type == CAP_HEADER_TRACING_DATA && size >= 12)
			len += cap_u32(r + 8);
		if (type == CAP_AUXTRACE && size >= 16)
			len += cap_u64(r + 8);
		if (len > end - off) {
			fail(err, errlen, status, 65, c->name, off, "record type %u with its %llu payload bytes runs past the data",
			     type, (unsigned long long)(len - size));
			goto out;
		}
		if (type == CAP_COMPRESSED2) {
			fail(err, errlen, status, 69, c->name, off,
			     "COMPRESSED2 record (type 83, newer perf): perf 6.1 cannot read it");
			goto out;
		}
		if ((type == CAP_AUXTRACE_INFO || type == CAP_AUXTRACE) && !c->allow_aux) {
			fail(err, errlen, status, 65, c->name, off,
			     "the input already has AUX area data (record type %u); splice SPE into a capture without it", type);
			goto out;
		}
		c->records = grow(c->records, c->n_records, &cap, sizeof *c->records);
		uint32_t idx = c->n_records++;
		struct cap_record *rec = &c->records[idx];
		memset(rec, 0, sizeof *rec);
		rec->offset = off;
		rec->bytes = r;
		rec->len = len;
		rec->type = type;
		rec->misc = cap_u16(r + 4);
		if (type < CAP_USER_START) {
			if (decode_kernel(c, r, size, idx, 0, off, err, errlen, status) < 0)
				goto out;
		} else if (type == CAP_COMPRESSED) {
			if (decompress(c, &z, rec, idx, err, errlen, status) < 0)
				goto out;
		} else if (type == CAP_HEADER_ATTR && c->pipe) {
			if (c->n_attrs == CAP_MAX_ATTRS || size < 8 + 8) {
				fail(err, errlen, status, 65, c->name, off, "HEADER_ATTR: too many attrs or too short");
				goto out;
			}
			uint32_t asize = cap_u32(r + 12);
			if (asize < 48 || asize > (uint32_t)size - 8) { /* size >= 16 here; 8 + asize could wrap */
				fail(err, errlen, status, 65, c->name, off, "HEADER_ATTR: attr size %u does not fit %u bytes",
				     asize, size);
				goto out;
			}
			struct cap_attr *a = &c->attrs[c->n_attrs++];
			a->raw = r + 8;
			a->raw_size = asize;
			a->ids = r + 8 + asize;
			a->n_ids = (size - 8 - asize) / 8;
			a->pipe_record = idx;
			attr_fields(a);
		} else if (type == CAP_HEADER_FEATURE && c->pipe) {
			if (size < 16) {
				fail(err, errlen, status, 65, c->name, off, "HEADER_FEATURE of %u bytes", size);
				goto out;
			}
			uint64_t feat = cap_u64(r + 8);
			if (feat < CAP_F_MAX) {
				c->feat_record[feat] = idx;
				c->feat[feat].data = r + 16;
				c->feat[feat].size = size - 16;
			}
		} else if (type == CAP_TIME_CONV) {
			if (size < 32) {
				fail(err, errlen, status, 65, c->name, off, "TIME_CONV of %u bytes", size);
				goto out;
			}
			c->has_time_conv = 1;
			c->time_conv.shift = cap_u64(r + 8);
			c->time_conv.mult = cap_u64(r + 16);
			c->time_conv.zero = cap_u64(r + 24);
			c->time_conv.cap_zero = 1;
			if (size >= 56) {
				c->time_conv.cycles = cap_u64(r + 32);
				c->time_conv.mask = cap_u64(r + 40);
				c->time_conv.cap_zero = r[48];
				c->time_conv.cap_short = r[49];
			}
		}
		off += len;
	}
	if (z.len) {
		fail(err, errlen, status, 65, c->name, end, "the compressed stream ends inside a record (%zu bytes left)",
		     z.len);
		goto out;
	}
	rc = 0;
out:
	ZSTD_freeDStream(z.ds);
	free(z.buf);
	return rc;
}

/* File mode: header, attrs with their ids, the feature sections. */
static int read_file_header(struct capture *c, char *err, size_t errlen, int *status)
{
	if (c->size < FILE_HEADER_SIZE || cap_u64(c->buf + 8) != FILE_HEADER_SIZE)
		return fail(err, errlen, status, 65, c->name, 8, "not a perf.data header of 104 bytes");
	c->attr_size = cap_u64(c->buf + 16);
	uint64_t attrs_off = cap_u64(c->buf + 24), attrs_size = cap_u64(c->buf + 32);
	c->data_offset = cap_u64(c->buf + 40);
	c->data_size = cap_u64(c->buf + 48);
	for (int i = 0; i < 4; i++)
		c->features[i] = cap_u64(c->buf + 72 + 8 * i);
	if (c->attr_size < 16 + 48 || c->attr_size > 4096 || attrs_off > c->size || attrs_size > c->size - attrs_off ||
	    attrs_size % c->attr_size)
		return fail(err, errlen, status, 65, c->name, 16, "attr section (size %llu, entries of %llu) does not fit",
			    (unsigned long long)attrs_size, (unsigned long long)c->attr_size);
	if (c->data_offset > c->size || c->data_size > c->size - c->data_offset)
		return fail(err, errlen, status, 65, c->name, 40, "data section runs past the end of the file");
	if (c->data_size == 0)
		return fail(err, errlen, status, 65, c->name, 48,
			    "data size 0: perf record did not finish this file");
	uint64_t n = attrs_size / c->attr_size;
	if (n > CAP_MAX_ATTRS)
		return fail(err, errlen, status, 65, c->name, 24, "%llu attrs, at most %d handled", (unsigned long long)n,
			    CAP_MAX_ATTRS);
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *e = c->buf + attrs_off + i * c->attr_size;
		struct cap_attr *a = &c->attrs[c->n_attrs++];
		a->raw = e;
		a->raw_size = (uint32_t)(c->attr_size - 16);
		uint64_t ids_off = cap_u64(e + a->raw_size), ids_size = cap_u64(e + a->raw_size + 8);
		if (ids_off > c->size || ids_size > c->size - ids_off || ids_size % 8)
			return fail(err, errlen, status, 65, c->name, attrs_off + i * c->attr_size,
				    "attr %llu: ids section does not fit", (unsigned long long)i);
		a->ids = c->buf + ids_off;
		a->n_ids = (uint32_t)(ids_size / 8);
		attr_fields(a);
	}
	uint64_t sec = c->data_offset + c->data_size;
	for (int bit = 0; bit < CAP_F_MAX; bit++) {
		if (!(c->features[bit / 64] >> (bit % 64) & 1))
			continue;
		if (sec + 16 > c->size)
			return fail(err, errlen, status, 65, c->name, sec, "feature table cut at feature %d", bit);
		uint64_t off = cap_u64(c->buf + sec), size = cap_u64(c->buf + sec + 8);
		if (off > c->size || size > c->size - off)
			return fail(err, errlen, status, 65, c->name, sec, "feature %d section does not fit", bit);
		c->feat[bit].data = c->buf + off;
		c->feat[bit].size = size;
		sec += 16;
	}
	return 0;
}

static int parse(struct capture *c, uint8_t *buf, size_t size, const char *name, char *err, size_t errlen,
		 int *status, int allow_aux)
{
	memset(c, 0, sizeof *c);
	c->allow_aux = allow_aux;
	c->buf = buf;
	c->size = size;
	c->name = name;
	for (int i = 0; i < CAP_F_MAX; i++)
		c->feat_record[i] = UINT32_MAX;
	if (size < PIPE_HEADER_SIZE || cap_u64(buf) != MAGIC2)
		return fail(err, errlen, status, 65, name, 0, "not a perf.data file (no PERFILE2 magic)");
	uint64_t start, end;
	if (cap_u64(buf + 8) == PIPE_HEADER_SIZE) {
		c->pipe = 1;
		start = PIPE_HEADER_SIZE;
		end = size;
	} else {
		if (read_file_header(c, err, errlen, status) < 0)
			return -1;
		start = c->data_offset;
		end = c->data_offset + c->data_size;
	}
	/*
	 * Attrs come before the records in file mode; in pipe mode each
	 * HEADER_ATTR precedes the records that use it, so the trailer rule is
	 * settled by the attrs read so far -- perf itself reads them that way.
	 */
	if (!c->pipe) {
		c->identifier = c->n_attrs > 0;
		for (uint32_t i = 0; i < c->n_attrs; i++)
			if (!(c->attrs[i].sample_type & CAP_S_IDENTIFIER))
				c->identifier = 0;
	} else {
		c->identifier = 1; /* settled below; HEADER_ATTRs all precede kernel records in perf's pipe output */
		uint64_t off = start;
		while (off + 8 <= end) {
			uint32_t type = cap_u32(buf + off);
			uint16_t sz = cap_u16(buf + off + 6);
			if (sz < 8 || sz > end - off || type != CAP_HEADER_ATTR)
				break;
			if (sz >= 8 + 32 && !(cap_u64(buf + off + 8 + 24) & CAP_S_IDENTIFIER))
				c->identifier = 0;
			off += sz;
		}
	}
	if (read_records(c, start, end, err, errlen, status) < 0)
		return -1;
	if (c->n_attrs == 0)
		return fail(err, errlen, status, 65, name, UINT64_MAX, "no event attrs");
	if (!c->identifier) {
		/* without IDENTIFIER perf reads every trailer with one layout */
		for (uint32_t i = 1; i < c->n_attrs; i++)
			if ((c->attrs[i].sample_type ^ c->attrs[0].sample_type) &
			    (CAP_S_TID | CAP_S_TIME | CAP_S_ID | CAP_S_STREAM_ID | CAP_S_CPU))
				return fail(err, errlen, status, 65, name, UINT64_MAX,
					    "attrs with different sample_id layouts and no IDENTIFIER");
	}
	for (uint32_t i = 0; i < c->n_attrs; i++)
		for (uint32_t k = 0; k < c->attrs[i].n_ids; k++)
			if (cap_u64(c->attrs[i].ids + 8 * k) > c->max_id)
				c->max_id = cap_u64(c->attrs[i].ids + 8 * k);
	c->min_time = UINT64_MAX;
	for (uint32_t i = 0; i < c->n_events; i++)
		if (c->events[i].has_time && c->events[i].time) {
			if (c->events[i].time < c->min_time)
				c->min_time = c->events[i].time;
			if (c->events[i].time > c->max_time)
				c->max_time = c->events[i].time;
		}
	if (c->min_time == UINT64_MAX)
		return fail(err, errlen, status, 65, name, UINT64_MAX,
			    "no timed sideband records (record with sample_id_all and PERF_SAMPLE_TIME)");
	return 0;
}

int cap_parse(struct capture *c, uint8_t *buf, size_t size, const char *name, char *err, size_t errlen,
	      int *status)
{
	return parse(c, buf, size, name, err, errlen, status, 0);
}

int cap_parse_output(struct capture *c, uint8_t *buf, size_t size, const char *name, char *err, size_t errlen,
		     int *status)
{
	return parse(c, buf, size, name, err, errlen, status, 1);
}

int cap_read(struct capture *c, const char *path, char *err, size_t errlen, int *status)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		memset(c, 0, sizeof *c);
		return fail(err, errlen, status, 66, path, UINT64_MAX, "%s", strerror(errno));
	}
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	for (;;) {
		if (!buf) {
			if (f != stdin)
				fclose(f);
			return fail(err, errlen, status, 70, path, UINT64_MAX, "out of memory");
		}
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb)
				free(buf);
			buf = nb;
			cap *= 2;
		}
	}
	int bad = ferror(f);
	if (f != stdin)
		fclose(f);
	if (bad) {
		free(buf);
		memset(c, 0, sizeof *c);
		return fail(err, errlen, status, 74, path, UINT64_MAX, "read error");
	}
	return cap_parse(c, buf, len, path, err, errlen, status);
}

void cap_fini(struct capture *c)
{
	for (uint32_t i = 0; i < c->n_events; i++)
		if (c->events[i].type == CAP_MMAP || c->events[i].type == CAP_MMAP2)
			free(c->events[i].u.mmap.filename);
	free(c->events);
	free(c->records);
	free(c->buf);
	memset(c, 0, sizeof *c);
}
