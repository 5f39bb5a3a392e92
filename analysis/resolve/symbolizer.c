/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Symbols and source lines through libdwfl: one Dwfl session per binary,
 * opened lazily and kept for the whole load (the loader memoizes per
 * address on top).  Binaries are found by path (under --symfs), else by
 * build-id in the perf cache (~/.debug/.build-id/xx/rest/elf) and
 * SYMFS/usr/lib/debug/.build-id/xx/rest.debug.  Separate debuginfo is found by
 * dwfl_standard_find_debuginfo (.gnu_debuglink beside the file, in .debug/,
 * or by build-id under the debuginfo path: SYMFS/usr/lib/debug, then the
 * host's /usr/lib/debug).
 *
 * Address convention: every lookup takes the ELF's own virtual address
 * (link-time p_vaddr space).  The module is reported at base 0 without
 * adding p_vaddr, so for ET_EXEC and ET_DYN alike dwfl's addresses equal
 * the ELF's.  Runtime addresses are turned into ELF vaddrs by the loader:
 * file offset = pc - mapping start + pgoff, then through the PT_LOAD headers.
 */
#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spe/analysis.h"
#include "sym_internal.h"

struct spe_sym_binary {
	struct spe_sym_binary *next;
	char *key_path, *key_build_id; /* as asked for */
	char *path;                    /* as opened */
	char build_id[128];
	int fd;
	Elf *elf;     /* our own handle for program headers and code bytes */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	int failed;   /* could not be opened: remember, do not retry */
	struct sym_entry *funcs; /* unambiguous sized symbols by address (build_func_index) */
	size_t n_funcs;
	int funcs_built;
	char inline_chain[512]; /* last lookup's inlined functions (valid until the next lookup) */
};

/* A symbol of a binary (name owned by dwfl). */
struct sym_entry {
	uint64_t start, size;
	const char *name;
	GElf_Sym sym;
};

struct spe_symbolizer {
	char *symfs;
	char *debug_path;
	Dwfl_Callbacks callbacks;
	struct spe_sym_binary *binaries;
};

struct spe_symbolizer *spe_sym_new(const struct spe_sym_opts *opts)
{
	struct spe_symbolizer *sym = calloc(1, sizeof *sym);
	if (!sym)
		return NULL;
	elf_version(EV_CURRENT);
	if (opts && opts->symfs && *opts->symfs)
		sym->symfs = strdup(opts->symfs);
	if (opts && opts->debug_path) {
		sym->debug_path = strdup(opts->debug_path);
	} else if (sym->symfs && !strchr(sym->symfs, ':')) {
		/*
		 * dwfl's default (":.debug:/usr/lib/debug") plus the target root's
		 * debug directory, before the host's: a stripped binary under --symfs
		 * finds DWARF from the target's debuginfo packages by build-id.
		 */
		size_t n = strlen(sym->symfs) + 64;
		sym->debug_path = malloc(n);
		if (sym->debug_path)
			snprintf(sym->debug_path, n, ":.debug:%s/usr/lib/debug:/usr/lib/debug", sym->symfs);
	}
	sym->callbacks.find_elf = dwfl_build_id_find_elf;
	sym->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
	sym->callbacks.section_address = dwfl_offline_section_address;
	sym->callbacks.debuginfo_path = &sym->debug_path;
	return sym;
}

static void binary_free(struct spe_sym_binary *b)
{
	if (b->dwfl)
		dwfl_end(b->dwfl); /* owns the fd it was given */
	if (b->elf)
		elf_end(b->elf);
	if (b->fd >= 0)
		close(b->fd);
	free(b->funcs);
	free(b->key_path);
	free(b->key_build_id);
	free(b->path);
	free(b);
}

void spe_sym_free(struct spe_symbolizer *sym)
{
	if (!sym)
		return;
	for (struct spe_sym_binary *b = sym->binaries, *n; b; b = n) {
		n = b->next;
		binary_free(b);
	}
	free(sym->symfs);
	free(sym->debug_path);
	free(sym);
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s%s%s", a, (b[0] == '/' || !a[0]) ? "" : "/", b);
	return p;
}

/* Candidate files for a binary, in the order they are tried. */
static char *candidate(const struct spe_symbolizer *sym, const char *path, const char *build_id, int i)
{
	char buf[4096];
	switch (i) {
	case 0:
		return path ? join(sym->symfs ? sym->symfs : "", path) : NULL;
	case 1:
	case 2:
		if (!build_id || strlen(build_id) < 3)
			return NULL;
		if (i == 1) {
			const char *home = getenv("HOME");
			if (!home)
				return NULL;
			snprintf(buf, sizeof buf, "%s/.debug/.build-id/%.2s/%s/elf", home, build_id, build_id + 2);
		} else {
			snprintf(buf, sizeof buf, "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
				 sym->symfs ? sym->symfs : "", build_id, build_id + 2);
		}
		return strdup(buf);
	}
	return NULL;
}

static void read_build_id(struct spe_sym_binary *b)
{
	const void *bits;
	GElf_Addr vaddr;
	int n = b->mod ? dwfl_module_build_id(b->mod, (const unsigned char **)&bits, &vaddr) : 0;
	b->build_id[0] = 0;
	for (int i = 0; i < n && (size_t)(2 * i + 2) < sizeof b->build_id; i++)
		snprintf(b->build_id + 2 * i, 3, "%02x", ((const unsigned char *)bits)[i]);
}

/* Does @p elf carry build-id @p want (hex)?  A file without one matches nothing. */
static int build_id_matches(Elf *elf, const char *want)
{
	const void *bits;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &bits);
	if (n <= 0 || (size_t)n * 2 != strlen(want))
		return 0;
	for (ssize_t i = 0; i < n; i++) {
		char two[3];
		snprintf(two, sizeof two, "%02x", ((const unsigned char *)bits)[i]);
		if (strncasecmp(two, want + 2 * i, 2) != 0)
			return 0;
	}
	return 1;
}

