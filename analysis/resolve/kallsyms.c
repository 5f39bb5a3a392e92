/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel symbols from a /proc/kallsyms copy: "ADDR TYPE NAME" lines, a
 * module's with "\t[MODULE]" after the name (kernel/kallsyms.c,
 * s_show).  The symbols are kept in groups: the kernel image's, and one per
 * module.  As perf reads it (tools/perf/util/symbol.c), a function (t, T, w,
 * W) ends where the next function or data object (d, D, b, B) starts; unlike
 * perf, a PC inside a data object has no function (perf names the object),
 * and a group's last symbol ends at the next symbol of any type above it,
 * else its end is unknown (perf makes it a page).  Of the symbols at one
 * address the one listed last is kept, the one perf 6.1 shows (it keeps
 * them all and gives only that one a size: symbols__fixup_end).  A file whose addresses are all 0 (read with
 * kptr_restrict set) names nothing and is refused rather than producing
 * invented names, as is a line that is not a kallsyms line.
 */
#include "kallsyms.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe/analysis.h"
#include "spe/infile.h"
#include "util/grow.h"

/* KSYM_NAME_LEN is 512 since Linux 6.1 (128 before): a line longer than this is not kallsyms */
#define LINE_MAX_BYTES 1024

struct ksym {
	uint64_t addr, end;  /* end 0: unknown */
	uint32_t name;       /* offset in the name pool */
	uint32_t group;      /* 0: the image; else 1 + module index */
	uint32_t line;       /* file order, for the choice among aliases */
	uint8_t text;        /* names code (t, T, w, W) */
	uint8_t kept;        /* ends the symbol before it (text, or data: d, D, b, B) */
};

struct kgroup {
	uint32_t module;     /* name offset in the pool (the image: none) */
	size_t first, n;     /* its text symbols in syms[], by address */
	uint64_t lo, hi;     /* its text symbols' addresses: [lo, hi) (hi: the last one's end, or its start + 1) */
};

struct spe_kallsyms {
	struct ksym *syms;
	size_t n, cap;
	char *pool;          /* names, NUL-terminated */
	size_t pool_len, pool_cap;
	struct kgroup *groups; /* [0] the image */
	size_t n_groups, cap_groups;
	uint64_t text_addr, stext_addr; /* the image's _text and _stext, first listed */
	int has_text, has_stext;
};

static uint32_t pool_add(struct spe_kallsyms *ks, const char *s, size_t len)
{
	char *p = util_grow(ks->pool, &ks->pool_cap, ks->pool_len + len + 1, 1);
	if (!p || ks->pool_len + len + 1 > UINT32_MAX)
		return UINT32_MAX;
	ks->pool = p;
	memcpy(p + ks->pool_len, s, len);
	p[ks->pool_len + len] = 0;
	uint32_t at = (uint32_t)ks->pool_len;
	ks->pool_len += len + 1;
	return at;
}

/* The group of module @p name (length @p len), made on first sight; UINT32_MAX without memory. */
static uint32_t group_of(struct spe_kallsyms *ks, const char *name, size_t len)
{
	/* a module's lines come together: the last group first */
	for (size_t i = ks->n_groups; i-- > 1;) {
		const char *m = ks->pool + ks->groups[i].module;
		if (strlen(m) == len && !memcmp(m, name, len))
			return (uint32_t)i;
	}
	struct kgroup *g = util_grow(ks->groups, &ks->cap_groups, ks->n_groups + 1, sizeof *g);
	if (!g)
		return UINT32_MAX;
	ks->groups = g;
	uint32_t at = pool_add(ks, name, len);
	if (at == UINT32_MAX)
		return UINT32_MAX;
	memset(&g[ks->n_groups], 0, sizeof *g);
	g[ks->n_groups].module = at;
	return (uint32_t)ks->n_groups++;
}

static int by_group_addr_line(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

void spe_kallsyms_free(struct spe_kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->pool);
	free(ks->groups);
	free(ks);
}

/*
 * One line: "ADDR TYPE NAME", a module's "ADDR TYPE NAME\t[MODULE]".
 * 1 with the fields set, 0 when it is not such a line.
 */
