/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel's ELF files (kernel_elf.h): a vmlinux's symbols by name, a module's functions. */
#include "kernel_elf.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_id_files.h"
#include "spe/spe.h"
#include "util/grow.h"

/* The section of type @p type (SHT_SYMTAB, SHT_DYNSYM), or NULL. */
static Elf_Scn *section_of_type(Elf *elf, Elf64_Word type, GElf_Shdr *shdr)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));)
		if (gelf_getshdr(scn, shdr) && shdr->sh_type == type)
			return scn;
	return NULL;
}

int ana_kelf_symbol(Elf *elf, const char *name, uint64_t *value)
{
	static const Elf64_Word types[] = { SHT_SYMTAB, SHT_DYNSYM };
	for (size_t t = 0; elf && t < 2; t++) {
		GElf_Shdr shdr;
		Elf_Scn *scn = section_of_type(elf, types[t], &shdr);
		Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
		size_t n = data && shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym sym;
			const char *s;
			if (gelf_getsym(data, (int)i, &sym) && sym.st_shndx != SHN_UNDEF &&
			    (s = elf_strptr(elf, shdr.sh_link, sym.st_name)) && !strcmp(s, name)) {
				*value = sym.st_value;
				return 1;
			}
		}
	}
	return 0;
}

static size_t underscores(const char *s)
{
	size_t n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choice between two functions at one address (tools/perf/util/symbol.c, choose_best_symbol): 1 takes @p b. */
static int better(const GElf_Sym *a, const char *an, const GElf_Sym *b, const char *bn)
{
	if (!a->st_size != !b->st_size)
		return b->st_size != 0; /* one with a size */
	int aw = GELF_ST_BIND(a->st_info) == STB_WEAK, bw = GELF_ST_BIND(b->st_info) == STB_WEAK;
	if (aw != bw)
		return aw; /* not weak */
	int ag = GELF_ST_BIND(a->st_info) == STB_GLOBAL, bg = GELF_ST_BIND(b->st_info) == STB_GLOBAL;
	if (ag != bg)
		return bg; /* global */
	size_t au = underscores(an), bu = underscores(bn);
	if (au != bu)
		return bu < au; /* fewer leading underscores */
	return strlen(bn) > strlen(an); /* the longer name; else the first */
}

struct candidate {
	GElf_Sym sym;
	const char *name;
	size_t order;
};

static int by_value_then_order(const void *pa, const void *pb)
{
	const struct candidate *a = pa, *b = pb;
	if (a->sym.st_value != b->sym.st_value)
		return a->sym.st_value < b->sym.st_value ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* .text's index if it is the first allocated executable section but .init ones, else 0. */
static size_t first_text(Elf *elf, size_t shstrndx, uint64_t *size)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr shdr;
		const char *name;
		if (!gelf_getshdr(scn, &shdr) || (shdr.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR) ||
		    !(name = elf_strptr(elf, shstrndx, shdr.sh_name)) || !strncmp(name, ".init", 5))
			continue;
		*size = shdr.sh_size;
		return strcmp(name, ".text") ? 0 : elf_ndxscn(scn);
	}
	return 0;
}

static int read_functions(Elf *elf, size_t text, struct kmod_syms *out)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = section_of_type(elf, SHT_SYMTAB, &shdr);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	size_t n = data && shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0, k = 0, cap = 0;
	struct candidate *c = NULL;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx != text ||
		    !(name = elf_strptr(elf, shdr.sh_link, sym.st_name)) || !*name)
			continue;
		struct candidate *p = util_grow(c, &cap, k + 1, sizeof *c);
		if (!p) {
			free(c);
			return -spe_nomem;
		}
		c = p;
		c[k] = (struct candidate){ sym, name, k };
		k++;
	}
	if (k)
		qsort(c, k, sizeof *c, by_value_then_order);
	out->fn = k ? calloc(k, sizeof *out->fn) : NULL;
	if (k && !out->fn) {
		free(c);
		return -spe_nomem;
	}
	for (size_t i = 0; i < k;) {
		size_t best = i, j = i + 1;
		for (; j < k && c[j].sym.st_value == c[i].sym.st_value; j++)
			if (better(&c[best].sym, c[best].name, &c[j].sym, c[j].name))
				best = j;
		struct kmod_fn *f = &out->fn[out->n];
		f->start = c[best].sym.st_value;
		/* a function without a size ends where the next begins (as perf's symbols__fixup_end) */
		f->size = c[best].sym.st_size ? c[best].sym.st_size
					       : (j < k ? c[j].sym.st_value : out->text_size) - f->start;
		if (!(f->name = strdup(c[best].name))) {
			free(c);
			return -spe_nomem;
		}
		out->n++;
		i = j;
	}
	free(c);
	return 0;
}

int ana_kmod_read(const char *path, const char *recorded_hex, struct kmod_syms *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof *out);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	size_t shstrndx;
	int rc = -1;
	if (!elf || !gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx) != 0)
		goto done;
	char hex[BID_HEX_MAX];
	ana_bid_of_elf(elf, hex);
	rc = 0;
	if (!ana_bid_equal(recorded_hex, hex)) {
		snprintf(why, whylen, "%.200s has build-id %s, the recording's module %.64s", path, *hex ? hex : "(none)",
			 recorded_hex);
		goto done;
	}
	if (eh.e_type != ET_REL) {
		snprintf(why, whylen, "%.200s is not a module (not a relocatable object)", path);
		goto done;
	}
	size_t text = first_text(elf, shstrndx, &out->text_size);
	if (!text) {
		snprintf(why, whylen, "%.200s: .text is not its first code section, so where its code lies is not known",
			 path);
		goto done;
	}
	rc = read_functions(elf, text, out);
	if (rc == 0)
		rc = 1;
done:
	if (rc <= 0)
		ana_kmod_free(out);
	elf_end(elf);
	close(fd);
	return rc;
}

const struct kmod_fn *ana_kmod_find(const struct kmod_syms *m, uint64_t off)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->fn[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct kmod_fn *f = &m->fn[lo - 1];
	return off - f->start < f->size ? f : NULL;
}

void ana_kmod_free(struct kmod_syms *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->fn[i].name);
	free(m->fn);
	memset(m, 0, sizeof *m);
}
