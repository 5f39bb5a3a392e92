/* SPDX-License-Identifier: Apache-2.0 */
/* disasm.c's uncached path, for the test that checks its memo against it. */
#ifndef SPE_DISASM_INTERNAL_H
#define SPE_DISASM_INTERNAL_H

#include "spe/analysis.h"

/* spe_disasm_one without the memo: Capstone's text for @p code at @p addr. */
int ana_disasm_uncached(struct spe_disasm *d, const uint8_t code[4], uint64_t addr, char *mnemonic, size_t mlen,
			char *operands, size_t olen);

#endif