static int parse_line(char *line, uint64_t *addr, char *type, char **name, size_t *name_len, char **module,
		      size_t *module_len)
{
	char *p = line, *end;
	errno = 0;
	*addr = strtoull(p, &end, 16);
	if (end == p || errno || (*end != ' ' && *end != '\t'))
		return 0;
	p = end + strspn(end, " \t");
	if (!*p || (p[1] != ' ' && p[1] != '\t'))
		return 0;
	*type = *p;
	p += 1 + strspn(p + 1, " \t");
	*name = p;
	*name_len = strcspn(p, " \t\r\n");
	if (!*name_len)
		return 0;
	p += *name_len;
	p += strspn(p, " \t");
	*module = NULL;
	*module_len = 0;
	if (*p == '[') {
		char *close = strchr(p, ']');
		if (!close || close == p + 1)
			return 0;
		*module = p + 1;
		*module_len = (size_t)(close - p - 1);
		p = close + 1;
	}
	return p[strspn(p, " \t\r\n")] == 0;
}

/* Symbols that end the one before them, as perf keeps them (symbol_type__filter in tools/perf/util/symbol.c). */
static int bounds(char type)
{
	return strchr("tTwWdDbB", type) != NULL;
}

/*
 * Sort; of the symbols at one address keep the one listed last; give each
 * its end: the next kept symbol's address, for a group's last one the next
 * symbol of any type above it, else unknown (0).  Data symbols stay, to end
 * the function before them; they name nothing (ana_kallsyms_find).
 */
static int finish(struct spe_kallsyms *ks)
{
	qsort(ks->syms, ks->n, sizeof *ks->syms, by_group_addr_line);
	size_t out = 0;
	for (size_t i = 0; i < ks->n;) {
		size_t j = i; /* the group: [i, j) */
		uint32_t g = ks->syms[i].group;
		while (j < ks->n && ks->syms[j].group == g)
			j++;
		struct kgroup *grp = &ks->groups[g];
		grp->first = out;
		uint64_t above = 0; /* the lowest address of any symbol above the last kept one */
		int have_above = 0;
		for (size_t k = i; k < j; k++) {
			const struct ksym s = ks->syms[k];
			if (!s.kept) {
				if (out > grp->first && s.addr > ks->syms[out - 1].addr && !have_above)
					above = s.addr, have_above = 1;
				continue;
			}
			if (out > grp->first && ks->syms[out - 1].addr == s.addr)
				out--; /* an alias listed later replaces it */
			else if (out > grp->first)
				ks->syms[out - 1].end = s.addr;
			ks->syms[out] = s;
			ks->syms[out].end = 0;
			have_above = 0;
			out++;
		}
		grp->n = out - grp->first;
		if (grp->n) {
			struct ksym *last = &ks->syms[out - 1];
			if (have_above)
				last->end = above;
			grp->lo = ks->syms[grp->first].addr;
			grp->hi = last->end ? last->end : last->addr + 1;
		}
		i = j;
	}
	ks->n = out;
	return 0;
}

int ana_kallsyms_read(const char *path, struct spe_kallsyms **out, char *err, size_t errlen)
{
	*out = NULL;
	int code = 0;
	/* Not blocking on a FIFO, and not a directory read as an empty file. */
	FILE *f = spe_infile_fopen(path, &code, err, errlen);
	if (!f)
		return code < 0 ? code : -spe_io;
	int rc = ana_kallsyms_parse(f, path, out, err, errlen);
	fclose(f);
	return rc;
}

