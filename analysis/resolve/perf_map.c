/* SPDX-License-Identifier: Apache-2.0 */
/* perf-PID.map files (perf_map.h): streamed lines, then a table of disjoint segments. */
#define _GNU_SOURCE /* qsort_r */
#include "perf_map.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe/infile.h"
#include "spe/spe.h"
#include "util/grow.h"

void ana_perf_map_init(struct perf_map *m)
{
	memset(m, 0, sizeof *m);
}

void ana_perf_map_fini(struct perf_map *m)
{
	free(m->entries);
	free(m->names);
	free(m->segs);
	free(m->line);
	ana_perf_map_init(m);
}

/* A hex number as strtoull(3) reads it at @p s; the count of bytes it took, 0 when there is no digit. */
static size_t hex_number(const char *s, uint64_t *v)
{
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if (!isxdigit((unsigned char)*p)) /* "0x" starts with one */
		return 0;
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 16);
	return (size_t)(end - s);
}

static int add_entry(struct perf_map *m, uint64_t start, uint64_t size, const char *name)
{
	size_t len = strlen(name) + 1;
	if (m->n_entries >= PERF_MAP_MAX_ENTRIES || m->n_names + len > PERF_MAP_MAX_NAMES) {
		m->over_limit = 1;
		return -spe_bad_file;
	}
	struct perf_map_entry *e = util_grow(m->entries, &m->cap_entries, m->n_entries + 1, sizeof *e);
	if (!e)
		return -spe_nomem;
	m->entries = e;
	char *n = util_grow(m->names, &m->cap_names, m->n_names + len, 1);
	if (!n)
		return -spe_nomem;
	m->names = n;
	memcpy(m->names + m->n_names, name, len);
	m->entries[m->n_entries++] = (struct perf_map_entry){ .start = start, .size = size, .name = (uint32_t)m->n_names };
	m->n_names += len;
	return 0;
}

/* One line, without its newline, NUL-terminated at line[len]. */
static int parse_line(struct perf_map *m, const char *line, size_t len)
{
	m->lines++;
	uint64_t start = 0, size = 0;
	/* perf's order: too short after the number and its separator first, then (ours) no number */
	size_t took = hex_number(line, &start), at = took + 1; /* the separator, whatever it is */
	if (at + 2 >= len) {
		m->skipped_short++;
		return 0;
	}
	if (!took) {
		m->malformed++;
		return 0;
	}
	took = hex_number(line + at, &size);
	at += took + 1;
	if (at + 2 >= len) {
		m->skipped_short++;
		return 0;
	}
	if (!took) {
		m->malformed++;
		return 0;
	}
	/* size 0 covers the start address alone: [start, start + 1) */
	if (start + (size ? size : 1) < start) {
		m->bad_range++;
		return 0;
	}
	return add_entry(m, start, size, line + at);
}


/* The line gathered so far is whole: parsed, or counted as skipped when it was too long. */
static int end_line(struct perf_map *m)
{
	int rc = 0;
	if (m->line_too_long) {
		m->lines++;
		m->skipped_long++;
	} else {
		m->line[m->n_line] = 0;
		rc = parse_line(m, m->line, m->n_line);
	}
	m->n_line = 0;
	m->line_too_long = 0;
	return rc;
}

int ana_perf_map_feed(struct perf_map *m, const char *buf, size_t n)
{
	if (m->over_limit)
		return -spe_bad_file;
	while (n) {
		const char *nl = memchr(buf, '\n', n);
		size_t take = nl ? (size_t)(nl - buf) : n;
		if (!m->line_too_long) {
			if (m->n_line + take > PERF_MAP_MAX_LINE) {
				m->line_too_long = 1;
			} else {
				char *l = util_grow(m->line, &m->cap_line, m->n_line + take + 1, 1);
				if (!l)
					return -spe_nomem;
				m->line = l;
				memcpy(m->line + m->n_line, buf, take);
				m->n_line += take;
			}
		}
		if (!nl)
			break;
		int rc = end_line(m);
		if (rc < 0)
			return rc;
		buf = nl + 1;
		n -= take + 1;
	}
	return 0;
}

/* ---- the lookup table: disjoint segments, each named by the latest line holding it ---- */

static uint64_t entry_end(const struct perf_map_entry *e)
{
	return e->start + (e->size ? e->size : 1);
}

