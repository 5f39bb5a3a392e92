/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel symbols from a /proc/kallsyms copy: "ADDR TYPE NAME [module]" lines.
 * Only text symbols (t, T, w, W) are kept; a symbol's size is the distance
 * to the next one.  All-zero addresses (kptr_restrict) make the file useless
 * and are reported as an error rather than producing invented names.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe/analysis.h"
#include "spe/infile.h"
#include "util/grow.h"

struct ksym {
	uint64_t addr;
	char *name;
};

struct spe_kallsyms {
	struct ksym *syms;
	size_t n, cap;
};

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void spe_kallsyms_free(struct spe_kallsyms *ks)
{
	if (!ks)
		return;
	for (size_t i = 0; i < ks->n; i++)
		free(ks->syms[i].name);
	free(ks->syms);
	free(ks);
}

struct spe_kallsyms *spe_kallsyms_new(const char *path, char *err, size_t errlen)
{
	/* Not blocking on a FIFO, and not a directory read as an empty file. */
	FILE *f = spe_infile_fopen(path, NULL, err, errlen);
	if (!f)
		return NULL;
	struct spe_kallsyms *ks = calloc(1, sizeof *ks);
	char line[1024];
	unsigned long lineno = 0, nonzero = 0;
	while (ks && fgets(line, sizeof line, f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s: line %lu: longer than the %zu bytes a kallsyms line may have", path,
				 lineno, sizeof line - 2);
			spe_kallsyms_free(ks);
			ks = NULL;
			break;
		}
		char type, name[512];
		uint64_t addr;
		if (sscanf(line, "%" SCNx64 " %c %511s", &addr, &type, name) != 3) {
			snprintf(err, errlen, "%s: line %lu: not a kallsyms line", path, lineno);
			spe_kallsyms_free(ks);
			ks = NULL;
			break;
		}
		if (addr)
			nonzero++;
		if (!strchr("tTwW", type))
			continue;
		struct ksym *p = util_grow(ks->syms, &ks->cap, ks->n + 1, sizeof *p);
		if (!p) {
			spe_kallsyms_free(ks);
			ks = NULL;
			snprintf(err, errlen, "out of memory");
			break;
		}
		ks->syms = p;
		ks->syms[ks->n].addr = addr;
		ks->syms[ks->n].name = strdup(name);
		ks->n++;
	}
	fclose(f);
	if (ks && !nonzero) {
		snprintf(err, errlen, "%s: every address is 0 (read with kptr_restrict set?)", path);
		spe_kallsyms_free(ks);
		return NULL;
	}
	if (ks)
		qsort(ks->syms, ks->n, sizeof *ks->syms, by_addr);
	return ks;
}

const char *spe_kallsyms_lookup(const struct spe_kallsyms *ks, uint64_t addr, uint64_t *start, uint64_t *size)
{
	if (!ks || !ks->n || addr < ks->syms[0].addr)
		return NULL;
	size_t lo = 0, hi = ks->n; /* last symbol with syms[i].addr <= addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (lo + 1 == ks->n)
		return NULL; /* past the last symbol: its end is unknown */
	if (start)
		*start = ks->syms[lo].addr;
	if (size)
		*size = ks->syms[lo + 1].addr - ks->syms[lo].addr;
	return ks->syms[lo].name;
}
