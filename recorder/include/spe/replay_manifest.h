/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Replay manifests (docs/replay-manifest.md): a raw SPE byte file per CPU
 * plus the sideband to synthesize around it.  Parsed into a plain struct;
 * the library never prints: errors come back as "FILE:LINE: problem".
 */
#ifndef SPE_REPLAY_MANIFEST_H
#define SPE_REPLAY_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "spe/spe.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPE_REPLAY_MAX_CPUS 256
#define SPE_REPLAY_COMM_LEN 16 /* the kernel's TASK_COMM_LEN */
#define SPE_REPLAY_BUILD_ID_MAX 20

struct spe_replay_cpu {
	uint32_t cpu;          /* CPU number written to AUXTRACE records */
	uint64_t midr;         /* MIDR_EL1, 0 = unknown */
	char *aux_path;        /* resolved path of the raw SPE bytes (NULL: no data) */
	int has_itrace_start;
	uint32_t itrace_pid, itrace_tid;
};

struct spe_replay_comm {
	uint32_t pid, tid;
	char name[SPE_REPLAY_COMM_LEN];
};

struct spe_replay_mmap2 {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char *path;            /* as perf will open it: relative paths are made absolute */
	uint8_t build_id[SPE_REPLAY_BUILD_ID_MAX];
	uint8_t build_id_size; /* 0 = none given */
	uint32_t prot, flags;  /* PROT_*, MAP_SHARED or MAP_PRIVATE; default r-x private (prot=PERMS) */
};

/* Sideband record in manifest order (COMM and MMAP2 interleave as written). */
enum spe_replay_side_kind { SPE_REPLAY_COMM, SPE_REPLAY_MMAP2 };
struct spe_replay_side {
	enum spe_replay_side_kind kind;
	union {
		struct spe_replay_comm comm;
		struct spe_replay_mmap2 mmap2;
	} u;
};

struct spe_replay_manifest {
	int has_time_conv;     /* 0: the replay writes the identity conversion */
	uint64_t time_shift, time_mult, time_zero;
	size_t n_cpus;
	struct spe_replay_cpu *cpus;
	size_t n_side;
	struct spe_replay_side *side;
	char *hostname, *osrelease; /* the traced machine's; NULL: not given (then not written) */
	/* numa_node lines (cpus and blocks owned), and memory_block_size (0: not given) */
	size_t n_numa_nodes;
	struct spe_perf_numa_node *numa_nodes;
	uint64_t memory_block_size;
};

/*
 * Parse the manifest at @p path.  On success *@p out is a new manifest (free
 * it with spe_replay_manifest_free) and 0 is returned.  On failure returns
 * -spe_bad_file (syntax), -spe_io (cannot read) or -spe_nomem, and writes
 * "PATH:LINE: problem" into @p err.
 */
int spe_replay_manifest_parse(const char *path, struct spe_replay_manifest **out, char *err, size_t errsize);

/* Parse manifest text held in memory; @p dir resolves relative paths, @p name names it in errors. */
int spe_replay_manifest_parse_text(const char *text, size_t len, const char *dir, const char *name,
				   struct spe_replay_manifest **out, char *err, size_t errsize);

/* A manifest for a bare SPE file: one CPU (@p cpu, @p midr), no sideband, identity time. */
int spe_replay_manifest_for_raw(const char *raw_path, uint32_t cpu, uint64_t midr,
				struct spe_replay_manifest **out);

/* Does @p path look like a manifest (starts with "spekit-replay")? 1, 0, or -spe_io. */
int spe_replay_is_manifest(const char *path);

void spe_replay_manifest_free(struct spe_replay_manifest *m);

#ifdef __cplusplus
}
#endif

#endif /* SPE_REPLAY_MANIFEST_H */
