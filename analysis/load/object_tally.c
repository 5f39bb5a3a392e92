/* SPDX-License-Identifier: Apache-2.0 */
/* The records of each data object (object_tally.h). */
#include "object_tally.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

uint8_t ana_op_class_table[1024];

/* The table of ana_op_class_of(), built before a loader counts its first record. */
static void build_op_class_table(void)
{
	static int built;
	if (built) /* the same for every loader: a race writes the same bytes */
		return;
	for (unsigned raw = 0; raw < 1024; raw++) {
		uint8_t cls;
		uint32_t flags;
		uint16_t evl;
		spe_op_decode((uint8_t)(raw >> 8), (uint8_t)raw, &cls, &flags, &evl);
		ana_op_class_table[raw] = (uint8_t)(cls + 1);
	}
	built = 1;
}

int ana_object_tally_count(struct object_tally *t, int64_t object_id, uint64_t codes, const struct spe_record *rec)
{
	uint32_t n = t->last_n;
	if (object_id != t->last_id || !t->cap) {
		struct latency_key key = { { (uint64_t)object_id, 0, 0 } };
		int64_t g = ana_latency_group_of(&t->objects, &key);
		if (g < 0 || g > UINT32_MAX ||
		    util_grow_zeroed((void **)&t->counts, &t->cap, (size_t)g, sizeof *t->counts) < 0)
			return -1;
		n = t->last_n = (uint32_t)g;
		t->last_id = object_id;
	}
	struct object_count *c = &t->counts[n];
	c->samples++;
	unsigned cls = ana_op_class_of(codes);
	if (cls) {
		c->typed++;
		if (cls == SPE_OP_CLASS_LOAD + 1) {
			c->loads++;
			c->levels[codes >> SPE_CODES_MEM_LEVEL_SHIFT & (OBJECT_TALLY_LEVELS - 1)]++;
		} else if (cls == SPE_OP_CLASS_STORE + 1) {
			c->stores++;
		}
	}
	if (rec->has & SPE_HAS_EVENTS) {
		c->evented++;
		c->tlb_walks += rec->events >> SPE_EV_TLB_WALK & 1;
	}
	if ((rec->has & SPE_HAS_TOTAL_LATENCY) && ana_latency_hist_map_add(&t->objects, n, rec->total_latency, 1) < 0)
		return -1;
	return 0;
}

int ana_object_tally_write(const struct object_tally *t, const struct spe_row_sink *sink, int64_t source_id)
{
	uint32_t groups = ana_latency_hist_map_n(&t->objects);
	uint32_t most = 0;
	for (uint32_t g = 0; g < groups; g++)
		if (ana_latency_group(&t->objects, g)->hist.n > most)
			most = ana_latency_group(&t->objects, g)->hist.n;
	uint64_t *scratch = malloc((most ? most : 1) * sizeof *scratch);
	if (!scratch)
		return -spe_nomem;
	int rc = 0;
	for (uint32_t g = 0; g < groups && rc >= 0; g++) {
		const struct latency_group *lg = ana_latency_group(&t->objects, g);
		const struct object_count *c = &t->counts[g];
		struct latency_stats st;
		ana_latency_hist_stats(&lg->hist, scratch, &st);
		int64_t id = (int64_t)lg->key.w[0];
		struct spe_row_data_object_stat row = { .source_id = source_id,
							.data_object_id = id,
							.samples = c->samples,
							.typed = c->typed > 0,
							.loads = c->loads,
							.stores = c->stores,
							.has_events = c->evented > 0,
							.tlb_walks = c->tlb_walks,
							.timed = st.timed,
							.total_latency = st.total_latency,
							.p99 = st.p99 };
		rc = spe_sink_rows(sink, &row, 1);
		for (int32_t level = 1; level < OBJECT_TALLY_LEVELS && rc >= 0; level++) {
			if (!c->levels[level])
				continue;
			struct spe_row_data_object_level lrow = { .source_id = source_id,
								  .data_object_id = id,
								  .mem_level = level,
								  .loads = c->levels[level] };
			rc = spe_sink_rows(sink, &lrow, 1);
		}
	}
	free(scratch);
	return rc;
}

void ana_object_tally_init(struct object_tally *t)
{
	memset(t, 0, sizeof *t);
	build_op_class_table();
}

void ana_object_tally_fini(struct object_tally *t)
{
	ana_latency_hist_map_fini(&t->objects);
	free(t->counts);
	memset(t, 0, sizeof *t);
}
