/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Symbols of the aarch64 files a plan names, read with libelf: a function's
 * address, size and file offset, every name the same address has (what a
 * correct reader may print), PLT entries computed from the real entry size,
 * build-ids, and a stripped file's symbols from its build-id debug file.
 */
#ifndef SPLICE_ELFSYM_H
#define SPLICE_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

#define ELFSYM_ALIASES 512 /* bytes of the alias list */

struct elfsym_hit {
	uint64_t vaddr, size, file_offset; /* of the symbol (or PLT entry) itself */
	char aliases[ELFSYM_ALIASES];      /* names at that address, '|'-separated, the asked one first */
	uint64_t plt_entry_size;           /* PLT: the entry size found */
};

/*
 * @p name in the symbol tables of @p path (then in @p debug_root's
 * .build-id/xx/rest.debug for the file's build-id, when not NULL).
 * 0, or -1 with a message in @p err.
 */
int elfsym_find(const char *path, const char *debug_root, const char *name, struct elfsym_hit *hit, char *err,
		size_t errlen);
/* The PLT entry that calls @p import ("printf" for printf@plt). */
int elfsym_plt(const char *path, const char *import, struct elfsym_hit *hit, char *err, size_t errlen);
/* Is there another symbol starting in (hit->vaddr, hit->vaddr + off]?  Its name in @p other. */
int elfsym_next_start(const char *path, const char *debug_root, uint64_t vaddr, uint64_t off, char *other,
		      size_t otherlen);
/* The NT_GNU_BUILD_ID of @p path: its size (0 when none or not an ELF), bytes in @p id. */
int elfsym_build_id(const char *path, uint8_t id[20]);

#endif
