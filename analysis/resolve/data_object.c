/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data objects of a binary (DWARF variables, ELF data symbols, sections) and
 * of data mappings; see data_object.h.  Addresses are ELF vaddrs, as the
 * symbolizer reports its modules at base 0.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ana/data_object.h"
#include "sym_internal.h"
#include "util/grow.h"

const char *ana_dobj_kind_name(int kind)
{
	switch (kind) {
#define SPE_X(id, code, name, desc) \
	case code:                  \
		return name;
		SPE_DATA_OBJECT_KIND_LIST(SPE_X)
#undef SPE_X
	}
	return NULL;
}

struct dobj_vars {
	struct dobj_var *v; /* sorted by start; names and texts in the arena */
	size_t n, cap;
	struct dobj_var *sections;
	size_t n_sections;
	uint64_t lo, hi;    /* PT_LOAD span */
	struct {
		uint64_t vaddr, memsz;
	} *loads;
	size_t n_loads;
	char **strings;     /* owned strings */
	size_t n_strings, cap_strings;
	int oom;
};

static const char *keep(struct dobj_vars *t, const char *s)
{
	if (!s)
		return NULL;
	char **p = util_grow(t->strings, &t->cap_strings, t->n_strings + 1, sizeof *p);
	if (!p) {
		t->oom = 1;
		return NULL;
	}
	t->strings = p;
	char *d = strdup(s);
	if (!d) {
		t->oom = 1;
		return NULL;
	}
	t->strings[t->n_strings++] = d;
	return d;
}

static void add(struct dobj_vars *t, const struct dobj_var *v)
{
	struct dobj_var *p = util_grow(t->v, &t->cap, t->n + 1, sizeof *p);
	if (!p) {
		t->oom = 1;
		return;
	}
	t->v = p;
	t->v[t->n++] = *v;
}

/* ---- DWARF variables ---------------------------------------------------- */

/* A C-like text for the type DIE @p type ("const int[64]", "struct item *"), into @p buf. */
static void type_text(Dwarf_Die *type, char *buf, size_t size, int depth)
{
	buf[0] = 0;
	if (depth > 8)
		return;
	const char *name = dwarf_diename(type);
	Dwarf_Attribute a;
	Dwarf_Die inner;
	int has_inner = dwarf_attr_integrate(type, DW_AT_type, &a) && dwarf_formref_die(&a, &inner);
	char in[256] = "";
	if (has_inner)
		type_text(&inner, in, sizeof in, depth + 1);
	switch (dwarf_tag(type)) {
	case DW_TAG_base_type:
	case DW_TAG_typedef:
		snprintf(buf, size, "%s", name ? name : "?");
		break;
	case DW_TAG_structure_type:
		snprintf(buf, size, "struct %s", name ? name : "{...}");
		break;
	case DW_TAG_union_type:
		snprintf(buf, size, "union %s", name ? name : "{...}");
		break;
	case DW_TAG_enumeration_type:
		snprintf(buf, size, "enum %s", name ? name : "{...}");
		break;
	case DW_TAG_const_type: /* C arrays of const elements come as const (array of const) */
		snprintf(buf, size, "%s%s", strncmp(in, "const ", 6) ? "const " : "", has_inner ? in : "void");
		break;
	case DW_TAG_volatile_type:
		snprintf(buf, size, "%s%s", strncmp(in, "volatile ", 9) ? "volatile " : "", has_inner ? in : "void");
		break;
	case DW_TAG_atomic_type:
		snprintf(buf, size, "_Atomic %s", has_inner ? in : "void");
		break;
	case DW_TAG_pointer_type:
		snprintf(buf, size, "%s *", has_inner ? in : "void");
		break;
	case DW_TAG_array_type: {
		/* element type, then one [n] per subrange */
		size_t n = (size_t)snprintf(buf, size, "%s", in);
		Dwarf_Die sub;
		if (dwarf_child(type, &sub) == 0) {
			do {
				Dwarf_Attribute ua;
				Dwarf_Word upper;
				if (dwarf_tag(&sub) != DW_TAG_subrange_type || n >= size)
					continue;
				if (dwarf_attr_integrate(&sub, DW_AT_count, &ua) && dwarf_formudata(&ua, &upper) == 0)
					n += (size_t)snprintf(buf + n, size - n, "[%llu]", (unsigned long long)upper);
				else if (dwarf_attr_integrate(&sub, DW_AT_upper_bound, &ua) && dwarf_formudata(&ua, &upper) == 0)
					n += (size_t)snprintf(buf + n, size - n, "[%llu]", (unsigned long long)upper + 1);
				else
					n += (size_t)snprintf(buf + n, size - n, "[]");
			} while (dwarf_siblingof(&sub, &sub) == 0);
		}
		break;
	}
	default:
		snprintf(buf, size, "%s", name ? name : "?");
	}
}

