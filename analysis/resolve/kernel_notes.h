/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The running kernel's build-id: /sys/kernel/notes holds the kernel
 * image's ELF notes (its .notes section: each a 12-byte header namesz,
 * descsz, type, then the name and the descriptor, each padded to 4 bytes;
 * include/uapi/linux/elf.h), among them the GNU build-id (name "GNU",
 * type NT_GNU_BUILD_ID = 3), which perf compares with a recording's
 * (tools/perf/util/symbol.c, dso__find_kallsyms).
 */
#ifndef SPE_KERNEL_NOTES_H
#define SPE_KERNEL_NOTES_H

#include <stddef.h>
#include <stdint.h>

#define KERNEL_BID_HEX_MAX 129 /* 64 bytes as hex, and the NUL */

/* The GNU build-id among the notes in @p buf as lowercase hex: 1 found, 0 none (or malformed notes). */
int ana_notes_build_id(const uint8_t *buf, size_t len, char hex[KERNEL_BID_HEX_MAX]);
/* The same from the file @p path (/sys/kernel/notes): 1, 0 none, -1 unreadable. */
int ana_kernel_notes_build_id(const char *path, char hex[KERNEL_BID_HEX_MAX]);

#endif
