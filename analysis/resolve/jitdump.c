/* SPDX-License-Identifier: Apache-2.0 */
/* jitdump files (jitdump.h): header, records, code loads and moves with their lines. */
#include "jitdump.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spe/infile.h"
#include "spe/spe.h"
#include "util/hash_map.h"
#include "util/grow.h"

#define JITDUMP_MAGIC 0x4A695444u
#define PREFIX_SIZE 16
#define LOAD_FIXED 40  /* CODE_LOAD after the prefix, before the name */
#define MOVE_FIXED 48
#define DEBUG_FIXED 16
#define ENTRY_FIXED 16 /* addr, line, discrim; then the name */
#define WINDOW (1u << 20)
#define MAX_PEEK 65536 /* the most one look at the file asks for: a name, a debug entry */

enum { REC_LOAD, REC_MOVE, REC_DEBUG, REC_CLOSE, REC_UNWINDING };

/* The bytes being read: all of them in memory, or a file seen through a window. */
struct source {
	const uint8_t *mem;
	int fd;
	uint64_t size;
	uint8_t *win;
	uint64_t win_off;
	size_t win_len;
	int io_errno;
};

/* @p n bytes at @p off (n <= MAX_PEEK), or NULL when they are not all in the file (or unreadable: io_errno). */
static const uint8_t *peek(struct source *s, uint64_t off, size_t n)
{
	if (off > s->size || n > s->size - off)
		return NULL;
	if (s->mem)
		return s->mem + off;
	if (off >= s->win_off && off + n <= s->win_off + s->win_len)
		return s->win + (off - s->win_off);
	size_t want = s->size - off < WINDOW ? (size_t)(s->size - off) : WINDOW;
	size_t got = 0;
	while (got < want) {
		ssize_t r = pread(s->fd, s->win + got, want - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			s->io_errno = r < 0 ? errno : EIO;
			s->win_len = 0;
			return NULL;
		}
		got += (size_t)r;
	}
	s->win_off = off;
	s->win_len = got;
	return s->win;
}

static uint32_t u32(const struct jitdump *d, const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return d->swapped ? __builtin_bswap32(v) : v;
}

static uint64_t u64(const struct jitdump *d, const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return d->swapped ? __builtin_bswap64(v) : v;
}

void ana_jitdump_init(struct jitdump *d)
{
	memset(d, 0, sizeof *d);
}

void ana_jitdump_fini(struct jitdump *d)
{
	free(d->codes);
	free(d->lines);
	free(d->strings);
	ana_jitdump_init(d);
}

/* A copy of the NUL-terminated string at @p off (at most @p max bytes with the NUL); its offset in strings. */
static int add_string(struct jitdump *d, struct source *s, uint64_t off, uint64_t max, uint32_t *out, uint64_t *len)
{
	size_t n = max < MAX_PEEK ? (size_t)max : MAX_PEEK;
	const uint8_t *p = n ? peek(s, off, n) : NULL;
	const uint8_t *nul = p ? memchr(p, 0, n) : NULL;
	if (!nul)
		return -spe_bad_file; /* no NUL within the record (or a name over 64 KiB) */
	size_t l = (size_t)(nul - p) + 1;
	if (d->n_strings + l > UINT32_MAX)
		return -spe_nomem;
	char *t = util_grow(d->strings, &d->cap_strings, d->n_strings + l, 1);
	if (!t)
		return -spe_nomem;
	d->strings = t;
	memcpy(d->strings + d->n_strings, p, l);
	*out = (uint32_t)d->n_strings;
	d->n_strings += l;
	*len = l;
	return 0;
}

static struct jit_code *new_code(struct jitdump *d)
{
	struct jit_code *c = util_grow(d->codes, &d->cap_codes, d->n_codes + 1, sizeof *c);
	if (!c)
		return NULL;
	d->codes = c;
	c = &d->codes[d->n_codes];
	memset(c, 0, sizeof *c);
	return c;
}

