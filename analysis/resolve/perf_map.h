/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf-PID.map: the symbols a JIT runtime writes for its code (V8
 * --perf-basic-prof, HotSpot -XX:+DumpPerfMapAtExit, CPython -X perf,
 * .NET DOTNET_PerfMapEnabled), one line per piece of code:
 *
 *     START SIZE NAME
 *
 * Read as perf reads it (tools/perf/util/symbol.c, dso__load_perf_map):
 * START and SIZE are hexadecimal as strtoull(3) reads them in base 16
 * (leading blanks, an optional 0x), each followed by one separator
 * character of any kind; NAME is the rest of the line, spaces included, up
 * to a NUL byte.  A line is skipped when 2 characters or fewer follow START
 * and its separator, or SIZE and its separator (so names of one or two
 * characters are skipped, as perf skips them).  Addresses are absolute.
 * An entry of size 0 covers its start address only (perf's symbol lookup).
 *
 * Where this reader differs from perf, on purpose:
 *   - a last line without a newline is read whole (perf drops its last
 *     character, taking it for the newline); counted in no_final_newline;
 *   - a line with no hex digit where START or SIZE should be is skipped and
 *     counted (perf makes a symbol at address 0 of the rest);
 *   - an entry whose end would pass 2^64 is skipped and counted;
 *   - where entries overlap, the later line wins (the file is a log: a JIT
 *     that reuses an address writes the new code's line after the old
 *     one); perf answers with whichever entry its search tree reaches
 *     first.  Counted in overlapping;
 *   - a line longer than PERF_MAP_MAX_LINE bytes is skipped and counted.
 *
 * Bounded: at most PERF_MAP_MAX_ENTRIES entries and PERF_MAP_MAX_NAMES
 * bytes of names; past either the whole file is refused (over_limit), so
 * that no address gets the name of code a dropped later line replaced.
 * The text is fed in pieces (a file is streamed), so a file is never held
 * whole in memory.
 */
#ifndef SPE_PERF_MAP_H
#define SPE_PERF_MAP_H

#include <stddef.h>
#include <stdint.h>

#define PERF_MAP_MAX_LINE 65536
#define PERF_MAP_MAX_ENTRIES (UINT32_C(1) << 22)
#define PERF_MAP_MAX_NAMES (UINT32_C(1) << 28)

struct perf_map_entry {
	uint64_t start, size;
	uint32_t name; /* offset in names */
};

/* A piece of the address space and the entry that names it (the latest line holding it). */
struct perf_map_segment {
	uint64_t start, end;
	uint32_t entry;
};

struct perf_map {
	struct perf_map_entry *entries; /* in line order */
	size_t n_entries, cap_entries;
	char *names;
	size_t n_names, cap_names;
	struct perf_map_segment *segs;  /* sorted, disjoint; made by ana_perf_map_end */
	size_t n_segs;
	/* the line being read */
	char *line;
	size_t n_line, cap_line;
	int line_too_long;
	/* what was read */
	uint64_t lines;                 /* lines seen */
	uint64_t skipped_short;         /* perf's rule: too short after START or SIZE */
	uint64_t malformed;             /* no hex digit for START or SIZE */
	uint64_t skipped_long;          /* longer than PERF_MAP_MAX_LINE */
	uint64_t bad_range;             /* START + SIZE past 2^64 */
	uint64_t overlapping;           /* entries overlapping an earlier line's */
	int no_final_newline;           /* the last line had none (read whole) */
	int over_limit;                 /* refused: more entries or names than the limits */
};

void ana_perf_map_init(struct perf_map *m);
void ana_perf_map_fini(struct perf_map *m);
/* Feed @p n more bytes of the file.  0, -spe_nomem, or -spe_bad_file once over a limit (over_limit). */
int ana_perf_map_feed(struct perf_map *m, const char *buf, size_t n);
/* The end of the file: its last line, then the lookup table.  0, -spe_nomem or -spe_bad_file (over_limit). */
int ana_perf_map_end(struct perf_map *m);
/*
 * Read the file @p path (a regular file: spe/infile.h) whole, streamed.
 * 0; or a negative code with the reason (naming @p path) in @p err:
 * -spe_io / -spe_unsupported (cannot open, not a regular file), -spe_bad_file
 * (over a limit), -spe_nomem.
 */
int ana_perf_map_read(struct perf_map *m, const char *path, char *err, size_t errlen);
/* The entry naming @p addr (and its index in *@p index), or NULL. */
const struct perf_map_entry *ana_perf_map_lookup(const struct perf_map *m, uint64_t addr, uint32_t *index);

static inline const char *ana_perf_map_name(const struct perf_map *m, const struct perf_map_entry *e)
{
	return m->names + e->name;
}

#endif
