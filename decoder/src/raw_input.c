/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Raw SPE input: a file of bare aux-buffer bytes (FreeBSD hwt, WindowsPerf,
 * spe-parser test data), mmapped and handed out in windows.  Windows
 * already passed are released so memory stays flat on big files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata_internal.h"

#define RAW_DEFAULT_WINDOW ((size_t)16 << 20)

struct spe_raw_input {
	struct spe_raw_config cfg;
	const uint8_t *base;
	uint64_t len;
	void *map;
	size_t map_len;
	uint64_t next;       /* offset of the next window */
	uint64_t released;
	char errmsg[512];
};

struct spe_raw_input *spe_raw_alloc_input(const struct spe_raw_config *config)
{
	struct spe_raw_input *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	if (config)
		memcpy(&r->cfg, config, config->size < sizeof r->cfg ? config->size : sizeof r->cfg);
	r->cfg.size = sizeof r->cfg;
	if (!r->cfg.window)
		r->cfg.window = RAW_DEFAULT_WINDOW;
	return r;
}

static void raw_reset(struct spe_raw_input *r)
{
	if (r->map)
		munmap(r->map, r->map_len);
	r->map = NULL;
	r->map_len = 0;
	r->base = NULL;
	r->len = r->next = r->released = 0;
	r->errmsg[0] = 0;
}

void spe_raw_free_input(struct spe_raw_input *r)
{
	if (!r)
		return;
	raw_reset(r);
	free(r);
}

int spe_raw_open(struct spe_raw_input *r, const char *path)
{
	if (!r || !path)
		return -spe_invalid;
	raw_reset(r);
	/* Without blocking: a FIFO with no writer is refused below instead of hanging here. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		snprintf(r->errmsg, sizeof r->errmsg, "%s: cannot open: %s", path, strerror(errno));
		return -spe_io;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(r->errmsg, sizeof r->errmsg, "%s: not a regular file", path);
		close(fd);
		return -spe_unsupported;
	}
	r->len = (uint64_t)st.st_size;
	if (r->len) {
		void *m = mmap(NULL, (size_t)r->len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			snprintf(r->errmsg, sizeof r->errmsg, "%s: cannot map: %s", path, strerror(errno));
			close(fd);
			return -spe_io;
		}
		madvise(m, (size_t)r->len, MADV_SEQUENTIAL);
		r->map = m;
		r->map_len = (size_t)r->len;
		r->base = m;
	}
	close(fd);
	return 0;
}

int spe_raw_open_mem(struct spe_raw_input *r, const void *buf, size_t len, const char *name)
{
	(void)name;
	if (!r || (!buf && len))
		return -spe_invalid;
	raw_reset(r);
	r->base = buf;
	r->len = len;
	return 0;
}

const char *spe_raw_errmsg(const struct spe_raw_input *r)
{
	return r ? r->errmsg : "";
}

uint64_t spe_raw_size(const struct spe_raw_input *r)
{
	return r ? r->len : 0;
}

uint32_t spe_raw_midr(const struct spe_raw_input *r)
{
	return r ? r->cfg.midr : 0;
}

const uint8_t *spe_raw_data(const struct spe_raw_input *r)
{
	return r ? r->base : NULL;
}

int spe_raw_next_window(struct spe_raw_input *r, const uint8_t **buf, size_t *len, uint64_t *offset)
{
	if (!r || !buf || !len || !offset)
		return -spe_invalid;
	if (r->next >= r->len)
		return -spe_eos;
	/* release everything before the previous window (it may still be in use) */
	if (r->map && r->next > r->cfg.window) {
		uint64_t upto = (r->next - r->cfg.window) & ~((uint64_t)sysconf(_SC_PAGESIZE) - 1);
		if (upto > r->released) {
			madvise((uint8_t *)r->map + r->released, (size_t)(upto - r->released), MADV_DONTNEED);
			r->released = upto;
		}
	}
	uint64_t n = r->len - r->next;
	if (n > r->cfg.window)
		n = r->cfg.window;
	*buf = r->base + r->next;
	*len = (size_t)n;
	*offset = r->next;
	r->next += n;
	return 0;
}
