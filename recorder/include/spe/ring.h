/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The consumer side of a perf mmap: the data ring (kernel records such as
 * MMAP2, COMM, AUX, LOST) and the AUX area (raw SPE bytes), read with the
 * head/tail protocol of <linux/perf_event.h>.  Live recording points these
 * at the kernel's mmap; replay points them at memory filled by a simulated
 * producer (spe/ring_sim.h).  Both then run exactly this code.
 */
#ifndef SPE_RING_H
#define SPE_RING_H

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct spe_ring {
	struct perf_event_mmap_page *page; /* control page: data_head/tail, aux_head/tail */
	uint8_t *data;                     /* data ring, data_size bytes (power of two) */
	uint64_t data_size;
	uint8_t *aux;                      /* AUX area, aux_size bytes (power of two), or NULL */
	uint64_t aux_size;
	/* Bounce buffer for a record that wraps around the end of the data ring. */
	uint8_t *bounce;
	size_t bounce_size;
};

/*
 * Called once per kernel record, in ring order.  @p ev points at a complete
 * record (header included, header.size bytes), valid only during the call.
 * Return 0 to go on, a negative error to stop (the tail then stays before
 * this record).
 */
typedef int (*spe_ring_event_fn)(void *ctx, const struct perf_event_header *ev);

/*
 * Called with the new AUX bytes: [@p offset, @p offset + n1 + n2) of the
 * monotonic AUX stream, in one or two pieces (two when they wrap around the
 * end of the area).  Return 0 or a negative error (the tail is then not moved).
 */
typedef int (*spe_ring_aux_fn)(void *ctx, uint64_t offset, const uint8_t *p1, size_t n1, const uint8_t *p2,
			       size_t n2);

/*
 * Read every complete record between data_tail and data_head, then publish
 * the new data_tail.  Returns the number of records read, or a negative
 * error: -spe_bad_file if the ring holds a record whose size is impossible
 * (smaller than a header, not a multiple of 8 or past the head), or the
 * callback's error.
 */
int spe_ring_read_events(struct spe_ring *ring, spe_ring_event_fn fn, void *ctx);

/*
 * Hand the AUX bytes between aux_tail and aux_head to @p fn and publish the
 * new aux_tail.  Returns the number of bytes drained (0 when empty), or a
 * negative error: -spe_bad_file when head - tail exceeds the area (the
 * producer overwrote unread data; cannot happen in full mode).
 */
int64_t spe_ring_drain_aux(struct spe_ring *ring, spe_ring_aux_fn fn, void *ctx);

/* Bytes waiting in the data ring / AUX area (head - tail). */
uint64_t spe_ring_data_pending(const struct spe_ring *ring);
uint64_t spe_ring_aux_pending(const struct spe_ring *ring);

void spe_ring_fini(struct spe_ring *ring);

#ifdef __cplusplus
}
#endif

#endif /* SPE_RING_H */
