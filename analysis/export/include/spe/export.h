/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_export: the records of a spekit database written in the formats other
 * tools read -- pprof's profile.proto, folded stacks for flame graphs, BOLT's
 * pre-aggregated branch profile and the AutoFDO (LLVM sample profile) text
 * format.  docs/spe-export.1.md describes each output.
 *
 * Every exporter reads the rows of spe_record that pass one filter, in one
 * pass, and aggregates them in memory by what the output keeps apart (a PC
 * and its labels, a stack, a branch): memory grows with the distinct keys,
 * not with the records.  Symbols, source lines and instructions come from
 * the database (symbol, insn); the binaries themselves are read (through the
 * analysis library's symbolizer) only for what the database does not hold:
 * the call sites of inlined frames, DWARF declaration lines (AutoFDO),
 * data symbols (--by=data) and ELF addresses (BOLT, AutoFDO).
 *
 * Functions return 0 or a negative spe_error_code with a message in @p err;
 * they never print or exit.
 */
#ifndef SPE_EXPORT_H
#define SPE_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spe/analysis.h"
#include "spe/select.h"

#ifdef __cplusplus
extern "C" {
#endif

enum spe_export_format {
	SPE_EXPORT_PPROF,   /* gzip-compressed profile.proto */
	SPE_EXPORT_FOLDED,  /* "frame;frame;... weight" lines */
	SPE_EXPORT_BOLT,    /* perf2bolt -pa input: B/F lines */
	SPE_EXPORT_AUTOFDO, /* LLVM sample profile, text */
};

enum spe_export_by {
	SPE_EXPORT_BY_CODE, /* locations are the sampled instructions */
	SPE_EXPORT_BY_DATA, /* locations are the data addresses, called from the instructions */
};

enum spe_export_weight {
	SPE_EXPORT_WEIGHT_LATENCY, /* total_latency cycles */
	SPE_EXPORT_WEIGHT_SAMPLES, /* records */
};

/* No filter on a numeric column. */
#define SPE_EXPORT_ANY INT64_MIN

struct spe_export_opts {
	/* Which records: all of these that are set must hold. */
	const char *where;   /* SQL expression over the columns of the spe_sample view, or NULL */
	int64_t source_id;   /* SPE_EXPORT_ANY = every source */
	int64_t pid;
	int64_t cpu;
	/* Where the mapped binaries are (as spe-load's --symfs), or NULL. */
	const char *symfs;
	/* bolt, autofdo: the binary, by path (its file is read) and/or build-id (hex). */
	const char *binary;
	const char *build_id;
	enum spe_export_by by;          /* pprof */
	enum spe_export_weight weight;  /* folded */
	int split_mem_level;            /* folded: a memory-level frame below the instruction */
	/* Which records, as perf report chooses them (spe/select.h; compiled on this database), or NULL. */
	const struct spe_selection *selection;
	/*
	 * How far the export is (spe/progress.h): about every 65,536 records
	 * read, "records" with the last record's id of the largest (done of
	 * total), then the step "writing the output".  NULL: none.
	 */
	spe_progress_fn *on_progress;
	void *progress_arg;
};

/* What an export saw, for the command's summary and its exit status. */
struct spe_export_stats {
	uint64_t records;        /* rows that passed the filter */
	uint64_t written;        /* records the output accounts for */
	uint64_t skipped;        /* records the format cannot use (no PC, not in the binary, not a branch...) */
	uint64_t locations;      /* distinct locations / stacks / branches written */
	uint64_t no_dwarf;       /* locations whose inline call sites or declaration lines needed
				    DWARF that was not found (their outer frames have line 0) */
	char binary_path[4096];  /* bolt, autofdo: the binary file read */
	uint64_t saturated;      /* latency sums held at 2^64 - 1 (or 2^63 - 1) instead of wrapping: a
				    database whose latencies no capture could have */
};

/*
 * Write the records of @p db that pass @p opts as @p fmt to @p out.  Reads
 * in one transaction (one snapshot, one shared lock), its own when @p db is
 * in autocommit, ended before it returns; inside the caller's, that one.
 * Errors: -spe_invalid (a bad --where expression, no or several binaries
 * to choose from, an option the format does not take), -spe_io (the disk:
 * an SQLite I/O error, a full disk, a write failure), -spe_nomem,
 * -spe_cancelled (the statement was interrupted), -spe_bad_file (the
 * database is corrupt or not what it says: no such table, a malformed
 * page), -spe_not_found (the binary cannot be read).
 */
int spe_export(sqlite3 *db, enum spe_export_format fmt, const struct spe_export_opts *opts, FILE *out,
	       struct spe_export_stats *stats, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SPE_EXPORT_H */
