/* SPDX-License-Identifier: Apache-2.0 */
/* Byte sources of the perf.data reader: an mmapped file, caller memory, or a pipe. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfdata_internal.h"

/* Pages are released behind the cursor in steps of this many bytes. */
#define PD_RELEASE_STEP (4u << 20)

/*
 * A page fault on the mapping maps more than the page touched: fault-around
 * maps the page cache's pages of up to fault_around_bytes (64 KB by default)
 * around it, whatever madvise said (mm/memory.c, do_fault_around), and a
 * large folio may be mapped whole by one PMD.  Neither crosses a page
 * table's span (2 MB of addresses with 4 KB pages), so releases cover whole
 * 2 MB-aligned blocks of addresses: a release of the bytes read then also
 * releases every page their faults mapped (docs/architecture.md, "From
 * perf.data to a row").  Released pages still needed are read again from
 * the page cache (a read-only private mapping of a file refaults its bytes).
 */
#define PD_RELEASE_BLOCK ((uintptr_t)2 << 20)

int pd_source_map_fd(struct pd_source *s, int fd, uint64_t len)
{
	memset(s, 0, sizeof *s);
	s->fd = fd;
	s->len = len;
	if (len == 0) {
		s->base = (const uint8_t *)"";
		return 0;
	}
	if (len > SIZE_MAX)
		return -spe_unsupported;
	void *m = mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return -spe_io;
	madvise(m, (size_t)len, MADV_SEQUENTIAL);
	s->map = m;
	s->map_len = (size_t)len;
	s->base = m;
	return 0;
}

void pd_source_mem(struct pd_source *s, const void *buf, size_t len)
{
	memset(s, 0, sizeof *s);
	s->fd = -1;
	s->base = len ? buf : (const uint8_t *)"";
	s->len = len;
	s->keep_pages = 1;
}

void pd_source_stream(struct pd_source *s, int fd, size_t max_cap)
{
	memset(s, 0, sizeof *s);
	s->fd = fd;
	s->streamed = 1;
	s->max_cap = max_cap;
}

void pd_source_fini(struct pd_source *s)
{
	if (s->map)
		munmap(s->map, s->map_len);
	free(s->buf);
	if (s->owns_fd)
		close(s->fd);
	memset(s, 0, sizeof *s);
}

/* The start of the block holding the mapping's byte @p off, as an offset (0 at least). */
static uint64_t block_floor(const struct pd_source *s, uint64_t off)
{
	uintptr_t base = (uintptr_t)s->map, a = (base + (uintptr_t)off) & ~(PD_RELEASE_BLOCK - 1);
	return a > base ? (uint64_t)(a - base) : 0;
}

/* The end of the block holding the byte before @p off, as an offset (the mapping's end at most). */
static uint64_t block_ceil(const struct pd_source *s, uint64_t off)
{
	uintptr_t base = (uintptr_t)s->map, a = (base + (uintptr_t)off + PD_RELEASE_BLOCK - 1) & ~(PD_RELEASE_BLOCK - 1);
	return (uint64_t)(a - base) < s->map_len ? (uint64_t)(a - base) : s->map_len;
}

/* madvise wants a page-aligned start (the mapping's base is one): a watermark may start anywhere */
static void release_bytes(struct pd_source *s, uint64_t start, uint64_t end)
{
	start &= ~((uint64_t)sysconf(_SC_PAGESIZE) - 1);
	if (end > start)
		madvise((uint8_t *)s->map + start, (size_t)(end - start), MADV_DONTNEED);
}

void pd_source_release_behind(struct pd_source *s, uint64_t *mark, uint64_t off)
{
	if (!s->map || s->keep_pages || off < *mark + PD_RELEASE_STEP)
		return;
	/* not the block of off: a fault at the cursor may map pages of it, before off */
	uint64_t upto = block_floor(s, off);
	if (upto > *mark) {
		release_bytes(s, *mark, upto);
		*mark = upto;
	}
}

void pd_source_release(struct pd_source *s, uint64_t off)
{
	pd_source_release_behind(s, &s->released, off);
}

void pd_source_release_range(struct pd_source *s, uint64_t off, uint64_t len)
{
	if (!s->map || s->keep_pages || off >= s->len)
		return;
	if (len > s->len - off)
		len = s->len - off;
	/* the blocks the range's faults may have mapped pages of, neighbours' bytes included */
	release_bytes(s, block_floor(s, off), block_ceil(s, off + len));
}

/* read(2), again after a signal: > 0 bytes, 0 at the end, -1 on an error. */
static ssize_t read_retry(int fd, void *buf, size_t len)
{
	ssize_t n;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

/* Stream: make [off, off + len) resident in the buffer. */
static int stream_get(struct pd_source *s, uint64_t off, uint64_t len, const uint8_t **out)
{
	if (off < s->buf_off)
		return -spe_internal; /* streams only go forward */
	uint64_t end;
	if (!pd_add_ok(off, len, &end))
		return -spe_truncated;
	uint64_t have_end = s->buf_off + s->fill;
	if (end <= have_end) {
		/* already read ahead: no copy, so small records after a big one stay cheap */
		*out = s->buf + (off - s->buf_off);
		return 0;
	}
	/* drop what lies before off, then read the rest */
	if (off >= have_end) {
		/* skip bytes we never need (e.g. an unparsed gap) */
		uint64_t gap = off - have_end;
		s->fill = 0;
		s->buf_off = have_end;
		while (gap > 0 && !s->eof) {
			uint8_t tmp[4096];
			size_t want = gap < sizeof tmp ? (size_t)gap : sizeof tmp;
			ssize_t n = read_retry(s->fd, tmp, want);
			if (n < 0)
				return -spe_io;
			if (n == 0) {
				s->eof = 1;
				break;
			}
			gap -= (uint64_t)n;
			s->buf_off += (uint64_t)n;
		}
		if (gap > 0)
			return -spe_truncated;
	} else if (off > s->buf_off) {
		size_t drop = (size_t)(off - s->buf_off);
		memmove(s->buf, s->buf + drop, s->fill - drop);
		s->fill -= drop;
		s->buf_off = off;
	}
	if (len > s->max_cap)
		return -spe_nomem;
	if (len > s->cap) {
		size_t cap = s->cap ? s->cap : 65536;
		while (cap < len)
			cap *= 2;
		if (cap > s->max_cap)
			cap = s->max_cap;
		uint8_t *nb = realloc(s->buf, cap);
		if (!nb)
			return -spe_nomem;
		s->buf = nb;
		s->cap = cap;
	}
	while (s->fill < len) {
		if (s->eof)
			return -spe_truncated;
		/* read ahead as far as the buffer allows, to keep syscalls few */
		ssize_t n = read_retry(s->fd, s->buf + s->fill, s->cap - s->fill);
		if (n < 0)
			return -spe_io;
		if (n == 0) {
			s->eof = 1;
			continue;
		}
		s->fill += (size_t)n;
	}
	*out = s->buf;
	return 0;
}

int pd_source_get(struct pd_source *s, uint64_t off, uint64_t len, const uint8_t **out)
{
	if (s->streamed)
		return stream_get(s, off, len, out);
	if (off > s->len || len > s->len - off)
		return -spe_truncated;
	*out = s->base + off;
	return 0;
}
