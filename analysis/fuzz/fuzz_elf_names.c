/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the symbolizer on an ELF file's bytes: its checks of the file (ELF,
 * build-id, code or debug file), libdwfl's symbol table through the naming
 * rules (resolve/sym_table.c: aliases, mapping symbols, sizeless ranges),
 * the aarch64 PLT decoder (resolve/plt_names.c) and code reads, at 256
 * addresses spread over the file's segments and at the first bytes.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "spe/analysis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);
const char *__asan_default_options(void);

/*
 * libdw 0.188's dwarf_getscopes drops the scopes it allocated when its second
 * pass over a broken DWARF tree fails (libdw/dwarf_getscopes.c hands them
 * out only for a positive result): libdw's leak, not ours.  libdw has no
 * frame pointers, so the suppression needs the slow unwinder to see the
 * function in the allocation's stack.
 */
const char *__lsan_default_suppressions(void)
{
	return "leak:dwarf_getscopes\n";
}

const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-elf", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	struct spe_sym_opts o = { .size = sizeof o, .debug_path = "" };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = sym ? spe_sym_binary(sym, path, NULL) : NULL;
	uint64_t lo, hi;
	if (bin && spe_sym_image_range(bin, &lo, &hi) == 0) {
		uint64_t step = (hi - lo) / 256 + 1;
		for (uint64_t i = 0, a = lo; i < 256 && a < hi; i++, a += step) {
			struct spe_sym_result r;
			uint8_t code[4];
			spe_sym_lookup(bin, a, &r);
			spe_sym_read_code(bin, a, code, sizeof code);
		}
		uint64_t va;
		spe_sym_offset_to_vaddr(bin, 0, &va);
	}
	spe_sym_free(sym);
	close(fd);
	return 0;
}
