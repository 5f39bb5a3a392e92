/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel PCs to functions (kernel_syms.h): the symbol source of the kernel image and its modules. */
#include "kernel_syms.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "spe/analysis.h"

static const char kernel_prefix[] = "[kernel.kallsyms]";

enum kernel_map_kind ana_kernel_map_kind(const char *filename, const char **path, const char **ref_symbol)
{
	*ref_symbol = "";
	*path = filename ? filename : "";
	if (filename && !strncmp(filename, kernel_prefix, sizeof kernel_prefix - 1)) {
		*ref_symbol = filename + sizeof kernel_prefix - 1;
		*path = kernel_prefix;
		return KMAP_IMAGE;
	}
	return KMAP_MODULE;
}

int ana_kmodule_name(const char *path, char *out, size_t outlen)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	if (*base == '[') { /* [name] */
		base++;
		len = strcspn(base, "]");
	} else {
		static const char *const suffixes[] = { ".ko", ".ko.gz", ".ko.xz", ".ko.zst" };
		size_t cut = 0;
		for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
			size_t n = strlen(suffixes[i]);
			if (len > n && !strcmp(base + len - n, suffixes[i]))
				cut = n;
		}
		if (!cut)
			return -1; /* not a module file */
		len -= cut;
	}
	if (!len || len >= outlen)
		return -1;
	for (size_t i = 0; i < len; i++)
		out[i] = base[i] == '-' ? '_' : base[i];
	out[len] = 0;
	return 0;
}

int ana_ksyms_init(struct kernel_syms *k, const char *kallsyms, char *err, size_t errlen)
{
	memset(k, 0, sizeof *k);
	k->kallsyms_path = kallsyms;
	return kallsyms ? ana_kallsyms_read(kallsyms, &k->ks, err, errlen) : 0;
}

void ana_ksyms_fini(struct kernel_syms *k)
{
	spe_kallsyms_free(k->ks);
	memset(k, 0, sizeof *k);
}

void ana_ksyms_image_map(struct kernel_syms *k, const char *ref_symbol, uint64_t pgoff)
{
	/* perf writes one; a later one with a reference where the first had none completes it */
	if (k->has_image_map && k->ref_addr)
		return;
	k->has_image_map = 1;
	snprintf(k->ref_name, sizeof k->ref_name, "%s", ref_symbol ? ref_symbol : "");
	k->ref_addr = pgoff;
}

/* How the kallsyms file lines up with the recording's image: image_lined_up, delta and the note. */
static void line_up_kallsyms(struct kernel_syms *k, const char what[320])
{
	uint64_t file_ref;
	if (!k->has_image_map) {
		/* nothing to line it up with (spe-record writes no kernel MMAP): its addresses as they are */
		k->image_lined_up = 1;
		snprintf(k->image_note, sizeof k->image_note,
			 "%s, its addresses taken as they are (the recording has no kernel MMAP to line them up with: "
			 "right only if it was read on the recording's boot)",
			 what);
	} else if (!k->ref_addr || !*k->ref_name) {
		k->image_lined_up = 1;
		snprintf(k->image_note, sizeof k->image_note,
			 "%s, its addresses taken as they are (the recording's kernel MMAP does not say where the "
			 "kernel was: kptr_restrict at record time? right only if it was read on the recording's boot)",
			 what);
	} else if (!ana_kallsyms_ref(k->ks, k->ref_name, &file_ref)) {
		snprintf(k->image_note, sizeof k->image_note,
			 "%s has no %s, the symbol the recording's kernel MMAP places: it cannot be lined up with the "
			 "recording's kernel (KASLR), so it names none of its PCs",
			 what, k->ref_name);
	} else {
		k->image_lined_up = 1;
		k->delta = (int64_t)(file_ref - k->ref_addr);
		if (k->delta)
			snprintf(k->image_note, sizeof k->image_note,
				 "%s, lined up at %s: the kernel was %s0x%" PRIx64 " from where the file has it (another boot)",
				 what, k->ref_name, k->delta > 0 ? "-" : "+",
				 k->delta > 0 ? (uint64_t)k->delta : (uint64_t)-k->delta);
		else
			snprintf(k->image_note, sizeof k->image_note, "%s, lined up at %s", what, k->ref_name);
	}
}

