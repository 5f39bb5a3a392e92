/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The GNU build-id of an ELF file.  elfutils finds the note (the
 * .note.gnu.build-id section, else a PT_NOTE segment) as the symbolizer in
 * analysis/ does, so both agree on the id of a file.
 */
#include "build_id.h"

#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <string.h>

int spe_elf_build_id(int fd, uint8_t id[SPE_BUILD_ID_MAX])
{
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return 0;
	const void *bits = NULL;
	ssize_t n = elf_kind(elf) == ELF_K_ELF ? dwelf_elf_gnu_build_id(elf, &bits) : 0;
	if (n > SPE_BUILD_ID_MAX)
		n = SPE_BUILD_ID_MAX; /* perf keeps 20 bytes too */
	if (n > 0)
		memcpy(id, bits, (size_t)n);
	elf_end(elf);
	return n > 0 ? (int)n : 0;
}
