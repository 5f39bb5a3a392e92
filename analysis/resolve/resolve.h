/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Resolution: what a PC is.  User PCs through the map of their process that
 * holds them at the record's time (attribution.h, processes.h), then libdw
 * (function, source line, inlined functions) and Capstone (the
 * instruction); kernel PCs through the kernel's maps (MMAP records of the
 * kernel and modules, KSYMBOL records) and their symbol source
 * (kernel_syms.h).  Each (mapping, PC) is resolved once;
 * the memo answers (address space, PC) while the map it found is still the
 * one there.  The symbol and insn rows it creates go to the sink with ids
 * taken from the load's counters.
 */
#ifndef SPE_RESOLVE_H
#define SPE_RESOLVE_H

#include "attribution.h"
#include "kernel_syms.h"
#include "pc_cache.h"
#include "spe/analysis.h"
#include "spe/row_sink.h"

struct resolver {
	struct spe_symbolizer *sym; /* NULL without symbolization */
	struct spe_disasm *dis;
	struct kernel_syms ksyms;   /* the kernel's symbol sources */
	struct attribution *at;
	const struct spe_row_sink *sink;
	struct spe_row_ids *next;   /* the load's next free ids */
	struct pc_cache pcs;        /* the PC memo: (address space, PC) -> rows and the map they came from */
	struct pc_cache by_mapping; /* (mapping id, PC) -> rows: processes sharing a mapping share them */
	struct pc_cache symbols;    /* (mapping id, function start) -> symbol id */
	int64_t kernel_mapping_id;  /* the symbolic [kernel.kallsyms] row of kernel PCs in no kernel map; 0 until made */
	size_t kernel_mapping_index; /* its index in the attribution's table */
	/* records counted per lookup (load_stats) */
	uint64_t no_pid;            /* user PCs of a process no sideband names */
	uint64_t no_mapping, no_symbol; /* user PCs in no mapping of their process; in one, but no function */
	uint64_t kernel_no_symbol;  /* kernel PCs without a function (no source, or not in it) */
	uint64_t kernel_no_map;     /* of those, the PCs in no kernel map (the symbolic row) */
	uint64_t files[SPE_SYM_NOT_FOUND + 1]; /* mapped files looked up, by enum spe_sym_match */
	/* the load's notices (spe_load_opts) */
	void (*on_binary)(void *arg, const char *path, const char *build_id, const struct spe_sym_check *check);
	void *notice_arg;
};

/* 0, or a negative code with a message in @p err (the symbolizer or --kallsyms could not start). */
int ana_resolver_init(struct resolver *r, const struct spe_load_opts *opts, struct attribution *at,
		      const struct spe_row_sink *sink, struct spe_row_ids *next, char *err, size_t errlen);
void ana_resolver_fini(struct resolver *r);

/*
 * The memo entry of @p rec's PC, run by the process of address space
 * @p space (PROC_NONE: unknown) at @p time, resolved on first sight; *out
 * stays valid until the next call.  0, or a negative code (-spe_nomem, or
 * the sink's: its errmsg says what).
 */
int ana_resolver_pc(struct resolver *r, const struct spe_record *rec, uint32_t space, uint64_t time,
		    struct pc_value **out);
/*
 * Start loading the memo entry @p rec will look up.  Over hundreds of
 * thousands of PCs the lookup is a cache miss per record; issued a few
 * records ahead it overlaps with the work on the ones before.  Only when the
 * address space is known without the switch history (@p space from
 * CONTEXT's thread; or a kernel PC): a hint, so a wrong guess costs nothing
 * but the load.
 */
void ana_resolver_prefetch(const struct resolver *r, const struct spe_record *rec, uint32_t space);

#endif
