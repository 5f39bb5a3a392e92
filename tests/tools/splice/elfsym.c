/* SPDX-License-Identifier: Apache-2.0 */
/* ELF symbols of the plan's targets, with libelf (elfsym.h). */
#include "elfsym.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct elf_file {
	int fd;
	Elf *elf;
};

static int open_elf(const char *path, struct elf_file *f, char *err, size_t errlen)
{
	elf_version(EV_CURRENT);
	f->elf = NULL;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		if (err)
			snprintf(err, errlen, "%s: cannot open", path);
		return -1;
	}
	f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		if (err)
			snprintf(err, errlen, "%s: not an ELF file", path);
		if (f->elf)
			elf_end(f->elf);
		close(f->fd);
		f->elf = NULL;
		return -1;
	}
	return 0;
}

static void close_elf(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
}

/* ARM and AArch64 mapping symbols ($x, $d, $x.42) name no function. */
static int mapping_symbol(const char *n)
{
	return n[0] == '$' && strchr("adtx", n[1]) && n[1] && (n[2] == 0 || n[2] == '.');
}

static int code_symbol(const GElf_Sym *s, const char *name)
{
	int type = GELF_ST_TYPE(s->st_info);
	return name && name[0] && !mapping_symbol(name) && s->st_shndx != SHN_UNDEF && s->st_shndx != SHN_ABS &&
	       (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_NOTYPE || type == STT_OBJECT);
}

typedef int (*sym_fn)(void *ctx, const GElf_Sym *s, const char *name);

/* Call @p fn for every symbol of .symtab and .dynsym; stops when it returns non-zero. */
static int each_symbol(Elf *elf, sym_fn fn, void *ctx)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			if (!gelf_getsym(d, (int)i, &s))
				continue;
			const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
			int r = fn(ctx, &s, name);
			if (r)
				return r;
		}
	}
	return 0;
}

struct find_ctx {
	const char *want;
	GElf_Sym sym;
	int found;
};

static int find_fn(void *ctx, const GElf_Sym *s, const char *name)
{
	struct find_ctx *f = ctx;
	if (!code_symbol(s, name))
		return 0;
	size_t wl = strlen(f->want);
	/* .dynsym names carry no version; .symtab ones may ("memcpy@@GLIBC_2.17") */
	if (strncmp(name, f->want, wl) || (name[wl] && name[wl] != '@'))
		return 0;
	if (!f->found || (f->sym.st_size == 0 && s->st_size)) {
		f->sym = *s;
		f->found = 1;
	}
	return 0;
}

struct alias_ctx {
	uint64_t vaddr;
	char *list;
	size_t cap;
};

static int alias_fn(void *ctx, const GElf_Sym *s, const char *name)
{
	struct alias_ctx *a = ctx;
	if (!code_symbol(s, name) || s->st_value != a->vaddr || GELF_ST_TYPE(s->st_info) == STT_OBJECT)
		return 0;
	char clean[256];
	snprintf(clean, sizeof clean, "%s", name);
	char *at = strchr(clean, '@');
	if (at)
		*at = 0;
	/* already listed? */
	size_t cl = strlen(clean);
	for (const char *p = a->list; *p;) {
		const char *bar = strchr(p, '|');
		size_t l = bar ? (size_t)(bar - p) : strlen(p);
		if (l == cl && !strncmp(p, clean, l))
			return 0;
		p = bar ? bar + 1 : p + l;
	}
	size_t used = strlen(a->list);
	if (used + cl + 2 < a->cap)
		snprintf(a->list + used, a->cap - used, "%s%s", used ? "|" : "", clean);
	return 0;
}

