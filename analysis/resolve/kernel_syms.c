/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel PCs to functions (kernel_syms.h): the symbol sources of the kernel image and its modules. */
#include "kernel_syms.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "build_id_table.h"
#include "kallsyms.h"
#include "kernel_notes.h"
#include "sym_internal.h"
#include "util/grow.h"

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

int ana_ksyms_init(struct kernel_syms *k, const struct spe_load_opts *opts, struct spe_symbolizer *sym,
		   const struct build_id_table *ids, char *err, size_t errlen)
{
	memset(k, 0, sizeof *k);
	k->sym = sym;
	k->ids = ids;
	k->kallsyms_path = opts->kallsyms;
	k->notes_path = "/sys/kernel/notes";
	k->running_kallsyms = "/proc/kallsyms";
	if ((opts->symfs && !(k->symfs = strdup(opts->symfs))) || ana_bid_roots_init(&k->roots, opts->buildid_dir) < 0) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	if (!opts->kallsyms)
		return 0;
	int rc = ana_kallsyms_read(opts->kallsyms, &k->file.ks, err, errlen);
	if (rc == 0 && !(k->file.path = strdup(opts->kallsyms)))
		rc = -spe_nomem;
	return rc;
}

void ana_ksyms_fini(struct kernel_syms *k)
{
	spe_kallsyms_free(k->file.ks);
	free(k->file.path);
	free(k->symfs);
	free(k->osrelease);
	ana_bid_roots_fini(&k->roots);
	for (size_t i = 0; i < k->n_modules; i++)
		ana_kmod_free(&k->modules[i].ko);
	free(k->modules);
	memset(k, 0, sizeof *k);
}

void ana_ksyms_image_map(struct kernel_syms *k, const char *ref_symbol, uint64_t pgoff, const char *build_id)
{
	/* perf writes one; a later one with a reference where the first had none completes it */
	if (k->has_image_map && k->ref_addr)
		return;
	k->has_image_map = 1;
	snprintf(k->ref_name, sizeof k->ref_name, "%s", ref_symbol ? ref_symbol : "");
	k->ref_addr = pgoff;
	if (build_id && *build_id)
		snprintf(k->image_bid, sizeof k->image_bid, "%s", build_id);
}

int ana_ksyms_osrelease(struct kernel_syms *k, const char *release)
{
	free(k->osrelease);
	k->osrelease = release && *release ? strdup(release) : NULL;
	return release && *release && !k->osrelease ? -spe_nomem : 0;
}

/* ---- the image ------------------------------------------------------------ */

/* How kallsyms file @p f lines up with the recording's image; the sentence into the note, after @p what. */
static void line_up(struct kernel_syms *k, struct ksyms_file *f, const char *what)
{
	uint64_t file_ref;
	if (!k->has_image_map) {
		/* nothing to line it up with (spe-record writes no kernel MMAP): its addresses as they are */
		f->lined_up = 1;
		snprintf(k->image_note, sizeof k->image_note,
			 "%.300s, its addresses taken as they are (the recording has no kernel MMAP to line them up with: "
			 "right only if it was read on the recording's boot)",
			 what);
	} else if (!k->ref_addr || !*k->ref_name) {
		f->lined_up = 1;
		snprintf(k->image_note, sizeof k->image_note,
			 "%.300s, its addresses taken as they are (the recording's kernel MMAP does not say where the "
			 "kernel was: kptr_restrict at record time? right only if it was read on the recording's boot)",
			 what);
	} else if (!ana_kallsyms_ref(f->ks, k->ref_name, &file_ref)) {
		snprintf(k->image_note, sizeof k->image_note,
			 "%.300s has no %s, the symbol the recording's kernel MMAP places: it cannot be lined up with the "
			 "recording's kernel (KASLR), so it names none of its PCs",
			 what, k->ref_name);
	} else {
		f->lined_up = 1;
		f->delta = (int64_t)(file_ref - k->ref_addr);
		if (f->delta)
			snprintf(k->image_note, sizeof k->image_note,
				 "%.300s, lined up at %s: the kernel was %s0x%" PRIx64 " from where the file has it (another boot)",
				 what, k->ref_name, f->delta > 0 ? "-" : "+",
				 f->delta > 0 ? (uint64_t)f->delta : (uint64_t)-f->delta);
		else
			snprintf(k->image_note, sizeof k->image_note, "%.300s, lined up at %s", what, k->ref_name);
	}
}

/* What was tried and why it did not do, appended to @p why. */
static void tried(char *why, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(why);
	if (n < len)
		snprintf(why + n, len - n, fmt, a, b);
}

