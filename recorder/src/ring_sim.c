/* SPDX-License-Identifier: Apache-2.0 */
/* The simulated kernel side of a perf mmap (see spe/ring_sim.h for the model). */
#include "spe/ring_sim.h"
#include "spe/spe.h"

#include <stdlib.h>
#include <string.h>

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

int spe_ring_sim_init(struct spe_ring_sim *sim, uint64_t data_size, uint64_t aux_size)
{
	memset(sim, 0, sizeof *sim);
	if (!is_pow2(data_size) || data_size < 4096 || (aux_size && !is_pow2(aux_size)))
		return -spe_invalid;
	struct spe_ring *r = &sim->ring;
	r->page = calloc(1, sizeof *r->page);
	r->data = calloc(1, data_size);
	r->aux = aux_size ? calloc(1, aux_size) : NULL;
	if (!r->page || !r->data || (aux_size && !r->aux)) {
		spe_ring_sim_fini(sim);
		return -spe_nomem;
	}
	r->data_size = data_size;
	r->aux_size = aux_size;
	r->page->data_size = data_size;
	r->page->aux_size = aux_size;
	return 0;
}

void spe_ring_sim_fini(struct spe_ring_sim *sim)
{
	free(sim->ring.page);
	free(sim->ring.data);
	free(sim->ring.aux);
	spe_ring_fini(&sim->ring);
	memset(sim, 0, sizeof *sim);
}

/* Copy into a ring at free-running position @p pos, wrapping at the end. */
static void copy_in(uint8_t *area, uint64_t size, uint64_t pos, const void *src, uint64_t n)
{
	uint64_t at = pos & (size - 1);
	uint64_t first = size - at < n ? size - at : n;
	memcpy(area + at, src, first);
	memcpy(area, (const uint8_t *)src + first, n - first);
}

static int put(struct spe_ring_sim *sim, const void *rec, size_t len)
{
	struct perf_event_mmap_page *pg = sim->ring.page;
	uint64_t head = pg->data_head;
	uint64_t tail = __atomic_load_n(&pg->data_tail, __ATOMIC_ACQUIRE);
	if (head - tail + len > sim->ring.data_size)
		return 1;
	copy_in(sim->ring.data, sim->ring.data_size, head, rec, len);
	__atomic_store_n(&pg->data_head, head + len, __ATOMIC_RELEASE);
	return 0;
}

int spe_ring_sim_emit(struct spe_ring_sim *sim, const void *rec, size_t len)
{
	if (sim->lost_records) {
		struct {
			struct perf_event_header h;
			uint64_t id, lost;
		} lost = { { PERF_RECORD_LOST, 0, sizeof lost }, sim->lost_id, sim->lost_records };
		if (put(sim, &lost, sizeof lost) == 0)
			sim->lost_records = 0;
	}
	if (sim->lost_records || put(sim, rec, len)) {
		sim->lost_records++;
		sim->records_dropped++;
		return 1;
	}
	return 0;
}

uint64_t spe_ring_sim_aux_burst(struct spe_ring_sim *sim, const uint8_t *bytes, uint64_t n, const uint64_t *cuts,
				size_t n_cuts, const void *trailer, size_t trailer_len)
{
	struct spe_ring *r = &sim->ring;
	struct perf_event_mmap_page *pg = r->page;
	uint64_t head = pg->aux_head;
	uint64_t tail = __atomic_load_n(&pg->aux_tail, __ATOMIC_ACQUIRE);
	uint64_t space = r->aux_size - (head - tail);
	uint64_t fit = n;
	uint64_t flags = 0;

	if (n > space) {
		/* Whole records only: the last boundary that still fits. */
		fit = 0;
		for (size_t i = 0; i < n_cuts && cuts[i] <= space; i++)
			fit = cuts[i];
		flags |= PERF_AUX_FLAG_TRUNCATED;
	}
	copy_in(r->aux, r->aux_size, head, bytes, fit);
	__atomic_store_n(&pg->aux_head, head + fit, __ATOMIC_RELEASE);
	sim->aux_written += fit;
	sim->aux_dropped += n - fit;

	struct {
		struct perf_event_header h;
		uint64_t aux_offset, aux_size, flags;
		uint8_t trailer[64];
	} aux;
	if (trailer_len > sizeof aux.trailer)
		trailer_len = sizeof aux.trailer;
	size_t len = 32 + trailer_len;
	aux.h.type = PERF_RECORD_AUX;
	aux.h.misc = 0;
	aux.h.size = (uint16_t)len;
	aux.aux_offset = head;
	aux.aux_size = fit;
	aux.flags = flags;
	if (trailer_len)
		memcpy(aux.trailer, trailer, trailer_len);
	spe_ring_sim_emit(sim, &aux, len);
	return fit;
}
