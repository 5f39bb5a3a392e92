/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Resolution: what a PC is.  User PCs through the mapping that holds them
 * (attribution.h) and libdw (function, source line, inlined functions) and
 * Capstone (the instruction); kernel PCs through --kallsyms.  Each distinct
 * (address space, PC) is resolved once and memoized; the symbol and insn
 * rows it creates go to the sink with ids taken from the load's counters.
 */
#ifndef SPE_RESOLVE_H
#define SPE_RESOLVE_H

#include "attribution.h"
#include "pc_cache.h"
#include "spe/analysis.h"
#include "spe/row_sink.h"

struct resolver {
	struct spe_symbolizer *sym; /* NULL without symbolization */
	struct spe_disasm *dis;
	struct spe_kallsyms *ks;    /* NULL without --kallsyms */
	struct attribution *at;
	const struct spe_row_sink *sink;
	struct spe_row_ids *next;   /* the load's next free ids */
	struct pc_cache pcs;        /* the PC memo: (address space, PC) -> rows */
	struct pc_cache symbols;    /* (mapping id, function start) -> symbol id */
	int64_t kernel_mapping_id;  /* 0 until a kernel PC resolves */
	uint64_t no_mapping, no_symbol; /* records counted per lookup (load_stats) */
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
 * The memo entry of @p rec's PC (run by @p pid at @p time), resolved on
 * first sight; *out stays valid until the next call.  0, or a negative code
 * (-spe_nomem, or the sink's: its errmsg says what).
 */
int ana_resolver_pc(struct resolver *r, const struct spe_record *rec, int pid, uint64_t time, struct pc_value **out);
/*
 * Start loading the memo entry @p rec will look up.  Over hundreds of
 * thousands of PCs the lookup is a cache miss per record; issued a few
 * records ahead it overlaps with the work on the ones before.  Only when the
 * address space is known without the switch history (@p pid_known: the
 * process @p pid from CONTEXT's thread; or a kernel PC): a hint, so a wrong
 * guess costs nothing but the load.
 */
void ana_resolver_prefetch(const struct resolver *r, const struct spe_record *rec, int pid, int pid_known);

#endif
