/* SPDX-License-Identifier: Apache-2.0 */
/* Data addresses to data objects during a load; see data_attrib.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_attrib.h"
#include "util/grow.h"

struct dattr_image {
	int pid;
	uint64_t start, end, pgoff;
	char *path, *build_id;
	int64_t mapping_id;
	int tried;                 /* binary and bias looked up */
	struct spe_sym_binary *bin;
	struct dobj_vars *vars;    /* owned by the first image of the binary, shared by the rest */
	int owns_vars;
	uint64_t bias;             /* runtime = ELF vaddr + bias */
	uint64_t lo, hi;           /* runtime span of the binary's PT_LOAD segments */
};

struct dattr_map {
	int pid;
	uint64_t start, end, pgoff;
	uint32_t prot, flags;
	char *path;
	int64_t mapping_id;
};

void ana_data_attrib_init(struct data_attrib *a, const struct spe_row_sink *sink, struct spe_row_ids *next,
			  int64_t source_id, struct spe_symbolizer *sym, const struct build_id_table *recorded_ids)
{
	memset(a, 0, sizeof *a);
	a->recorded_ids = recorded_ids;
	a->sink = sink;
	a->next = next;
	a->source_id = source_id;
	a->sym = sym;
}

void ana_data_attrib_fini(struct data_attrib *a)
{
	for (size_t i = 0; i < a->n_images; i++) {
		if (a->images[i].owns_vars)
			ana_dobj_vars_free(a->images[i].vars);
		free(a->images[i].path);
		free(a->images[i].build_id);
	}
	free(a->images);
	for (size_t i = 0; i < a->n_maps; i++)
		free(a->maps[i].path);
	free(a->maps);
	ana_pc_cache_free(&a->pages);
	ana_pc_cache_free(&a->objects);
	memset(a, 0, sizeof *a);
}

int ana_data_attrib_add_image(struct data_attrib *a, int pid, uint64_t start, uint64_t len, uint64_t pgoff,
			      const char *path, const char *build_id, int64_t mapping_id)
{
	struct dattr_image *p = util_grow(a->images, &a->cap_images, a->n_images + 1, sizeof *p);
	if (!p)
		return -spe_nomem;
	a->images = p;
	struct dattr_image *im = &a->images[a->n_images];
	memset(im, 0, sizeof *im);
	im->pid = pid;
	im->start = start;
	im->end = start + len;
	im->pgoff = pgoff;
	im->path = strdup(path ? path : "");
	im->build_id = build_id && *build_id ? strdup(build_id) : NULL;
	im->mapping_id = mapping_id;
	if (!im->path)
		return -spe_nomem;
	a->n_images++;
	return 0;
}

int ana_data_attrib_add_map(struct data_attrib *a, int pid, uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot,
			    uint32_t flags, const char *path, int64_t mapping_id)
{
	struct dattr_map *p = util_grow(a->maps, &a->cap_maps, a->n_maps + 1, sizeof *p);
	if (!p)
		return -spe_nomem;
	a->maps = p;
	a->maps[a->n_maps] = (struct dattr_map){ .pid = pid, .start = start, .end = start + len, .pgoff = pgoff,
						 .prot = prot, .flags = flags, .path = strdup(path ? path : ""),
						 .mapping_id = mapping_id };
	if (!a->maps[a->n_maps].path)
		return -spe_nomem;
	a->n_maps++;
	return 0;
}

/* Open the image's binary, its variables and its load bias, once. */
static void open_image(struct data_attrib *a, struct dattr_image *im)
{
	im->tried = 1;
	const char *build_id = im->build_id;
	if (!build_id && a->recorded_ids)
		build_id = ana_bid_table_find(a->recorded_ids, im->path, im->pid);
	if (!a->sym || !(im->bin = spe_sym_binary(a->sym, im->path, build_id)))
		return;
	uint64_t vaddr;
	if (spe_sym_offset_to_vaddr(im->bin, im->pgoff, &vaddr) != 0)
		return;
	for (size_t i = 0; i < a->n_images && !im->vars; i++)
		if (&a->images[i] != im && a->images[i].bin == im->bin && a->images[i].vars)
			im->vars = a->images[i].vars;
	if (!im->vars) {
		im->vars = ana_dobj_vars_new(im->bin);
		im->owns_vars = im->vars != NULL;
	}
	if (!im->vars)
		return;
	im->bias = im->start - vaddr;
	uint64_t lo, hi;
	ana_dobj_vars_span(im->vars, &lo, &hi);
	im->lo = lo + im->bias;
	im->hi = hi + im->bias;
}