static int by_start(const void *a, const void *b, void *ctx)
{
	const struct perf_map_entry *e = ctx;
	const struct perf_map_entry *x = &e[*(const uint32_t *)a], *y = &e[*(const uint32_t *)b];
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static int by_end(const void *a, const void *b, void *ctx)
{
	const struct perf_map_entry *e = ctx;
	uint64_t x = entry_end(&e[*(const uint32_t *)a]), y = entry_end(&e[*(const uint32_t *)b]);
	return x < y ? -1 : x > y;
}

/* A max-heap of entry indices (the latest line on top). */
struct heap {
	uint32_t *v;
	size_t n;
};

static void heap_push(struct heap *h, uint32_t x)
{
	size_t i = h->n++;
	while (i && h->v[(i - 1) / 2] < x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static void heap_pop(struct heap *h)
{
	uint32_t x = h->v[--h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1] > h->v[c])
			c++;
		if (h->v[c] <= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = x;
}

static int add_segment(struct perf_map *m, size_t *cap, uint64_t start, uint64_t end, uint32_t entry)
{
	if (m->n_segs && m->segs[m->n_segs - 1].end == start && m->segs[m->n_segs - 1].entry == entry) {
		m->segs[m->n_segs - 1].end = end;
		return 0;
	}
	struct perf_map_segment *s = util_grow(m->segs, cap, m->n_segs + 1, sizeof *s);
	if (!s)
		return -spe_nomem;
	m->segs = s;
	m->segs[m->n_segs++] = (struct perf_map_segment){ start, end, entry };
	return 0;
}

/*
 * Sweep the boundaries in address order with the entries open there in a
 * heap: each stretch between two boundaries belongs to the latest open line.
 */
static int make_segments(struct perf_map *m)
{
	size_t n = m->n_entries, cap = 0;
	if (!n)
		return 0;
	uint32_t *starts = malloc(n * sizeof *starts), *ends = malloc(n * sizeof *ends);
	uint8_t *closed = calloc(n, 1);
	struct heap h = { malloc(n * sizeof *h.v), 0 };
	int rc = starts && ends && closed && h.v ? 0 : -spe_nomem;
	if (rc == 0) {
		for (uint32_t i = 0; i < n; i++)
			starts[i] = ends[i] = i;
		qsort_r(starts, n, sizeof *starts, by_start, m->entries);
		qsort_r(ends, n, sizeof *ends, by_end, m->entries);
		uint64_t reach = 0; /* the highest end before */
		for (size_t i = 0; i < n; i++) {
			const struct perf_map_entry *e = &m->entries[starts[i]];
			m->overlapping += i && e->start < reach;
			if (entry_end(e) > reach)
				reach = entry_end(e);
		}
	}
	size_t si = 0, ei = 0;
	while (rc == 0 && ei < n) {
		uint64_t at = si < n && m->entries[starts[si]].start < entry_end(&m->entries[ends[ei]])
				      ? m->entries[starts[si]].start
				      : entry_end(&m->entries[ends[ei]]);
		while (si < n && m->entries[starts[si]].start == at)
			heap_push(&h, starts[si++]);
		while (ei < n && entry_end(&m->entries[ends[ei]]) == at)
			closed[ends[ei++]] = 1;
		while (h.n && closed[h.v[0]])
			heap_pop(&h);
		if (!h.n)
			continue;
		uint64_t next = entry_end(&m->entries[ends[ei]]); /* an open entry has not ended: ei < n */
		if (si < n && m->entries[starts[si]].start < next)
			next = m->entries[starts[si]].start;
		rc = add_segment(m, &cap, at, next, h.v[0]);
	}
	free(starts);
	free(ends);
	free(closed);
	free(h.v);
	return rc;
}

int ana_perf_map_end(struct perf_map *m)
{
	if (m->over_limit)
		return -spe_bad_file;
	if (m->n_line || m->line_too_long) {
		m->no_final_newline = 1;
		int rc = end_line(m);
		if (rc < 0)
			return rc;
	}
	free(m->line);
	m->line = NULL;
	m->cap_line = 0;
	return make_segments(m);
}

int ana_perf_map_read(struct perf_map *m, const char *path, char *err, size_t errlen)
{
	int code = 0;
	FILE *f = spe_infile_fopen(path, &code, err, errlen);
	if (!f)
		return code ? code : -spe_io;
	char buf[65536];
	size_t got;
	int rc = 0;
	while (rc == 0 && (got = fread(buf, 1, sizeof buf, f)) > 0)
		rc = ana_perf_map_feed(m, buf, got);
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		rc = -spe_io;
	}
	fclose(f);
	if (rc == 0)
		rc = ana_perf_map_end(m);
	if (rc == -spe_bad_file)
		snprintf(err, errlen, "%s: more than %u entries or %u MiB of names: not read (no symbols rather than some)",
			 path, (unsigned)PERF_MAP_MAX_ENTRIES, (unsigned)(PERF_MAP_MAX_NAMES >> 20));
	else if (rc == -spe_nomem)
		snprintf(err, errlen, "%s: out of memory", path);
	return rc;
}

const struct perf_map_entry *ana_perf_map_lookup(const struct perf_map *m, uint64_t addr, uint32_t *index)
{
	size_t lo = 0, hi = m->n_segs; /* the first segment starting above addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->segs[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= m->segs[lo - 1].end)
		return NULL;
	if (index)
		*index = m->segs[lo - 1].entry;
	return &m->entries[m->segs[lo - 1].entry];
}
