/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Capstone shim: the only file that includes capstone.h.  Capstone 6
 * renamed the AArch64 arch constant; older majors call it ARM64.
 *
 * A memo of the texts by instruction word: a load resolves every sampled
 * PC once, and Capstone (with the libc calls it makes) was over a third of
 * resolving one.  Code repeats its words (in Debian's aarch64 libc, 277,111
 * instructions are 73,704 distinct words), and a word prints the same at
 * any address unless it is PC-relative (a64_pcrel.h: a quarter of libc's
 * instructions), which is never memoized.  Simulated on libc's words, this
 * memo answers 57 % of the instructions in address order and 49 % of
 * 100,000 taken at random (8,192 slots and 256 KiB: 50 % and 38 %; 65,536
 * and 2 MiB: 59 % and 51 %).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>

#include "a64_pcrel.h"
#include "disasm_internal.h"
#include "util/hash_map.h"

#if CS_API_MAJOR >= 6
#define SPE_CS_ARCH CS_ARCH_AARCH64
#else
#define SPE_CS_ARCH CS_ARCH_ARM64
#endif

/*
 * Direct-mapped: a slot names its word and where its text starts in the
 * arena ([mnemonic length][operands length] mnemonic operands, no NULs);
 * offset 0 is an empty slot.  When the arena is full, all is forgotten.  A
 * cache that forgets, not a map (util_map keeps every key): a word's slot
 * is its hash by the tree's mixing function.
 */
#define MEMO_SLOTS 32768
#define MEMO_ARENA (1u << 20)

struct memo_slot {
	uint32_t word, off;
};

struct spe_disasm {
	csh handle;
	cs_insn *insn;
	struct memo_slot slot[MEMO_SLOTS];
	unsigned char *arena;
	uint32_t used;
};

static uint32_t le32(const uint8_t b[4])
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static struct memo_slot *memo_slot(struct spe_disasm *d, uint32_t w)
{
	return &d->slot[util_hash64(w) & (MEMO_SLOTS - 1)];
}

/* Copy @p len bytes of @p text as a C string into @p out of @p size, cut as snprintf would. */
static void copy_text(char *out, size_t size, const unsigned char *text, size_t len)
{
	if (!size)
		return;
	if (len > size - 1)
		len = size - 1;
	memcpy(out, text, len);
	out[len] = '\0';
}

static void memo_put(struct spe_disasm *d, uint32_t w, const char *mnemonic, const char *operands)
{
	size_t ml = strlen(mnemonic), ol = strlen(operands);
	if (ml > 255 || ol > 255) /* Capstone's are at most 31 and 159 */
		return;
	uint32_t need = (uint32_t)(2 + ml + ol);
	if (d->used + need > MEMO_ARENA) {
		memset(d->slot, 0, sizeof d->slot);
		d->used = 1;
	}
	unsigned char *t = d->arena + d->used;
	t[0] = (unsigned char)ml;
	t[1] = (unsigned char)ol;
	memcpy(t + 2, mnemonic, ml);
	memcpy(t + 2 + ml, operands, ol);
	*memo_slot(d, w) = (struct memo_slot){ w, d->used };
	d->used += need;
}

struct spe_disasm *spe_disasm_new(void)
{
	struct spe_disasm *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	if (cs_open(SPE_CS_ARCH, CS_MODE_LITTLE_ENDIAN, &d->handle) != CS_ERR_OK) {
		free(d);
		return NULL;
	}
	d->insn = cs_malloc(d->handle);
	d->arena = malloc(MEMO_ARENA);
	if (!d->insn || !d->arena) {
		if (d->insn)
			cs_free(d->insn, 1);
		free(d->arena);
		cs_close(&d->handle);
		free(d);
		return NULL;
	}
	d->used = 1; /* offset 0 marks an empty slot */
	return d;
}

void spe_disasm_free(struct spe_disasm *d)
{
	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->handle);
	free(d->arena);
	free(d);
}

int ana_disasm_uncached(struct spe_disasm *d, const uint8_t code[4], uint64_t addr, char *mnemonic, size_t mlen,
			char *operands, size_t olen)
{
	const uint8_t *p = code;
	size_t size = 4;
	uint64_t a = addr;
	if (d && cs_disasm_iter(d->handle, &p, &size, &a, d->insn)) {
		const char *m = d->insn->mnemonic, *o = d->insn->op_str;
		copy_text(mnemonic, mlen, (const unsigned char *)m, strlen(m));
		copy_text(operands, olen, (const unsigned char *)o, strlen(o));
		return 1;
	}
	uint32_t word = le32(code);
	snprintf(mnemonic, mlen, ".inst");
	snprintf(operands, olen, "0x%08x", word);
	return 0;
}

int spe_disasm_one(struct spe_disasm *d, const uint8_t code[4], uint64_t addr, char *mnemonic, size_t mlen,
		   char *operands, size_t olen)
{
	uint32_t word = le32(code);
	int reusable = d && !a64_pc_relative(word);
	if (reusable) {
		const struct memo_slot *m = memo_slot(d, word);
		if (m->off && m->word == word) {
			const unsigned char *t = d->arena + m->off;
			copy_text(mnemonic, mlen, t + 2, t[0]);
			copy_text(operands, olen, t + 2 + t[0], t[1]);
			return 1;
		}
	}
	int ok = ana_disasm_uncached(d, code, addr, mnemonic, mlen, operands, olen);
	if (ok && reusable)
		memo_put(d, word, d->insn->mnemonic, d->insn->op_str);
	return ok;
}