/* A vmlinux with the recorded build-id, lined up through the reference symbol: 1 in use, 0 not. */
static int find_vmlinux(struct kernel_syms *k, char *why, size_t whylen)
{
	if (!k->sym)
		return 0;
	const char *r = k->osrelease ? k->osrelease : "";
	char paths[7][512];
	int n = 0;
	/* perf's vmlinux_path (tools/perf/util/symbol.c, vmlinux_path__init), R its HEADER_OSRELEASE */
	snprintf(paths[n++], sizeof paths[0], "vmlinux");
	snprintf(paths[n++], sizeof paths[0], "/boot/vmlinux");
	if (*r) {
		snprintf(paths[n++], sizeof paths[0], "/boot/vmlinux-%.400s", r);
		snprintf(paths[n++], sizeof paths[0], "/usr/lib/debug/boot/vmlinux-%.400s", r);
		snprintf(paths[n++], sizeof paths[0], "/lib/modules/%.400s/build/vmlinux", r);
		snprintf(paths[n++], sizeof paths[0], "/usr/lib/debug/lib/modules/%.400s/vmlinux", r);
		snprintf(paths[n++], sizeof paths[0], "/usr/lib/debug/boot/vmlinux-%.400s.debug", r);
	}
	struct spe_sym_binary *bin = NULL;
	const char *found = NULL;
	k->looking_up = 1;
	for (int i = 0; i < n && !bin; i++) {
		char full[4096 + 512];
		struct stat st;
		snprintf(full, sizeof full, "%.4000s%s%s", k->symfs ? k->symfs : "",
			 k->symfs && paths[i][0] != '/' ? "/" : "", paths[i]);
		if (stat(full, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		struct spe_sym_check c;
		bin = spe_sym_binary_check(k->sym, paths[i], k->image_bid, &c);
		if (c.match == SPE_SYM_MISMATCH)
			tried(why, whylen, "; %s has build-id %s", c.file, *c.file_build_id ? c.file_build_id : "(none)");
		found = paths[i];
	}
	if (!bin) { /* by build-id alone: the caches' copy, the debug directories, debuginfod */
		struct spe_sym_check c;
		bin = spe_sym_binary_check(k->sym, kernel_prefix, k->image_bid, &c);
		found = NULL;
	}
	k->looking_up = 0;
	if (!bin) {
		tried(why, whylen, "; no vmlinux with it%s%s", k->symfs ? " under " : "", k->symfs ? k->symfs : "");
		if (!*r)
			tried(why, whylen, "%s%s", " (the recording names no release: only vmlinux and /boot/vmlinux looked at)", "");
		return 0;
	}
	uint64_t link_ref;
	char what[320];
	snprintf(what, sizeof what, "%.300s", spe_sym_binary_path(bin) ? spe_sym_binary_path(bin) : found);
	if (!k->ref_addr || !*k->ref_name) {
		tried(why, whylen, "; %s has it, but the recording's kernel MMAP does not say where the kernel was%s",
		      what, " (kptr_restrict at record time?)");
		return 0;
	}
	if (!ana_kelf_symbol(ana_sym_binary_elf(bin), k->ref_name, &link_ref)) {
		tried(why, whylen, "; %s has it, but no %s to line it up with", what, k->ref_name);
		return 0;
	}
	k->vmlinux = bin;
	k->vmlinux_delta = (int64_t)(link_ref - k->ref_addr);
	snprintf(k->image_note, sizeof k->image_note, "%s (build-id %s), lined up at %s%s", what, k->image_bid,
		 k->ref_name, k->vmlinux_delta ? " (KASLR)" : "");
	return 1;
}

/* Read kallsyms file @p path for @p what; 1 read, 0 not (why appended). */
static int read_kallsyms(struct kernel_syms *k, const char *path, const char *what, char *why, size_t whylen)
{
	char err[400];
	if (ana_kallsyms_read(path, &k->file.ks, err, sizeof err) < 0) {
		tried(why, whylen, "; %s unusable: %s", what, err);
		return 0;
	}
	if (!(k->file.path = strdup(path))) {
		spe_kallsyms_free(k->file.ks);
		k->file.ks = NULL;
		return 0;
	}
	snprintf(k->file.what, sizeof k->file.what, "%.260s (build-id %.64s)", what, k->image_bid);
	return 1;
}

/* The build-id caches' kallsyms of the recorded kernel (perf record's copy): 1 read, 0 none. */
static int find_cached_kallsyms(struct kernel_syms *k, char *why, size_t whylen)
{
	for (size_t i = 0; i < k->roots.n; i++) {
		char path[4096];
		struct stat st;
		/* <root>/[kernel.kallsyms]/<id>/kallsyms; the older layout's <root>/[kernel.kallsyms]/<id> file */
		snprintf(path, sizeof path, "%s/%s/%s/kallsyms", k->roots.dir[i], kernel_prefix, k->image_bid);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			snprintf(path, sizeof path, "%s/%s/%s", k->roots.dir[i], kernel_prefix, k->image_bid);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return read_kallsyms(k, path, path, why, whylen);
	}
	tried(why, whylen, "; no kallsyms of it in the build-id caches%s%s", "", "");
	return 0;
}

/* The running kernel's /proc/kallsyms, when its build-id is the recorded one: 1 read, 0 not. */
static int find_running_kallsyms(struct kernel_syms *k, char *why, size_t whylen)
{
	char running[KERNEL_BID_HEX_MAX];
	int rc = ana_kernel_notes_build_id(k->notes_path, running);
	if (rc <= 0) {
		tried(why, whylen, "; the running kernel's build-id is not known (%s %s)", k->notes_path,
		      rc < 0 ? "unreadable" : "has none");
		return 0;
	}
	if (!ana_bid_equal(k->image_bid, running)) {
		tried(why, whylen, "; the running kernel has build-id %s%s", running, "");
		return 0;
	}
	char what[160];
	snprintf(what, sizeof what, "%.100s of the running kernel", k->running_kallsyms);
	return read_kallsyms(k, k->running_kallsyms, what, why, whylen);
}

/* The choice of sources, at the first kernel PC, once the sideband is known. */
static void decide(struct kernel_syms *k)
{
	k->decided = 1;
	char what[320];
	if (k->file.ks) { /* --kallsyms: only it */
		snprintf(what, sizeof what, "--kallsyms=%.300s", k->kallsyms_path);
		line_up(k, &k->file, what);
		k->image_from_file = k->file.lined_up;
		return;
	}
	if (!*k->image_bid && k->ids) {
		const char *id = ana_bid_table_find_kernel(k->ids, kernel_prefix);
		if (id)
			snprintf(k->image_bid, sizeof k->image_bid, "%s", id);
	}
	if (!*k->image_bid) {
		snprintf(k->image_note, sizeof k->image_note,
			 "none: the recording names no kernel build-id, so no vmlinux, cached kallsyms or this machine's "
			 "/proc/kallsyms can be checked against it (perf would read /proc/kallsyms unchecked); give "
			 "--kallsyms=FILE, a copy of /proc/kallsyms of the recorded machine");
		return;
	}
	char why[700] = "";
	if (find_vmlinux(k, why, sizeof why)) {
		/* modules' functions from a kallsyms file of the recording's kernel, if there is one */
		char spare[700] = "";
		if (find_cached_kallsyms(k, spare, sizeof spare) || find_running_kallsyms(k, spare, sizeof spare)) {
			char saved[sizeof k->image_note];
			snprintf(saved, sizeof saved, "%s", k->image_note);
			line_up(k, &k->file, "modules"); /* sets delta; the note stays the vmlinux's */
			snprintf(k->image_note, sizeof k->image_note, "%s", saved);
		}
		return;
	}
	if (find_cached_kallsyms(k, why, sizeof why) || find_running_kallsyms(k, why, sizeof why)) {
		line_up(k, &k->file, k->file.what);
		k->image_from_file = k->file.lined_up;
		return;
	}
	snprintf(k->image_note, sizeof k->image_note, "none for the recording's kernel, build-id %s%s: give --kallsyms=FILE",
		 k->image_bid, why);
}

/* ---- modules -------------------------------------------------------------- */

static void module_refused(struct kernel_syms *k, const char *name, const char *why)
{
	k->modules_unnamed++;
	if (!*k->module_note)
		snprintf(k->module_note, sizeof k->module_note, "%.100s: %.280s", name, why);
}

/* Module map @p m's kallsyms group, under the rule of kernel_syms.h; -1 with why. */
static int module_group(struct kernel_syms *k, const struct attrib_mapping *m, const char *name, char *why,
			size_t whylen)
{
	if (!k->file.ks)
		return snprintf(why, whylen, "no kallsyms file"), -1;
	int g = ana_kallsyms_group(k->file.ks, name);
	uint64_t lo, hi;
	size_t n = 0;
	if (g > 0)
		ana_kallsyms_group_range(k->file.ks, g, &lo, &hi, &n);
	if (g <= 0 || !n)
		return snprintf(why, whylen, "the kallsyms file lists no function of it"), -1;
	if (!k->file.lined_up || k->file.delta)
		return snprintf(why, whylen, "the kallsyms file is from another boot, where modules load elsewhere"), -1;
	if (lo < m->start || hi > m->end)
		return snprintf(why, whylen,
				"the kallsyms file places its functions outside the recorded module (another boot, or "
				"the module reloaded)"),
		       -1;
	return g;
}

/* Module map @p m's .ko under --symfs, with its recorded build-id: 1 read into @p ko, 0 not (why). */
static int module_ko(struct kernel_syms *k, const struct attrib_mapping *m, struct kmod_syms *ko, char *why,
		     size_t whylen)
{
	const char *id = m->build_id ? m->build_id : k->ids ? ana_bid_table_find_kernel(k->ids, m->path) : NULL;
	if (m->path[0] != '/')
		return snprintf(why, whylen, "%s", *why ? why : "no file recorded for it"), 0;
	if (!id) {
		size_t n = strlen(why);
		snprintf(why + n, whylen - n, "%sno build-id recorded for its .ko", n ? "; " : "");
		return 0;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s%s", k->symfs ? k->symfs : "", m->path);
	char ko_why[300] = "";
	int rc = ana_kmod_read(path, id, ko, ko_why, sizeof ko_why);
	if (rc <= 0) {
		size_t n = strlen(why);
		snprintf(why + n, whylen - n, "%s%s", n ? "; " : "", rc < 0 ? "its .ko is not there" : ko_why);
	}
	return rc > 0;
}

/* Module map @p m's source (m->kernel_source), decided on first use. */
static void decide_module(struct kernel_syms *k, struct attrib_mapping *m)
{
	m->kernel_source = -1; /* none, unless one is found below */
	char name[256], why[600] = "";
	if (ana_kmodule_name(m->path, name, sizeof name) < 0) {
		module_refused(k, m->path, "not a module file name");
		return;
	}
	struct kmodule mod = { .group = module_group(k, m, name, why, sizeof why) };
	if (mod.group < 0)
		mod.has_ko = module_ko(k, m, &mod.ko, why, sizeof why);
	if (mod.group < 0 && !mod.has_ko) {
		module_refused(k, name, why);
		return;
	}
	struct kmodule *p = util_grow(k->modules, &k->cap_modules, k->n_modules + 1, sizeof *p);
	if (!p) {
		ana_kmod_free(&mod.ko);
		module_refused(k, name, "out of memory");
		return;
	}
	k->modules = p;
	p[k->n_modules++] = mod;
	m->kernel_source = (int)k->n_modules;
	if (mod.group > 0)
		k->modules_kallsyms++;
	else
		k->modules_ko++;
}

/* ---- lookups ---------------------------------------------------------------- */

static int from_kallsyms(const struct kernel_syms *k, int group, int64_t delta, uint64_t pc, struct ksym_result *out)
{
	uint64_t start, size;
	const char *name = ana_kallsyms_find(k->file.ks, group, pc + (uint64_t)delta, &start, &size);
	if (!name)
		return 0;
	*out = (struct ksym_result){ .name = name, .start = start - (uint64_t)delta, .size = size };
	return 1;
}

static int from_vmlinux(struct kernel_syms *k, uint64_t pc, struct ksym_result *out)
{
	memset(out, 0, sizeof *out);
	out->bin = k->vmlinux;
	out->vaddr = pc + (uint64_t)k->vmlinux_delta;
	spe_sym_lookup(k->vmlinux, out->vaddr, &out->sr);
	if (!out->sr.function)
		return 0;
	out->name = out->sr.function;
	out->start = out->sr.function_start - (uint64_t)k->vmlinux_delta;
	out->size = out->sr.function_size;
	return 1;
}

static int from_module(struct kernel_syms *k, struct attrib_mapping *m, uint64_t pc, struct ksym_result *out)
{
	if (!m->kernel_source)
		decide_module(k, m);
	if (m->kernel_source <= 0)
		return 0;
	const struct kmodule *mod = &k->modules[m->kernel_source - 1];
	if (mod->group > 0)
		return from_kallsyms(k, mod->group, 0, pc, out);
	const struct kmod_fn *f = ana_kmod_find(&mod->ko, pc - m->start);
	if (!f)
		return 0;
	*out = (struct ksym_result){ .name = f->name, .start = m->start + f->start, .size = f->size };
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
		if (k->vmlinux)
			return from_vmlinux(k, pc, out);
		return k->image_from_file && from_kallsyms(k, 0, k->file.delta, pc, out);
	case KMAP_MODULE:
		return from_module(k, m, pc, out);
	case KMAP_NOWHERE:
		/* in no kernel map: named only when the recording has no kernel map at all (nothing to contradict) */
		if (k->has_image_map || !k->file.ks || !k->image_from_file)
			return 0;
		memset(out, 0, sizeof *out);
		out->name = spe_kallsyms_lookup(k->file.ks, pc, &out->start, &out->size);
		return out->name != NULL;
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
	if (n < 0 || (size_t)n >= outlen || !(k->modules_kallsyms || k->modules_ko || k->modules_unnamed))
		return;
	snprintf(out + n, outlen - (size_t)n,
		 "; modules: %" PRIu64 " named by the kallsyms file, %" PRIu64 " by their .ko, %" PRIu64 " not%s%s%s",
		 k->modules_kallsyms, k->modules_ko, k->modules_unnamed, *k->module_note ? " (" : "", k->module_note,
		 *k->module_note ? (k->modules_unnamed > 1 ? ", ...)" : ")") : "");
}
