/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The entries of an aarch64 .plt and the functions they jump to: the
 * `name@plt` symbols binutils (objdump -d) and perf give PLT stubs, which
 * the symbol table does not hold.
 */
#ifndef SPE_PLT_NAMES_H
#define SPE_PLT_NAMES_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

struct plt_entry {
	uint64_t start, size; /* ELF vaddrs */
	const char *name;     /* the .dynsym name (owned by the Elf), without "@plt" */
};

/*
 * The named entries of @p elf's .plt (EM_AARCH64, ELFCLASS64 only), in
 * address order, in a malloc'd array (*out, *n; NULL/0 when there are none).
 * Each entry is found by decoding its code, not by assuming a size: the
 * `adrp x16` / `ldr x17, [x16, #off]` pair every aarch64 PLT entry starts
 * with (after a `bti c` in BTI PLTs) gives the GOT slot it jumps through,
 * and the R_AARCH64_JUMP_SLOT relocation of that slot in .rela.plt names
 * the function.  So 16-byte entries, 24-byte BTI and PAC entries (where
 * perf's fixed 16 bytes drift) and any other layout with that pair come out
 * right; the header (PLT0, whose slot has no relocation) and IRELATIVE
 * slots get no entry.  An entry ends where the next starts, the last at the
 * end of .plt.  Returns 0, or -1 without memory.
 */
int ana_plt_entries(Elf *elf, struct plt_entry **out, size_t *n);

#endif