/* The static address of variable @p die (a location of one DW_OP_addr), 0 if it has none. */
static int static_address(Dwarf_Die *die, Dwarf_Addr bias, uint64_t *addr)
{
	Dwarf_Attribute loc;
	Dwarf_Op *expr;
	size_t len;
	if (!dwarf_attr(die, DW_AT_location, &loc) || dwarf_getlocation(&loc, &expr, &len) != 0 || len != 1 ||
	    expr[0].atom != DW_OP_addr)
		return 0;
	*addr = expr[0].number + bias;
	return 1;
}

static void add_dwarf_variable(struct dobj_vars *t, Dwarf_Die *die, const char *scope, Dwarf_Addr bias)
{
	uint64_t addr;
	Dwarf_Attribute a;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
	if (!name || !static_address(die, bias, &addr))
		return;
	Dwarf_Die type;
	Dwarf_Word size = 0;
	char ttext[256] = "";
	if (dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, &type)) {
		if (dwarf_aggregate_size(&type, &size) != 0)
			size = 0;
		type_text(&type, ttext, sizeof ttext, 0);
	}
	char full[512];
	if (scope)
		snprintf(full, sizeof full, "%s::%s", scope, name);
	else
		snprintf(full, sizeof full, "%s", name);
	int line = 0;
	dwarf_decl_line(die, &line);
	struct dobj_var v = { .start = addr, .size = size ? size : 1, .name = keep(t, full),
			      .type = ttext[0] ? keep(t, ttext) : NULL, .file = keep(t, dwarf_decl_file(die)),
			      .line = line, .kind = DOBJ_VARIABLE };
	add(t, &v);
}

/* Variables under @p parent; function statics are qualified by their function. */
static void walk_dies(struct dobj_vars *t, Dwarf_Die *parent, const char *scope, Dwarf_Addr bias, int depth)
{
	Dwarf_Die child;
	if (depth > 32 || dwarf_child(parent, &child) != 0)
		return;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_variable:
			add_dwarf_variable(t, &child, scope, bias);
			break;
		case DW_TAG_subprogram: {
			const char *fn = dwarf_diename(&child);
			walk_dies(t, &child, fn ? fn : scope, bias, depth + 1);
			break;
		}
		case DW_TAG_lexical_block:
		case DW_TAG_namespace:
			walk_dies(t, &child, scope, bias, depth + 1);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static void add_dwarf(struct dobj_vars *t, Dwfl_Module *mod)
{
	Dwarf_Addr bias = 0;
	Dwarf *dw = dwfl_module_getdwarf(mod, &bias);
	if (!dw)
		return;
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(dw, off + hsize, &cu))
			walk_dies(t, &cu, NULL, bias, 0);
		off = next;
	}
}

/* ---- ELF data symbols and sections -------------------------------------- */

static void add_symbols(struct dobj_vars *t, Dwfl_Module *mod)
{
	int n = dwfl_module_getsymtab(mod);
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_OBJECT || !sym.st_size ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		struct dobj_var v = { .start = addr, .size = sym.st_size, .name = keep(t, name), .kind = DOBJ_SYMBOL };
		add(t, &v);
	}
}

static void add_sections_and_loads(struct dobj_vars *t, Elf *elf)
{
	size_t shstrndx, nph;
	Elf_Scn *scn = NULL;
	if (elf_getshdrstrndx(elf, &shstrndx) == 0) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || (sh.sh_flags & SHF_EXECINSTR) ||
			    !sh.sh_size)
				continue;
			const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
			struct dobj_var *p = realloc(t->sections, (t->n_sections + 1) * sizeof *p);
			if (!p) {
				t->oom = 1;
				return;
			}
			t->sections = p;
			t->sections[t->n_sections++] = (struct dobj_var){ .start = sh.sh_addr, .size = sh.sh_size,
									  .name = keep(t, name ? name : "?"),
									  .kind = DOBJ_SECTION };
		}
	}
	if (elf_getphdrnum(elf, &nph) != 0)
		return;
	t->lo = UINT64_MAX;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !ph.p_memsz)
			continue;
		void *p = realloc(t->loads, (t->n_loads + 1) * sizeof *t->loads);
		if (!p) {
			t->oom = 1;
			return;
		}
		t->loads = p;
		t->loads[t->n_loads].vaddr = ph.p_vaddr;
		t->loads[t->n_loads++].memsz = ph.p_memsz;
		if (ph.p_vaddr < t->lo)
			t->lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > t->hi)
			t->hi = ph.p_vaddr + ph.p_memsz;
	}
	if (!t->n_loads)
		t->lo = t->hi = 0;
}

