/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Capstone shim: the only file that includes capstone.h.  Capstone 6
 * renamed the AArch64 arch constant; older majors call it ARM64.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>

#include "spe/analysis.h"

#if CS_API_MAJOR >= 6
#define SPE_CS_ARCH CS_ARCH_AARCH64
#else
#define SPE_CS_ARCH CS_ARCH_ARM64
#endif

struct spe_disasm {
	csh handle;
	cs_insn *insn;
};

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
	if (!d->insn) {
		cs_close(&d->handle);
		free(d);
		return NULL;
	}
	return d;
}

void spe_disasm_free(struct spe_disasm *d)
{
	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->handle);
	free(d);
}

int spe_disasm_one(struct spe_disasm *d, const uint8_t code[4], uint64_t addr, char *mnemonic, size_t mlen,
		   char *operands, size_t olen)
{
	const uint8_t *p = code;
	size_t size = 4;
	uint64_t a = addr;
	if (d && cs_disasm_iter(d->handle, &p, &size, &a, d->insn)) {
		snprintf(mnemonic, mlen, "%s", d->insn->mnemonic);
		snprintf(operands, olen, "%s", d->insn->op_str);
		return 1;
	}
	uint32_t word = (uint32_t)code[0] | (uint32_t)code[1] << 8 | (uint32_t)code[2] << 16 | (uint32_t)code[3] << 24;
	snprintf(mnemonic, mlen, ".inst");
	snprintf(operands, olen, "0x%08x", word);
	return 0;
}