static int by_line_addr(const void *a, const void *b)
{
	const struct jit_line *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Whether the waiting DEBUG_INFO's entries all lie in the code at @p addr
 * (up to JITDUMP_LINE_SLACK past its end: V8 writes them 0x40 bytes past the
 * code they describe).  Node v20 writes some DEBUG_INFO whose file names are
 * raw bytes, the entries after them misaligned (addresses far from the
 * code, lines of 9 digits): those are dropped, not kept as lines.
 */
static int lines_in_code(const struct jitdump *d, uint64_t addr, uint64_t size)
{
	for (uint32_t i = d->debug_first; i < d->debug_first + d->debug_n; i++)
		if (d->lines[i].addr < addr || d->lines[i].addr - addr > size + JITDUMP_LINE_SLACK)
			return 0;
	return 1;
}

static int read_load(struct jitdump *d, struct source *s, struct util_map *by_index, uint64_t off, uint32_t size,
		     uint64_t time)
{
	const uint8_t *f = peek(s, off + PREFIX_SIZE, LOAD_FIXED);
	if (!f || size < PREFIX_SIZE + LOAD_FIXED + 1)
		return -spe_bad_file;
	uint64_t addr = u64(d, f + 16), code_size = u64(d, f + 24), index = u64(d, f + 32);
	uint64_t room = size - PREFIX_SIZE - LOAD_FIXED; /* the name and the code */
	if (code_size >= room || addr + (code_size ? code_size : 1) < addr) /* size 0: its address alone */
		return -spe_bad_file;
	uint32_t name;
	uint64_t name_len;
	int rc = add_string(d, s, off + PREFIX_SIZE + LOAD_FIXED, room - code_size, &name, &name_len);
	if (rc < 0)
		return rc;
	struct jit_code *c = new_code(d);
	if (!c)
		return -spe_nomem;
	*c = (struct jit_code){ .addr = addr, .size = code_size, .time = time, .index = index,
				.code_offset = off + size - code_size, .name = name, .load = (uint32_t)d->n_codes };
	if (d->has_debug && d->debug_addr == addr && lines_in_code(d, addr, code_size)) {
		c->first_line = d->debug_first;
		c->n_lines = d->debug_n;
		if (c->n_lines) /* a DEBUG_INFO may have no entry */
			qsort(d->lines + c->first_line, c->n_lines, sizeof *d->lines, by_line_addr);
	} else if (d->has_debug) {
		d->debug_unmatched++;
		d->n_lines = d->debug_first; /* dropped */
	}
	d->has_debug = 0;
	int64_t *latest = util_map_put(by_index, &index);
	if (!latest)
		return -spe_nomem;
	*latest = (int64_t)d->n_codes;
	d->n_codes++;
	d->loads++;
	return 0;
}

static int read_move(struct jitdump *d, struct source *s, struct util_map *by_index, uint64_t off, uint32_t size,
		     uint64_t time)
{
	const uint8_t *f = peek(s, off + PREFIX_SIZE, MOVE_FIXED);
	if (!f || size < PREFIX_SIZE + MOVE_FIXED)
		return -spe_bad_file;
	uint64_t to = u64(d, f + 24), code_size = u64(d, f + 32), index = u64(d, f + 40);
	if (to + (code_size ? code_size : 1) < to)
		return -spe_bad_file;
	const int64_t *load = util_map_get(by_index, &index);
	if (!load) {
		d->moves_unknown++;
		return 0;
	}
	struct jit_code *c = new_code(d);
	if (!c)
		return -spe_nomem;
	const struct jit_code *from = &d->codes[*load];
	*c = *from;
	c->addr = to;
	c->size = code_size;
	c->time = time;
	c->load = (uint32_t)*load;
	d->n_codes++;
	d->moves++;
	return 0;
}

/* DEBUG_INFO: its entries wait in lines[] for the next load. */
static int read_debug(struct jitdump *d, struct source *s, uint64_t off, uint32_t size)
{
	const uint8_t *f = peek(s, off + PREFIX_SIZE, DEBUG_FIXED);
	if (!f || size < PREFIX_SIZE + DEBUG_FIXED)
		return -spe_bad_file;
	if (d->has_debug) { /* the one before had no load: dropped */
		d->debug_unmatched++;
		d->n_lines = d->debug_first;
		d->has_debug = 0;
	}
	uint64_t code_addr = u64(d, f), nr = u64(d, f + 8);
	uint64_t at = off + PREFIX_SIZE + DEBUG_FIXED, end = off + size;
	if (nr > (end - at) / (ENTRY_FIXED + 1))
		return -spe_bad_file;
	size_t first = d->n_lines;
	uint32_t file = UINT32_MAX;
	for (uint64_t i = 0; i < nr; i++) {
		const uint8_t *e = at + ENTRY_FIXED < end ? peek(s, at, ENTRY_FIXED + 1) : NULL;
		if (!e) {
			d->n_lines = first;
			return -spe_bad_file;
		}
		struct jit_line l = { .addr = u64(d, e), .line = (int32_t)u32(d, e + 8), .discrim = (int32_t)u32(d, e + 12) };
		const uint8_t *same = e[16] == 0xff && at + ENTRY_FIXED + 1 < end ? peek(s, at + ENTRY_FIXED + 1, 1) : NULL;
		if (same && !*same && file != UINT32_MAX) { /* "\xff\0": the previous entry's file */
			l.file = file;
			at += ENTRY_FIXED + 2;
		} else {
			uint64_t len;
			int rc = add_string(d, s, at + ENTRY_FIXED, end - at - ENTRY_FIXED, &l.file, &len);
			if (rc < 0) {
				d->n_lines = first;
				return rc;
			}
			at += ENTRY_FIXED + len;
		}
		file = l.file;
		if (d->n_lines >= JITDUMP_MAX_LINES) {
			d->lines_dropped += nr;
			d->n_lines = first;
			return 0;
		}
		struct jit_line *v = util_grow(d->lines, &d->cap_lines, d->n_lines + 1, sizeof *v);
		if (!v)
			return -spe_nomem;
		d->lines = v;
		d->lines[d->n_lines++] = l;
	}
	d->has_debug = 1;
	d->debug_addr = code_addr;
	d->debug_first = (uint32_t)first;
	d->debug_n = (uint32_t)(d->n_lines - first);
	return 0;
}

static int read_header(struct jitdump *d, struct source *s, const char *name, char *err, size_t errlen)
{
	const uint8_t *h = peek(s, 0, JITDUMP_HEADER_SIZE);
	if (!h) {
		snprintf(err, errlen, "%s: %s", name,
			 s->io_errno ? strerror(s->io_errno) : "shorter than a jitdump header (40 bytes)");
		return s->io_errno ? -spe_io : -spe_bad_file;
	}
	uint32_t magic;
	memcpy(&magic, h, 4);
	if (magic != JITDUMP_MAGIC && magic != __builtin_bswap32(JITDUMP_MAGIC)) {
		snprintf(err, errlen, "%s: offset 0: not a jitdump file (magic 0x%08x)", name, magic);
		return -spe_bad_file;
	}
	d->swapped = magic != JITDUMP_MAGIC;
	d->version = u32(d, h + 4);
	uint32_t total = u32(d, h + 8);
	d->elf_mach = u32(d, h + 12);
	d->pid = u32(d, h + 20);
	d->timestamp = u64(d, h + 24);
	d->flags = u64(d, h + 32);
	d->arch_timestamp = !!(d->flags & JITDUMP_FLAG_ARCH_TIMESTAMP);
	if (d->version > 1) {
		snprintf(err, errlen, "%s: offset 4: jitdump version %u (this reader knows version 1)", name, d->version);
		return -spe_bad_file;
	}
	if (d->flags & ~(uint64_t)JITDUMP_FLAG_ARCH_TIMESTAMP) {
		snprintf(err, errlen, "%s: offset 32: unknown jitdump flags 0x%" PRIx64, name, d->flags);
		return -spe_bad_file;
	}
	if (total < JITDUMP_HEADER_SIZE || total > s->size) {
		snprintf(err, errlen, "%s: offset 8: header size %u is not between 40 and the file's %" PRIu64 " bytes", name,
			 total, s->size);
		return -spe_bad_file;
	}
	return (int)total;
}

static int parse(struct jitdump *d, struct source *s, const char *name, char *err, size_t errlen)
{
	d->size = s->size;
	int rc = read_header(d, s, name, err, errlen);
	if (rc < 0)
		return rc;
	struct util_map by_index; /* code_index -> its latest load */
	util_map_init(&by_index, sizeof(uint64_t), sizeof(int64_t));
	uint64_t off = (uint64_t)rc;
	rc = 0;
	while (rc == 0 && off < s->size) {
		const uint8_t *p = peek(s, off, PREFIX_SIZE);
		uint32_t id = p ? u32(d, p) : 0, size = p ? u32(d, p + 4) : 0;
		if (!p || size < PREFIX_SIZE || size > s->size - off) {
			if (s->io_errno)
				break;
			snprintf(d->stopped, sizeof d->stopped, "offset 0x%" PRIx64 ": %s", off,
				 !p ? "the file ends inside a record header"
				 : size < PREFIX_SIZE ? "a record shorter than its 16-byte header"
						      : "the file ends inside a record (cut while being written?)");
			if (p) { /* what came after this time is not known */
				d->horizon = u64(d, p + 8);
				d->has_horizon = 1;
			}
			break;
		}
		uint64_t time = u64(d, p + 8);
		if ((id == REC_LOAD || id == REC_MOVE) && d->n_codes >= JITDUMP_MAX_CODES) {
			snprintf(d->stopped, sizeof d->stopped, "offset 0x%" PRIx64 ": more than %u code loads: the rest is not read",
				 off, (unsigned)JITDUMP_MAX_CODES);
			d->horizon = time;
			d->has_horizon = 1;
			break;
		}
		d->records++;
		switch (id) {
		case REC_LOAD: rc = read_load(d, s, &by_index, off, size, time); break;
		case REC_MOVE: rc = read_move(d, s, &by_index, off, size, time); break;
		case REC_DEBUG: rc = read_debug(d, s, off, size); break;
		case REC_CLOSE:
		case REC_UNWINDING: break;
		default: d->unknown_records++; break;
		}
		if (rc == -spe_bad_file) {
			d->bad_records++;
			rc = 0;
		}
		off += size;
	}
	util_map_fini(&by_index);
	if (s->io_errno) {
		snprintf(err, errlen, "%s: offset 0x%" PRIx64 ": cannot read: %s", name, off, strerror(s->io_errno));
		return -spe_io;
	}
	if (rc == -spe_nomem)
		snprintf(err, errlen, "%s: out of memory", name);
	if (d->has_debug) { /* at the end, without its load */
		d->debug_unmatched++;
		d->n_lines = d->debug_first;
		d->has_debug = 0;
	}
	return rc;
}

int ana_jitdump_parse(struct jitdump *d, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen)
{
	struct source s = { .mem = buf ? buf : (const uint8_t *)"", .fd = -1, .size = len };
	return parse(d, &s, name, err, errlen);
}

int ana_jitdump_read(struct jitdump *d, const char *path, char *err, size_t errlen)
{
	int fd = spe_infile_open(path, err, errlen);
	if (fd < 0)
		return fd;
	struct stat st;
	struct source s = { .fd = fd, .win = malloc(WINDOW) };
	int rc;
	if (!s.win) {
		snprintf(err, errlen, "%s: out of memory", path);
		rc = -spe_nomem;
	} else if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -spe_io;
	} else {
		s.size = (uint64_t)st.st_size;
		rc = parse(d, &s, path, err, errlen);
	}
	free(s.win);
	close(fd);
	return rc;
}

const struct jit_line *ana_jitdump_line(const struct jitdump *d, const struct jit_code *c, uint64_t pc)
{
	if (!c->n_lines)
		return NULL;
	pc = pc - c->addr + d->codes[c->load].addr; /* moved code: where its lines were written for */
	const struct jit_line *l = d->lines + c->first_line;
	size_t lo = 0, hi = c->n_lines; /* the first entry above pc */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &l[lo - 1] : NULL;
}
