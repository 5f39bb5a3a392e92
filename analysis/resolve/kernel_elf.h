/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel's ELF files: a vmlinux's reference symbol (which lines it up
 * with the recording, as a kallsyms file's does) and the functions of a
 * module's .ko.  Facts from perf (tools/perf/util/symbol-elf.c,
 * dso__process_kernel_symbol) and the kernel (kernel/module/main.c,
 * layout_sections): a module is a relocatable object (ET_REL) whose
 * allocated executable sections are laid out in section order from the
 * module's base, `.init*` ones apart; perf maps a module's .text at the
 * base of its MMAP.  Only functions of .text are read, and only when .text
 * is the first of those sections: where the others land depends on what
 * the kernel added at load time (arm64's PLT sections), which the file
 * does not say.
 */
#ifndef SPE_KERNEL_ELF_H
#define SPE_KERNEL_ELF_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

/* The value of symbol @p name in @p elf's symbol table (.symtab, else .dynsym): 1, or 0 if absent. */
int ana_kelf_symbol(Elf *elf, const char *name, uint64_t *value);

struct kmod_fn {
	uint64_t start, size; /* offset from .text's start */
	char *name;
};

/* A module's functions in .text, by offset; one per address (perf's choice among aliases). */
struct kmod_syms {
	struct kmod_fn *fn;
	size_t n;
	uint64_t text_size;
};

/*
 * Read the .ko at @p path, whose GNU build-id must equal @p recorded_hex:
 * 1 with its functions in @p out; 0 when it is not usable, with why in
 * @p why (another build-id, not a module, .text not first); -1 when it
 * cannot be read (no such file, not ELF), -spe_nomem.
 */
int ana_kmod_read(const char *path, const char *recorded_hex, struct kmod_syms *out, char *why, size_t whylen);
/* The function at offset @p off from .text's start, or NULL. */
const struct kmod_fn *ana_kmod_find(const struct kmod_syms *m, uint64_t off);
void ana_kmod_free(struct kmod_syms *m);

#endif
