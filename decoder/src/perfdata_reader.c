/* SPDX-License-Identifier: Apache-2.0 */
/* perf.data reader: open, file header, attrs, feature sections, getters. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata_internal.h"

#define PD_DEFAULT_MAX_STREAM_EVENT ((size_t)256 << 20)

/* "NAME: offset 0x..: " (with the decompressed-stream offset inside compressed data), or "NAME: ". */
static void where(const struct spe_perf_file *f, uint64_t off, char *out, size_t len)
{
	const char *name = f->name ? f->name : "(input)";
	if (off == UINT64_MAX)
		snprintf(out, len, "%s: ", name);
	else if (f->fail_stream_off != UINT64_MAX)
		snprintf(out, len, "%s: offset 0x%llx (compressed; byte 0x%llx of the decompressed data): ", name,
			 (unsigned long long)off, (unsigned long long)f->fail_stream_off);
	else
		snprintf(out, len, "%s: offset 0x%llx: ", name, (unsigned long long)off);
}

int pd_fail(struct spe_perf_file *f, int code, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->errwhat, sizeof f->errwhat, fmt, ap);
	va_end(ap);
	char at[256];
	where(f, off, at, sizeof at);
	snprintf(f->errmsg, sizeof f->errmsg, "%s%s", at, f->errwhat);
	f->err_off = off;
	return code;
}

int pd_warn(struct spe_perf_file *f, uint64_t off, const char *fmt, ...)
{
	uint32_t i = f->info.n_warnings;
	if (f->info.n_warnings < UINT32_MAX)
		f->info.n_warnings++;
	if (i >= SPE_PERF_MAX_WARNINGS)
		return 0; /* counted, not kept */
	char what[512], at[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	where(f, off, at, sizeof at);
	size_t n = strlen(at) + strlen(what) + 1;
	f->warnings[i] = malloc(n);
	if (!f->warnings[i]) {
		f->info.n_warnings--;
		return -spe_nomem;
	}
	snprintf(f->warnings[i], n, "%s%s", at, what);
	return 0;
}

const char *spe_perf_warning(const struct spe_perf_file *f, uint32_t i)
{
	if (!f || i >= f->info.n_warnings || i >= SPE_PERF_MAX_WARNINGS)
		return NULL;
	return f->warnings[i];
}

struct spe_perf_file *spe_perf_alloc_file(const struct spe_perf_config *config)
{
	struct spe_perf_file *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	if (config) {
		size_t n = config->size < sizeof f->cfg ? config->size : sizeof f->cfg;
		memcpy(&f->cfg, config, n);
	}
	f->cfg.size = sizeof f->cfg;
	if (!f->cfg.max_stream_event)
		f->cfg.max_stream_event = PD_DEFAULT_MAX_STREAM_EVENT;
	f->err_off = UINT64_MAX;
	f->fail_stream_off = UINT64_MAX;
	return f;
}

static void reset(struct spe_perf_file *f)
{
	pd_source_fini(&f->src);
	for (uint32_t i = 0; i < f->n_attrs; i++)
		free(f->attrs[i].ids);
	free(f->attrs);
	for (size_t i = 0; i < sizeof f->strings / sizeof f->strings[0]; i++)
		free(f->strings[i]);
	for (uint32_t i = 0; i < f->n_build_ids; i++)
		free(f->build_ids[i].filename);
	free(f->build_ids);
	free(f->spe_cpus);
	pd_free_numa(f);
	free(f->scratch);
	for (uint32_t i = 0; i < f->n_queues; i++)
		free(f->queues[i].chunks);
	free(f->queues);
	free(f->name);
	pd_decomp_free(f);
	free(f->held);
	for (uint32_t i = 0; i < SPE_PERF_MAX_WARNINGS; i++)
		free(f->warnings[i]);
	struct spe_perf_config cfg = f->cfg;
	memset(f, 0, sizeof *f);
	f->cfg = cfg;
	f->err_off = UINT64_MAX;
	f->fail_stream_off = UINT64_MAX;
}

void spe_perf_free_file(struct spe_perf_file *f)
{
	if (!f)
		return;
	reset(f);
	free(f);
}

const char *spe_perf_errmsg(const struct spe_perf_file *f)
{
	return f ? f->errmsg : "";
}

uint64_t spe_perf_err_offset(const struct spe_perf_file *f)
{
	return f ? f->err_off : UINT64_MAX;
}

static int read_attrs(struct spe_perf_file *f, const uint8_t *h)
{
	uint64_t attr_size = pd_le64(h + 16);
	uint64_t off = pd_le64(h + 24), size = pd_le64(h + 32);
	if (size == 0)
		return 0;
	if (attr_size < PD_ATTR_MIN + 16 || attr_size > (1u << 20))
		return pd_fail(f, -spe_bad_file, 16, "attr entry size %llu is impossible (must be 80 or more)",
			       (unsigned long long)attr_size);
	if (size % attr_size)
		return pd_fail(f, -spe_bad_file, 32,
			       "attrs section size %llu is not a multiple of the attr entry size %llu",
			       (unsigned long long)size, (unsigned long long)attr_size);
	const uint8_t *p;
	int err = pd_source_get(&f->src, off, size, &p);
	if (err)
		return pd_fail(f, -spe_truncated, 24,
			       "attrs section 0x%llx+0x%llx runs past the end of the file (0x%llx)",
			       (unsigned long long)off, (unsigned long long)size, (unsigned long long)f->src.len);
	uint64_t n = size / attr_size;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *e = p + i * attr_size;
		uint64_t entry_off = off + i * attr_size;
		uint64_t ids_off = pd_le64(e + attr_size - 16), ids_size = pd_le64(e + attr_size - 8);
		const uint8_t *ids = NULL;
		if (ids_size % 8)
			return pd_fail(f, -spe_bad_file, entry_off + attr_size - 8,
				       "ids section size %llu of attr %llu is not a multiple of 8",
				       (unsigned long long)ids_size, (unsigned long long)i);
		if (ids_size && pd_source_get(&f->src, ids_off, ids_size, &ids))
			return pd_fail(f, -spe_truncated, entry_off + attr_size - 16,
				       "ids section 0x%llx+0x%llx of attr %llu runs past the end of the file",
				       (unsigned long long)ids_off, (unsigned long long)ids_size,
				       (unsigned long long)i);
		err = pd_add_attr(f, e, attr_size - 16, ids, ids_size / 8, entry_off);
		if (err)
			return err;
	}
	return 0;
}