static int open_binary(struct spe_symbolizer *sym, struct spe_sym_binary *b)
{
	for (int i = 0; i < 3; i++) {
		char *p = candidate(sym, b->key_path, b->key_build_id, i);
		if (!p)
			continue;
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			free(p);
			continue;
		}
		Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		/* the trace named a build-id: a file at the path that differs is another binary */
		if (!elf || elf_kind(elf) != ELF_K_ELF || (b->key_build_id && !build_id_matches(elf, b->key_build_id))) {
			if (elf)
				elf_end(elf);
			close(fd);
			free(p);
			continue;
		}
		b->path = p;
		b->fd = fd;
		b->elf = elf;
		break;
	}
	if (!b->elf)
		return -1;
	b->dwfl = dwfl_begin(&sym->callbacks);
	if (!b->dwfl)
		return -1;
	int dwfl_fd = dup(b->fd);
	if (dwfl_fd < 0)
		return -1;
	dwfl_report_begin(b->dwfl);
	b->mod = dwfl_report_elf(b->dwfl, b->path, b->path, dwfl_fd, 0, false);
	if (!b->mod)
		close(dwfl_fd); /* on failure the caller keeps the fd */
	dwfl_report_end(b->dwfl, NULL, NULL);
	if (!b->mod)
		return -1;
	read_build_id(b);
	return 0;
}

struct spe_sym_binary *spe_sym_binary(struct spe_symbolizer *sym, const char *path, const char *build_id)
{
	if (!sym || (!path && !build_id))
		return NULL;
	if (build_id && !*build_id)
		build_id = NULL;
	for (struct spe_sym_binary *b = sym->binaries; b; b = b->next)
		if (same(b->key_path, path) && same(b->key_build_id, build_id))
			return b->failed ? NULL : b;
	struct spe_sym_binary *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->fd = -1;
	b->key_path = path ? strdup(path) : NULL;
	b->key_build_id = build_id ? strdup(build_id) : NULL;
	b->next = sym->binaries;
	sym->binaries = b;
	if (open_binary(sym, b) < 0) {
		b->failed = 1;
		return NULL;
	}
	return b;
}

const char *spe_sym_binary_path(const struct spe_sym_binary *bin)
{
	return bin ? bin->path : NULL;
}

Dwfl_Module *ana_sym_binary_module(struct spe_sym_binary *bin)
{
	return bin ? bin->mod : NULL;
}

Elf *ana_sym_binary_elf(struct spe_sym_binary *bin)
{
	return bin ? bin->elf : NULL;
}

const char *spe_sym_binary_build_id(const struct spe_sym_binary *bin)
{
	return bin ? bin->build_id : "";
}

