/* SPDX-License-Identifier: Apache-2.0 */
/* Data addresses to data objects during a load; see data_attrib.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_attrib.h"
#include "util/grow.h"

/* An executable mapping row's binary, variables and load bias, looked up on first need. */
struct dattr_image {
	int tried;
	struct spe_sym_binary *bin;
	struct dobj_vars *vars;    /* owned by the first image of the binary, shared by the rest */
	int owns_vars;
	uint64_t bias;             /* runtime = ELF vaddr + bias */
	uint64_t lo, hi;           /* runtime span of the binary's PT_LOAD segments */
};

/* An image of a space that has variables: its runtime span, and the map that made it. */
struct dattr_span {
	uint64_t lo, hi;
	uint32_t map;
};

/* The images of an address space that have variables, found once its maps are all known. */
struct dattr_space {
	size_t maps_seen;          /* the space's map count when the spans were made */
	int made;
	struct dattr_span *spans;
	size_t n_spans, cap_spans;
};

void ana_data_attrib_init(struct data_attrib *a, const struct spe_row_sink *sink, struct spe_row_ids *next,
			  int64_t source_id, struct spe_symbolizer *sym, struct attribution *at)
{
	memset(a, 0, sizeof *a);
	util_map_init(&a->objects, 3 * sizeof(uint64_t), sizeof(int64_t));
	a->sink = sink;
	a->next = next;
	a->source_id = source_id;
	a->sym = sym;
	a->at = at;
}

void ana_data_attrib_fini(struct data_attrib *a)
{
	for (size_t i = 0; i < a->n_images; i++)
		if (a->images[i].owns_vars)
			ana_dobj_vars_free(a->images[i].vars);
	free(a->images);
	for (size_t i = 0; i < a->n_spaces; i++)
		free(a->spaces[i].spans);
	free(a->spaces);
	ana_addr_memo_fini(&a->pages);
	util_map_fini(&a->objects);
	memset(a, 0, sizeof *a);
}

/* The image state of mapping row @p row (index in the attribution's table); NULL without memory. */
static struct dattr_image *image_of(struct data_attrib *a, size_t row)
{
	if (row >= a->n_images) {
		size_t n = a->at->n_maps > row ? a->at->n_maps : row + 1;
		struct dattr_image *p = realloc(a->images, n * sizeof *p);
		if (!p)
			return NULL;
		memset(p + a->n_images, 0, (n - a->n_images) * sizeof *p);
		a->images = p;
		a->n_images = n;
	}
	return &a->images[row];
}

/* Open the image's binary, its variables and its load bias, once. */
static void open_image(struct data_attrib *a, struct dattr_image *im, const struct attrib_mapping *m)
{
	im->tried = 1;
	/* the file the recording names (MMAP2's id, else the build-id table's), as resolution opens it */
	const char *build_id = m->build_id ? m->build_id : ana_bid_table_find(&a->at->recorded_ids, m->path, m->pid);
	if (!a->sym || !(im->bin = spe_sym_binary(a->sym, m->path, build_id)))
		return;
	uint64_t vaddr;
	if (spe_sym_offset_to_vaddr(im->bin, m->pgoff, &vaddr) != 0)
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
	im->bias = m->start - vaddr;
	uint64_t lo, hi;
	ana_dobj_vars_span(im->vars, &lo, &hi);
	im->lo = lo + im->bias;
	im->hi = hi + im->bias;
}

/*
 * The spans of @p space's images that have variables (opening each
 * executable mapping's binary once), remade when the space got new maps.
 * NULL without memory.
 */
static struct dattr_space *space_images(struct data_attrib *a, uint32_t space)
{
	const struct processes *p = &a->at->procs;
	const struct proc_space *ps = &p->spaces[space];
	if (space >= a->n_spaces) {
		size_t n = p->n_spaces > space ? p->n_spaces : (size_t)space + 1;
		struct dattr_space *v = realloc(a->spaces, n * sizeof *v);
		if (!v)
			return NULL;
		memset(v + a->n_spaces, 0, (n - a->n_spaces) * sizeof *v);
		a->spaces = v;
		a->n_spaces = n;
	}
	struct dattr_space *ds = &a->spaces[space];
	if (ds->made && ds->maps_seen == ps->n_maps)
		return ds;
	ds->n_spans = 0;
	for (size_t i = 0; i < ps->n_maps; i++) {
		uint32_t mi = ps->maps[i];
		size_t row = p->maps[mi].mapping;
		if (a->at->maps[row].prot >= 0 || a->at->maps[row].kind != ATTRIB_MAP_FILE)
			continue; /* a data mapping, or anonymous memory: no binary */
		struct dattr_image *im = image_of(a, row);
		if (!im)
			return NULL;
		if (!im->tried)
			open_image(a, im, &a->at->maps[row]);
		if (!im->vars || im->lo >= im->hi)
			continue;
		struct dattr_span *v = util_grow(ds->spans, &ds->cap_spans, ds->n_spans + 1, sizeof *v);
		if (!v)
			return NULL;
		ds->spans = v;
		ds->spans[ds->n_spans++] = (struct dattr_span){ im->lo, im->hi, mi };
	}
	ds->made = 1;
	ds->maps_seen = ps->n_maps;
	return ds;
}

/*
 * The executable mapping (row index) of @p space at @p time whose binary
 * spans @p va, or -1; -2 without memory.  The time span [*from, *to) is
 * narrowed to that mapping's.
 */