/*
 * The feature sections after the data.  None is needed to decode SPE (the
 * file's attrs, AUXTRACE_INFO and records are): a table or a section that
 * lies is skipped with a warning, never failing the file.
 */
static int read_features(struct spe_perf_file *f)
{
	unsigned count = 0;
	for (int w = 0; w < 4; w++)
		count += (unsigned)__builtin_popcountll(f->info.features[w]);
	if (!count)
		return 0;
	uint64_t table = f->info.data_offset + f->info.data_size;
	const uint8_t *t;
	if (pd_source_get(&f->src, table, (uint64_t)count * 16, &t)) {
		memset(f->info.features, 0, sizeof f->info.features);
		return pd_warn(f, table, "feature table of %u entries runs past the end of the file (0x%llx): features skipped",
			       count, (unsigned long long)f->src.len);
	}
	unsigned k = 0;
	for (unsigned bit = 0; bit < SPE_PERF_FEAT_COUNT; bit++) {
		if (!(f->info.features[bit / 64] >> (bit % 64) & 1))
			continue;
		uint64_t off = pd_le64(t + k * 16), size = pd_le64(t + k * 16 + 8);
		uint64_t entry = table + k * 16;
		k++;
		const uint8_t *p;
		int err;
		if (pd_source_get(&f->src, off, size, &p)) {
			char label[48];
			err = pd_warn(f, entry, "feature %s skipped: its section 0x%llx+0x%llx runs past the end of the file (0x%llx)",
				      pd_feature_label(bit, label, sizeof label), (unsigned long long)off,
				      (unsigned long long)size, (unsigned long long)f->src.len);
		} else {
			err = pd_parse_optional_feature(f, bit, p, size, off);
		}
		if (err)
			return err;
	}
	return 0;
}

