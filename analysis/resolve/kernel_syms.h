/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where kernel PCs get their functions, and how a symbol source lines up
 * with the recording.  Facts from perf (tools/perf/util/machine.c,
 * symbol.c, dso.c, symbol-elf.c; docs/symbols.md, "Kernel symbols"):
 *
 *   - perf record writes one MMAP for the kernel image, named
 *     `[kernel.kallsyms]` followed by a reference symbol (`_text`, else
 *     `_stext`), whose pgoff is that symbol's runtime address (0 when
 *     kptr_restrict hid it); one per module, named by its path; and, with
 *     AUX tracing, the build-ids of the kernel and every module in
 *     HEADER_BUILD_ID (cpumode kernel);
 *   - a kallsyms file or a vmlinux lines up through that symbol: its
 *     addresses are the recording's plus (the symbol in the file - pgoff),
 *     so one from another boot of the same kernel (KASLR put it elsewhere)
 *     still names the image's PCs.  Modules load at other addresses on each
 *     boot: a kallsyms file's module symbols are used only when the file
 *     lines the image up as is (the same boot) and places all of them inside
 *     the module's recorded map;
 *   - a module's name is its file's without directory, `.ko` (and a
 *     compression suffix), '-' read as '_' (__kmod_path__parse in dso.c).
 *
 * Sources of the image's functions, in order (the first that has them):
 *   1. --kallsyms=FILE (then nothing else for the image);
 *   2. a vmlinux whose build-id is the recording's kernel's: perf's list
 *      under --symfs (vmlinux, /boot/vmlinux, /boot/vmlinux-R,
 *      /usr/lib/debug/boot/vmlinux-R, /lib/modules/R/build/vmlinux,
 *      /usr/lib/debug/lib/modules/R/vmlinux, /usr/lib/debug/boot/vmlinux-R.debug;
 *      R: the recording's HEADER_OSRELEASE), the build-id caches' and debug
 *      directories' copy (the symbolizer's candidates, debuginfod included
 *      when enabled); it gives lines and instructions too;
 *   3. the build-id caches' kallsyms of that build-id
 *      (<root>/[kernel.kallsyms]/<id>/kallsyms, as perf record keeps it);
 *   4. the running kernel's /proc/kallsyms when its build-id
 *      (/sys/kernel/notes) is the recording's.
 * Without a recorded kernel build-id only --kallsyms is used (perf would
 * read /proc/kallsyms unchecked: a guess).  A module's functions: the
 * kallsyms file's (1, else 3, else 4) under the rule above, else its .ko
 * (the recorded path under --symfs) when its build-id is the recorded one.
 * A PC no source names has no function: never one guessed from another
 * kernel.
 */
#ifndef SPE_KERNEL_SYMS_H
#define SPE_KERNEL_SYMS_H

#include <stddef.h>
#include <stdint.h>

#include "attribution.h"
#include "build_id_files.h"
#include "kernel_elf.h"
#include "spe/analysis.h"

struct spe_kallsyms;

/* What a kernel map is (attrib_mapping.kernel_kind); 0: a user map. */
enum kernel_map_kind {
	KMAP_USER = 0,
	KMAP_IMAGE,    /* [kernel.kallsyms] */
	KMAP_MODULE,   /* a module's MMAP: its path, or [name] */
	KMAP_KSYMBOL,  /* PERF_RECORD_KSYMBOL: a BPF program, trampoline, OOL code; its one symbol covers it */
	KMAP_NOWHERE,  /* the symbolic [kernel.kallsyms] row of kernel PCs in no kernel map */
};

/* A kernel PC's function: runtime start and size; from a vmlinux also its lines and code. */
struct ksym_result {
	const char *name;
	uint64_t start, size;
	struct spe_sym_binary *bin; /* the vmlinux, or NULL */
	uint64_t vaddr;             /* the PC in it */
	struct spe_sym_result sr;   /* spe_sym_lookup's answer there */
};

