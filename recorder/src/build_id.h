/* SPDX-License-Identifier: Apache-2.0 */
/* The GNU build-id of an ELF file (for MMAP2 records synthesized from /proc). */
#ifndef SPE_RECORDER_BUILD_ID_H
#define SPE_RECORDER_BUILD_ID_H

#include <stdint.h>

#define SPE_BUILD_ID_MAX 20 /* what MMAP2 and the BUILD_ID feature hold */

/*
 * The build-id note of the ELF file open on @p fd into @p id (at most
 * SPE_BUILD_ID_MAX bytes).  Returns its size, or 0 when the file is no ELF
 * or has no build-id note.
 */
int spe_elf_build_id(int fd, uint8_t id[SPE_BUILD_ID_MAX]);

#endif