static int read_file_header(struct spe_perf_file *f, const uint8_t *h)
{
	uint64_t doff = pd_le64(h + 40), dsize = pd_le64(h + 48), dend;
	for (int w = 0; w < 4; w++)
		f->info.features[w] = pd_le64(h + 72 + 8 * w);
	if (doff < PD_FILE_HEADER_SIZE)
		return pd_fail(f, -spe_bad_file, 40, "data section offset 0x%llx lies inside the file header",
			       (unsigned long long)doff);
	if (doff > f->src.len)
		return pd_fail(f, -spe_truncated, 40, "data section offset 0x%llx is beyond the end of the file (0x%llx)",
			       (unsigned long long)doff, (unsigned long long)f->src.len);
	if (dsize == 0 && f->src.len > doff) {
		/* a writer that never finished: take everything up to EOF, no features */
		f->info.unfinished = 1;
		dsize = f->src.len - doff;
		memset(f->info.features, 0, sizeof f->info.features);
	}
	if (!pd_add_ok(doff, dsize, &dend))
		return pd_fail(f, -spe_bad_file, 48, "data section size 0x%llx overflows",
			       (unsigned long long)dsize);
	f->info.data_offset = doff;
	f->info.data_size = dsize;
	f->pos = doff;
	f->end = dend;
	int err = read_attrs(f, h);
	if (err)
		return err;
	pd_update_sid_layout(f);
	if (dend > f->src.len) {
		/* the data is cut: events up to the cut are readable, features are gone */
		memset(f->info.features, 0, sizeof f->info.features);
		return 0;
	}
	return read_features(f);
}

static int open_source(struct spe_perf_file *f)
{
	const uint8_t *h;
	int err = pd_source_get(&f->src, 0, PD_PIPE_HEADER_SIZE, &h);
	if (err == -spe_io)
		return pd_fail(f, err, 0, "cannot read: %s", strerror(errno));
	if (err)
		return pd_fail(f, -spe_bad_file, 0, "too short for a perf.data header (%llu bytes)",
			       (unsigned long long)(f->src.streamed ? f->src.fill : f->src.len));
	if (!memcmp(h, "2ELIFREP", 8))
		return pd_fail(f, -spe_unsupported, 0, "big-endian perf.data is not supported");
	if (memcmp(h, "PERFILE2", 8))
		return pd_fail(f, -spe_bad_file, 0, "not a perf.data file (magic is not PERFILE2)");
	uint64_t hsize = pd_le64(h + 8);
	if (hsize == PD_PIPE_HEADER_SIZE) {
		f->info.pipe_format = 1;
		f->pos = PD_PIPE_HEADER_SIZE;
		f->end = f->src.streamed ? UINT64_MAX : f->src.len;
		f->info.data_offset = PD_PIPE_HEADER_SIZE;
		f->info.data_size = f->src.streamed ? 0 : f->src.len - PD_PIPE_HEADER_SIZE;
		return 0;
	}
	if (hsize < PD_FILE_HEADER_SIZE || hsize > 4096)
		return pd_fail(f, -spe_bad_file, 8, "header size %llu is neither 16 (pipe) nor a file header",
			       (unsigned long long)hsize);
	if (f->src.streamed)
		return pd_fail(f, -spe_unsupported, 0,
			       "a file-mode perf.data cannot be read from a pipe; pass the file, or record with -o -");
	if (pd_source_get(&f->src, 0, PD_FILE_HEADER_SIZE, &h))
		return pd_fail(f, -spe_truncated, 0, "file ends inside the perf.data header");
	return read_file_header(f, h);
}

static int set_name(struct spe_perf_file *f, const char *name)
{
	f->name = strdup(name ? name : "(input)");
	return f->name ? 0 : -spe_nomem;
}

