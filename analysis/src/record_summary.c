/* SPDX-License-Identifier: Apache-2.0 */
/* The summaries of the records (record_summary.h). */
#include "record_summary.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "grow_array.h"

#define HAS(f) (rec->has & SPE_HAS_##f)

/* op_class of a `codes` op field, as spe_op_code (schema.c) names it: enum spe_op_class + 1, 0 = none. */
static unsigned op_class_of(uint64_t codes)
{
	static uint8_t table[1024];
	static int built;
	if (!built) { /* the same for every loader: a race writes the same bytes */
		for (unsigned raw = 0; raw < 1024; raw++) {
			uint8_t cls;
			uint32_t flags;
			uint16_t evl;
			spe_op_decode((uint8_t)(raw >> 8), (uint8_t)raw, &cls, &flags, &evl);
			table[raw] = (uint8_t)(cls + 1 < SUMMARY_OP_CLASSES ? cls + 1 : SUMMARY_OP_CLASSES - 1);
		}
		built = 1;
	}
	return (codes & SPE_CODES_HAS_OP) ? table[codes & SPE_CODES_OP_RAW_MASK] : 0;
}

/* latency_histogram's buckets: 0, then k + 1 for [2^k, 2^(k+1)). */
static unsigned bucket_of(uint32_t latency)
{
	return latency ? 32u - (unsigned)__builtin_clz(latency) : 0;
}

static int64_t bucket_lo(unsigned b)
{
	return b ? INT64_C(1) << (b - 1) : 0;
}

/* Room for element @p i of *@p p, new elements zeroed.  0, or -1 without memory. */
static int zeroed_room(void **p, size_t *cap, size_t i, size_t elem)
{
	if (i < *cap)
		return 0;
	size_t old = *cap;
	void *q = grow_array(*p, cap, i + 1, elem);
	if (!q)
		return -1;
	memset((char *)q + old * elem, 0, (*cap - old) * elem);
	*p = q;
	return 0;
}

int record_summary_count(struct record_summary *s, const struct spe_record *rec, uint64_t codes, uint32_t group,
			 int pid)
{
	unsigned cls = op_class_of(codes);
	if (HAS(TOTAL_LATENCY)) {
		struct bucket_count *b = &s->buckets[cls][bucket_of(rec->total_latency)];
		b->samples++;
		b->total_latency += rec->total_latency;
	}
	if (cls == SPE_OP_CLASS_LOAD + 1) {
		struct level_count *l = &s->levels[codes >> SPE_CODES_MEM_LEVEL_SHIFT & (SUMMARY_LEVELS - 1)];
		l->loads++;
		if (HAS(TOTAL_LATENCY)) {
			l->timed++;
			l->total_latency += rec->total_latency;
		}
	}
	if (cls == SPE_OP_CLASS_BRANCH + 1) {
		if (zeroed_room((void **)&s->branches, &s->branch_cap, group, sizeof *s->branches) < 0)
			return -1;
		struct branch_count *b = &s->branches[group];
		b->branches++;
		if (HAS(EVENTS)) {
			b->evented++;
			b->mispredicted += rec->events >> SPE_EV_MISPREDICTED & 1;
			b->not_taken += rec->events >> SPE_EV_NOT_TAKEN & 1;
		}
	}
	if (HAS(DATA_VA)) {
		struct latency_key key = { { (uint64_t)(int64_t)pid + 1, (uint64_t)((int64_t)rec->data_va >> 12), 0 } };
		int64_t n = latency_group_of(&s->page_index, &key);
		if (n < 0)
			return -1;
		if (zeroed_room((void **)&s->pages, &s->page_cap, (size_t)n, sizeof *s->pages) < 0)
			return -1;
		struct page_count *p = &s->pages[n];
		p->accesses++;
		if (HAS(EVENTS)) {
			p->evented++;
			p->tlb_walks += rec->events >> SPE_EV_TLB_WALK & 1;
		}
		if (HAS(TRANSLATION_LATENCY)) {
			p->translated++;
			p->translation_latency += rec->translation_latency;
		}
	}
	return 0;
}

/* A sink operation of these rows, if the sink has it (appended after time_convs). */
#define HAS_OP(sink, op) \
	((sink)->size >= offsetof(struct spe_row_sink, op) + sizeof(sink)->op && (sink)->op)

static int write_levels(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id)
{
	for (int32_t code = 0; code < SUMMARY_LEVELS; code++) {
		const struct level_count *l = &s->levels[code];
		if (!l->loads)
			continue;
		struct spe_row_mem_level_stat row = { source_id, code, l->loads, l->timed, l->total_latency };
		int rc = sink->mem_level_stats(sink->ctx, &row, 1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int write_buckets(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id)
{
	for (unsigned cls = 0; cls < SUMMARY_OP_CLASSES; cls++)
		for (unsigned b = 0; b < SUMMARY_BUCKETS; b++) {
			const struct bucket_count *c = &s->buckets[cls][b];
			if (!c->samples)
				continue;
			struct spe_row_latency_bucket row = { .source_id = source_id,
							      .op_class = cls ? spe_op_class_name(cls - 1) : NULL,
							      .latency_lo = bucket_lo(b),
							      .samples = c->samples,
							      .total_latency = c->total_latency };
			int rc = sink->latency_buckets(sink->ctx, &row, 1);
			if (rc < 0)
				return rc;
		}
	return 0;
}

/* Latency group keys are (pc, insn_id, symbol_id << 1 | has_pc): see the loader's count_latency. */
static int write_branches(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id,
			  const struct latency_groups *groups)
{
	for (size_t g = 0; g < s->branch_cap && g < groups->n; g++) {
		const struct branch_count *b = &s->branches[g];
		if (!b->branches)
			continue;
		const struct latency_key *k = &groups->groups[g].key;
		struct spe_row_branch_stat row = { .source_id = source_id,
						   .has_pc = (int)(k->w[2] & 1),
						   .pc = k->w[0],
						   .insn_id = (int64_t)k->w[1],
						   .branches = b->branches,
						   .has_events = b->evented > 0,
						   .mispredicted = b->mispredicted,
						   .not_taken = b->not_taken };
		int rc = sink->branch_stats(sink->ctx, &row, 1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int write_pages(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id)
{
	for (uint32_t n = 0; n < s->page_index.n; n++) {
		const struct page_count *p = &s->pages[n];
		const struct latency_key *k = &s->page_index.groups[n].key;
		struct spe_row_page_stat row = { .source_id = source_id,
						 .pid = (int32_t)((int64_t)k->w[0] - 1),
						 .page = k->w[1],
						 .accesses = p->accesses,
						 .has_events = p->evented > 0,
						 .tlb_walks = p->tlb_walks,
						 .translated = p->translated,
						 .translation_latency = p->translation_latency };
		int rc = sink->page_stats(sink->ctx, &row, 1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int record_summary_write(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id,
			 const struct latency_groups *groups)
{
	int rc = 0;
	if (rc == 0 && HAS_OP(sink, mem_level_stats))
		rc = write_levels(s, sink, source_id);
	if (rc == 0 && HAS_OP(sink, latency_buckets))
		rc = write_buckets(s, sink, source_id);
	if (rc == 0 && HAS_OP(sink, branch_stats))
		rc = write_branches(s, sink, source_id, groups);
	if (rc == 0 && HAS_OP(sink, page_stats))
		rc = write_pages(s, sink, source_id);
	return rc;
}

void record_summary_free(struct record_summary *s)
{
	free(s->branches);
	free(s->pages);
	latency_groups_free(&s->page_index);
	memset(s, 0, sizeof *s);
}