static int file_offset(Elf *elf, uint64_t vaddr, uint64_t *off)
{
	size_t n;
	if (elf_getphdrnum(elf, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
		    vaddr < ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -1;
}

static int build_id_of(Elf *elf, uint8_t id[20])
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;
		while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((const char *)d->d_buf + name_off, "GNU", 4)) {
				size_t n = nh.n_descsz < 20 ? nh.n_descsz : 20;
				memset(id, 0, 20);
				memcpy(id, (const char *)d->d_buf + desc_off, n);
				return (int)n;
			}
		}
	}
	return 0;
}

int elfsym_build_id(const char *path, uint8_t id[20])
{
	struct elf_file f;
	if (open_elf(path, &f, NULL, 0) < 0)
		return 0;
	int n = build_id_of(f.elf, id);
	close_elf(&f);
	return n;
}

/* DEBUG_ROOT/.build-id/xx/rest.debug of @p path's build-id. */
static int debug_path(const char *path, const char *debug_root, char *out, size_t outlen)
{
	uint8_t id[20];
	int n = elfsym_build_id(path, id);
	if (n < 2 || !debug_root)
		return -1;
	int k = snprintf(out, outlen, "%s/.build-id/%02x/", debug_root, id[0]);
	for (int i = 1; i < n && k > 0 && (size_t)k < outlen; i++)
		k += snprintf(out + k, outlen - (size_t)k, "%02x", id[i]);
	if (k <= 0 || (size_t)k + 7 > outlen)
		return -1;
	strcat(out, ".debug");
	return access(out, R_OK);
}

int elfsym_find(const char *path, const char *debug_root, const char *name, struct elfsym_hit *hit, char *err,
		size_t errlen)
{
	struct elf_file f, dbg = { -1, NULL };
	if (open_elf(path, &f, err, errlen) < 0)
		return -1;
	memset(hit, 0, sizeof *hit);
	struct find_ctx fc = { name, { 0 }, 0 };
	each_symbol(f.elf, find_fn, &fc);
	Elf *symelf = f.elf;
	char dpath[1024];
	if (!fc.found && debug_path(path, debug_root, dpath, sizeof dpath) == 0 &&
	    open_elf(dpath, &dbg, NULL, 0) == 0) {
		each_symbol(dbg.elf, find_fn, &fc);
		symelf = dbg.elf;
	}
	int rc = -1;
	if (!fc.found) {
		snprintf(err, errlen, "%s: no symbol '%s'%s", path, name,
			 debug_root ? " (nor in a build-id debug file)" : "");
		goto out;
	}
	hit->vaddr = fc.sym.st_value;
	hit->size = fc.sym.st_size;
	/* addresses are the file's; its own program headers give the offset */
	if (file_offset(f.elf, hit->vaddr, &hit->file_offset) < 0) {
		snprintf(err, errlen, "%s: symbol '%s' at 0x%llx is in no PT_LOAD's file bytes", path, name,
			 (unsigned long long)hit->vaddr);
		goto out;
	}
	struct alias_ctx ac = { hit->vaddr, hit->aliases, sizeof hit->aliases };
	snprintf(hit->aliases, sizeof hit->aliases, "%s", name);
	each_symbol(symelf, alias_fn, &ac);
	if (symelf != f.elf)
		each_symbol(f.elf, alias_fn, &ac);
	rc = 0;
out:
	close_elf(&dbg);
	close_elf(&f);
	return rc;
}

struct next_ctx {
	uint64_t lo, hi;
	char *other;
	size_t otherlen;
	int found;
};

static int next_fn(void *ctx, const GElf_Sym *s, const char *name)
{
	struct next_ctx *n = ctx;
	int type = GELF_ST_TYPE(s->st_info);
	if (code_symbol(s, name) && (type == STT_FUNC || type == STT_GNU_IFUNC) && s->st_value > n->lo &&
	    s->st_value <= n->hi) {
		snprintf(n->other, n->otherlen, "%s", name);
		n->found = 1;
		return 1;
	}
	return 0;
}

