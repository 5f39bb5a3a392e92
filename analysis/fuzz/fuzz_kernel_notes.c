/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz the reader of the kernel's notes (resolve/kernel_notes.c): /sys/kernel/notes as bytes. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel_notes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char hex[KERNEL_BID_HEX_MAX];
	if (ana_notes_build_id(data, size, hex) == 1 && (strlen(hex) % 2 || strlen(hex) >= KERNEL_BID_HEX_MAX))
		__builtin_trap(); /* a build-id is whole bytes, within the buffer */
	return 0;
}
