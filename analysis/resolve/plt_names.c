/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aarch64 PLT entries by decoding them (plt_names.h).  The instruction
 * encodings are the Arm ARM's (DDI 0487, C6.2: ADRP, LDR (immediate,
 * unsigned offset), BTI); the entry layouts binutils emits are in
 * bfd/elfnn-aarch64.c (16 bytes, 24 with BTI or PAC, a 32-byte PLT0).
 */
#include "plt_names.h"

#include <stdlib.h>
#include <string.h>

#define INSN_BTI_C 0xd503245fu
#define R_JUMP_SLOT 1026 /* R_AARCH64_JUMP_SLOT */

struct slot {
	uint64_t got;     /* r_offset: the GOT slot the entry loads */
	const char *name;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ADRP x16: the page it computes at @p pc, or 0 when @p insn is not one. */
static int adrp_x16(uint32_t insn, uint64_t pc, uint64_t *page)
{
	if ((insn & 0x9f00001fu) != 0x90000010u)
		return 0;
	uint64_t imm = (uint64_t)((insn >> 5) & 0x7ffff) << 2 | ((insn >> 29) & 3);
	int64_t off = (int64_t)(imm << 43) >> 31; /* sign-extend 21 bits, times 4096 */
	*page = (pc & ~(uint64_t)0xfff) + (uint64_t)off;
	return 1;
}

/* LDR x17, [x16, #imm] (64-bit, unsigned offset): the offset, or 0 when @p insn is not one. */
static int ldr_x17_x16(uint32_t insn, uint64_t *off)
{
	if ((insn & 0xffc003ffu) != 0xf9400211u)
		return 0;
	*off = (uint64_t)((insn >> 10) & 0xfff) * 8;
	return 1;
}

static Elf_Scn *section_named(Elf *elf, const char *want, GElf_Shdr *shdr)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		const char *name;
		if (gelf_getshdr(scn, shdr) && (name = elf_strptr(elf, shstrndx, shdr->sh_name)) && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

static int by_got(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;
	return (x->got > y->got) - (x->got < y->got);
}

/* .rela.plt's JUMP_SLOT relocations with a named symbol, sorted by slot; *n of them. */
static struct slot *jump_slots(Elf *elf, size_t *n)
{
	GElf_Shdr rshdr, sshdr;
	Elf_Scn *rscn = section_named(elf, ".rela.plt", &rshdr);
	*n = 0;
	if (!rscn || rshdr.sh_type != SHT_RELA || rshdr.sh_entsize == 0)
		return NULL;
	Elf_Scn *sscn = elf_getscn(elf, rshdr.sh_link);
	Elf_Data *rdata = elf_getdata(rscn, NULL), *sdata = sscn ? elf_getdata(sscn, NULL) : NULL;
	if (!rdata || !sdata || !gelf_getshdr(sscn, &sshdr) ||
	    (sshdr.sh_type != SHT_DYNSYM && sshdr.sh_type != SHT_SYMTAB))
		return NULL;
	size_t nrel = rshdr.sh_size / rshdr.sh_entsize;
	struct slot *slots = malloc((nrel ? nrel : 1) * sizeof *slots);
	if (!slots)
		return NULL;
	for (size_t i = 0; i < nrel; i++) {
		GElf_Rela rela;
		GElf_Sym sym;
		const char *name;
		if (!gelf_getrela(rdata, (int)i, &rela) || GELF_R_TYPE(rela.r_info) != R_JUMP_SLOT ||
		    GELF_R_SYM(rela.r_info) == 0 || !gelf_getsym(sdata, (int)GELF_R_SYM(rela.r_info), &sym) ||
		    !(name = elf_strptr(elf, sshdr.sh_link, sym.st_name)) || !*name)
			continue;
		slots[(*n)++] = (struct slot){ .got = rela.r_offset, .name = name };
	}
	qsort(slots, *n, sizeof *slots, by_got);
	return slots;
}

static const char *slot_name(const struct slot *s, size_t n, uint64_t got)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid].got < got)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && s[lo].got == got ? s[lo].name : NULL;
}

int ana_plt_entries(Elf *elf, struct plt_entry **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	GElf_Ehdr eh;
	GElf_Shdr pshdr;
	Elf_Scn *pscn;
	Elf_Data *code;
	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_AARCH64 || gelf_getclass(elf) != ELFCLASS64 ||
	    !(pscn = section_named(elf, ".plt", &pshdr)) || pshdr.sh_type != SHT_PROGBITS ||
	    !(code = elf_getdata(pscn, NULL)) || !code->d_buf || code->d_size < 8)
		return 0;
	size_t nslots;
	struct slot *slots = jump_slots(elf, &nslots);
	if (!slots)
		return 0;
	size_t words = code->d_size / 4, cap = nslots;
	struct plt_entry *e = cap ? malloc(cap * sizeof *e) : NULL;
	if (cap && !e) {
		free(slots);
		return -1;
	}
	const uint8_t *p = code->d_buf;
	for (size_t i = 0; i + 1 < words && *n < cap; i++) {
		uint64_t pc = pshdr.sh_addr + 4 * i, page, off;
		const char *name;
		if (!adrp_x16(le32(p + 4 * i), pc, &page) || !ldr_x17_x16(le32(p + 4 * i + 4), &off) ||
		    !(name = slot_name(slots, nslots, page + off)))
			continue;
		/* a BTI entry starts with its landing pad */
		uint64_t start = i > 0 && le32(p + 4 * i - 4) == INSN_BTI_C ? pc - 4 : pc;
		if (*n > 0)
			e[*n - 1].size = start - e[*n - 1].start;
		e[(*n)++] = (struct plt_entry){ .start = start, .name = name };
		i++; /* the ldr */
	}
	if (*n > 0)
		e[*n - 1].size = pshdr.sh_addr + pshdr.sh_size - e[*n - 1].start;
	free(slots);
	if (!*n) {
		free(e);
		e = NULL;
	}
	*out = e;
	return 0;
}
