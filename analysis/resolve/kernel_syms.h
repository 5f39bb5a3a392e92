/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where kernel PCs get their functions, and how a symbol source lines up
 * with the recording.  Facts from perf (tools/perf/util/machine.c,
 * symbol.c, dso.c; docs/spe-load.1.md, "Kernel symbols"):
 *
 *   - perf record writes one MMAP for the kernel image, named
 *     `[kernel.kallsyms]` followed by a reference symbol (`_text`, else
 *     `_stext`), whose pgoff is that symbol's runtime address (0 when
 *     kptr_restrict hid it); and one per module, named by its path;
 *   - a kallsyms file lines up through that symbol: its addresses are the
 *     recording's plus (the symbol in the file - pgoff), so a copy from
 *     another boot of the same kernel (KASLR put it elsewhere) still names
 *     the image's PCs.  Modules load at other addresses on each boot: a
 *     module's symbols are used only when the file places them inside the
 *     module's recorded map, the image lined up as is (the same boot);
 *   - a module's name is its file's without directory, `.ko` (and a
 *     compression suffix), '-' read as '_' (__kmod_path__parse in dso.c).
 *
 * Sources, in order: --kallsyms (only it: nothing else is tried).  A
 * kernel map with no source, or a PC its source does not name, has no
 * function: never one guessed from another kernel.
 */
#ifndef SPE_KERNEL_SYMS_H
#define SPE_KERNEL_SYMS_H

#include <stddef.h>
#include <stdint.h>

#include "attribution.h"

struct spe_kallsyms;

/* What a kernel map is (attrib_mapping.kernel_kind); 0: a user map. */
enum kernel_map_kind {
	KMAP_USER = 0,
	KMAP_IMAGE,    /* [kernel.kallsyms] */
	KMAP_MODULE,   /* a module's MMAP: its path, or [name] */
	KMAP_KSYMBOL,  /* PERF_RECORD_KSYMBOL: a BPF program, trampoline, OOL code; its one symbol covers it */
	KMAP_NOWHERE,  /* the symbolic [kernel.kallsyms] row of kernel PCs in no kernel map */
};

/* A kernel PC's function: runtime start and size. */
struct ksym_result {
	const char *name;
	uint64_t start, size;
};

struct kernel_syms {
	/* the recording */
	int has_image_map;          /* a kernel image MMAP */
	char ref_name[16];          /* its reference symbol ("_text"), "" if none */
	uint64_t ref_addr;          /* its runtime address (the MMAP's pgoff); 0: unknown */
	/* the choice, made at the first kernel PC */
	int decided;
	const char *kallsyms_path;  /* --kallsyms */
	struct spe_kallsyms *ks;    /* the kallsyms file in use, NULL if none */
	int image_lined_up;         /* ks names the image's PCs: relocated by delta, or taken as is */
	int64_t delta;              /* file address - runtime address */
	char image_note[768];       /* how the image's symbols were found, or why not */
	/* modules: how many maps took their symbols from ks, and of those that could not, the first reason */
	uint64_t modules_named, modules_unnamed;
	char module_note[300];
};

/*
 * Start with @p kallsyms (--kallsyms, read now: a file that is not kallsyms
 * fails here), or NULL.  0, or a negative code with a message naming the
 * file and line in @p err.
 */
int ana_ksyms_init(struct kernel_syms *k, const char *kallsyms, char *err, size_t errlen);
void ana_ksyms_fini(struct kernel_syms *k);

/*
 * A kernel MMAP's file name: its kind and the mapping row's path
 * (`[kernel.kallsyms]` without the reference symbol perf appends, which
 * *@p ref_symbol points at; else the name as given).
 */
enum kernel_map_kind ana_kernel_map_kind(const char *filename, const char **path, const char **ref_symbol);
/* The module name of a module map's path, "[name]" or ".../name.ko[.gz|.xz|.zst]" ('-' as '_') into @p out; 0, or -1. */
int ana_kmodule_name(const char *path, char *out, size_t outlen);

/* The kernel image MMAP: its reference symbol and that symbol's runtime address (pgoff). */
void ana_ksyms_image_map(struct kernel_syms *k, const char *ref_symbol, uint64_t pgoff);

/* The function of kernel PC @p pc in map row @p m (its kernel_kind says which source); 1 found, 0 not. */
int ana_ksyms_lookup(struct kernel_syms *k, struct attrib_mapping *m, uint64_t pc, struct ksym_result *out);

/* The load's sentence on kernel symbols (where from, or why none), "" before any kernel PC. */
void ana_ksyms_note(const struct kernel_syms *k, char *out, size_t outlen);

#endif
