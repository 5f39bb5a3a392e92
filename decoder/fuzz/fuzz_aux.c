/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the AUX stream layer (spe/aux.h).  The first byte picks the mode:
 *   bit 0  file order (else queue order)      bit 1  join NEVER
 *   bit 2  raw input (else perf.data)         bit 3  emit partial records
 *   bits 4-7  raw: window of 16 << n bytes, and cpu n - 1
 * the rest is the input, read from memory.  Every item is touched as a
 * caller would (record fields, chunk bytes, event names), then the stats.
 * Seeds: fixtures/fuzz/aux/ (the perf.data seeds behind each mode byte).
 */
#include <stdint.h>
#include <string.h>

#include "spe/spe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void on_error(void *ctx, const struct spe_aux_error *e)
{
	(void)ctx;
	sink += e->offset + e->file_offset + (uint64_t)e->cpu + strlen(e->reason ? e->reason : "");
}

static void walk(struct spe_aux_decoder *aux)
{
	struct spe_aux_item it;
	int type;
	while ((type = spe_aux_next(aux, &it, sizeof it)) > 0) {
		sink += it.queue + (uint64_t)it.cpu + (uint64_t)it.tid + it.midr + it.offset + it.file_offset;
		if (type == SPE_AUX_RECORD)
			sink += it.record->pc.addr + it.record->has + it.time;
		else if (type == SPE_AUX_CHUNK && it.size)
			sink += it.data[0] + it.data[it.size - 1] + it.chunk_flags;
		else if (type == SPE_AUX_EVENT)
			sink += it.event->type + it.event->file_offset;
	}
	struct spe_aux_stats st;
	spe_aux_get_stats(aux, &st, sizeof st);
	sink += st.records + st.bad_bytes + st.gaps + st.bytes + strlen(spe_aux_errmsg(aux));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t mode = data[0];
	data++;
	size--;
	struct spe_aux_config cfg = SPE_OPTS(spe_aux_config, .order = (mode & 1) ? SPE_AUX_ORDER_FILE : SPE_AUX_ORDER_QUEUE,
					     .join = (mode & 2) ? SPE_AUX_JOIN_NEVER : SPE_AUX_JOIN_CONTIGUOUS,
					     .items = SPE_AUX_WANT_EVENTS | SPE_AUX_WANT_CHUNKS,
					     .emit_partial = (mode & 8) != 0, .on_error = on_error);
	if (mode & 4) {
		struct spe_raw_config rc = SPE_OPTS(spe_raw_config, .midr = 0x410fd0c0, .window = (size_t)16 << (mode >> 4));
		struct spe_raw_input *raw = spe_raw_alloc_input(&rc);
		if (raw && spe_raw_open_mem(raw, data, size, "fuzz") == 0) {
			cfg.raw = raw;
			cfg.raw_cpu = (int32_t)(mode >> 4) - 1;
			struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&cfg);
			if (aux)
				walk(aux);
			spe_aux_free_decoder(aux);
		}
		spe_raw_free_input(raw);
		return 0;
	}
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	if (f && spe_perf_open_mem(f, data, size, "fuzz") == 0) {
		cfg.perf = f;
		struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&cfg);
		if (aux)
			walk(aux);
		spe_aux_free_decoder(aux);
	}
	spe_perf_free_file(f);
	return 0;
}
