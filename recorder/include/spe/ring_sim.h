/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A simulated kernel producer for struct spe_ring: what the perf core and the
 * arm_spe driver do to a mmap, done in memory so that replay (and the unit
 * tests) exercise the consumer code of spe/ring.h unchanged.
 *
 * Model (docs/replay-manifest.md, "How replay models the AUX buffer"):
 *  - the hardware writes whole SPE records at aux_head; when the records of
 *    one burst do not fit in the free space (aux_size - (head - tail)), the
 *    records that fit are written, the rest of the burst is dropped, and the
 *    AUX record carries PERF_AUX_FLAG_TRUNCATED;
 *  - each burst ends with a PERF_RECORD_AUX {aux_offset, aux_size, flags} in
 *    the data ring, as perf_aux_output_end() emits it;
 *  - a kernel record that does not fit in the data ring is dropped and
 *    counted; a PERF_RECORD_LOST is emitted before the next record that fits.
 */
#ifndef SPE_RING_SIM_H
#define SPE_RING_SIM_H

#include "spe/ring.h"

#ifdef __cplusplus
extern "C" {
#endif

struct spe_ring_sim {
	struct spe_ring ring;      /* what the consumer reads */
	uint64_t lost_records;     /* kernel records dropped, not yet reported by a LOST */
	uint64_t lost_id;          /* id written in PERF_RECORD_LOST */
	/* Totals, for tests and for exact lost-byte accounting in replay. */
	uint64_t aux_written, aux_dropped;
	uint64_t records_dropped;
};

/* Allocate a control page, a data ring and an AUX area (sizes: powers of two, data >= 4096). */
int spe_ring_sim_init(struct spe_ring_sim *sim, uint64_t data_size, uint64_t aux_size);
void spe_ring_sim_fini(struct spe_ring_sim *sim);

/*
 * Append one kernel record (@p len bytes, header included, multiple of 8).
 * Returns 0, or 1 when it was dropped for lack of space (counted).
 */
int spe_ring_sim_emit(struct spe_ring_sim *sim, const void *rec, size_t len);

/*
 * One hardware burst: write @p n bytes of SPE data (@p cuts lists the record
 * boundaries inside it, ascending, each <= n; n itself is always a boundary)
 * into the AUX area, then emit the AUX record, whose sample_id trailer is
 * @p trailer (@p trailer_len bytes, formatted by the caller for its attr).
 * Returns the number of bytes written (the rest were dropped).
 */
uint64_t spe_ring_sim_aux_burst(struct spe_ring_sim *sim, const uint8_t *bytes, uint64_t n, const uint64_t *cuts,
				size_t n_cuts, const void *trailer, size_t trailer_len);

#ifdef __cplusplus
}
#endif

#endif /* SPE_RING_SIM_H */
