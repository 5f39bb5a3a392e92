/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Symbols and source lines through libdwfl: one Dwfl session per binary,
 * opened lazily and kept for the whole load (the loader memoizes per
 * address on top).  Which file is the binary is decided by build-id
 * (spe_sym_binary_check in spe/analysis.h has the candidates and their
 * order; build_id_files.h the layouts): a file whose id differs from the
 * recorded one is never used.  Its separate debuginfo is found by
 * debuginfo_find.h, never by dwfl's standard callbacks, which would query
 * debuginfod implicitly and without a bound; debuginfod is only reached
 * through debuginfod_fetch.h.  Names come from sym_table.h.
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
#include <sys/stat.h>
#include <unistd.h>

#include "build_id_files.h"
#include "debuginfo_find.h"
#include "debuginfod_fetch.h"
#include "spe/analysis.h"
#include "sym_internal.h"
#include "sym_table.h"

struct spe_sym_binary {
	struct spe_sym_binary *next;
	struct spe_symbolizer *owner;
	char *key_path, *key_build_id; /* as asked for */
	char *path;                    /* as opened */
	char build_id[BID_HEX_MAX];
	int fd;
	Elf *elf;     /* our own handle for program headers and code bytes */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	int failed;   /* could not be opened: remember, do not retry */
	int has_code; /* the file holds the code (not a separate debug file) */
	/*
	 * find_debuginfo calls so far: the first searches everywhere; later ones
	 * (dwfl asking again after a failure, or for the dwz file) only by build-id
	 */
	int debug_asked;
	enum spe_sym_match match;
	char *other_path;             /* MISMATCH: the first file whose id differed */
	char other_id[BID_HEX_MAX];
	struct sym_table names;       /* built at the first lookup */
	int names_built;
	char inline_chain[512]; /* last lookup's inlined functions (valid until the next lookup) */
};

struct spe_symbolizer {
	char *symfs;
	char *debug_path;
	struct spe_sym_opts opts;     /* callbacks, debuginfod settings */
	struct bid_roots roots;
	struct dbgd *dbgd;
	Dwfl_Callbacks callbacks;
	struct spe_sym_binary *binaries;
};

const char *spe_sym_match_name(enum spe_sym_match m)
{
	switch (m) {
	case SPE_SYM_MATCHED: return "matched";
	case SPE_SYM_MISMATCH: return "mismatch";
	case SPE_SYM_UNRECORDED: return "unrecorded";
	case SPE_SYM_NOT_FOUND: return "not found";
	default: return NULL;
	}
}

/* dwfl never looks for a main file itself (every module is reported with its fd). */
static int no_find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base, char **file_name,
		       Elf **elfp)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name, (void)elfp;
	return -1;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc, char **name)
{
	(void)modname, (void)base, (void)file_name;
	struct spe_sym_binary *b = userdata ? *userdata : NULL;
	if (!b)
		return -1;
	struct spe_symbolizer *sym = b->owner;
	struct debuginfo_where w = { .symfs = sym->symfs, .debug_path = sym->debug_path, .roots = &sym->roots,
				     .dbgd = sym->dbgd };
	return ana_find_debuginfo(&w, mod, b->path, b->key_path, b->build_id, debuglink_file, debuglink_crc,
				  b->debug_asked++ > 0, name);
}

