/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf.data writer: a file perf 6.1 reads for `perf report -D`, `perf
 * script` and `perf report` (layout and what perf needs: docs/spe-format.md
 * §4.2-§4.9).
 *
 * File layout: header (104) | one attr entry (128 + 16) | one id (8) |
 * data: TIME_CONV, AUXTRACE_INFO, then the caller's events | feature table |
 * feature sections.  The header is written first with data.size = 0, which
 * readers (ours) take as "data runs to EOF", and rewritten at close.  After a
 * failed write, close still rewrites it, with data.size ending at the last
 * record known to be wholly in the file (perf 6.1 refuses data.size 0).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "perfdata_internal.h"
#include "util/grow.h"

#define W_ATTR_SIZE 128           /* perf 6.1 rejects larger attrs */
#define W_ATTRS_OFFSET PD_FILE_HEADER_SIZE
#define W_IDS_OFFSET (W_ATTRS_OFFSET + W_ATTR_SIZE + 16)
#define W_DATA_OFFSET (W_IDS_OFFSET + 8)
#define W_BUF_SIZE (256u << 10)
#define W_NAME_ALIGN 64           /* perf pads header strings to 64 */
#define W_MISC_USER 2
#define W_MISC_BUILD_ID_SIZE 0x8000
#define W_SPE_CPU_MAGIC 0x1010101010101010ull

struct w_build_id {
	uint32_t pid;
	uint8_t size;
	uint8_t id[20];
	char *filename;
};

struct spe_perf_writer {
	int fd;
	int pipe;                /* pipe mode: sequential write(), no header rewrite */
	uint64_t pos;            /* file offset of the next byte appended */
	uint8_t *buf;            /* pending bytes, to land at buf_pos */
	size_t fill;
	uint64_t buf_pos;
	int err, saved_errno;
	char errmsg[256];
	/* File mode, for sealing after a failure (see seal_after_failure). */
	int header_written;      /* header and attr are in the file */
	uint64_t durable;        /* bytes [W_DATA_OFFSET, durable) are in the file */
	uint64_t sealed;         /* end of the last complete record below durable */
	uint64_t *ends;          /* ends of complete records above sealed, ascending */
	size_t n_ends, cap_ends;
	uint32_t pmu_type;
	uint64_t sample_type, sample_period, sample_id, config, config1, config2;
	uint64_t attr_flags; /* sample_id_all plus the exclude bits and use_clockid */
	int32_t clockid;
	uint32_t midr, nr_avail, nr_online;
	int nr_given;            /* nr_cpus_avail came from the config (else it follows the CPUs written) */
	char *arch, *hostname, *osrelease;
	char **argv;
	int argc;
	uint64_t *index;         /* file offsets of AUXTRACE records */
	size_t n_index, cap_index;
	struct w_build_id *bids;
	size_t n_bids;
	struct spe_perf_numa_node *numa; /* owned copies (cpus, blocks) */
	uint32_t n_numa;
	uint64_t memory_block_size;
};

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Keep the first error; @p offset is the file offset it concerns. */
static int w_fail_at(struct spe_perf_writer *w, int code, int saved, const char *what, uint64_t offset)
{
	if (!w->err) {
		w->err = code;
		w->saved_errno = saved;
		snprintf(w->errmsg, sizeof w->errmsg, "%s at offset 0x%llx: %s", what, (unsigned long long)offset,
			 saved ? strerror(saved) : spe_errstr(code));
	}
	return w->err;
}

/* An error at the end of the stream (not a write: memory, limits). */
static int w_fail(struct spe_perf_writer *w, int code, int saved, const char *what)
{
	return w_fail_at(w, code, saved, what, w->pos);
}