static int64_t insert_object(struct data_attrib *a, int pid, int kind, const char *name, int64_t mapping_id,
			     uint64_t start, uint64_t size, const char *type, const char *file, int line)
{
	uint64_t key = pc_cache_key2(pc_cache_key2((uint64_t)(int64_t)pid, (uint64_t)kind), start);
	const int64_t *known = ana_pc_cache_find_id(&a->objects, key);
	if (known)
		return *known;
	struct spe_row_data_object row = { .id = a->next->data_object,
					   .source_id = a->source_id,
					   .pid = pid >= 0 ? pid : -1,
					   .kind = kind,
					   .name = name,
					   .mapping_id = mapping_id,
					   .start = start,
					   .size = size,
					   .type = type,
					   .file = file,
					   .line = line > 0 ? line : 0 };
	int rc = a->sink->data_objects(a->sink->ctx, &row, 1);
	if (rc < 0) {
		snprintf(a->err, sizeof a->err, "data_object: %s", a->sink->errmsg(a->sink->ctx));
		return rc;
	}
	if (ana_pc_cache_put_id(&a->objects, key, row.id) < 0) {
		snprintf(a->err, sizeof a->err, "out of memory");
		return -spe_nomem;
	}
	a->next->data_object++;
	return row.id;
}

/* The object of a variable or section of image @p im at runtime address @p va, 0 if none. */
static int64_t image_object(struct data_attrib *a, const struct dattr_image *im, int pid, uint64_t va)
{
	const struct dobj_var *v = ana_dobj_vars_lookup(im->vars, va - im->bias);
	if (!v)
		return 0;
	char name[512];
	const char *n = v->name;
	if (v->kind == DOBJ_SECTION) {
		/* ".bss of datawork-pie": the section alone says little in a process of many binaries */
		const char *base = strrchr(im->path, '/');
		snprintf(name, sizeof name, "%s of %s", v->name, base ? base + 1 : im->path);
		n = name;
	}
	return insert_object(a, pid, v->kind, n, im->mapping_id, v->start + im->bias, v->size, v->type, v->file,
			     v->line);
}

/* The latest-added data mapping of @p pid holding @p va (mappings may be replaced over time). */
static const struct dattr_map *find_map(const struct data_attrib *a, int pid, uint64_t va)
{
	for (size_t i = a->n_maps; i > 0; i--) {
		const struct dattr_map *m = &a->maps[i - 1];
		if (va >= m->start && va < m->end && (m->pid == pid || m->pid < 0))
			return m;
	}
	return NULL;
}

/* The object of the data mapping holding @p va, 0 if none. */
static int64_t map_object(struct data_attrib *a, int pid, uint64_t va)
{
	const struct dattr_map *m = find_map(a, pid, va);
	if (!m)
		return 0;
	char name[4200];
	int kind = ana_dobj_mapping_kind(m->path, m->prot, m->flags, m->pgoff, name, sizeof name);
	return insert_object(a, pid, kind, name, m->mapping_id, m->start, m->end - m->start, NULL, NULL, 0);
}

/* The key of the memo of @p pid's page of @p va. */
static uint64_t page_key(int pid, uint64_t va)
{
	return pc_cache_key2((uint64_t)(int64_t)pid, va >> 12);
}

void ana_data_attrib_prefetch(const struct data_attrib *a, int pid, uint64_t va)
{
	ana_pc_cache_prefetch(&a->pages, page_key(pid, va));
}

int64_t ana_data_attrib_resolve(struct data_attrib *a, int pid, uint64_t va)
{
	uint64_t key = page_key(pid, va);
	const int64_t *memo = ana_pc_cache_find_id(&a->pages, key);
	int64_t found = 0; /* -(image index + 1), or an object id */
	if (memo) {
		found = *memo;
	} else {
		for (size_t i = 0; i < a->n_images && !found; i++) {
			struct dattr_image *im = &a->images[i];
			if (im->pid != pid)
				continue;
			if (!im->tried)
				open_image(a, im);
			if (im->vars && va >= im->lo && va < im->hi)
				found = -(int64_t)i - 1;
		}
		if (!found && (found = map_object(a, pid, va)) < 0)
			return found;
		if (ana_pc_cache_put_id(&a->pages, key, found) < 0) {
			snprintf(a->err, sizeof a->err, "out of memory");
			return -spe_nomem;
		}
	}
	int64_t id = found;
	if (found < 0) {
		id = image_object(a, &a->images[-found - 1], pid, va);
		/* an address of the binary's span but in no segment (a gap between them): its data mapping */
		if (id == 0)
			id = map_object(a, pid, va);
	}
	if (id == 0)
		a->unresolved++;
	return id; /* < 0: an error, message in a->err */
}