/* By start; at equal starts DWARF variables first, then the larger object. */
static int by_start(const void *a, const void *b)
{
	const struct dobj_var *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return (x->size < y->size) - (x->size > y->size);
}

struct dobj_vars *ana_dobj_vars_new(struct spe_sym_binary *bin)
{
	struct dobj_vars *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	Dwfl_Module *mod = ana_sym_binary_module(bin);
	Elf *elf = ana_sym_binary_elf(bin);
	if (mod) {
		add_dwarf(t, mod);
		add_symbols(t, mod);
	}
	if (elf)
		add_sections_and_loads(t, elf);
	if (t->n)
		qsort(t->v, t->n, sizeof *t->v, by_start);
	/* one object per start: the DWARF variable wins over the symbol of the same address */
	size_t w = 0;
	for (size_t i = 0; i < t->n; i++)
		if (!w || t->v[w - 1].start != t->v[i].start)
			t->v[w++] = t->v[i];
	t->n = w;
	if (t->oom) {
		ana_dobj_vars_free(t);
		return NULL;
	}
	return t;
}

void ana_dobj_vars_free(struct dobj_vars *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_strings; i++)
		free(t->strings[i]);
	free(t->strings);
	free(t->v);
	free(t->sections);
	free(t->loads);
	free(t);
}

size_t ana_dobj_vars_count(const struct dobj_vars *t)
{
	return t ? t->n : 0;
}

void ana_dobj_vars_span(const struct dobj_vars *t, uint64_t *lo, uint64_t *hi)
{
	*lo = t ? t->lo : 0;
	*hi = t ? t->hi : 0;
}

const struct dobj_var *ana_dobj_vars_lookup(const struct dobj_vars *t, uint64_t vaddr)
{
	if (!t)
		return NULL;
	int in_load = 0;
	for (size_t i = 0; i < t->n_loads && !in_load; i++)
		in_load = vaddr >= t->loads[i].vaddr && vaddr - t->loads[i].vaddr < t->loads[i].memsz;
	if (!in_load)
		return NULL;
	/* the last object starting at or below vaddr, then back over earlier ones that still cover it */
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->v[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i > 0 && lo - i < 8; i--)
		if (vaddr - t->v[i - 1].start < t->v[i - 1].size)
			return &t->v[i - 1];
	for (size_t i = 0; i < t->n_sections; i++)
		if (vaddr >= t->sections[i].start && vaddr - t->sections[i].start < t->sections[i].size)
			return &t->sections[i];
	return NULL;
}

int ana_dobj_mapping_kind(const char *path, uint32_t prot, uint32_t flags, uint64_t pgoff, char *name, size_t size)
{
	(void)prot;
	if (!path || !*path || !strcmp(path, "//anon") || !strncmp(path, "/anon_hugepage", 14)) {
		snprintf(name, size, "%s", flags & MAP_SHARED ? "//anon (shared)" : "//anon");
		return flags & MAP_SHARED ? DOBJ_SHARED : DOBJ_ANON;
	}
	if (!strcmp(path, "[heap]")) {
		snprintf(name, size, "[heap]");
		return DOBJ_HEAP;
	}
	if (!strncmp(path, "[stack", 6)) {
		snprintf(name, size, "%s", path);
		return DOBJ_STACK;
	}
	if (path[0] == '[') {
		snprintf(name, size, "%s", path);
		return DOBJ_OTHER;
	}
	/* shared memory: POSIX (/dev/shm), SYSV segments, memfd */
	if (!strncmp(path, "/dev/shm/", 9) || !strncmp(path, "/SYSV", 5) || !strncmp(path, "/memfd:", 7)) {
		snprintf(name, size, "%s", path);
		return DOBJ_SHARED;
	}
	snprintf(name, size, "%s+0x%llx", path, (unsigned long long)pgoff);
	return DOBJ_FILE;
}