/* A kallsyms file in use, and how it lines up with the recording's image. */
struct ksyms_file {
	struct spe_kallsyms *ks;
	char *path;
	char what[400]; /* what it is, for the note */
	int lined_up;   /* it names the image's PCs: relocated by delta, or taken as is */
	int64_t delta;  /* file address - runtime address */
};

/* A module map's source (attrib_mapping.kernel_source - 1). */
struct kmodule {
	int group;           /* its kallsyms group, or -1 */
	int has_ko;
	struct kmod_syms ko; /* its .ko's functions */
};

struct kernel_syms {
	/* the load's */
	struct spe_symbolizer *sym; /* NULL without symbolization */
	char *symfs;
	struct bid_roots roots;
	const struct build_id_table *ids;
	char *osrelease;
	const char *notes_path, *running_kallsyms; /* /sys/kernel/notes, /proc/kallsyms */
	/* the recording */
	int has_image_map;          /* a kernel image MMAP */
	char ref_name[16];          /* its reference symbol ("_text"), "" if none */
	uint64_t ref_addr;          /* its runtime address (the MMAP's pgoff); 0: unknown */
	char image_bid[BID_HEX_MAX]; /* its build-id: MMAP2's, else HEADER_BUILD_ID's; "" */
	/* the choice, made at the first kernel PC */
	int decided;
	const char *kallsyms_path;  /* --kallsyms */
	struct ksyms_file file;     /* the kallsyms file in use (--kallsyms, the cache's, the running kernel's) */
	int image_from_file;        /* the image's functions come from it */
	struct spe_sym_binary *vmlinux;
	int64_t vmlinux_delta;      /* vmlinux address - runtime address */
	int looking_up;             /* a kernel file is being looked up (resolve.c keeps it out of the user files' counts) */
	char image_note[1024];      /* how the image's symbols were found, or why not */
	struct kmodule *modules;
	size_t n_modules, cap_modules;
	uint64_t modules_kallsyms, modules_ko, modules_unnamed;
	char module_note[400];      /* the first unnamed module and why */
};

/*
 * Start with @p opts (--kallsyms, read now: a file that is not kallsyms
 * fails here; --symfs; the build-id caches), the symbolizer @p sym (NULL
 * without symbolization: no vmlinux) and the recording's build-id table
 * @p ids.  0, or a negative code with a message naming the file and line in
 * @p err.
 */
int ana_ksyms_init(struct kernel_syms *k, const struct spe_load_opts *opts, struct spe_symbolizer *sym,
		   const struct build_id_table *ids, char *err, size_t errlen);
void ana_ksyms_fini(struct kernel_syms *k);

/*
 * A kernel MMAP's file name: its kind and the mapping row's path
 * (`[kernel.kallsyms]` without the reference symbol perf appends, which
 * *@p ref_symbol points at; else the name as given).
 */
enum kernel_map_kind ana_kernel_map_kind(const char *filename, const char **path, const char **ref_symbol);
/* The module name of a module map's path, "[name]" or ".../name.ko[.gz|.xz|.zst]" ('-' as '_') into @p out; 0, or -1. */
int ana_kmodule_name(const char *path, char *out, size_t outlen);

/* The kernel image MMAP: its reference symbol, that symbol's runtime address (pgoff), its build-id ("" none). */
void ana_ksyms_image_map(struct kernel_syms *k, const char *ref_symbol, uint64_t pgoff, const char *build_id);
/* The recording's HEADER_OSRELEASE (vmlinux's paths name it). */
int ana_ksyms_osrelease(struct kernel_syms *k, const char *release);

/* The function of kernel PC @p pc in map row @p m (its kernel_kind says which source); 1 found, 0 not. */
int ana_ksyms_lookup(struct kernel_syms *k, struct attrib_mapping *m, uint64_t pc, struct ksym_result *out);

/* The load's sentence on kernel symbols (where from, or why none), "" before any kernel PC. */
void ana_ksyms_note(const struct kernel_syms *k, char *out, size_t outlen);

#endif