/* The choice of source, at the first kernel PC, once the sideband is known. */
static void decide(struct kernel_syms *k)
{
	k->decided = 1;
	if (k->ks) {
		char what[320];
		snprintf(what, sizeof what, "--kallsyms=%.300s", k->kallsyms_path);
		line_up_kallsyms(k, what);
		return;
	}
	snprintf(k->image_note, sizeof k->image_note,
		 "none: give --kallsyms=FILE, a copy of /proc/kallsyms of the recorded machine");
}

static void module_refused(struct kernel_syms *k, const char *name, const char *why)
{
	k->modules_unnamed++;
	if (!*k->module_note)
		snprintf(k->module_note, sizeof k->module_note, "%.100s: %.180s", name, why);
}

/*
 * Module map @p m: the kallsyms group it takes its symbols from
 * (m->kernel_source), decided on first use.  A module is loaded where
 * there is room on each boot: its symbols are the file's only when the
 * image lines up as is and the file places all of them inside the map.
 */
static void decide_module(struct kernel_syms *k, struct attrib_mapping *m)
{
	m->kernel_source = -1; /* none, unless a group is found below */
	char name[256];
	if (ana_kmodule_name(m->path, name, sizeof name) < 0) {
		module_refused(k, m->path, "not a module file name");
		return;
	}
	if (!k->ks)
		return; /* the image's note says why */
	int g = ana_kallsyms_group(k->ks, name);
	uint64_t lo, hi;
	size_t n = 0;
	if (g > 0)
		ana_kallsyms_group_range(k->ks, g, &lo, &hi, &n);
	if (g <= 0 || !n)
		module_refused(k, name, "the kallsyms file lists no function of it");
	else if (!k->image_lined_up || k->delta)
		module_refused(k, name, "the kallsyms file is from another boot, where modules load elsewhere");
	else if (lo < m->start || hi > m->end)
		module_refused(k, name,
			       "the kallsyms file places its functions outside the recorded module (another boot, or the "
			       "module reloaded)");
	else {
		m->kernel_source = g;
		k->modules_named++;
	}
}

static int from_kallsyms(const struct kernel_syms *k, int group, int64_t delta, uint64_t pc, struct ksym_result *out)
{
	uint64_t start, size;
	const char *name = ana_kallsyms_find(k->ks, group, pc + (uint64_t)delta, &start, &size);
	if (!name)
		return 0;
	*out = (struct ksym_result){ .name = name, .start = start - (uint64_t)delta, .size = size };
	return 1;
}

int ana_ksyms_lookup(struct kernel_syms *k, struct attrib_mapping *m, uint64_t pc, struct ksym_result *out)
{
	if (!k->decided)
		decide(k);
	switch (m->kernel_kind) {
	case KMAP_KSYMBOL:
		*out = (struct ksym_result){ .name = m->path, .start = m->start, .size = m->end - m->start };
		return 1;
	case KMAP_IMAGE:
		return k->ks && k->image_lined_up && from_kallsyms(k, 0, k->delta, pc, out);
	case KMAP_MODULE:
		if (!m->kernel_source)
			decide_module(k, m);
		return m->kernel_source > 0 && from_kallsyms(k, m->kernel_source, 0, pc, out);
	case KMAP_NOWHERE:
		/* in no kernel map: named only when the recording has no kernel map at all (nothing to contradict) */
		if (k->has_image_map || !k->ks)
			return 0;
		const char *name = spe_kallsyms_lookup(k->ks, pc, &out->start, &out->size);
		out->name = name;
		return name != NULL;
	default:
		return 0;
	}
}

void ana_ksyms_note(const struct kernel_syms *k, char *out, size_t outlen)
{
	if (!k->decided) {
		*out = 0;
		return;
	}
	int n = snprintf(out, outlen, "kernel symbols: %s", k->image_note);
	if (n < 0 || (size_t)n >= outlen)
		return;
	if (k->modules_named || k->modules_unnamed)
		snprintf(out + n, outlen - (size_t)n, "; modules: %" PRIu64 " named by it, %" PRIu64 " not%s%s%s",
			 k->modules_named, k->modules_unnamed, *k->module_note ? " (" : "", k->module_note,
			 *k->module_note ? (k->modules_unnamed > 1 ? ", ...)" : ")") : "");
}
