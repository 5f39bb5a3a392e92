/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Capstone shim: known AArch64 words, an undecodable one, and its memo
 * of texts by word: the rule for which words may be memoized (a64_pcrel.h)
 * against Capstone itself, and the memo's answers against Capstone's.
 */
#include <string.h>

#include "a64_pcrel.h"
#include "check.h"
#include "disasm_internal.h"
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

static uint32_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 16);
}

/*
 * Every word whose text differs between two addresses must be one the rule
 * calls PC-relative (else the memo would give one address's target at the
 * other).  2,048 random words under each of the 256 top bytes, so every
 * encoding group is tried, plus words that pin each PC-relative class.
 */
TEST(pc_relative_rule_matches_capstone)
{
	struct spe_disasm *d = spe_disasm_new();
	CHECK(d != NULL);
	uint64_t seed = 0x5be3c0ffee1234ull;
	const uint64_t a = 0x400000, b = 0xffff12345678ull;
	unsigned differ = 0, missed = 0, decoded = 0;
	for (uint32_t top = 0; top < 256; top++) {
		for (int i = 0; i < 2048; i++) {
			uint32_t w = top << 24 | (next_random(&seed) & 0xFFFFFF);
			uint8_t code[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
			char m1[32], o1[160], m2[32], o2[160];
			int ok = ana_disasm_uncached(d, code, a, m1, sizeof m1, o1, sizeof o1);
			ana_disasm_uncached(d, code, b, m2, sizeof m2, o2, sizeof o2);
			decoded += ok;
			if (strcmp(m1, m2) || strcmp(o1, o2)) {
				differ++;
				if (!a64_pc_relative(w) && missed++ < 5)
					fprintf(stderr, "word 0x%08x: \"%s %s\" at %#llx, \"%s %s\" at %#llx\n", w, m1, o1,
						(unsigned long long)a, m2, o2, (unsigned long long)b);
			}
		}
	}
	CHECK_INT_EQ(missed, 0);
	/* the PC-relative classes were reached (about 1 word in 8), and Capstone 4 decodes about 3 in 10 */
	CHECK(differ > 40000);
	CHECK(decoded > 100000);
	/* each rule is needed: a word of each class prints its target */
	static const uint32_t pcrel[] = { 0x94000010, 0x17fffff0, 0x54000081, 0xb4000040, 0x37080060,
					  0x90000000, 0x10000040, 0x58000040, 0x98000040, 0xd8000040, 0x1c000040 };
	for (size_t i = 0; i < sizeof pcrel / sizeof *pcrel; i++) {
		uint32_t w = pcrel[i];
		uint8_t code[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
		char m1[32], o1[160], m2[32], o2[160];
		CHECK_INT_EQ(ana_disasm_uncached(d, code, a, m1, sizeof m1, o1, sizeof o1), 1);
		CHECK_INT_EQ(ana_disasm_uncached(d, code, b, m2, sizeof m2, o2, sizeof o2), 1);
		CHECK(strcmp(o1, o2) != 0);
		CHECK(a64_pc_relative(w));
	}
	spe_disasm_free(d);
}

/*
 * The memo answers what Capstone answers: words repeated at many
 * addresses, PC-relative ones among them, more distinct words than the memo
 * has slots and more text than its arena holds (so slots are overwritten
 * and the whole memo forgotten), and buffers too short for the text.
 */
TEST(memo_matches_capstone)
{
	struct spe_disasm *d = spe_disasm_new();
	struct spe_disasm *ref = spe_disasm_new();
	CHECK(d && ref);
	uint64_t seed = 42;
	static uint32_t pool[400000]; /* ~120,000 that decode: twice the text the memo's 1 MiB arena holds */
	size_t n_pool = sizeof pool / sizeof *pool, cold = 0;
	for (size_t i = 0; i < n_pool; i++)
		pool[i] = next_random(&seed);
	pool[0] = 0xf9400000; /* ldr x0, [x0] */
	pool[1] = 0x54ffff61; /* b.ne: PC-relative */
	unsigned mismatches = 0;
	for (int i = 0; i < 1200000; i++) {
		/* a third a few hot words, as sampled PCs are; the rest new words through the whole pool */
		uint32_t w = i % 3 == 0 ? pool[next_random(&seed) % 64] : pool[cold++ % n_pool];
		uint8_t code[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
		uint64_t addr = 0x400000 + 4 * (uint64_t)(next_random(&seed) % 100000);
		size_t ml = i % 7 ? 32 : 3, ol = i % 5 ? 160 : 6; /* sometimes cut */
		char m1[32], o1[160], m2[32], o2[160];
		int r1 = spe_disasm_one(d, code, addr, m1, ml, o1, ol);
		int r2 = ana_disasm_uncached(ref, code, addr, m2, ml, o2, ol);
		if (r1 != r2 || strcmp(m1, m2) || strcmp(o1, o2)) {
			if (mismatches++ < 5)
				fprintf(stderr, "word 0x%08x at %#llx: memo %d \"%s %s\", Capstone %d \"%s %s\"\n", w,
					(unsigned long long)addr, r1, m1, o1, r2, m2, o2);
		}
	}
	CHECK_INT_EQ(mismatches, 0);
	spe_disasm_free(d);
	spe_disasm_free(ref);
}

int main(void)
{
	RUN(known_words);
	RUN(undecodable_word);
	RUN(pc_relative_rule_matches_capstone);
	RUN(memo_matches_capstone);
	return check_summary();
}