int spe_sym_offset_to_vaddr(struct spe_sym_binary *bin, uint64_t file_offset, uint64_t *vaddr)
{
	size_t n;
	if (!bin || elf_getphdrnum(bin->elf, &n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(bin->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (file_offset >= ph.p_offset && file_offset < ph.p_offset + ph.p_filesz) {
			*vaddr = file_offset - ph.p_offset + ph.p_vaddr;
			return 0;
		}
	}
	return -1;
}

int spe_sym_image_range(struct spe_sym_binary *bin, uint64_t *start, uint64_t *end)
{
	size_t n;
	uint64_t lo = UINT64_MAX, hi = 0;
	if (!bin || elf_getphdrnum(bin->elf, &n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(bin->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (ph.p_vaddr < lo)
			lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > hi)
			hi = ph.p_vaddr + ph.p_memsz;
	}
	if (lo >= hi)
		return -1;
	*start = lo;
	*end = hi;
	return 0;
}

size_t spe_sym_read_code(struct spe_sym_binary *bin, uint64_t vaddr, uint8_t *buf, size_t len)
{
	size_t n, size;
	if (!bin || elf_getphdrnum(bin->elf, &n) != 0)
		return 0;
	const char *raw = elf_rawfile(bin->elf, &size);
	if (!raw)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(bin->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
			uint64_t off = vaddr - ph.p_vaddr + ph.p_offset;
			uint64_t avail = ph.p_vaddr + ph.p_filesz - vaddr;
			if (off >= size)
				return 0;
			if (avail > size - off)
				avail = size - off;
			if (len > avail)
				len = (size_t)avail;
			memcpy(buf, raw + off, len);
			return len;
		}
	}
	return 0;
}

/*
 * The inlined subroutines covering @p vaddr, innermost first, joined by
 * " <- " ("inner <- outer"), in @p buf; NULL when the address is not in
 * inlined code.
 */
static const char *inline_chain_at(Dwfl_Module *mod, uint64_t vaddr, char *buf, size_t size)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, vaddr, &bias);
	if (!cu)
		return NULL;
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, vaddr - bias, &scopes);
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_subprogram)
			break;
		if (tag != DW_TAG_inlined_subroutine)
			continue;
		const char *name = dwarf_diename(&scopes[i]);
		int w = snprintf(buf + len, size - len, "%s%s", len ? " <- " : "", name ? name : "??");
		if (w < 0 || (size_t)w >= size - len)
			break;
		len += (size_t)w;
	}
	free(scopes);
	return len ? buf : NULL;
}

static void source_line(Dwfl_Module *mod, uint64_t vaddr, const char **file, int *line)
{
	Dwfl_Line *l = dwfl_module_getsrc(mod, vaddr);
	*file = NULL;
	*line = 0;
	if (l) {
		int lineno = 0;
		const char *f = dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL);
		if (f && lineno > 0) {
			*file = f;
			*line = lineno;
		}
	}
}

/*
 * dwfl_module_addrinfo walks the whole symbol table on every call, which
 * made a trace with 200k distinct PCs in a binary of 20k functions spend
 * minutes there.  The index keeps only the unambiguous symbols: sized,
 * defined, and alone in their range (no other symbol, sized or not, starts
 * inside it or overlaps it; one starting at the same address, such as the
 * $x mapping symbol, is allowed only when it is sizeless and local).  An address in
 * such a range has only one possible answer, found here by binary search;
 * every other address (aliases, nested or sizeless symbols, gaps) still
 * goes through dwfl, so the answers are dwfl's in all cases.
 */
static int by_start(const void *a, const void *b)
{
	const struct sym_entry *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->size < y->size) - (x->size > y->size); /* sized before sizeless at one address */
}

