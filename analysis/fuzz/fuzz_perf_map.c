/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the perf-PID.map reader (analysis/resolve/perf_map.c): the bytes are
 * fed in pieces (the first byte picks the piece size, so lines straddle the
 * pieces as they straddle a file's reads), then the table is checked: its
 * segments sorted, disjoint and each inside the entry naming it, and a
 * lookup of every segment's ends finds what the table says.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "perf_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t piece = (size_t)data[0] % 61 + 1;
	struct perf_map m;
	ana_perf_map_init(&m);
	int rc = 0;
	for (size_t at = 1; at < size && rc == 0; at += piece)
		rc = ana_perf_map_feed(&m, (const char *)data + at, size - at < piece ? size - at : piece);
	if (rc == 0)
		rc = ana_perf_map_end(&m);
	if (rc == 0) {
		for (size_t i = 0; i < m.n_segs; i++) {
			const struct perf_map_segment *s = &m.segs[i];
			const struct perf_map_entry *e = &m.entries[s->entry];
			uint64_t end = e->start + (e->size ? e->size : 1);
			if (s->start >= s->end || (i && s->start < m.segs[i - 1].end) || s->start < e->start || s->end > end)
				abort();
			uint32_t index;
			if (ana_perf_map_lookup(&m, s->start, &index) != e || index != s->entry ||
			    ana_perf_map_lookup(&m, s->end - 1, &index) != e)
				abort();
			/* no later entry holds the segment's start */
			for (size_t j = s->entry + 1; j < m.n_entries && j < s->entry + 64; j++) {
				const struct perf_map_entry *l = &m.entries[j];
				if (l->start <= s->start && s->start < l->start + (l->size ? l->size : 1))
					abort();
			}
		}
	}
	ana_perf_map_fini(&m);
	return 0;
}
