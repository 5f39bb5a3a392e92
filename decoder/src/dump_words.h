/* SPDX-License-Identifier: Apache-2.0 */
/* The fixed `-D` words of facts.h's SPE_DUMP_WORD_LIST, as an indexed table. */
#ifndef SPE_DUMP_WORDS_H
#define SPE_DUMP_WORDS_H

#include "spe/spe.h"

enum spe_dump_word_id {
#define SPE_X(id, word) SPE_DW_##id,
	SPE_DUMP_WORD_LIST(SPE_X)
#undef SPE_X
	SPE_DW_COUNT
};

extern const char *const spe_dump_words[SPE_DW_COUNT];
extern const uint8_t spe_dump_word_len[SPE_DW_COUNT]; /* strlen of each, so the dumper need not call it */
#define DW(id) (spe_dump_words[SPE_DW_##id])
#define DW_LEN(id) (spe_dump_word_len[SPE_DW_##id])

#endif
