/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JIT symbols of a load: the perf-PID.map file of each process whose
 * anonymous executable memory holds sampled PCs (read on first need, once
 * per pid), and the jitdumps the recording's markers name (read when the
 * loader puts their code in the process model: analysis/load/jit_loads.c).
 *
 * Which perf-PID.map: PID is the process that made the mapping (the MMAP
 * record's pid, the mapping row's pid), as perf names the map's dso
 * (tools/perf/util/map.c, map__new): a child that inherited its parent's
 * JIT code by FORK has its parent's names there, its own file names the
 * code it maps itself.  Looked for as /tmp/perf-PID.map, or DIR/perf-PID.map
 * with --jit-maps=DIR (files copied off the recorded machine).  perf also
 * reads the live process's namespace pid on the analysis host
 * (/proc/PID/status); this never looks at this host's processes.
 *
 * A file that cannot be read (absent, not a regular file, over a limit) is
 * tried once and said once (jit_symbols_note), with its pid and path; its
 * PCs stay without a symbol, never another file's.
 */
#ifndef SPE_JIT_SYMBOLS_H
#define SPE_JIT_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "jitdump.h"
#include "perf_map.h"
#include "util/hash_map.h"

#define JIT_CODE_NONE UINT32_MAX /* code at an address loaded more than once when the times are unknown */

struct jit_pid_map {
	int pid;
	char *path;
	int ok;                  /* read; else err says why */
	char err[256];
	struct perf_map map;
};

struct jit_dump_file {
	int pid;                 /* the process that mapped its marker */
	char *path;              /* as read (the marker's, or under --jit-maps) */
	int fd;                  /* kept open for the code bytes, -1 */
	struct jitdump d;
	int64_t mapping_id;      /* its mapping row */
	int timed;               /* its code loads are placed at their times */
	char note[320];          /* what the load should say about it, "" */
};

struct jit_symbols {
	const char *dir;         /* --jit-maps, or NULL: /tmp */
	struct jit_pid_map *maps;
	size_t n_maps, cap_maps;
	struct util_map by_pid;  /* pid (one word) -> index in maps */
	struct jit_dump_file *dumps;
	size_t n_dumps, cap_dumps;
};

void ana_jit_symbols_init(struct jit_symbols *js, const char *dir);
void ana_jit_symbols_fini(struct jit_symbols *js);
/* The perf-PID.map of @p pid, read on the first call; NULL when it cannot be read (or without memory: *@p nomem). */
const struct perf_map *ana_jit_perf_map(struct jit_symbols *js, int pid, int *nomem);
/*
 * Read the jitdump a marker of @p pid names (@p path as recorded, or its
 * base name under --jit-maps).  Its index in js->dumps, with d filled (0
 * codes when it could not be read: note says why), or -spe_nomem.
 */
long ana_jit_dump_open(struct jit_symbols *js, int pid, const char *path);
/* Up to @p n code bytes of @p c at @p pc from the dump file; the count read. */
size_t ana_jit_code_bytes(const struct jit_dump_file *f, const struct jit_code *c, uint64_t pc, uint8_t *buf,
			  size_t n);
/* One line per file that said something (unreadable maps, dumps' notes) into @p out; the text's length. */
size_t ana_jit_symbols_note(const struct jit_symbols *js, char *out, size_t len);

#endif
