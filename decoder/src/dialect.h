/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What each perf version's `-D` text says differently: one row per
 * enum spe_dialect, in dialect.c.  Every dialect-dependent branch of the
 * describer reads a field of this table; nothing else tests the dialect.
 */
#ifndef SPE_DIALECT_H
#define SPE_DIALECT_H

#include <stdint.h>

#include "spe/spe.h"

struct spe_dialect_rules {
	const char *name;
	/* Address indices below this get their facts-table word; others print "ADDR 0x.. (n)". */
	uint8_t named_addresses;
	/* EVENTS bits printed by name. */
	uint64_t named_events;
	/* Unnamed event bits: CPU-specific names and " IMPDEF:a,b" (else: not printed). */
	uint8_t impdef_events;
	/* OTHER class: ASE/FP words, SME-OTHER, empty text for unassigned payloads
	 * (else: "OTHER COND-SELECT|INSN-OTHER" for everything but SVE-OTHER). */
	uint8_t other_ase_sme;
	/* LD/ST: one subclass from the newest else-chain (MTE-TAG, MEMCPY, MEMSET,
	 * SVE-SME-REG, GCS); else perf 6.1's three independent steps. */
	uint8_t ldst_chain;
	/* BRANCH: IND from p[1], GCS, CR-*; else IND only when (p & 0xFE) == 0x02. */
	uint8_t branch_bits;
	/* SPE_PKT_UNKNOWN: one "UNKNOWN" line (spekit's own); else as perf: its
	 * first byte alone as "Bad packet!", decoding resumed at the next byte. */
	uint8_t unknown_lines;
};

/* The row for @p dialect, or NULL for a value outside the enum. */
const struct spe_dialect_rules *spe_dialect_rules_get(enum spe_dialect dialect);

/* Op-type decoding under @p rules (spe_op_decode uses the newest rules). */
void spe_op_decode_rules(const struct spe_dialect_rules *rules, uint8_t raw_class, uint8_t payload,
			 uint8_t *op_class, uint32_t *op_flags, uint32_t *sve_evl);

#endif
