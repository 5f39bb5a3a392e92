/* SPDX-License-Identifier: Apache-2.0 */
/* The JIT symbols of a load (jit_symbols.h): perf-PID.map per pid, jitdumps per marker. */
#include "jit_symbols.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spe/infile.h"
#include "spe/spe.h"
#include "util/grow.h"

void ana_jit_symbols_init(struct jit_symbols *js, const char *dir)
{
	memset(js, 0, sizeof *js);
	js->dir = dir;
	util_map_init(&js->by_pid, sizeof(uint64_t), sizeof(int64_t));
}

void ana_jit_symbols_fini(struct jit_symbols *js)
{
	for (size_t i = 0; i < js->n_maps; i++) {
		free(js->maps[i].path);
		ana_perf_map_fini(&js->maps[i].map);
	}
	free(js->maps);
	util_map_fini(&js->by_pid);
	for (size_t i = 0; i < js->n_dumps; i++) {
		free(js->dumps[i].path);
		if (js->dumps[i].fd >= 0)
			close(js->dumps[i].fd);
		ana_jitdump_fini(&js->dumps[i].d);
	}
	free(js->dumps);
	memset(js, 0, sizeof *js);
}

const struct perf_map *ana_jit_perf_map(struct jit_symbols *js, int pid, int *nomem)
{
	*nomem = 0;
	uint64_t key = (uint64_t)(int64_t)pid;
	const int64_t *known = util_map_get(&js->by_pid, &key);
	if (known) {
		const struct jit_pid_map *m = &js->maps[*known];
		return m->ok ? &m->map : NULL;
	}
	struct jit_pid_map *v = util_grow(js->maps, &js->cap_maps, js->n_maps + 1, sizeof *v);
	if (!v) {
		*nomem = 1;
		return NULL;
	}
	js->maps = v;
	struct jit_pid_map *m = &js->maps[js->n_maps];
	memset(m, 0, sizeof *m);
	m->pid = pid;
	char path[4096];
	snprintf(path, sizeof path, "%s/perf-%d.map", js->dir ? js->dir : "/tmp", pid);
	int64_t *index = (m->path = strdup(path)) ? util_map_put(&js->by_pid, &key) : NULL;
	if (!index) {
		free(m->path);
		*nomem = 1;
		return NULL;
	}
	*index = (int64_t)js->n_maps++;
	ana_perf_map_init(&m->map);
	int rc = ana_perf_map_read(&m->map, path, m->err, sizeof m->err);
	if (rc == -spe_nomem) {
		*nomem = 1;
		ana_perf_map_fini(&m->map);
		return NULL;
	}
	m->ok = rc == 0;
	if (!m->ok)
		ana_perf_map_fini(&m->map);
	return m->ok ? &m->map : NULL;
}

long ana_jit_dump_open(struct jit_symbols *js, int pid, const char *path)
{
	struct jit_dump_file *v = util_grow(js->dumps, &js->cap_dumps, js->n_dumps + 1, sizeof *v);
	if (!v)
		return -spe_nomem;
	js->dumps = v;
	struct jit_dump_file *f = &js->dumps[js->n_dumps];
	memset(f, 0, sizeof *f);
	f->pid = pid;
	f->fd = -1;
	char where[4096];
	const char *base = strrchr(path, '/');
	if (js->dir)
		snprintf(where, sizeof where, "%s/%s", js->dir, base ? base + 1 : path);
	else
		snprintf(where, sizeof where, "%s", path);
	if (!(f->path = strdup(where)))
		return -spe_nomem;
	js->n_dumps++;
	ana_jitdump_init(&f->d);
	char err[256] = "";
	int rc = ana_jitdump_read(&f->d, f->path, err, sizeof err);
	if (rc == -spe_nomem)
		return rc;
	if (rc < 0) {
		ana_jitdump_fini(&f->d);
		snprintf(f->note, sizeof f->note, "pid %d: %s", pid, err);
		return (long)(js->n_dumps - 1);
	}
	if (f->d.elf_mach == JITDUMP_EM_AARCH64)
		f->fd = spe_infile_open(f->path, err, sizeof err); /* the code bytes, read as PCs need them */
	return (long)(js->n_dumps - 1);
}

size_t ana_jit_code_bytes(const struct jit_dump_file *f, const struct jit_code *c, uint64_t pc, uint8_t *buf,
			  size_t n)
{
	if (f->fd < 0 || pc < c->addr || pc - c->addr >= c->size)
		return 0;
	uint64_t left = c->size - (pc - c->addr);
	if (n > left)
		n = (size_t)left;
	ssize_t got = pread(f->fd, buf, n, (off_t)(c->code_offset + (pc - c->addr)));
	return got > 0 ? (size_t)got : 0;
}

/* Append a line to @p out (as much as fits). */
static size_t add_line(char *out, size_t len, size_t at, const char *text)
{
	if (at >= len)
		return at;
	int n = snprintf(out + at, len - at, "%s%s", at ? "\n" : "", text);
	return n < 0 ? at : at + (size_t)n >= len ? len - 1 : at + (size_t)n;
}

size_t ana_jit_symbols_note(const struct jit_symbols *js, char *out, size_t len)
{
	size_t at = 0;
	if (len)
		out[0] = 0;
	for (size_t i = 0; i < js->n_maps; i++) {
		const struct jit_pid_map *m = &js->maps[i];
		char line[512];
		if (!m->ok) {
			snprintf(line, sizeof line, "pid %d: anonymous executable memory unnamed: %s", m->pid, m->err);
			at = add_line(out, len, at, line);
			continue;
		}
		const struct perf_map *pm = &m->map;
		if (pm->malformed || pm->skipped_long || pm->bad_range || pm->no_final_newline) {
			snprintf(line, sizeof line,
				 "pid %d: %s: %" PRIu64 " lines skipped (%" PRIu64 " without a number, %" PRIu64
				 " too long, %" PRIu64 " past 2^64)%s",
				 m->pid, m->path, pm->malformed + pm->skipped_long + pm->bad_range, pm->malformed,
				 pm->skipped_long, pm->bad_range,
				 pm->no_final_newline ? "; the last line has no newline (read whole)" : "");
			at = add_line(out, len, at, line);
		}
	}
	for (size_t i = 0; i < js->n_dumps; i++)
		if (js->dumps[i].note[0])
			at = add_line(out, len, at, js->dumps[i].note);
	return at;
}