static int64_t image_holding(struct data_attrib *a, uint32_t space, uint64_t va, uint64_t time, uint64_t *from,
			     uint64_t *to)
{
	const struct processes *p = &a->at->procs;
	const struct dattr_space *ds = space_images(a, space);
	if (!ds)
		return -2;
	for (size_t i = 0; i < ds->n_spans; i++) {
		const struct dattr_span *sp = &ds->spans[i];
		if (va < sp->lo || va >= sp->hi || !ana_procs_map_live(p, sp->map, time))
			continue;
		if (p->maps[sp->map].from > *from)
			*from = p->maps[sp->map].from;
		if (p->maps[sp->map].to < *to)
			*to = p->maps[sp->map].to;
		return (int64_t)p->maps[sp->map].mapping;
	}
	return -1;
}

static int64_t insert_object(struct data_attrib *a, int pid, int kind, const char *name, int64_t mapping_id,
			     uint64_t start, uint64_t size, const char *type, const char *file, int line)
{
	uint64_t key[3] = { (uint64_t)(int64_t)pid, (uint64_t)kind, start };
	const int64_t *known = util_map_get(&a->objects, key);
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
	int rc = spe_sink_rows(a->sink, &row, 1);
	if (rc < 0) {
		snprintf(a->err, sizeof a->err, "data_object: %s", a->sink->errmsg(a->sink->ctx));
		return rc;
	}
	int64_t *id_of = util_map_put(&a->objects, key);
	if (!id_of) {
		snprintf(a->err, sizeof a->err, "out of memory");
		return -spe_nomem;
	}
	*id_of = row.id;
	a->next->data_object++;
	return row.id;
}

/* The object of a variable or section of the image of mapping row @p row at runtime address @p va, 0 if none. */
static int64_t image_object(struct data_attrib *a, size_t row, int pid, uint64_t va)
{
	const struct dattr_image *im = &a->images[row];
	const struct attrib_mapping *m = &a->at->maps[row];
	const struct dobj_var *v = ana_dobj_vars_lookup(im->vars, va - im->bias);
	if (!v)
		return 0;
	char name[512];
	const char *n = v->name;
	if (v->kind == DOBJ_SECTION) {
		/* ".bss of datawork-pie": the section alone says little in a process of many binaries */
		const char *base = strrchr(m->path, '/');
		snprintf(name, sizeof name, "%s of %s", v->name, base ? base + 1 : m->path);
		n = name;
	}
	return insert_object(a, pid, v->kind, n, m->id, v->start + im->bias, v->size, v->type, v->file, v->line);
}

/* The object of data map @p map (heap, stack, a file...), 0 when it is no data map. */
static int64_t map_object(struct data_attrib *a, int pid, uint32_t map)
{
	if (map == PROC_NONE)
		return 0;
	const struct attrib_mapping *m = ana_attrib_map_row(a->at, map);
	if (m->prot < 0)
		return 0;
	char name[4200];
	int kind = ana_dobj_mapping_kind(m->path, (uint32_t)m->prot, m->flags, m->pgoff, name, sizeof name);
	return insert_object(a, pid, kind, name, m->id, m->start, m->end - m->start, NULL, NULL, 0);
}

void ana_data_attrib_prefetch(const struct data_attrib *a, uint32_t space, uint64_t va)
{
	ana_addr_memo_prefetch(&a->pages, space, va >> 12);
}

static int holds(const struct addr_timed_id *v, uint64_t time)
{
	return time == PROC_NO_TIME ? v->to == PROC_NO_TIME : v->from <= time && time < v->to;
}

static int64_t no_memory(struct data_attrib *a)
{
	snprintf(a->err, sizeof a->err, "out of memory");
	return -spe_nomem;
}

/*
 * The page memo holds, for the span of time its answer is good for, what
 * the page gave: -(row index + 1) of the executable mapping whose binary
 * spans it, else the object id of its data mapping (0: none).
 */
int64_t ana_data_attrib_resolve(struct data_attrib *a, uint32_t space, uint64_t va, uint64_t time)
{
	struct processes *p = &a->at->procs;
	int pid = p->spaces[space].pid;
	const struct addr_timed_id *memo = ana_addr_memo_find_timed(&a->pages, space, va >> 12);
	int64_t found;
	uint32_t changes = ana_procs_changes(p, space);
	if (memo && memo->changes == changes && holds(memo, time)) {
		found = memo->id;
	} else {
		uint64_t from, to;
		uint32_t map = ana_procs_map_span(p, space, va, time, &from, &to);
		int64_t row = image_holding(a, space, va, time, &from, &to);
		if (row == -2)
			return no_memory(a);
		if (row >= 0)
			found = -row - 1;
		else if ((found = map_object(a, pid, map)) < 0)
			return found;
		if (!ana_addr_memo_put_timed(&a->pages, space, va >> 12, (struct addr_timed_id){ found, from, to, changes }))
			return no_memory(a);
	}
	if (found < 0) {
		found = image_object(a, (size_t)(-found - 1), pid, va);
		/* an address of the binary's span but in no variable (a gap between segments): its data mapping */
		if (found == 0)
			found = map_object(a, pid, ana_procs_map_at(p, space, va, time));
	}
	if (found == 0)
		a->unresolved++;
	return found; /* < 0: an error, message in a->err */
}
