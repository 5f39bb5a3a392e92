/* SPDX-License-Identifier: Apache-2.0 */
/*
 * jitdump files (jit-PID.dump): the code a JIT runtime generated, written as
 * it goes by perf's JVMTI agent (tools/perf/jvmti), V8 --perf-prof, .NET
 * (DOTNET_PerfMapEnabled), and others; the layout is
 * tools/perf/Documentation/jitdump-specification.txt (version 1):
 *
 *   header   magic "JiTD" (0x4A695444 in the writer's byte order; read the
 *            other way round, every field is byte-swapped), version,
 *            total_size, elf_mach, pad, pid (u32), timestamp, flags (u64).
 *            Flag bit 0: timestamps are the CPU's counter (ARCH_TIMESTAMP),
 *            else CLOCK_MONOTONIC ns; any other bit is refused.
 *   records  id, total_size (u32), timestamp (u64), then
 *            0 CODE_LOAD       pid, tid (u32), vma, code_addr, code_size,
 *                              code_index (u64), a NUL-terminated name, then
 *                              the code: the record's last code_size bytes
 *            1 CODE_MOVE       pid, tid, vma, old_code_addr, new_code_addr,
 *                              code_size, code_index
 *            2 DEBUG_INFO      code_addr, nr_entry (u64), then entries of
 *                              addr (u64), line, discrim (s32) and a
 *                              NUL-terminated file name ("\xff\0": the
 *                              previous entry's); for the next CODE_LOAD
 *            3 CODE_CLOSE      nothing
 *            4 UNWINDING_INFO  unwinding_size, eh_frame_hdr_size,
 *                              mapped_size (u64), the data; for the next
 *                              CODE_LOAD (not kept: no unwinding here)
 *            other ids are skipped by their total_size.
 *
 * What is kept: one `struct jit_code` per CODE_LOAD (its name, address,
 * size, raw timestamp, code_index, where its bytes are in the file, and the
 * DEBUG_INFO lines that came for it) and per CODE_MOVE (the code of the
 * latest load with that code_index, at new_code_addr from the move's time,
 * as perf inject makes it: a move of an index never loaded is counted).
 * DEBUG_INFO is kept for the next load only when its code_addr is that
 * load's and its entries lie in that code (up to JITDUMP_LINE_SLACK past
 * it); else it is counted in debug_unmatched and dropped, never moved onto
 * other code.
 *
 * Reading stops, as perf's does, at the first record that does not fit:
 * a total_size under 16 or past the end of the file (a dump cut while the
 * runtime was writing it); and at the code load past JITDUMP_MAX_CODES.
 * The offset and the reason are in `stopped`, the time of the record it
 * stopped at, when readable, in `horizon`; what came before is kept.  A record whose parts do not fit in it (a name
 * without its NUL, code_size past the record, more debug entries than fit)
 * is skipped and counted in bad_records.  Memory: names and debug lines are
 * kept (the code bytes stay in the file): at most JITDUMP_MAX_CODES codes
 * and JITDUMP_MAX_LINES lines (the lines past it counted and dropped).
 */
#ifndef SPE_JITDUMP_H
#define SPE_JITDUMP_H

#include <stddef.h>
#include <stdint.h>

#define JITDUMP_HEADER_SIZE 40
#define JITDUMP_FLAG_ARCH_TIMESTAMP 1
#define JITDUMP_MAX_CODES (UINT32_C(1) << 22) /* about 200 bytes each once in the process model */
#define JITDUMP_MAX_LINES (UINT32_C(1) << 22)
#define JITDUMP_EM_AARCH64 183
#define JITDUMP_LINE_SLACK 0x40 /* how far past its code a debug entry may lie (V8's kElfHeaderSize) */

struct jit_line {
	uint64_t addr;
	int32_t line, discrim; /* discrim: V8 writes the column here */
	uint32_t file;         /* offset in strings */
};

struct jit_code {
	uint64_t addr, size;
	uint64_t time;           /* the record's timestamp, in the dump's clock */
	uint64_t index;          /* code_index */
	uint64_t code_offset;    /* file offset of its bytes (a move: the load's) */
	uint32_t name;           /* offset in strings */
	uint32_t first_line, n_lines; /* its DEBUG_INFO entries in lines[], by address */
	uint32_t load;           /* a move: the code it moves (index in codes[]); else its own index */
};

struct jitdump {
	/* header */
	uint32_t version, elf_mach, pid;
	uint64_t timestamp, flags;
	int swapped;             /* written in the other byte order */
	int arch_timestamp;      /* flags bit 0 */
	/* contents */
	struct jit_code *codes;  /* in file order */
	size_t n_codes, cap_codes;
	struct jit_line *lines;
	size_t n_lines, cap_lines;
	char *strings;
	size_t n_strings, cap_strings;
	uint64_t size;           /* bytes of the file */
	/* counts */
	uint64_t records;        /* records read */
	uint64_t loads, moves;   /* CODE_LOAD, CODE_MOVE taken */
	uint64_t moves_unknown;  /* CODE_MOVE of a code_index no load had */
	uint64_t debug_unmatched;/* DEBUG_INFO dropped: no load of its code_addr next, or entries outside that code */
	uint64_t unknown_records;/* ids above 4, skipped */
	uint64_t bad_records;    /* skipped: parts that do not fit */
	uint64_t lines_dropped;  /* debug entries past JITDUMP_MAX_LINES, dropped (their code has no lines) */
	char stopped[160];       /* why reading stopped before the end ("" when it did not) */
	int has_horizon;         /* it stopped at a record whose time is known: */
	uint64_t horizon;        /* that time: the code at an address from then on is not known */
	/* reading state */
	int has_debug;           /* a DEBUG_INFO waits for the next load */
	uint64_t debug_addr;
	uint32_t debug_first, debug_n;
};

void ana_jitdump_init(struct jitdump *d);
void ana_jitdump_fini(struct jitdump *d);
/*
 * Read a dump from memory (@p name for messages) or from the file @p path
 * (a regular file: spe/infile.h; read through a window, never held whole).
 * 0 (the header is good; see d->stopped for a cut), or a negative code with
 * the reason in @p err naming the file and offset: -spe_io / -spe_unsupported
 * (cannot open or read), -spe_bad_file (no jitdump header, a version above
 * 1, unknown flags), -spe_nomem.
 */
int ana_jitdump_parse(struct jitdump *d, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen);
int ana_jitdump_read(struct jitdump *d, const char *path, char *err, size_t errlen);

static inline const char *ana_jitdump_string(const struct jitdump *d, uint32_t off)
{
	return d->strings + off;
}

/* The DEBUG_INFO line of @p pc in code @p c (the last entry at or below it), or NULL. */
const struct jit_line *ana_jitdump_line(const struct jitdump *d, const struct jit_code *c, uint64_t pc);

#endif
