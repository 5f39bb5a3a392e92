/* SPDX-License-Identifier: Apache-2.0 */
/* The Capstone shim: known AArch64 words, and an undecodable one. */
#include "check.h"
#include "spe/analysis.h"

static void word(uint8_t b[4], uint32_t w)
{
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(w >> (8 * i));
}

TEST(known_words)
{
	struct spe_disasm *d = spe_disasm_new();
	CHECK(d != NULL);
	uint8_t b[4];
	char m[32], o[64];
	word(b, 0xf9400000); /* ldr x0, [x0]  (objdump of fixtures/elf/memwork-pie at 0x8c4) */
	CHECK_INT_EQ(spe_disasm_one(d, b, 0x8c4, m, sizeof m, o, sizeof o), 1);
	CHECK_STR_EQ(m, "ldr");
	CHECK_STR_EQ(o, "x0, [x0]");
	word(b, 0xd65f03c0); /* ret */
	CHECK_INT_EQ(spe_disasm_one(d, b, 0x1000, m, sizeof m, o, sizeof o), 1);
	CHECK_STR_EQ(m, "ret");
	word(b, 0x54ffff61); /* b.ne back 5 insns: the target depends on the address */
	CHECK_INT_EQ(spe_disasm_one(d, b, 0x8ac, m, sizeof m, o, sizeof o), 1);
	CHECK_STR_EQ(m, "b.ne");
	CHECK_STR_EQ(o, "#0x898");
	spe_disasm_free(d);
}

TEST(undecodable_word)
{
	struct spe_disasm *d = spe_disasm_new();
	uint8_t b[4];
	char m[32], o[64];
	word(b, 0xffffffff);
	CHECK_INT_EQ(spe_disasm_one(d, b, 0, m, sizeof m, o, sizeof o), 0);
	CHECK_STR_EQ(m, ".inst");
	CHECK_STR_EQ(o, "0xffffffff");
	spe_disasm_free(d);
	spe_disasm_free(NULL);
}

int main(void)
{
	RUN(known_words);
	RUN(undecodable_word);
	return check_summary();
}