int ana_kallsyms_parse(FILE *f, const char *path, struct spe_kallsyms **out, char *err, size_t errlen)
{
	*out = NULL;
	struct spe_kallsyms *ks = calloc(1, sizeof *ks);
	int rc = ks ? 0 : -spe_nomem;
	if (ks && group_of(ks, "", 0) == UINT32_MAX) /* group 0: the image */
		rc = -spe_nomem;
	char line[LINE_MAX_BYTES + 2];
	unsigned long lineno = 0, nonzero = 0;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s: line %lu: longer than the %d bytes a kallsyms line may have", path,
				 lineno, LINE_MAX_BYTES);
			rc = -spe_bad_input;
			break;
		}
		uint64_t addr;
		char type, *name, *module;
		size_t name_len, module_len;
		if (!parse_line(line, &addr, &type, &name, &name_len, &module, &module_len)) {
			line[strcspn(line, "\r\n")] = 0;
			snprintf(err, errlen, "%s: line %lu: not a kallsyms line (ADDRESS TYPE NAME [MODULE]): \"%.80s\"",
				 path, lineno, line);
			rc = -spe_bad_input;
			break;
		}
		if (addr)
			nonzero++;
		uint32_t g = module ? group_of(ks, module, module_len) : 0;
		if (!module && !ks->has_text && name_len == 5 && !memcmp(name, "_text", 5))
			ks->text_addr = addr, ks->has_text = 1;
		if (!module && !ks->has_stext && name_len == 6 && !memcmp(name, "_stext", 6))
			ks->stext_addr = addr, ks->has_stext = 1;
		struct ksym *p = g == UINT32_MAX ? NULL : util_grow(ks->syms, &ks->cap, ks->n + 1, sizeof *p);
		uint32_t at = p ? pool_add(ks, name, name_len) : UINT32_MAX;
		if (!p || at == UINT32_MAX) {
			if (p)
				ks->syms = p;
			rc = -spe_nomem;
			break;
		}
		ks->syms = p;
		ks->syms[ks->n++] = (struct ksym){ .addr = addr, .name = at, .group = g, .line = (uint32_t)lineno,
						   .text = strchr("tTwW", type) != NULL, .kept = bounds(type) };
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		rc = -spe_io;
	}
	if (rc == -spe_nomem)
		snprintf(err, errlen, "%s: out of memory", path);
	if (rc == 0 && !nonzero) {
		snprintf(err, errlen, "%s: %s", path,
			 lineno ? "every address is 0 (read with kptr_restrict set? read it as root, or with "
				  "/proc/sys/kernel/kptr_restrict at 0)"
				: "empty: no symbols");
		rc = -spe_bad_input;
	}
	if (rc == 0)
		rc = finish(ks);
	if (rc < 0) {
		spe_kallsyms_free(ks);
		return rc;
	}
	*out = ks;
	return 0;
}

struct spe_kallsyms *spe_kallsyms_new(const char *path, char *err, size_t errlen)
{
	struct spe_kallsyms *ks;
	return ana_kallsyms_read(path, &ks, err, errlen) < 0 ? NULL : ks;
}

int ana_kallsyms_groups(const struct spe_kallsyms *ks)
{
	return (int)ks->n_groups;
}

int ana_kallsyms_group(const struct spe_kallsyms *ks, const char *module)
{
	if (!module)
		return 0;
	for (size_t i = 1; ks && i < ks->n_groups; i++)
		if (!strcmp(ks->pool + ks->groups[i].module, module))
			return (int)i;
	return -1;
}

void ana_kallsyms_group_range(const struct spe_kallsyms *ks, int group, uint64_t *lo, uint64_t *hi, size_t *n)
{
	const struct kgroup *g = &ks->groups[group];
	*lo = g->lo;
	*hi = g->hi;
	*n = g->n;
}

const char *ana_kallsyms_find(const struct spe_kallsyms *ks, int group, uint64_t addr, uint64_t *start,
			      uint64_t *size)
{
	if (!ks || group < 0 || (size_t)group >= ks->n_groups)
		return NULL;
	const struct kgroup *g = &ks->groups[group];
	if (!g->n || addr < g->lo)
		return NULL;
	size_t lo = g->first, hi = g->first + g->n; /* the last symbol with addr <= @p addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	const struct ksym *s = &ks->syms[lo];
	if (!s->text || !s->end || addr >= s->end)
		return NULL; /* data, or past the last symbol: its end is unknown */
	if (start)
		*start = s->addr;
	if (size)
		*size = s->end - s->addr;
	return ks->pool + s->name;
}

int ana_kallsyms_ref(const struct spe_kallsyms *ks, const char *name, uint64_t *addr)
{
	if (!strcmp(name, "_text") && ks->has_text)
		return *addr = ks->text_addr, 1;
	if (!strcmp(name, "_stext") && ks->has_stext)
		return *addr = ks->stext_addr, 1;
	return 0;
}

const char *spe_kallsyms_lookup(const struct spe_kallsyms *ks, uint64_t addr, uint64_t *start, uint64_t *size)
{
	if (!ks)
		return NULL;
	/* the image, else the module whose symbols span @p addr */
	for (size_t g = 0; g < ks->n_groups; g++) {
		if (g && (addr < ks->groups[g].lo || addr >= ks->groups[g].hi))
			continue;
		const char *name = ana_kallsyms_find(ks, (int)g, addr, start, size);
		if (name)
			return name;
	}
	return NULL;
}