struct spe_symbolizer *spe_sym_new(const struct spe_sym_opts *opts)
{
	struct spe_symbolizer *sym = calloc(1, sizeof *sym);
	if (!sym)
		return NULL;
	elf_version(EV_CURRENT);
	if (opts)
		memcpy(&sym->opts, opts, opts->size < sizeof sym->opts ? opts->size : sizeof sym->opts);
	sym->opts.size = sizeof sym->opts;
	/* absolute: dwfl searches only absolute debug directories by build-id (SYMFS/usr/lib/debug below) */
	if (sym->opts.symfs && *sym->opts.symfs && !(sym->symfs = realpath(sym->opts.symfs, NULL)))
		sym->symfs = strdup(sym->opts.symfs);
	if (sym->opts.debug_path) {
		sym->debug_path = strdup(sym->opts.debug_path);
	} else {
		/*
		 * dwfl's default (":.debug:/usr/lib/debug") plus the target root's
		 * debug directory, before the host's: a stripped binary under --symfs
		 * finds DWARF from the target's debuginfo packages by build-id.
		 */
		const char *root = sym->symfs && !strchr(sym->symfs, ':') ? sym->symfs : NULL;
		size_t n = (root ? strlen(root) : 0) + 64;
		sym->debug_path = malloc(n);
		if (sym->debug_path)
			snprintf(sym->debug_path, n, ":.debug:%s%s/usr/lib/debug", root ? root : "",
				 root ? "/usr/lib/debug:" : "");
	}
	const char *buildid_dir = sym->opts.buildid_dir;
	sym->opts.symfs = sym->opts.debug_path = sym->opts.buildid_dir = NULL; /* not kept: the caller's strings */
	if (!sym->debug_path || ana_bid_roots_init(&sym->roots, buildid_dir) < 0) {
		spe_sym_free(sym);
		return NULL;
	}
	if (sym->opts.debuginfod && !(sym->dbgd = ana_dbgd_new(&sym->opts))) {
		spe_sym_free(sym);
		return NULL;
	}
	sym->callbacks.find_elf = no_find_elf;
	sym->callbacks.find_debuginfo = find_debuginfo;
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
	ana_sym_table_free(&b->names);
	free(b->key_path);
	free(b->key_build_id);
	free(b->path);
	free(b->other_path);
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
	ana_dbgd_free(sym->dbgd);
	ana_bid_roots_fini(&sym->roots);
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

/* Does @p elf hold code (its executable sections have bytes), or is it a separate debug file? */
static int holds_code(Elf *elf)
{
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) && sh.sh_size)
			return sh.sh_type != SHT_NOBITS;
	}
	return 1; /* no section headers: the segments are all there is */
}

/*
 * Take @p path (an open @p fd, or -1 to open it) as the binary if it is the
 * one asked for: 1 when taken, 0 when not (a mismatch is remembered).
 */
static int try_file(struct spe_sym_binary *b, const char *path, int fd)
{
	if (fd < 0 && (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return 0;
	}
	char id[BID_HEX_MAX];
	ana_bid_of_elf(elf, id);
	if (b->key_build_id && !ana_bid_equal(b->key_build_id, id)) {
		/* another build of the file: never used, named once */
		if (!b->other_path && (b->other_path = strdup(path)))
			snprintf(b->other_id, sizeof b->other_id, "%s", id);
		elf_end(elf);
		close(fd);
		return 0;
	}
	if (!(b->path = strdup(path))) {
		elf_end(elf);
		close(fd);
		return 0;
	}
	b->fd = fd;
	b->elf = elf;
	b->has_code = holds_code(elf);
	snprintf(b->build_id, sizeof b->build_id, "%s", id);
	return 1;
}

/* The local candidates (spe_sym_binary_check's order), then debuginfod's; 1 when one is taken. */
static int find_file(struct spe_symbolizer *sym, struct spe_sym_binary *b)
{
	const char *root = sym->symfs ? sym->symfs : "", *id = b->key_build_id;
	if (b->key_path) {
		char *p = join(root, b->key_path);
		int took = p && try_file(b, p, -1);
		free(p);
		if (took || !id)
			return took;
	}
	if (!id)
		return 0;
	static const char *const leaves[] = { "elf", "debug" };
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; i < sym->roots.n; i++) {
			char *p = ana_bid_cache_file(sym->roots.dir[i], id, leaves[l]);
			int took = p && try_file(b, p, -1);
			free(p);
			if (took)
				return 1;
		}
	const char *debug_dirs[2] = { sym->symfs ? sym->symfs : NULL, "" };
	for (int i = 0; i < 2; i++) {
		if (!debug_dirs[i])
			continue;
		char dir[4096];
		snprintf(dir, sizeof dir, "%s/usr/lib/debug", debug_dirs[i]);
		char *p = ana_bid_debug_file(dir, id);
		int took = p && try_file(b, p, -1);
		free(p);
		if (took)
			return 1;
	}
	static const char *const kinds[] = { "executable", "debuginfo" };
	for (int k = 0; k < 2 && sym->dbgd; k++) {
		char *p = NULL;
		int fd = ana_dbgd_fetch(sym->dbgd, id, kinds[k], b->key_path ? b->key_path : id, &p);
		int took = fd >= 0 && try_file(b, p, fd);
		free(p);
		if (took)
			return 1;
	}
	return 0;
}

