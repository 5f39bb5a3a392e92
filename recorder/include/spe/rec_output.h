/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The recorder's output: a perf.data written with libspe's perf.data writer
 * (spe/perfdata.h), fed by spe_session_drain() through a session sink.
 * This is the one place the recorder talks to the writer.
 */
#ifndef SPE_REC_OUTPUT_H
#define SPE_REC_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "spe/session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The trailer layout of every kernel record the session hands over (the writer's attr). */
uint64_t spe_rec_output_sample_type(void);
/* The id in those trailers (the attr's one id). */
#define SPE_REC_OUTPUT_SAMPLE_ID 1

struct spe_rec_output_time_conv {
	uint64_t time_shift, time_mult, time_zero, time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
};

struct spe_rec_output_config {
	uint32_t pmu_type;           /* 0 = 8 (replay: no sysfs) */
	uint64_t config, config1, config2;
	uint64_t sample_period;      /* 0 = 1 */
	uint32_t n_cpus;             /* CPUs recorded, with their MIDRs (0 = unknown) */
	const uint32_t *cpus;
	const uint64_t *midrs;
	uint32_t nr_cpus_avail, nr_cpus_online; /* 0 = this machine's */
	/*
	 * The recorded machine's HOSTNAME / OSRELEASE (NULL = not written) and
	 * ARCH (NULL = "aarch64").  Live recording passes this machine's uname;
	 * a replay what its manifest says about the traced machine.
	 */
	const char *hostname, *osrelease;
	const char *arch;
	int argc;                    /* CMDLINE */
	char *const *argv;
	const struct spe_rec_output_time_conv *time_conv; /* NULL = identity */
	int exclude_user, exclude_kernel; /* stored in the file's attr */
	/* NUMA layout (spe/numa_sysfs.h, or a replay manifest): NUMA_TOPOLOGY and MEM_TOPOLOGY */
	const struct spe_perf_numa_node *numa_nodes;
	uint32_t n_numa_nodes;
	uint64_t memory_block_size;
};

struct spe_rec_output;

/*
 * Start the perf.data @p path: write the header, attr, TIME_CONV and
 * AUXTRACE_INFO (v1 when every CPU has the same MIDR, v2 otherwise) into a
 * temporary beside it, PATH.spe-record.PID.N.tmp (spe/outfile.h); @p path
 * itself is not touched until spe_rec_output_close().  Returns 0 or a
 * negative error with "PATH: problem" in @p err: -spe_invalid when @p path
 * is not a regular file (a directory, a device, a FIFO).
 */
int spe_rec_output_open(const char *path, const struct spe_rec_output_config *cfg, struct spe_rec_output **out,
			char *err, size_t errsize);

/* The sink to give spe_session_drain() (or replay / live). */
struct spe_session_sink spe_rec_output_sink(struct spe_rec_output *o);

/* Kernel records not written (too short for their trailer); the first one's type. */
uint64_t spe_rec_output_unwritten(const struct spe_rec_output *o, uint32_t *first_type);

/* "PATH: problem" for the first error, "" if none. */
const char *spe_rec_output_errmsg(const struct spe_rec_output *o);

/*
 * Write the features and final header; if every write succeeded, rename the
 * temporary over the path (an existing file kept as PATH.old, as perf
 * does).  Otherwise remove the temporary: the path is as it was.  Returns 0
 * or the first error of the output's life (message in @p err).
 */
int spe_rec_output_close(struct spe_rec_output *o, char *err, size_t errsize);

/* Give up on the output (an input error found late): remove the temporary, keep the path. */
void spe_rec_output_abort(struct spe_rec_output *o);

#ifdef __cplusplus
}
#endif

#endif /* SPE_REC_OUTPUT_H */