static int pwrite_all(struct spe_perf_writer *w, const void *data, size_t len, uint64_t off)
{
	const uint8_t *p = data;
	while (len) {
		ssize_t n = w->pipe ? write(w->fd, p, len) : pwrite(w->fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		/*
		 * The offset of the first byte that did not land (w->pos is further
		 * on while the buffer holds bytes): for an append after ENOSPC or
		 * EFBIG it is the file's size.
		 */
		if (n <= 0)
			return w_fail_at(w, -spe_io, n < 0 ? errno : ENOSPC, "write failed", off);
		if (!w->pipe && off == w->durable)
			w->durable += (uint64_t)n; /* appended data, even when a later chunk fails */
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int flush(struct spe_perf_writer *w)
{
	if (w->err)
		return w->err;
	if (w->fill) {
		int err = pwrite_all(w, w->buf, w->fill, w->buf_pos);
		if (err)
			return err;
	}
	w->buf_pos += w->fill;
	w->fill = 0;
	return 0;
}

/* Move sealed to the last complete record that is wholly in the file. */
static void settle(struct spe_perf_writer *w)
{
	size_t k = 0;
	while (k < w->n_ends && w->ends[k] <= w->durable)
		k++;
	if (!k)
		return;
	w->sealed = w->ends[k - 1];
	memmove(w->ends, w->ends + k, (w->n_ends - k) * sizeof *w->ends);
	w->n_ends -= k;
}

/* A record is complete in the stream (maybe still in the buffer). */
static int record_done(struct spe_perf_writer *w)
{
	if (w->err || w->pipe || !w->header_written)
		return w->err;
	if (w->n_ends == w->cap_ends)
		settle(w); /* drop the ends already in the file */
	uint64_t *ne = util_grow(w->ends, &w->cap_ends, w->n_ends + 1, sizeof *ne);
	if (!ne)
		return 0; /* sealing after a failure may then stop at an earlier record */
	w->ends = ne;
	w->ends[w->n_ends++] = w->pos;
	return 0;
}

/* Append @p len bytes (NULL = zeros) to the file. */
static int append(struct spe_perf_writer *w, const void *data, uint64_t len)
{
	if (w->err)
		return w->err;
	if (len >= W_BUF_SIZE && data) {
		int err = flush(w);
		if (err)
			return err;
		err = pwrite_all(w, data, (size_t)len, w->pos);
		if (err)
			return err;
		w->pos += len;
		w->buf_pos = w->pos;
		return 0;
	}
	const uint8_t *p = data;
	while (len) {
		if (w->fill == W_BUF_SIZE && flush(w))
			return w->err;
		size_t n = W_BUF_SIZE - w->fill;
		if (n > len)
			n = (size_t)len;
		if (p) {
			memcpy(w->buf + w->fill, p, n);
			p += n;
		} else {
			memset(w->buf + w->fill, 0, n);
		}
		w->fill += n;
		w->pos += n;
		len -= n;
	}
	return 0;
}

static void header(uint8_t *p, uint32_t type, uint16_t misc, uint16_t size)
{
	put32(p, type);
	put16(p + 4, misc);
	put16(p + 6, size);
}

static uint32_t trailer_size(const struct spe_perf_writer *w)
{
	uint64_t t = w->sample_type;
	return 8u * (!!(t & SPE_PERF_SAMPLE_TID) + !!(t & SPE_PERF_SAMPLE_TIME) + !!(t & SPE_PERF_SAMPLE_ID) +
		     !!(t & SPE_PERF_SAMPLE_STREAM_ID) + !!(t & SPE_PERF_SAMPLE_CPU) +
		     !!(t & SPE_PERF_SAMPLE_IDENTIFIER));
}

static void trailer(const struct spe_perf_writer *w, uint8_t *p, const struct spe_perf_writer_sid *sid)
{
	static const struct spe_perf_writer_sid none;
	uint64_t t = w->sample_type;
	if (!sid)
		sid = &none;
	if (t & SPE_PERF_SAMPLE_TID) {
		put32(p, sid->pid);
		put32(p + 4, sid->tid);
		p += 8;
	}
	if (t & SPE_PERF_SAMPLE_TIME) {
		put64(p, sid->time);
		p += 8;
	}
	if (t & SPE_PERF_SAMPLE_ID) {
		put64(p, w->sample_id);
		p += 8;
	}
	if (t & SPE_PERF_SAMPLE_STREAM_ID) {
		put64(p, w->sample_id);
		p += 8;
	}
	if (t & SPE_PERF_SAMPLE_CPU) {
		put32(p, sid->cpu);
		put32(p + 4, 0);
		p += 8;
	}
	if (t & SPE_PERF_SAMPLE_IDENTIFIER)
		put64(p, w->sample_id);
}

static int write_file_header(struct spe_perf_writer *w, uint64_t data_size, const uint64_t features[4])
{
	uint8_t h[PD_FILE_HEADER_SIZE] = { 0 };
	memcpy(h, "PERFILE2", 8);
	put64(h + 8, PD_FILE_HEADER_SIZE);
	put64(h + 16, W_ATTR_SIZE + 16);
	put64(h + 24, W_ATTRS_OFFSET);
	put64(h + 32, W_ATTR_SIZE + 16);
	put64(h + 40, W_DATA_OFFSET);
	put64(h + 48, data_size);
	for (int i = 0; i < 4; i++)
		put64(h + 72 + 8 * i, features[i]);
	return pwrite_all(w, h, sizeof h, 0);
}

static int write_attr(struct spe_perf_writer *w)
{
	uint8_t a[W_ATTR_SIZE + 16 + 8] = { 0 };
	put32(a + 0, w->pmu_type);
	put32(a + 4, W_ATTR_SIZE);
	put64(a + 8, w->config);
	put64(a + 16, w->sample_period);
	put64(a + 24, w->sample_type);
	put64(a + 40, w->attr_flags);
	put64(a + 56, w->config1);
	put32(a + 92, (uint32_t)w->clockid);
	put64(a + 64, w->config2);
	put64(a + W_ATTR_SIZE, W_IDS_OFFSET);
	put64(a + W_ATTR_SIZE + 8, 8);
	put64(a + W_ATTR_SIZE + 16, w->sample_id);
	return pwrite_all(w, a, sizeof a, W_ATTRS_OFFSET);
}

static int write_time_conv(struct spe_perf_writer *w, const struct spe_perf_time_conv *tc)
{
	static const struct spe_perf_time_conv identity = { .time_mult = 1, .cap_user_time_zero = 1 };
	if (!tc)
		tc = &identity;
	uint8_t r[56] = { 0 };
	header(r, SPE_PERF_RECORD_TIME_CONV, 0, sizeof r);
	put64(r + 8, tc->time_shift);
	put64(r + 16, tc->time_mult);
	put64(r + 24, tc->time_zero);
	put64(r + 32, tc->time_cycles);
	put64(r + 40, tc->time_mask);
	r[48] = tc->cap_user_time_zero;
	r[49] = tc->cap_user_time_short;
	return append(w, r, sizeof r) || record_done(w) ? w->err : 0;
}

static int write_auxtrace_info(struct spe_perf_writer *w, const struct spe_perf_writer_config *c)
{
	if (c->auxtrace_info_version != 2) {
		uint8_t r[32] = { 0 };
		header(r, SPE_PERF_RECORD_AUXTRACE_INFO, 0, sizeof r);
		put32(r + 8, SPE_PERF_AUXTRACE_ARM_SPE);
		put64(r + 16, w->pmu_type);
		return append(w, r, sizeof r) || record_done(w) ? w->err : 0;
	}
	/* v2: [version 2, 4 header words, pmu type, n] + n x [magic, cpu, 4, midr, pmu, min_interval, filter] */
	uint64_t size = 16 + 8 * (4 + 7 * (uint64_t)c->n_cpus);
	if (size > 0xffff || (c->n_cpus && !c->cpus))
		return w_fail(w, -spe_invalid, 0, "AUXTRACE_INFO v2 cannot hold that many CPUs");
	uint8_t *r = calloc(1, size);
	if (!r)
		return w_fail(w, -spe_nomem, 0, "AUXTRACE_INFO");
	header(r, SPE_PERF_RECORD_AUXTRACE_INFO, 0, (uint16_t)size);
	put32(r + 8, SPE_PERF_AUXTRACE_ARM_SPE);
	uint8_t *q = r + 16;
	put64(q, 2);
	put64(q + 8, 4);
	put64(q + 16, w->pmu_type);
	put64(q + 24, c->n_cpus);
	q += 32;
	for (uint32_t i = 0; i < c->n_cpus; i++, q += 56) {
		const struct spe_perf_spe_cpu *cpu = &c->cpus[i];
		put64(q, W_SPE_CPU_MAGIC);
		put64(q + 8, cpu->cpu);
		put64(q + 16, 4);
		put64(q + 24, cpu->midr);
		put64(q + 32, cpu->pmu_type);
		put64(q + 40, cpu->min_interval);
		put64(q + 48, cpu->event_filter);
	}
	int err = append(w, r, size) || record_done(w) ? w->err : 0;
	free(r);
	return err;
}

static int write_feature(struct spe_perf_writer *w, unsigned bit);
#define W_MAX_FEATURES 10
static unsigned feature_list(const struct spe_perf_writer *w, unsigned bits[W_MAX_FEATURES]);

/* Pipe mode: header, HEADER_ATTR (attr + id), then each feature as a HEADER_FEATURE event. */
static int write_pipe_start(struct spe_perf_writer *w)
{
	uint8_t h[16];
	memcpy(h, "PERFILE2", 8);
	put64(h + 8, PD_PIPE_HEADER_SIZE);
	uint8_t a[8 + W_ATTR_SIZE + 8] = { 0 };
	header(a, SPE_PERF_RECORD_HEADER_ATTR, 0, sizeof a);
	put32(a + 8, w->pmu_type);
	put32(a + 12, W_ATTR_SIZE);
	put64(a + 16, w->config);
	put64(a + 24, w->sample_period);
	put64(a + 32, w->sample_type);
	put64(a + 48, w->attr_flags);
	put64(a + 64, w->config1);
	put32(a + 8 + 92, (uint32_t)w->clockid);
	put64(a + 72, w->config2);
	put64(a + 8 + W_ATTR_SIZE, w->sample_id);
	if (append(w, h, sizeof h) || append(w, a, sizeof a))
		return w->err;
	unsigned bits[W_MAX_FEATURES], n = feature_list(w, bits);
	for (unsigned i = 0; i < n; i++) {
		if (bits[i] == SPE_PERF_FEAT_BUILD_ID || bits[i] == SPE_PERF_FEAT_AUXTRACE)
			continue; /* known only at close / file mode only */
		/* the buffer is empty at open, so the event header can be patched in place */
		uint64_t start = w->pos;
		uint8_t fh[16] = { 0 };
		put64(fh + 8, bits[i]);
		if (append(w, fh, sizeof fh) || write_feature(w, bits[i]))
			return w->err;
		uint64_t size = w->pos - start, padded = (size + 7) & ~7ull;
		if (append(w, NULL, padded - size))
			return w->err;
		if (start < w->buf_pos || padded > 0xffff)
			return w_fail(w, -spe_internal, 0, "pipe header");
		header(w->buf + (start - w->buf_pos), SPE_PERF_RECORD_HEADER_FEATURE, 0, (uint16_t)padded);
	}
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Own copies of the caller's NUMA nodes; on failure the writer keeps none. */
static void copy_numa(struct spe_perf_writer *w, const struct spe_perf_writer_config *c)
{
	if (!c->n_numa_nodes || !c->numa_nodes)
		return;
	w->numa = calloc(c->n_numa_nodes, sizeof *w->numa);
	if (!w->numa)
		return;
	w->n_numa = c->n_numa_nodes;
	w->memory_block_size = c->memory_block_size;
	for (uint32_t i = 0; i < w->n_numa; i++) {
		const struct spe_perf_numa_node *src = &c->numa_nodes[i];
		struct spe_perf_numa_node *dst = &w->numa[i];
		*dst = *src;
		dst->cpus = strdup(src->cpus ? src->cpus : "");
		size_t words = (size_t)((src->n_block_bits + 63) / 64);
		uint64_t *b = words && src->blocks ? malloc(words * 8) : NULL;
		if (b)
			memcpy(b, src->blocks, words * 8);
		dst->blocks = b;
		dst->n_block_bits = b ? src->n_block_bits : 0;
		if (!dst->cpus)
			w_fail(w, -spe_nomem, 0, "NUMA topology");
	}
}

static void free_numa(struct spe_perf_writer *w)
{
	for (uint32_t i = 0; i < w->n_numa; i++) {
		free((char *)w->numa[i].cpus);
		free((uint64_t *)w->numa[i].blocks);
	}
	free(w->numa);
}

struct spe_perf_writer *spe_perf_writer_open(int fd, const struct spe_perf_writer_config *config)
{
	struct spe_perf_writer_config c = { 0 };
	if (config)
		memcpy(&c, config, config->size < sizeof c ? config->size : sizeof c);
	struct spe_perf_writer *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->buf = malloc(W_BUF_SIZE);
	if (!w->buf) {
		free(w);
		return NULL;
	}
	w->fd = fd;
	w->pmu_type = c.pmu_type ? c.pmu_type : 8;
	w->sample_type = c.sample_type ? c.sample_type : SPE_PERF_WRITER_SAMPLE_TYPE;
	w->sample_period = c.sample_period ? c.sample_period : 1;
	w->sample_id = c.sample_id ? c.sample_id : 1;
	w->config = c.config;
	w->config1 = c.config1;
	w->config2 = c.config2;
	w->attr_flags = PD_SAMPLE_ID_ALL | (c.exclude_user ? PD_EXCLUDE_USER : 0) |
			(c.exclude_kernel ? PD_EXCLUDE_KERNEL : 0) | (c.use_clockid ? PD_USE_CLOCKID : 0);
	w->clockid = c.use_clockid ? c.clockid : 0;
	w->midr = c.midr;
	w->nr_given = c.nr_cpus_avail != 0;
	w->nr_avail = c.nr_cpus_avail ? c.nr_cpus_avail : 1;
	w->nr_online = c.nr_cpus_online; /* 0: nr_avail, once known */
	w->arch = strdup(c.arch ? c.arch : "aarch64");
	w->hostname = dup_or_null(c.hostname);
	w->osrelease = dup_or_null(c.osrelease);
	if (c.argc > 0 && c.argv) {
		w->argv = calloc((size_t)c.argc, sizeof *w->argv);
		if (w->argv) {
			w->argc = c.argc;
			for (int i = 0; i < c.argc; i++)
				w->argv[i] = strdup(c.argv[i] ? c.argv[i] : "");
		}
	}
	copy_numa(w, &c);
	w->pipe = c.pipe_mode;
	w->pos = w->pipe ? 0 : W_DATA_OFFSET;
	w->buf_pos = w->pos;
	if (fd < 0) {
		w_fail(w, -spe_invalid, EBADF, "bad file descriptor");
		return w;
	}
	if (w->pipe) {
		if (write_pipe_start(w) || write_time_conv(w, c.time_conv) || write_auxtrace_info(w, &c))
			return w;
		flush(w);
		return w;
	}
	static const uint64_t no_features[4];
	if (write_file_header(w, 0, no_features) || write_attr(w))
		return w;
	w->header_written = 1;
	w->durable = w->sealed = w->pos;
	if (write_time_conv(w, c.time_conv) || write_auxtrace_info(w, &c))
		return w;
	flush(w);
	return w;
}

int spe_perf_writer_error(const struct spe_perf_writer *w, int *saved_errno)
{
	if (!w)
		return -spe_invalid;
	if (saved_errno)
		*saved_errno = w->saved_errno;
	return w->err;
}

const char *spe_perf_writer_errmsg(const struct spe_perf_writer *w)
{
	return w && w->err ? w->errmsg : "";
}

int spe_perf_write_auxtrace(struct spe_perf_writer *w, const void *data, uint64_t size, uint64_t aux_offset,
			    uint64_t reference, uint32_t idx, int32_t tid, int32_t cpu)
{
	if (!w || (!data && size))
		return -spe_invalid;
	if (w->err)
		return w->err;
	uint64_t padded = (size + 7) & ~7ull;
	uint64_t *ni = util_grow(w->index, &w->cap_index, w->n_index + 1, sizeof *ni);
	if (!ni)
		return w_fail(w, -spe_nomem, 0, "AUXTRACE index");
	w->index = ni;
	w->index[w->n_index++] = w->pos;
	uint8_t r[PD_AUXTRACE_SIZE] = { 0 };
	header(r, SPE_PERF_RECORD_AUXTRACE, 0, sizeof r);
	put64(r + 8, padded);
	put64(r + 16, aux_offset);
	put64(r + 24, reference);
	put32(r + 32, idx);
	put32(r + 36, (uint32_t)tid);
	put32(r + 40, (uint32_t)cpu);
	/* NRCPUS (written at close) then covers every CPU of the data, as perf's does */
	if (!w->nr_given && cpu >= 0 && (uint32_t)cpu >= w->nr_avail)
		w->nr_avail = (uint32_t)cpu + 1;
	if (append(w, r, sizeof r) || append(w, data, size) || append(w, NULL, padded - size))
		return w->err;
	return record_done(w);
}

/* Append a kernel record: @p fixed bytes (header filled here), @p name padded to 8, trailer. */
static int kernel_record(struct spe_perf_writer *w, uint32_t type, uint16_t misc, uint8_t *fixed, uint32_t nfixed,
			 const char *name, const struct spe_perf_writer_sid *sid)
{
	if (w->err)
		return w->err;
	size_t nlen = name ? strlen(name) + 1 : 0;
	size_t npad = (nlen + 7) & ~(size_t)7;
	uint32_t tsz = trailer_size(w);
	uint64_t size = nfixed + npad + tsz;
	if (size > 0xffff)
		return -spe_invalid;
	header(fixed, type, misc, (uint16_t)size);
	uint8_t t[64] = { 0 };
	trailer(w, t, sid);
	if (append(w, fixed, nfixed) || (name && append(w, name, nlen)) || append(w, NULL, npad - nlen) ||
	    append(w, t, tsz))
		return w->err;
	return record_done(w);
}

int spe_perf_write_aux(struct spe_perf_writer *w, uint64_t aux_offset, uint64_t aux_size, uint64_t flags,
		       const struct spe_perf_writer_sid *sid)
{
	if (!w)
		return -spe_invalid;
	uint8_t r[32] = { 0 };
	put64(r + 8, aux_offset);
	put64(r + 16, aux_size);
	put64(r + 24, flags);
	return kernel_record(w, SPE_PERF_RECORD_AUX, 0, r, sizeof r, NULL, sid);
}

int spe_perf_write_itrace_start(struct spe_perf_writer *w, uint32_t pid, uint32_t tid,
				const struct spe_perf_writer_sid *sid)
{
	if (!w)
		return -spe_invalid;
	uint8_t r[16] = { 0 };
	put32(r + 8, pid);
	put32(r + 12, tid);
	return kernel_record(w, SPE_PERF_RECORD_ITRACE_START, 0, r, sizeof r, NULL, sid);
}

int spe_perf_write_mmap2(struct spe_perf_writer *w, const struct spe_perf_mmap *m,
			 const struct spe_perf_writer_sid *sid)
{
	if (!w || !m)
		return -spe_invalid;
	uint8_t r[72] = { 0 };
	uint16_t misc = W_MISC_USER;
	put32(r + 8, m->pid);
	put32(r + 12, m->tid);
	put64(r + 16, m->start);
	put64(r + 24, m->len);
	put64(r + 32, m->pgoff);
	if (m->build_id_size) {
		misc |= SPE_PERF_MISC_MMAP_BUILD_ID;
		r[40] = m->build_id_size > 20 ? 20 : m->build_id_size;
		memcpy(r + 44, m->build_id, r[40]);
	} else {
		put32(r + 40, m->maj);
		put32(r + 44, m->min);
		put64(r + 48, m->ino);
		put64(r + 56, m->ino_generation);
	}
	put32(r + 64, m->prot);
	put32(r + 68, m->flags);
	return kernel_record(w, SPE_PERF_RECORD_MMAP2, misc, r, sizeof r, m->filename ? m->filename : "", sid);
}

int spe_perf_write_comm(struct spe_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm, int exec,
			const struct spe_perf_writer_sid *sid)
{
	if (!w || !comm)
		return -spe_invalid;
	uint8_t r[16] = { 0 };
	put32(r + 8, pid);
	put32(r + 12, tid);
	return kernel_record(w, SPE_PERF_RECORD_COMM, exec ? SPE_PERF_MISC_COMM_EXEC : 0, r, sizeof r, comm, sid);
}

int spe_perf_write_task(struct spe_perf_writer *w, uint32_t type, const struct spe_perf_task *t,
			const struct spe_perf_writer_sid *sid)
{
	if (!w || !t || (type != SPE_PERF_RECORD_FORK && type != SPE_PERF_RECORD_EXIT))
		return -spe_invalid;
	uint8_t r[32] = { 0 };
	put32(r + 8, t->pid);
	put32(r + 12, t->ppid);
	put32(r + 16, t->tid);
	put32(r + 20, t->ptid);
	put64(r + 24, t->time);
	return kernel_record(w, type, 0, r, sizeof r, NULL, sid);
}

int spe_perf_write_switch(struct spe_perf_writer *w, int cpu_wide, const struct spe_perf_switch *sw,
			  const struct spe_perf_writer_sid *sid)
{
	if (!w || !sw)
		return -spe_invalid;
	uint8_t r[16] = { 0 };
	uint16_t misc = (sw->out ? SPE_PERF_MISC_SWITCH_OUT : 0) | (sw->preempt ? SPE_PERF_MISC_SWITCH_OUT_PREEMPT : 0);
	if (!cpu_wide)
		return kernel_record(w, SPE_PERF_RECORD_SWITCH, misc, r, 8, NULL, sid);
	put32(r + 8, sw->next_prev_pid);
	put32(r + 12, sw->next_prev_tid);
	return kernel_record(w, SPE_PERF_RECORD_SWITCH_CPU_WIDE, misc, r, sizeof r, NULL, sid);
}

int spe_perf_write_lost(struct spe_perf_writer *w, uint64_t id, uint64_t lost, const struct spe_perf_writer_sid *sid)
{
	if (!w)
		return -spe_invalid;
	uint8_t r[24] = { 0 };
	put64(r + 8, id);
	put64(r + 16, lost);
	return kernel_record(w, SPE_PERF_RECORD_LOST, 0, r, sizeof r, NULL, sid);
}

int spe_perf_write_kernel_record(struct spe_perf_writer *w, uint32_t type, uint16_t misc, const void *body,
				 size_t body_size, const struct spe_perf_writer_sid *sid)
{
	if (!w || (!body && body_size) || type >= SPE_PERF_RECORD_USER_START || body_size > 0xffff - 8)
		return -spe_invalid;
	uint8_t *r = malloc(8 + body_size);
	if (!r)
		return w_fail(w, -spe_nomem, 0, "kernel record");
	if (body_size)
		memcpy(r + 8, body, body_size);
	int err = kernel_record(w, type, misc, r, (uint32_t)(8 + body_size), NULL, sid);
	free(r);
	return err;
}

int spe_perf_write_finished_round(struct spe_perf_writer *w)
{
	if (!w)
		return -spe_invalid;
	uint8_t r[8];
	header(r, SPE_PERF_RECORD_FINISHED_ROUND, 0, 8);
	return append(w, r, sizeof r) || record_done(w) ? w->err : 0;
}

int spe_perf_writer_add_build_id(struct spe_perf_writer *w, uint32_t pid, const uint8_t *id, uint8_t id_size,
				 const char *filename)
{
	if (!w || !id || !filename || id_size > 20 || strlen(filename) > 4096)
		return -spe_invalid;
	struct w_build_id *nb = realloc(w->bids, (w->n_bids + 1) * sizeof *nb);
	if (!nb)
		return w_fail(w, -spe_nomem, 0, "build id");
	w->bids = nb;
	struct w_build_id *b = &w->bids[w->n_bids];
	memset(b, 0, sizeof *b);
	b->pid = pid;
	b->size = id_size;
	memcpy(b->id, id, id_size);
	b->filename = strdup(filename);
	if (!b->filename)
		return w_fail(w, -spe_nomem, 0, "build id");
	w->n_bids++;
	return 0;
}

/* A header string: u32 length (NUL included, rounded up to 64), NUL-padded bytes. */
static int append_string(struct spe_perf_writer *w, const char *s)
{
	size_t len = strlen(s) + 1;
	uint32_t padded = (uint32_t)((len + W_NAME_ALIGN - 1) / W_NAME_ALIGN * W_NAME_ALIGN);
	uint8_t l[4];
	put32(l, padded);
	if (append(w, l, 4) || append(w, s, len) || append(w, NULL, padded - len))
		return w->err;
	return 0;
}

static int append_u32(struct spe_perf_writer *w, uint32_t v)
{
	uint8_t b[4];
	put32(b, v);
	return append(w, b, 4);
}

static int append_u64(struct spe_perf_writer *w, uint64_t v)
{
	uint8_t b[8];
	put64(b, v);
	return append(w, b, 8);
}

static int write_feature(struct spe_perf_writer *w, unsigned bit)
{
	char cpuid[32];
	switch (bit) {
	case SPE_PERF_FEAT_BUILD_ID:
		for (size_t i = 0; i < w->n_bids; i++) {
			const struct w_build_id *b = &w->bids[i];
			size_t len = strlen(b->filename) + 1;
			size_t padded = (len + W_NAME_ALIGN - 1) / W_NAME_ALIGN * W_NAME_ALIGN;
			uint8_t r[36] = { 0 };
			header(r, 0, W_MISC_USER | W_MISC_BUILD_ID_SIZE, (uint16_t)(36 + padded));
			put32(r + 8, b->pid);
			memcpy(r + 12, b->id, b->size);
			r[32] = b->size;
			if (append(w, r, sizeof r) || append(w, b->filename, len) || append(w, NULL, padded - len))
				return w->err;
		}
		return 0;
	case SPE_PERF_FEAT_HOSTNAME: return append_string(w, w->hostname);
	case SPE_PERF_FEAT_OSRELEASE: return append_string(w, w->osrelease);
	case SPE_PERF_FEAT_ARCH: return append_string(w, w->arch);
	case SPE_PERF_FEAT_NRCPUS:
		return append_u32(w, w->nr_avail) || append_u32(w, w->nr_online ? w->nr_online : w->nr_avail) ? w->err : 0;
	case SPE_PERF_FEAT_CPUID:
		snprintf(cpuid, sizeof cpuid, "0x%016llx", (unsigned long long)w->midr);
		return append_string(w, cpuid);
	case SPE_PERF_FEAT_CMDLINE:
		if (append_u32(w, (uint32_t)w->argc))
			return w->err;
		for (int i = 0; i < w->argc; i++)
			if (append_string(w, w->argv[i] ? w->argv[i] : ""))
				return w->err;
		return 0;
	case SPE_PERF_FEAT_NUMA_TOPOLOGY:
		if (append_u32(w, w->n_numa))
			return w->err;
		for (uint32_t i = 0; i < w->n_numa; i++) {
			const struct spe_perf_numa_node *n = &w->numa[i];
			if (append_u32(w, n->node) || append_u64(w, n->mem_total_kb) || append_u64(w, n->mem_free_kb) ||
			    append_string(w, n->cpus))
				return w->err;
		}
		return 0;
	case SPE_PERF_FEAT_MEM_TOPOLOGY:
		/* version 1; each node's bitmap size is written twice, as perf does */
		if (append_u64(w, 1) || append_u64(w, w->memory_block_size) || append_u64(w, w->n_numa))
			return w->err;
		for (uint32_t i = 0; i < w->n_numa; i++) {
			const struct spe_perf_numa_node *n = &w->numa[i];
			if (append_u64(w, n->node) || append_u64(w, n->n_block_bits) || append_u64(w, n->n_block_bits))
				return w->err;
			for (uint64_t k = 0; k < (n->n_block_bits + 63) / 64; k++)
				if (append_u64(w, n->blocks[k]))
					return w->err;
		}
		return 0;
	case SPE_PERF_FEAT_AUXTRACE:
		if (append_u64(w, w->n_index))
			return w->err;
		for (size_t i = 0; i < w->n_index; i++)
			if (append_u64(w, w->index[i]) || append_u64(w, PD_AUXTRACE_SIZE))
				return w->err;
		return 0;
	}
	return 0;
}

/* The features the writer emits, in bit order. */
static unsigned feature_list(const struct spe_perf_writer *w, unsigned bits[W_MAX_FEATURES])
{
	unsigned n = 0;
	if (w->n_bids)
		bits[n++] = SPE_PERF_FEAT_BUILD_ID;
	if (w->hostname)
		bits[n++] = SPE_PERF_FEAT_HOSTNAME;
	if (w->osrelease)
		bits[n++] = SPE_PERF_FEAT_OSRELEASE;
	bits[n++] = SPE_PERF_FEAT_ARCH;
	if (w->nr_given || !w->pipe) /* a pipe's features come first: the CPUs are not known yet */
		bits[n++] = SPE_PERF_FEAT_NRCPUS;
	if (w->midr)
		bits[n++] = SPE_PERF_FEAT_CPUID;
	if (w->argc)
		bits[n++] = SPE_PERF_FEAT_CMDLINE;
	if (w->n_numa)
		bits[n++] = SPE_PERF_FEAT_NUMA_TOPOLOGY;
	bits[n++] = SPE_PERF_FEAT_AUXTRACE;
	if (w->n_numa && w->memory_block_size)
		bits[n++] = SPE_PERF_FEAT_MEM_TOPOLOGY;
	return n;
}

/* Pipe mode: build ids as HEADER_BUILD_ID events; nothing to rewrite. */
static int finish_pipe(struct spe_perf_writer *w)
{
	for (size_t i = 0; i < w->n_bids; i++) {
		const struct w_build_id *b = &w->bids[i];
		size_t len = strlen(b->filename) + 1;
		/* name padded to 64, plus 4 so the 36-byte entry keeps the stream 8-byte aligned */
		size_t padded = (len + W_NAME_ALIGN - 1) / W_NAME_ALIGN * W_NAME_ALIGN + 4;
		uint8_t r[36] = { 0 };
		header(r, SPE_PERF_RECORD_HEADER_BUILD_ID, W_MISC_USER | W_MISC_BUILD_ID_SIZE,
		       (uint16_t)(36 + padded));
		put32(r + 8, b->pid);
		memcpy(r + 12, b->id, b->size);
		r[32] = b->size;
		if (append(w, r, 36) || append(w, b->filename, len) || append(w, NULL, padded - len))
			return w->err;
	}
	return flush(w);
}

static int finish(struct spe_perf_writer *w)
{
	if (w->err)
		return w->err;
	if (w->pipe)
		return finish_pipe(w);
	uint64_t data_size = w->pos - W_DATA_OFFSET;
	uint64_t features[4] = { 0 };
	unsigned bits[W_MAX_FEATURES], n = feature_list(w, bits);
	/* table of {offset, size} first, filled in as each section is appended */
	uint64_t table = w->pos;
	if (append(w, NULL, 16ull * n))
		return w->err;
	uint8_t entries[W_MAX_FEATURES * 16];
	for (unsigned i = 0; i < n; i++) {
		uint64_t start = w->pos;
		if (write_feature(w, bits[i]))
			return w->err;
		put64(entries + 16 * i, start);
		put64(entries + 16 * i + 8, w->pos - start);
		features[bits[i] / 64] |= 1ull << (bits[i] % 64);
	}
	if (flush(w) || pwrite_all(w, entries, 16ull * n, table))
		return w->err;
	return write_file_header(w, data_size, features);
}

/*
 * After a failure: data.size = the records known to be wholly written, no
 * features.  An in-place write of the header that needs no free space, so it
 * works after ENOSPC or EFBIG too; a failure here keeps the first error.
 */
static void seal_after_failure(struct spe_perf_writer *w)
{
	static const uint64_t no_features[4];
	if (w->pipe || !w->header_written)
		return;
	settle(w);
	write_file_header(w, w->sealed - W_DATA_OFFSET, no_features);
}

int spe_perf_writer_close(struct spe_perf_writer *w)
{
	return spe_perf_writer_close_msg(w, NULL, 0);
}

int spe_perf_writer_close_msg(struct spe_perf_writer *w, char *errmsg, size_t errlen)
{
	if (errmsg && errlen)
		errmsg[0] = 0;
	if (!w)
		return -spe_invalid;
	int err = finish(w);
	if (err) {
		seal_after_failure(w);
		if (errmsg && errlen)
			snprintf(errmsg, errlen, "%s", w->errmsg[0] ? w->errmsg : spe_errstr(err));
	}
	free(w->buf);
	free(w->arch);
	free(w->hostname);
	free(w->osrelease);
	for (int i = 0; i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	free(w->index);
	free(w->ends);
	for (size_t i = 0; i < w->n_bids; i++)
		free(w->bids[i].filename);
	free(w->bids);
	free_numa(w);
	free(w);
	return err;
}
