/* SPDX-License-Identifier: Apache-2.0 */
/* A binary's names by address (sym_table.h has the rules). */
#include "sym_table.h"

#include <stdlib.h>
#include <string.h>

#include "plt_names.h"

#define NO_PARENT UINT32_MAX

struct cand {
	uint64_t start, size, sec_end;
	const char *name;
	unsigned char bind, type;
	uint32_t order; /* symbol-table index; PLT entries after every symbol */
};

/* $x, $d, $a, $t alone or followed by '.': code/data markers of the Arm ELF ABIs */
static int is_mapping_symbol(const char *name)
{
	return name[0] == '$' && name[1] && strchr("adtx", name[1]) && (name[2] == 0 || name[2] == '.');
}

static unsigned leading_underscores(const char *s)
{
	unsigned n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

/* < 0 when @p a names the address rather than @p b (the header's order of criteria). */
static int better(const struct cand *a, const struct cand *b)
{
	if ((a->size > 0) != (b->size > 0))
		return a->size > 0 ? -1 : 1;
	if ((a->type == STT_NOTYPE) != (b->type == STT_NOTYPE))
		return a->type == STT_NOTYPE ? 1 : -1;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return a->bind == STB_WEAK ? 1 : -1;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL ? -1 : 1;
	unsigned ua = leading_underscores(a->name), ub = leading_underscores(b->name);
	if (ua != ub)
		return ua < ub ? -1 : 1;
	size_t la = strlen(a->name), lb = strlen(b->name);
	if (la != lb)
		return la > lb ? -1 : 1;
	return a->order < b->order ? -1 : 1;
}

static int by_start(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

/* The symbol as a candidate name, or 0 when it names nothing (the header's first two rules). */
static int symbol_cand(Dwfl_Module *mod, int i, struct cand *c)
{
	GElf_Sym sym;
	GElf_Addr addr;
	GElf_Word shndx;
	Elf *elf = NULL;
	const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, &elf, NULL);
	if (!name || !*name || !elf || shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
		return 0;
	int type = GELF_ST_TYPE(sym.st_info);
	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT && type != STT_NOTYPE)
		return 0;
	GElf_Shdr shdr;
	Elf_Scn *scn = elf_getscn(elf, shndx);
	if (!scn || !gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
		return 0;
	if (type == STT_NOTYPE) {
		int vis = GELF_ST_VISIBILITY(sym.st_other);
		if (!(shdr.sh_flags & SHF_EXECINSTR) || vis == STV_HIDDEN || vis == STV_INTERNAL)
			return 0;
	}
	GElf_Ehdr eh;
	if (!gelf_getehdr(elf, &eh))
		return 0;
	if ((eh.e_machine == EM_AARCH64 || eh.e_machine == EM_ARM) && is_mapping_symbol(name))
		return 0;
	/* section addresses move with the symbol's (a debug file of a prelinked binary) */
	uint64_t delta = addr - sym.st_value;
	*c = (struct cand){ .start = addr,
			    .size = sym.st_size,
			    .sec_end = shdr.sh_addr + shdr.sh_size + delta,
			    .name = name,
			    .bind = (unsigned char)GELF_ST_BIND(sym.st_info),
			    .type = (unsigned char)type,
			    .order = (uint32_t)i };
	return 1;
}

/* The PLT entries as candidates, their "name@plt" strings in t->names; appended to c[*m]. */
static int plt_cands(struct sym_table *t, Elf *elf, struct cand **c, size_t *m, uint32_t order)
{
	struct plt_entry *e;
	size_t n;
	if (!elf)
		return 0;
	if (ana_plt_entries(elf, &e, &n) < 0)
		return -1;
	if (!n)
		return 0;
	size_t bytes = 0;
	for (size_t i = 0; i < n; i++)
		bytes += strlen(e[i].name) + sizeof "@plt";
	struct cand *nc = realloc(*c, (*m + n) * sizeof *nc);
	t->names = malloc(bytes);
	if (nc)
		*c = nc;
	if (!nc || !t->names) {
		free(e);
		return -1;
	}
	char *s = t->names;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(e[i].name);
		memcpy(s, e[i].name, len);
		memcpy(s + len, "@plt", sizeof "@plt");
		(*c)[(*m)++] = (struct cand){ .start = e[i].start,
					      .size = e[i].size,
					      .sec_end = e[i].start + e[i].size,
					      .name = s,
					      .bind = STB_GLOBAL,
					      .type = STT_FUNC,
					      .order = order + (uint32_t)i };
		s += len + sizeof "@plt";
	}
	free(e);
	return 0;
}

/* One range per address from the sorted candidates, each with its enclosing range. */
static int make_ranges(struct sym_table *t, const struct cand *c, size_t m)
{
	t->ranges = malloc((m ? m : 1) * sizeof *t->ranges);
	uint32_t *open = malloc((m ? m : 1) * sizeof *open); /* ranges not yet ended, innermost last */
	if (!t->ranges || !open) {
		free(open);
		return -1;
	}
	size_t depth = 0;
	for (size_t i = 0; i < m;) {
		size_t j = i, best = i;
		for (; j < m && c[j].start == c[i].start; j++)
			if (better(&c[j], &c[best]) < 0)
				best = j;
		const struct cand *b = &c[best];
		uint64_t end = b->start + b->size;
		if (!b->size) {
			end = b->sec_end;
			if (j < m && c[j].start < end)
				end = c[j].start;
		}
		i = j;
		if (end <= b->start)
			continue;
		while (depth && t->ranges[open[depth - 1]].end <= b->start)
			depth--;
		t->ranges[t->n] = (struct sym_range){ .start = b->start,
						      .end = end,
						      .size = b->size,
						      .name = b->name,
						      .parent = depth ? open[depth - 1] : NO_PARENT };
		open[depth++] = (uint32_t)t->n++;
	}
	free(open);
	return 0;
}

int ana_sym_table_build(struct sym_table *t, Dwfl_Module *mod, Elf *elf)
{
	memset(t, 0, sizeof *t);
	int n = mod ? dwfl_module_getsymtab(mod) : 0;
	if (n < 0)
		n = 0;
	struct cand *c = malloc(((size_t)n + 1) * sizeof *c);
	size_t m = 0;
	if (!c)
		return -1;
	for (int i = 1; i < n; i++)
		m += symbol_cand(mod, i, &c[m]);
	int rc = plt_cands(t, elf, &c, &m, (uint32_t)n);
	if (rc == 0) {
		qsort(c, m, sizeof *c, by_start);
		rc = make_ranges(t, c, m);
	}
	free(c);
	if (rc < 0)
		ana_sym_table_free(t);
	return rc;
}

const struct sym_range *ana_sym_table_find(const struct sym_table *t, uint64_t vaddr)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) { /* the first range starting after vaddr */
		size_t mid = lo + (hi - lo) / 2;
		if (t->ranges[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	for (uint32_t k = (uint32_t)(lo - 1); k != NO_PARENT; k = t->ranges[k].parent)
		if (vaddr < t->ranges[k].end)
			return &t->ranges[k];
	return NULL;
}

void ana_sym_table_free(struct sym_table *t)
{
	free(t->ranges);
	free(t->names);
	memset(t, 0, sizeof *t);
}
