/* SPDX-License-Identifier: Apache-2.0 */
/* The dialect table: perf 6.1 versus newest upstream perf (docs/spe-format.md §1.7, §1.8, §2.4). */
#include "dialect.h"
#include "dump_words.h"

#define EV(id) (UINT64_C(1) << SPE_EV_##id)

/* OR of every event bit the facts table names: what the newest perf prints. */
#define EV_OR(bit, id, word, col, since, desc) | EV(id)

/* perf 6.1 (5.11 .. 6.2) names bits 0-11 and the two SVE predicate bits only. */
#define PERF_6_1_EVENTS                                                                                      \
	(EV(EXCEPTION_GEN) | EV(RETIRED) | EV(L1D_ACCESS) | EV(L1D_REFILL) | EV(TLB_ACCESS) | EV(TLB_WALK) |   \
	 EV(NOT_TAKEN) | EV(MISPREDICTED) | EV(LLC_ACCESS) | EV(LLC_MISS) | EV(REMOTE_ACCESS) | EV(MISALIGNED) | \
	 EV(SVE_PARTIAL_PRED) | EV(SVE_EMPTY_PRED))

static const struct spe_dialect_rules rules[] = {
	[SPE_DIALECT_NEWEST] = {
		.name = "newest",
		.named_addresses = SPE_ADDR_PREV_BRANCH_TARGET + 1,
		.named_events = 0 SPE_EVENT_LIST(EV_OR),
		.impdef_events = 1,
		.other_ase_sme = 1,
		.ldst_chain = 1,
		.branch_bits = 1,
		.unknown_lines = 1, /* no perf prints these: spekit keeps the packet whole */
	},
	[SPE_DIALECT_PERF_6_1] = {
		.name = "perf-6.1",
		.named_addresses = SPE_ADDR_DATA_PA + 1, /* PBT arrived in 6.3 */
		.named_events = PERF_6_1_EVENTS,
		.impdef_events = 0,
		.other_ase_sme = 0,
		.ldst_chain = 0,
		.branch_bits = 0,
		.unknown_lines = 0,
	},
};

const struct spe_dialect_rules *spe_dialect_rules_get(enum spe_dialect dialect)
{
	if ((unsigned)dialect >= sizeof rules / sizeof rules[0])
		return NULL;
	return &rules[dialect];
}

const char *const spe_dump_words[SPE_DW_COUNT] = {
#define SPE_X(id, word) [SPE_DW_##id] = word,
	SPE_DUMP_WORD_LIST(SPE_X)
#undef SPE_X
};

const uint8_t spe_dump_word_len[SPE_DW_COUNT] = {
#define SPE_X(id, word) [SPE_DW_##id] = sizeof(word) - 1,
	SPE_DUMP_WORD_LIST(SPE_X)
#undef SPE_X
};
