/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-load counts of records by (pc, insn, symbol, total latency): the
 * pc_latency table behind the hot_pc and hot_symbol views.  Counting while
 * loading keeps those views fast on tens of millions of records without a
 * sort or an index over spe_record.
 */
#ifndef SPE_LATENCY_SUMMARY_H
#define SPE_LATENCY_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

struct latency_key {
	uint64_t pc;
	int64_t insn_id, symbol_id; /* 0 = NULL */
	int32_t latency;            /* -1 = NULL */
	int32_t has_pc;
};

struct latency_entry {
	struct latency_key key;
	uint64_t count;
	int used;
};

struct latency_summary {
	struct latency_entry *slots;
	size_t cap, count;
};

/* Count one record; -1 without memory. */
int latency_summary_add(struct latency_summary *s, const struct latency_key *key);
void latency_summary_free(struct latency_summary *s);

#endif
