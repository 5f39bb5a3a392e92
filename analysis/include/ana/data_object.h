/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data objects: what a data address points into (docs/schema.md,
 * `data_object`).  In order of preference:
 *   1. a variable of a mapped binary: a DWARF variable with a static address
 *      (globals, file statics, function statics named FUNCTION::NAME, with
 *      type, size and declaration), else an ELF STT_OBJECT symbol with a
 *      size;
 *   2. the binary's section the address falls in (".bss of prog") when no
 *      variable covers it;
 *   3. the data mapping it falls in: [heap], [stack], anonymous memory,
 *      shared memory, or a file mapped as data (path + offset).
 * A binary's data is found through its program headers, from the load bias
 * of its executable mapping, so globals are named even when the capture has
 * no data mappings (.bss lies in an anonymous mapping after the file's).
 */
#ifndef SPE_DATA_OBJECT_H
#define SPE_DATA_OBJECT_H

#include <stdint.h>

#include "spe/analysis.h"

/*
 * Kinds of data object, stored as integers in data_object.kind; the table
 * data_object_kind is generated from this list.  X(IDENT, code, name, description)
 */
#define SPE_DATA_OBJECT_KIND_LIST(X)                                                       \
	X(VARIABLE, 1, "variable", "a variable described by DWARF")                         \
	X(SYMBOL, 2, "symbol", "an ELF data symbol (STT_OBJECT) with a size, no DWARF")    \
	X(SECTION, 3, "section", "a section of a binary where no variable is known")        \
	X(HEAP, 4, "heap", "the [heap] mapping (brk)")                                      \
	X(STACK, 5, "stack", "a [stack] mapping")                                           \
	X(ANON, 6, "anon", "anonymous memory (//anon: large mallocs, mmap)")                \
	X(SHARED, 7, "shared", "shared memory (MAP_SHARED anonymous, /dev/shm, SYSV)")       \
	X(FILE, 8, "file", "a file mapped as data, named path+offset")                      \
	X(OTHER, 9, "other", "another kernel-named mapping ([vdso], ...)")

enum dobj_kind {
#define SPE_X(id, code, name, desc) DOBJ_##id = code,
	SPE_DATA_OBJECT_KIND_LIST(SPE_X)
#undef SPE_X
};

const char *ana_dobj_kind_name(int kind);

/* One object of a binary, in its ELF vaddr space. */
struct dobj_var {
	uint64_t start, size;
	const char *name;     /* "table", "sum_table::calls", ".bss" */
	const char *type;     /* DWARF type text ("double[65536]"), NULL if unknown */
	const char *file;     /* declaration, NULL if unknown */
	int line;
	int kind;             /* DOBJ_VARIABLE, DOBJ_SYMBOL or DOBJ_SECTION */
};

/* The variables of one binary, built from its DWARF and symbol table. */
struct dobj_vars;

/* Build the table of @p bin (NULL when out of memory).  Never fails for lack of DWARF. */
struct dobj_vars *ana_dobj_vars_new(struct spe_sym_binary *bin);
void ana_dobj_vars_free(struct dobj_vars *v);
/*
 * The object at ELF vaddr @p vaddr: a variable covering it, else the
 * allocated section holding it.  Returns NULL when @p vaddr is in no
 * PT_LOAD segment of the binary (not its data).
 */
const struct dobj_var *ana_dobj_vars_lookup(const struct dobj_vars *v, uint64_t vaddr);
/* The binary's PT_LOAD span [lo, hi) in its vaddr space (hi = 0 when none). */
void ana_dobj_vars_span(const struct dobj_vars *v, uint64_t *lo, uint64_t *hi);
size_t ana_dobj_vars_count(const struct dobj_vars *v);

/*
 * The kind of a data mapping from its MMAP2 fields, and the object's name
 * into @p name: "[heap]", "[stack]", "//anon", or PATH+0xOFFSET for a file
 * (offset = pgoff of the mapping).
 */
int ana_dobj_mapping_kind(const char *path, uint32_t prot, uint32_t flags, uint64_t pgoff, char *name, size_t size);

#endif