int spe_perf_open_fd(struct spe_perf_file *f, int fd, const char *name)
{
	if (!f || fd < 0)
		return -spe_invalid;
	reset(f);
	if (set_name(f, name))
		return -spe_nomem;
	struct stat st;
	if (fstat(fd, &st) != 0)
		return pd_fail(f, -spe_io, UINT64_MAX, "cannot stat: %s", strerror(errno));
	if (S_ISREG(st.st_mode)) {
		int err = pd_source_map_fd(&f->src, fd, (uint64_t)st.st_size);
		if (err)
			return pd_fail(f, err, UINT64_MAX, "cannot map: %s", strerror(errno));
		f->src.keep_pages = f->cfg.keep_pages;
		f->info.file_size = (uint64_t)st.st_size;
	} else if (S_ISDIR(st.st_mode)) {
		return pd_fail(f, -spe_unsupported, UINT64_MAX,
			       "is a directory (perf.data directories from --threads are not supported)");
	} else {
		pd_source_stream(&f->src, fd, f->cfg.max_stream_event);
		f->info.streamed = 1;
	}
	return open_source(f);
}

int spe_perf_open(struct spe_perf_file *f, const char *path)
{
	if (!f || !path)
		return -spe_invalid;
	if (!strcmp(path, "-"))
		return spe_perf_open_fd(f, STDIN_FILENO, "(stdin)");
	/*
	 * O_NONBLOCK only for open(): a FIFO without a writer would block there
	 * forever; opened this way it reads as empty instead.  Reads block.
	 */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		reset(f);
		set_name(f, path);
		return pd_fail(f, -spe_io, UINT64_MAX, "cannot open: %s", strerror(errno));
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	int err = spe_perf_open_fd(f, fd, path);
	/* a mapping outlives its fd; a stream (a FIFO path) keeps it */
	if (f->src.streamed) {
		f->src.owns_fd = 1;
	} else {
		close(fd);
		f->src.fd = -1;
	}
	return err;
}

int spe_perf_open_mem(struct spe_perf_file *f, const void *buf, size_t len, const char *name)
{
	if (!f || (!buf && len))
		return -spe_invalid;
	reset(f);
	if (set_name(f, name))
		return -spe_nomem;
	pd_source_mem(&f->src, buf, len);
	f->info.file_size = len;
	return open_source(f);
}

void spe_perf_get_info(const struct spe_perf_file *f, struct spe_perf_info *info, size_t size)
{
	struct spe_perf_info tmp = f->info;
	tmp.size = sizeof tmp;
	tmp.n_attrs = f->n_attrs;
	tmp.n_build_ids = f->n_build_ids;
	memcpy(info, &tmp, size < sizeof tmp ? size : sizeof tmp);
}

int spe_perf_get_attr(const struct spe_perf_file *f, uint32_t i, struct spe_perf_attr *attr, size_t size)
{
	if (!f || i >= f->n_attrs || !attr)
		return -spe_invalid;
	memcpy(attr, &f->attrs[i].pub, size < sizeof attr[0] ? size : sizeof attr[0]);
	return 0;
}

int spe_perf_get_build_id(const struct spe_perf_file *f, uint32_t i, struct spe_perf_build_id *bid, size_t size)
{
	if (!f || i >= f->n_build_ids || !bid)
		return -spe_invalid;
	memcpy(bid, &f->build_ids[i].pub, size < sizeof bid[0] ? size : sizeof bid[0]);
	return 0;
}

int spe_perf_spe_cpu(const struct spe_perf_file *f, uint32_t i, struct spe_perf_spe_cpu *cpu, size_t size)
{
	if (!f || i >= f->n_spe_cpus || !cpu)
		return -spe_invalid;
	memcpy(cpu, &f->spe_cpus[i], size < sizeof cpu[0] ? size : sizeof cpu[0]);
	return 0;
}

uint32_t spe_perf_midr(const struct spe_perf_file *f, int cpu)
{
	if (!f)
		return 0;
	if (f->n_spe_cpus) {
		if (cpu < 0) {
			uint64_t m = f->spe_cpus[0].midr;
			for (uint32_t i = 1; i < f->n_spe_cpus; i++)
				if (f->spe_cpus[i].midr != m)
					return f->info.midr;
			return (uint32_t)m;
		}
		for (uint32_t i = 0; i < f->n_spe_cpus; i++)
			if (f->spe_cpus[i].cpu == (uint64_t)cpu)
				return (uint32_t)f->spe_cpus[i].midr;
	}
	return f->info.midr;
}