int elfsym_next_start(const char *path, const char *debug_root, uint64_t vaddr, uint64_t off, char *other,
		      size_t otherlen)
{
	struct elf_file f, dbg = { -1, NULL };
	if (open_elf(path, &f, NULL, 0) < 0)
		return 0;
	struct next_ctx nc = { vaddr, vaddr + off, other, otherlen, 0 };
	each_symbol(f.elf, next_fn, &nc);
	char dpath[1024];
	if (!nc.found && debug_path(path, debug_root, dpath, sizeof dpath) == 0 && open_elf(dpath, &dbg, NULL, 0) == 0)
		each_symbol(dbg.elf, next_fn, &nc);
	close_elf(&dbg);
	close_elf(&f);
	return nc.found;
}

int elfsym_plt(const char *path, const char *import, struct elfsym_hit *hit, char *err, size_t errlen)
{
	struct elf_file f;
	if (open_elf(path, &f, err, errlen) < 0)
		return -1;
	memset(hit, 0, sizeof *hit);
	size_t shstrndx;
	Elf_Scn *scn = NULL, *plt = NULL, *rela = NULL;
	GElf_Shdr plt_sh = { 0 }, rela_sh = { 0 };
	int rc = -1;
	if (elf_getshdrstrndx(f.elf, &shstrndx)) {
		snprintf(err, errlen, "%s: no section names", path);
		goto out;
	}
	while ((scn = elf_nextscn(f.elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *n = elf_strptr(f.elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, ".plt")) {
			plt = scn;
			plt_sh = sh;
		} else if (n && !strcmp(n, ".rela.plt")) {
			rela = scn;
			rela_sh = sh;
		}
	}
	if (!plt || !rela || !rela_sh.sh_entsize) {
		snprintf(err, errlen, "%s: no .plt or .rela.plt", path);
		goto out;
	}
	size_t nrel = rela_sh.sh_size / rela_sh.sh_entsize;
	/* AArch64: a 32-byte PLT0, then one entry per relocation: 16 bytes, or 24 with BTI / PAC (binutils elfnn-aarch64.c) */
	const uint64_t header = 32;
	if (nrel == 0 || plt_sh.sh_size <= header || (plt_sh.sh_size - header) % nrel) {
		snprintf(err, errlen, "%s: .plt of %llu bytes does not divide into %zu entries after a 32-byte header", path,
			 (unsigned long long)plt_sh.sh_size, nrel);
		goto out;
	}
	uint64_t entry = (plt_sh.sh_size - header) / nrel;
	Elf_Data *d = elf_getdata(rela, NULL);
	Elf_Scn *dynsym = elf_getscn(f.elf, rela_sh.sh_link);
	GElf_Shdr ds;
	Elf_Data *dd = dynsym ? elf_getdata(dynsym, NULL) : NULL;
	if (!d || !dd || !gelf_getshdr(dynsym, &ds)) {
		snprintf(err, errlen, "%s: cannot read .rela.plt's symbols", path);
		goto out;
	}
	for (size_t i = 0; i < nrel; i++) {
		GElf_Rela r;
		GElf_Sym s;
		if (!gelf_getrela(d, (int)i, &r) || !gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &s))
			continue;
		const char *n = elf_strptr(f.elf, ds.sh_link, s.st_name);
		if (!n || strcmp(n, import))
			continue;
		hit->vaddr = plt_sh.sh_addr + header + i * entry;
		hit->size = entry;
		hit->plt_entry_size = entry;
		if (file_offset(f.elf, hit->vaddr, &hit->file_offset) < 0) {
			snprintf(err, errlen, "%s: PLT entry at 0x%llx is in no PT_LOAD", path, (unsigned long long)hit->vaddr);
			goto out;
		}
		snprintf(hit->aliases, sizeof hit->aliases, "%s@plt", import);
		rc = 0;
		goto out;
	}
	snprintf(err, errlen, "%s: no PLT entry for '%s'", path, import);
out:
	close_elf(&f);
	return rc;
}
