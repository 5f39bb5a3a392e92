/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the record decoder.  The first byte picks the chunking (size and
 * join) and emit_partial; the rest is the trace.  Checks: record offsets
 * lie inside the data and increase, counts add up, and with join=1 the
 * records equal those of the whole buffer in one chunk.
 */
#include <stdlib.h>
#include <string.h>

#include "spe/spe.h"

#define MAX_KEEP 4096

struct run {
	uint64_t n;
	uint64_t hash;
	struct spe_rec_stats st;
};

static void decode(const uint8_t *data, size_t size, size_t chunk, int join, int emit_partial, struct run *out)
{
	struct spe_rec_config cfg = SPE_OPTS(spe_rec_config, .midr = 0x410fd0c0, .emit_partial = emit_partial);
	struct spe_rec_decoder *dec = spe_rec_alloc_decoder(&cfg);
	struct spe_record r;
	uint64_t last = 0;
	memset(out, 0, sizeof *out);
	if (!dec)
		abort();
	for (size_t pos = 0; pos < size; pos += chunk) {
		size_t k = size - pos < chunk ? size - pos : chunk;
		if (spe_rec_feed(dec, data + pos, k, pos, join) < 0)
			abort();
		while (spe_rec_next(dec, &r, sizeof r) == 0) {
			if (r.offset >= size || (out->n && r.offset < last))
				abort();
			last = r.offset;
			out->n++;
			out->hash = out->hash * 1000003u ^ r.offset ^ r.has ^ r.pc.addr ^ r.timestamp ^ r.events;
		}
	}
	spe_rec_flush(dec);
	while (spe_rec_next(dec, &r, sizeof r) == 0) {
		out->n++;
		out->hash = out->hash * 1000003u ^ r.offset ^ r.has ^ r.pc.addr ^ r.timestamp ^ r.events;
	}
	spe_rec_get_stats(dec, &out->st, sizeof out->st);
	spe_rec_free_decoder(dec);
	if (out->st.bad_bytes > size || out->st.skipped_bytes > size || out->st.records > out->n ||
	    out->st.records + (emit_partial ? out->st.partial_records : 0) != out->n)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run whole, chunked;
	if (size < 1)
		return 0;
	uint8_t ctl = data[0];
	data++;
	size--;
	size_t chunk = 1 + (ctl & 31);
	int join = (ctl >> 5) & 1;
	int emit_partial = (ctl >> 6) & 1;
	decode(data, size, size ? size : 1, 0, emit_partial, &whole);
	decode(data, size, chunk, join, emit_partial, &chunked);
	if (join && (whole.n != chunked.n || whole.hash != chunked.hash || whole.st.bad_bytes != chunked.st.bad_bytes))
		abort();
	return 0;
}
