/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which A64 instruction words disassemble to text that depends on their
 * address: the PC-relative forms, whose operand Capstone prints as the
 * absolute target.  Every other word prints the same at any address, so
 * its text can be reused (disasm.c's memo).  Encoding classes from the Arm
 * Architecture Reference Manual for A-profile, "A64 Instruction Set
 * Encoding" (the top-level table and its branch, data-processing-immediate
 * and load/store groups); tests/analysis/test_disasm.c checks the rule
 * against Capstone on random words at two addresses.
 */
#ifndef SPE_A64_PCREL_H
#define SPE_A64_PCREL_H

#include <stdint.h>

static inline int a64_pc_relative(uint32_t w)
{
	return (w & 0x7C000000u) == 0x14000000u || /* B, BL: imm26 */
	       (w & 0xFE000000u) == 0x54000000u || /* B.cond, BC.cond: imm19 */
	       (w & 0x7E000000u) == 0x34000000u || /* CBZ, CBNZ: imm19 */
	       (w & 0x7E000000u) == 0x36000000u || /* TBZ, TBNZ: imm14 */
	       (w & 0x7E000000u) == 0x74000000u || /* CB<cc>, CBB<cc>, CBH<cc> (FEAT_CMPBR): imm9 */
	       (w & 0x1F000000u) == 0x10000000u || /* ADR, ADRP: immhi:immlo */
	       (w & 0x3B000000u) == 0x18000000u;   /* LDR, LDRSW, PRFM (literal), GP and SIMD&FP: imm19 */
}

#endif