static int open_binary(struct spe_symbolizer *sym, struct spe_sym_binary *b)
{
	if (!find_file(sym, b)) {
		b->match = b->other_path ? SPE_SYM_MISMATCH : SPE_SYM_NOT_FOUND;
		return -1;
	}
	b->match = b->key_build_id ? SPE_SYM_MATCHED : SPE_SYM_UNRECORDED;
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
	void **userdata;
	if (dwfl_module_info(b->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL))
		*userdata = b; /* for find_debuginfo */
	return 0;
}

static void fill_check(const struct spe_sym_binary *b, struct spe_sym_check *c)
{
	c->match = b->match;
	c->file = b->match == SPE_SYM_MISMATCH ? b->other_path : b->path;
	c->file_build_id = b->match == SPE_SYM_MISMATCH ? b->other_id : b->build_id;
}

static struct spe_sym_binary *known(const struct spe_symbolizer *sym, const char *path, const char *build_id)
{
	for (struct spe_sym_binary *b = sym->binaries; b; b = b->next)
		if (same(b->key_path, path) && same(b->key_build_id, build_id))
			return b;
	return NULL;
}

struct spe_sym_binary *spe_sym_binary_check(struct spe_symbolizer *sym, const char *path, const char *build_id,
					    struct spe_sym_check *check)
{
	if (check)
		memset(check, 0, sizeof *check);
	if (!sym || (!path && !build_id))
		return NULL;
	if (build_id && !*build_id)
		build_id = NULL;
	struct spe_sym_binary *b = known(sym, path, build_id);
	if (b) {
		if (check)
			fill_check(b, check);
		return b->failed ? NULL : b;
	}
	if (!(b = calloc(1, sizeof *b)))
		return NULL;
	b->fd = -1;
	b->owner = sym;
	b->key_path = path ? strdup(path) : NULL;
	b->key_build_id = build_id ? strdup(build_id) : NULL;
	b->next = sym->binaries;
	sym->binaries = b;
	if ((path && !b->key_path) || (build_id && !b->key_build_id) || open_binary(sym, b) < 0) {
		b->failed = 1;
		if (b->match == SPE_SYM_UNCHECKED || b->match == SPE_SYM_MATCHED || b->match == SPE_SYM_UNRECORDED)
			b->match = SPE_SYM_NOT_FOUND; /* found but unreadable */
	}
	struct spe_sym_check c;
	fill_check(b, &c);
	if (sym->opts.on_binary)
		sym->opts.on_binary(sym->opts.arg, path, build_id, &c);
	if (check)
		*check = c;
	return b->failed ? NULL : b;
}

struct spe_sym_binary *spe_sym_binary(struct spe_symbolizer *sym, const char *path, const char *build_id)
{
	return spe_sym_binary_check(sym, path, build_id, NULL);
}

enum spe_sym_match spe_sym_known_match(const struct spe_symbolizer *sym, const char *path, const char *build_id)
{
	if (build_id && !*build_id)
		build_id = NULL;
	const struct spe_sym_binary *b = sym ? known(sym, path, build_id) : NULL;
	return b ? b->match : SPE_SYM_UNCHECKED;
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
	if (!bin || !bin->has_code || elf_getphdrnum(bin->elf, &n) != 0)
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

int spe_sym_lookup(struct spe_sym_binary *bin, uint64_t vaddr, struct spe_sym_result *res)
{
	memset(res, 0, sizeof *res);
	if (!bin || !bin->mod)
		return 0;
	if (!bin->names_built) {
		bin->names_built = 1;
		ana_sym_table_build(&bin->names, bin->mod, bin->elf); /* without memory: no names */
	}
	const struct sym_range *f = ana_sym_table_find(&bin->names, vaddr);
	if (f) {
		res->function = f->name;
		res->function_start = f->start;
		res->function_size = f->size;
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