static void build_func_index(struct spe_sym_binary *b)
{
	b->funcs_built = 1;
	int n = dwfl_module_getsymtab(b->mod);
	if (n <= 1)
		return;
	struct sym_entry *all = malloc((size_t)n * sizeof *all);
	b->funcs = malloc((size_t)n * sizeof *b->funcs);
	if (!all || !b->funcs) {
		free(all);
		free(b->funcs);
		b->funcs = NULL;
		return;
	}
	size_t m = 0;
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym_info(b->mod, i, &sym, &addr, &shndx, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		if (!name || shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE || type == STT_TLS)
			continue;
		all[m++] = (struct sym_entry){ .start = addr, .size = sym.st_size, .name = name, .sym = sym };
	}
	qsort(all, m, sizeof *all, by_start);
	uint64_t reach = 0; /* end of the furthest-reaching sized symbol so far */
	for (size_t i = 0; i < m; i++) {
		const struct sym_entry *e = &all[i];
		uint64_t end = e->start + e->size;
		int alone = e->size > 0 && e->start >= reach && (i == 0 || all[i - 1].start != e->start);
		/* the next symbol at another address must start at or after the end */
		size_t j = i + 1;
		while (j < m && all[j].start == e->start) {
			/* a sized alias, or a global label dwfl may prefer (__TMC_END__ on completed.0) */
			if (all[j].size || GELF_ST_BIND(all[j].sym.st_info) != STB_LOCAL)
				alone = 0;
			j++;
		}
		if (j < m && all[j].start < end)
			alone = 0;
		if (alone)
			b->funcs[b->n_funcs++] = *e;
		if (e->size && end > reach)
			reach = end;
	}
	free(all);
}

static const struct sym_entry *func_at(struct spe_sym_binary *b, uint64_t vaddr)
{
	if (!b->funcs_built)
		build_func_index(b);
	size_t lo = 0, hi = b->n_funcs;
	while (lo < hi) { /* first range starting after vaddr */
		size_t mid = lo + (hi - lo) / 2;
		if (b->funcs[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct sym_entry *f = &b->funcs[lo - 1];
	return vaddr - f->start < f->size ? f : NULL;
}

int spe_sym_lookup(struct spe_sym_binary *bin, uint64_t vaddr, struct spe_sym_result *res)
{
	memset(res, 0, sizeof *res);
	if (!bin || !bin->mod)
		return 0;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name;
	const struct sym_entry *f = func_at(bin, vaddr);
	if (f) {
		name = f->name;
		off = vaddr - f->start;
		sym = f->sym;
	} else {
		name = dwfl_module_addrinfo(bin->mod, vaddr, &off, &sym, NULL, NULL, NULL);
	}
	if (name) {
		res->function = name;
		res->function_start = vaddr - off;
		res->function_size = sym.st_size;
		source_line(bin->mod, res->function_start, &res->decl_file, &res->decl_line);
	}
	source_line(bin->mod, vaddr, &res->file, &res->line);
	res->inline_function = inline_chain_at(bin->mod, vaddr, bin->inline_chain, sizeof bin->inline_chain);
	return res->function || res->file;
}

/* The file that index @p idx of @p cu's line-table header names, or NULL. */
static const char *cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t n;
	if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static void frame_of_die(Dwarf_Die *die, struct spe_sym_frame *f)
{
	Dwarf_Attribute attr;
	f->function = dwarf_diename(die);
	f->linkage_name = NULL;
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		f->linkage_name = dwarf_formstring(&attr);
	f->decl_file = dwarf_decl_file(die);
	if (dwarf_decl_line(die, &f->decl_line) != 0)
		f->decl_line = 0;
}

int spe_sym_frames(struct spe_sym_binary *bin, uint64_t vaddr, struct spe_sym_frame *frames, int max)
{
	if (!bin || !bin->mod || max <= 0)
		return 0;
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(bin->mod, vaddr, &bias);
	if (!cu)
		return 0;
	/*
	 * dwarf_getscopes continues from an inlined instance into its abstract
	 * origin's scopes; the concrete callers come from dwarf_getscopes_die
	 * on the innermost function scope.
	 */
	Dwarf_Die *scopes = NULL, inner;
	int nscopes = dwarf_getscopes(cu, vaddr - bias, &scopes), found = 0;
	for (int i = 0; i < nscopes && !found; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram) {
			inner = scopes[i];
			found = 1;
		}
	}
	free(scopes);
	scopes = NULL;
	nscopes = found ? dwarf_getscopes_die(&inner, &scopes) : 0;
	int n = 0;
	const char *file;
	int line;
	source_line(bin->mod, vaddr, &file, &line);
	for (int i = 0; i < nscopes && n < max; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		struct spe_sym_frame *f = &frames[n++];
		frame_of_die(&scopes[i], f);
		f->file = file;
		f->line = line;
		if (tag == DW_TAG_subprogram)
			break;
		/* the next (outer) frame executes at the call site of this one */
		Dwarf_Attribute attr;
		Dwarf_Word w;
		file = dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &w) == 0 ? cu_file(cu, w) : NULL;
		line = dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &w) == 0 ? (int)w : 0;
	}
	free(scopes);
	return n;
}
