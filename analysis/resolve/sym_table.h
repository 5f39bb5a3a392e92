/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The names a binary's addresses resolve to: one range per name, built once
 * per binary, looked up by binary search.  Which symbols count, and which
 * one names an address several share, are spe-load(1)'s SYMBOLS rules:
 *
 *   - function, IFUNC and object symbols with a name, in an allocated
 *     section; untyped labels only in executable sections and only when
 *     not hidden; never section, file, TLS, absolute or undefined ones;
 *   - never the aarch64/arm mapping symbols ($x, $d, $a, $t, alone or
 *     followed by '.'), which mark code and data, not functions;
 *   - the PLT entries of aarch64 binaries as `name@plt` (plt_names.h);
 *   - several symbols at one address: perf's rule (choose_best_symbol in
 *     tools/perf/util/symbol.c), one criterion after the other: a sized
 *     symbol over a sizeless one; a typed one over an untyped label; a
 *     non-weak over a weak one; a global over a local one; fewer leading
 *     underscores; the longer name; then the first in the symbol table;
 *   - a sized symbol covers [start, start + size); a sizeless one reaches to
 *     the next symbol or the end of its section, whichever comes first; an
 *     address several ranges cover (a label inside a sized function) takes
 *     the one starting nearest below it.
 */
#ifndef SPE_SYM_TABLE_H
#define SPE_SYM_TABLE_H

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

struct sym_range {
	uint64_t start, end; /* ELF vaddrs, end exclusive */
	uint64_t size;       /* the symbol's st_size (0: sizeless) */
	const char *name;
	uint32_t parent;     /* the nearest earlier range still open at start, or UINT32_MAX */
};

struct sym_table {
	struct sym_range *ranges;
	size_t n;
	char *names;         /* the `name@plt` strings */
};

/*
 * Build @p t from @p mod's symbol table (dwfl's: .symtab of the file or its
 * debug file, else .dynsym, plus .gnu_debugdata) and the PLT of @p elf (the
 * file with the code; NULL: none).  Names point into dwfl's and @p elf's
 * string tables and live as long as they do.  0, or -1 without memory (then
 * @p t is empty).
 */
int ana_sym_table_build(struct sym_table *t, Dwfl_Module *mod, Elf *elf);
/* The range holding @p vaddr, or NULL. */
const struct sym_range *ana_sym_table_find(const struct sym_table *t, uint64_t vaddr);
void ana_sym_table_free(struct sym_table *t);

#endif
