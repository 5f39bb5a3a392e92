/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel records as they appear in a perf data ring: the sample_id trailer
 * (per the attr's sample_type and sample_id_all) and the records replay
 * synthesizes into its simulated ring (COMM, MMAP2, ITRACE_START), laid out
 * as the kernel writes them (include/uapi/linux/perf_event.h).
 */
#ifndef SPE_KERNEL_RECORDS_H
#define SPE_KERNEL_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The sample_id trailer fields; which are present depends on sample_type. */
struct spe_sid {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;        /* PERF_SAMPLE_ID and PERF_SAMPLE_IDENTIFIER */
	uint64_t stream_id;
	uint32_t cpu;
};

/* Bytes of the trailer for @p sample_type (always a multiple of 8). */
size_t spe_sid_size(uint64_t sample_type);
/* Write the trailer into @p out (spe_sid_size bytes); returns that size. */
size_t spe_sid_encode(uint64_t sample_type, const struct spe_sid *sid, uint8_t *out);
/* Read the trailer at the end of @p ev.  Returns 0, or -spe_bad_file if @p ev is too short. */
int spe_sid_decode(uint64_t sample_type, const struct perf_event_header *ev, size_t body_min, struct spe_sid *sid);

/* Largest record these builders produce (a MMAP2 with a PATH_MAX name). */
#define SPE_KREC_MAX (128 + 4096 + 64)

/* Each returns the record size written into @p buf (>= SPE_KREC_MAX bytes), or 0 if it cannot fit. */
size_t spe_krec_comm(uint8_t *buf, uint32_t pid, uint32_t tid, const char *comm, int exec, uint64_t sample_type,
		     const struct spe_sid *sid);
struct spe_krec_mmap2 {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t prot, flags;
	const uint8_t *build_id;  /* NULL: the maj/min/ino form */
	uint8_t build_id_size;
	uint32_t maj, min;        /* the device and inode of the file (maj/min/ino form) */
	uint64_t ino, ino_generation;
	const char *filename;
};
size_t spe_krec_mmap2(uint8_t *buf, const struct spe_krec_mmap2 *m, uint64_t sample_type, const struct spe_sid *sid);
size_t spe_krec_itrace_start(uint8_t *buf, uint32_t pid, uint32_t tid, uint64_t sample_type, const struct spe_sid *sid);

#ifdef __cplusplus
}
#endif

#endif /* SPE_KERNEL_RECORDS_H */
