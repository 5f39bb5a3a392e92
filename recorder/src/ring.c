/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ring consumers.  The protocol (include/uapi/linux/perf_event.h, comments on
 * data_head and aux_head): load the head with acquire semantics (the uapi
 * header's "smp_rmb() after reading data_head"), read the bytes, then store
 * the tail with release semantics so our reads complete before the kernel
 * may reuse the space ("smp_mb() before writing data_tail").  Heads and tails
 * are free-running 64-bit counters; the position in the area is counter &
 * (size - 1).
 */
#include "spe/ring.h"
#include "spe/spe.h"

#include <stdlib.h>
#include <string.h>

static uint64_t load_acquire(const volatile __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store_release(volatile __u64 *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

uint64_t spe_ring_data_pending(const struct spe_ring *ring)
{
	return load_acquire(&ring->page->data_head) - ring->page->data_tail;
}

uint64_t spe_ring_aux_pending(const struct spe_ring *ring)
{
	if (!ring->aux)
		return 0;
	return load_acquire(&ring->page->aux_head) - ring->page->aux_tail;
}

/* Copy @p n bytes starting at ring position @p pos, wrapping at the end. */
static void copy_out(const uint8_t *area, uint64_t size, uint64_t pos, void *dst, size_t n)
{
	uint64_t at = pos & (size - 1);
	size_t first = (size_t)(size - at) < n ? (size_t)(size - at) : n;
	memcpy(dst, area + at, first);
	memcpy((uint8_t *)dst + first, area, n - first);
}

int spe_ring_read_events(struct spe_ring *ring, spe_ring_event_fn fn, void *ctx)
{
	struct perf_event_mmap_page *pg = ring->page;
	uint64_t head = load_acquire(&pg->data_head);
	uint64_t tail = pg->data_tail;
	int count = 0, err = 0;

	while (head != tail) {
		struct perf_event_header hdr;
		uint64_t left = head - tail;
		if (left < sizeof hdr) {
			err = -spe_bad_file;
			break;
		}
		copy_out(ring->data, ring->data_size, tail, &hdr, sizeof hdr);
		if (hdr.size < sizeof hdr || hdr.size % 8 || hdr.size > left) {
			err = -spe_bad_file;
			break;
		}
		uint64_t at = tail & (ring->data_size - 1);
		const struct perf_event_header *ev;
		if (at + hdr.size <= ring->data_size) {
			ev = (const struct perf_event_header *)(ring->data + at);
		} else {
			/* The record wraps: hand the callback one contiguous copy. */
			if (ring->bounce_size < hdr.size) {
				uint8_t *b = realloc(ring->bounce, 65536);
				if (!b) {
					err = -spe_nomem;
					break;
				}
				ring->bounce = b;
				ring->bounce_size = 65536; /* header.size is a u16 */
			}
			copy_out(ring->data, ring->data_size, tail, ring->bounce, hdr.size);
			ev = (const struct perf_event_header *)ring->bounce;
		}
		if ((err = fn(ctx, ev)) < 0)
			break;
		tail += hdr.size;
		count++;
	}
	store_release(&pg->data_tail, tail);
	return err < 0 ? err : count;
}

int64_t spe_ring_drain_aux(struct spe_ring *ring, spe_ring_aux_fn fn, void *ctx)
{
	struct perf_event_mmap_page *pg = ring->page;
	if (!ring->aux)
		return 0;
	uint64_t head = load_acquire(&pg->aux_head);
	uint64_t tail = pg->aux_tail;
	if (head == tail)
		return 0;
	if (head - tail > ring->aux_size)
		return -spe_bad_file;

	uint64_t n = head - tail;
	uint64_t at = tail & (ring->aux_size - 1);
	size_t n1 = (size_t)(ring->aux_size - at < n ? ring->aux_size - at : n);
	size_t n2 = (size_t)(n - n1);
	int err = fn(ctx, tail, ring->aux + at, n1, n2 ? ring->aux : NULL, n2);
	if (err < 0)
		return err;
	store_release(&pg->aux_tail, head);
	return (int64_t)n;
}

void spe_ring_fini(struct spe_ring *ring)
{
	free(ring->bounce);
	ring->bounce = NULL;
	ring->bounce_size = 0;
}
