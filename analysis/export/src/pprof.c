/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pprof's profile.proto (analysis/export/profile.proto), gzip-compressed.
 *
 * Sample types: samples/count, total_latency/cycles (the default),
 * issue_latency/cycles, translation_latency/cycles; a record without a
 * counter adds 0 to it.  One location per sampled PC, in its mapping, with
 * the inlined functions as extra lines, innermost first.  Labels:
 * mem_level, op_class and one `event` per event the record has, so
 * `pprof -tagfocus=mem_level=DRAM` works.  --by=data puts a location for
 * the accessed data at the leaf, called from the PC's location: the data
 * object spe-load attributed the address to (data_object: a variable, named
 * with its declaration line, one location per 64-byte line of it; or the
 * data mapping, one location for all of it), else, for an address in no
 * known object, the 64-byte line named by the data symbol that holds it
 * inside a mapped binary's image, else the 4 KiB page.
 *
 * The message is written in pieces: protobuf's repeated fields concatenate,
 * so a Profile holding the header, then one Profile per batch of samples,
 * then the mappings, locations, functions and finally the string table,
 * packed one after the other (each by protobuf-c), parse as one Profile.
 * Only a batch is ever held packed in memory.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "export_internal.h"
#include "profile.pb-c.h"
#include "util/grow.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__ValueType ValueType;

#define N_VALUES 4
#define BATCH 1024
#define MAX_LABELS (2 + 64) /* mem_level, op_class, one per event bit */

/* The messages of one batch of samples, locations or functions (reused). */
struct batch {
	Sample s[BATCH], *sp[BATCH];
	Label lab[BATCH][MAX_LABELS], *labp[BATCH][MAX_LABELS];
	uint64_t locs[BATCH][2];
	int64_t values[BATCH][N_VALUES];
	Location loc[BATCH], *lp[BATCH];
	Line line[BATCH][EXPORT_MAX_FRAMES], *linep[BATCH][EXPORT_MAX_FRAMES];
	Function fn[BATCH], *fp[BATCH];
};

/* ---- gzip output ------------------------------------------------------------ */

struct gz_out {
	z_stream z;
	FILE *out;
	struct export_ctx *x;
	unsigned char buf[1 << 16];
};

static int gz_open(struct gz_out *g, struct export_ctx *x, FILE *out)
{
	memset(&g->z, 0, sizeof g->z);
	g->out = out;
	g->x = x;
	/* windowBits 15 + 16: a gzip header and trailer around the deflate stream */
	if (deflateInit2(&g->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return export_fail(x, -spe_nomem, "zlib: cannot start compressing");
	return 0;
}

static int gz_run(struct gz_out *g, const void *data, size_t len, int flush)
{
	g->z.next_in = (Bytef *)data;
	g->z.avail_in = (uInt)len;
	int zr;
	do {
		g->z.next_out = g->buf;
		g->z.avail_out = sizeof g->buf;
		zr = deflate(&g->z, flush);
		if (zr == Z_STREAM_ERROR)
			return export_fail(g->x, -spe_internal, "zlib: deflate failed");
		int rc = export_write(g->x, g->out, g->buf, sizeof g->buf - g->z.avail_out);
		if (rc < 0)
			return rc;
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
	return 0;
}

/* Pack @p p and compress it onto the stream. */
static int gz_profile(struct gz_out *g, const Profile *p)
{
	size_t n = perftools__profiles__profile__get_packed_size(p);
	uint8_t *buf = malloc(n ? n : 1);
	if (!buf)
		return export_fail(g->x, -spe_nomem, "out of memory");
	perftools__profiles__profile__pack(p, buf);
	int rc = n > UINT32_MAX ? export_fail(g->x, -spe_nomem, "profile piece too large") : gz_run(g, buf, n, Z_NO_FLUSH);
	free(buf);
	return rc;
}

/* ---- aggregation ---------------------------------------------------------------- */

/* The fields after CODE_KEY_SIZE are --by=data's: the table's keys stop there otherwise. */
struct pp_key {
	int64_t mapping_id, pc, events;
	int32_t mem_level, op_class;
	int64_t source_id, pid, data_line, data_object; /* data_object: its id, 0 when none is known */
};
AGG_WORDS(struct pp_key);
#define CODE_KEY_SIZE offsetof(struct pp_key, source_id)

struct pp_val {
	int64_t value[N_VALUES];
	uint32_t code_loc, data_loc; /* location ids, assigned after the scan */
};
AGG_WORDS(struct pp_val);

/* Where a process's mapped binaries have their segments (globals live there). */
struct image_range {
	int64_t source_id, pid;
	uint64_t start, end;
};

struct pprof {
	struct export_ctx *x;
	struct agg samples;
	int by_data;
	struct export_data_objects objects;
	struct image_range *images; /* sorted by (source, pid, start); made for the first address in no object */
	size_t n_images;
};

static int by_image(const void *a, const void *b)
{
	const struct image_range *x = a, *y = b;
	if (x->source_id != y->source_id)
		return x->source_id < y->source_id ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

/*
 * --by=data: the runtime range of every mapped binary's loaded image (from
 * its first to its last PT_LOAD byte), so an address can be told to be
 * heap, stack or anonymous memory (no symbol to find) without a lookup.
 */
static int image_ranges(struct pprof *p)
{
	struct export_ctx *x = p->x;
	if (p->images)
		return 0;
	p->images = calloc(x->n_maps + 1, sizeof *p->images);
	if (!p->images)
		return export_fail(x, -spe_nomem, "out of memory");
	for (size_t i = 1; i < x->n_maps; i++) {
		struct export_mapping *m = &x->maps[i];
		struct spe_sym_binary *bin = m->id ? export_mapping_binary(x, m) : NULL;
		uint64_t vstart, lo, hi;
		if (!bin || spe_sym_offset_to_vaddr(bin, m->pgoff, &vstart) != 0 || spe_sym_image_range(bin, &lo, &hi) != 0)
			continue;
		uint64_t bias = m->start - vstart;
		p->images[p->n_images++] = (struct image_range){ m->source_id, m->pid, lo + bias, hi + bias };
	}
	qsort(p->images, p->n_images, sizeof *p->images, by_image);
	return 0;
}

static int in_image(const struct pprof *p, int64_t source, int64_t pid, uint64_t va)
{
	struct image_range want = { source, pid, 0, 0 };
	size_t lo = 0, hi = p->n_images;
	while (lo < hi) { /* the process's first range */
		size_t mid = lo + (hi - lo) / 2;
		if (by_image(&p->images[mid], &want) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->n_images && p->images[lo].source_id == source && p->images[lo].pid == pid; lo++)
		if (va >= p->images[lo].start && va < p->images[lo].end)
			return 1;
	return 0;
}

static int pprof_row(void *arg, const struct export_row *r)
{
	struct pprof *p = arg;
	if (r->pc == EXPORT_NULL || (p->by_data && r->data_va == EXPORT_NULL)) {
		p->x->stats->skipped++;
		return 0;
	}
	struct pp_key k;
	memset(&k, 0, sizeof k);
	k.mapping_id = r->mapping_id;
	k.pc = r->pc;
	if (p->by_data) {
		uint64_t va = (uint64_t)r->data_va;
		const struct export_data_object *o =
			r->data_object_id != EXPORT_NULL ? export_data_object(&p->objects, r->data_object_id) : NULL;
		k.source_id = r->source_id;
		k.pid = r->pid;
		if (o) { /* a variable by its 64-byte lines, a data mapping as a whole */
			k.data_object = o->id;
			k.data_line = o->per_line ? (int64_t)(va & ~UINT64_C(63)) : 0;
		} else { /* no object known: a global gets its 64-byte line (and later its symbol), other data its page */
			if (image_ranges(p) < 0)
				return -spe_nomem;
			k.data_line = (int64_t)(va & (in_image(p, r->source_id, r->pid, va) ? ~UINT64_C(63) : ~UINT64_C(4095)));
		}
	}
	k.mem_level = (int32_t)r->mem_level;
	k.op_class = (int32_t)r->op_class;
	k.events = r->events;
	struct pp_val *v = export_agg_upsert(&p->samples, &k);
	if (!v)
		return export_fail(p->x, -spe_nomem, "out of memory");
	v->value[0]++;
	for (int i = 0; i < 3; i++)
		if (r->latency[i] != EXPORT_NULL)
			v->value[1 + i] = export_add_i64(p->x, v->value[1 + i], r->latency[i]);
	p->x->stats->written++;
	return 0;
}

/* ---- the profile's tables ------------------------------------------------------ */

struct pp_function {
	int64_t name, system_name, filename, start_line;
};
AGG_WORDS(struct pp_function);

struct pp_line {
	uint64_t func;
	int64_t line;
};

struct pp_location {
	int64_t mapping_id;
	uint64_t address;
	size_t first_line; /* in tables.lines */
	int n_lines;
};

struct tables {
	struct export_ctx *x;
	struct code_locs *code;
	struct agg loc_ids;  /* {kind, a, b, c} -> location id */
	struct agg func_ids; /* struct pp_function -> function id */
	struct batch *b;
	struct pp_location *locs; /* by id - 1 */
	size_t n_locs, cap_locs;
	struct pp_function *funcs; /* by id - 1 */
	size_t n_funcs, cap_funcs;
	struct pp_line *lines; /* the locations' lines, one run per location */
	size_t n_lines, cap_lines;
	int64_t *map_samples; /* by mapping id: samples, to put the busiest mapping first */
	unsigned char *map_data; /* by mapping id: a data location lies in it */
	int oom;
};

static int64_t str(struct tables *t, const char *s)
{
	int64_t i = export_strtab_add(&t->x->strings, s);
	if (i < 0) {
		t->oom = 1;
		return 0;
	}
	return i;
}

static uint64_t function_id(struct tables *t, const char *name, const char *system_name, const char *file, int line)
{
	struct pp_function f = { str(t, name), str(t, system_name ? system_name : name), str(t, file), line };
	uint64_t *id = export_agg_upsert(&t->func_ids, &f);
	if (!id) {
		t->oom = 1;
		return 0;
	}
	if (!*id) {
		struct pp_function *funcs = util_grow(t->funcs, &t->cap_funcs, t->n_funcs + 1, sizeof *funcs);
		if (!funcs) {
			t->oom = 1;
			return 0;
		}
		t->funcs = funcs;
		t->funcs[t->n_funcs++] = f;
		*id = t->n_funcs;
	}
	return *id;
}

static int add_line(struct tables *t, struct pp_location *l, uint64_t func, int64_t line)
{
	struct pp_line *lines = util_grow(t->lines, &t->cap_lines, t->n_lines + 1, sizeof *lines);
	if (!lines) {
		t->oom = 1;
		return -1;
	}
	t->lines = lines;
	t->lines[t->n_lines++] = (struct pp_line){ func, line };
	l->n_lines++;
	return 0;
}

/* A new location (id returned), or NULL with the id of the one already made for @p key. */
static struct pp_location *location(struct tables *t, const int64_t key[4], uint32_t *id)
{
	uint64_t *slot = export_agg_upsert(&t->loc_ids, key);
	if (!slot) {
		t->oom = 1;
		return NULL;
	}
	if (*slot) {
		*id = (uint32_t)*slot;
		return NULL; /* exists */
	}
	if (t->n_locs >= UINT32_MAX - 1) {
		t->oom = 1;
		return NULL;
	}
	struct pp_location *locs = util_grow(t->locs, &t->cap_locs, t->n_locs + 1, sizeof *locs);
	if (!locs) {
		t->oom = 1;
		return NULL;
	}
	t->locs = locs;
	struct pp_location *l = &t->locs[t->n_locs++];
	memset(l, 0, sizeof *l);
	l->first_line = t->n_lines;
	*slot = t->n_locs;
	*id = (uint32_t)t->n_locs;
	return l;
}

static int code_location(struct tables *t, const struct pp_key *k, uint32_t *id)
{
	int64_t key[4] = { 1, k->mapping_id, k->pc, 0 };
	struct pp_location *l = location(t, key, id);
	if (!l)
		return t->oom ? export_fail(t->x, -spe_nomem, "out of memory") : 0;
	const struct code_loc *c;
	int rc = export_code_loc_get(t->code, k->mapping_id, (uint64_t)k->pc, &c);
	if (rc < 0)
		return rc;
	l->mapping_id = c->map ? c->map->id : 0;
	l->address = (uint64_t)k->pc;
	for (int i = 0; i < c->n; i++) {
		const struct code_frame *f = &c->frame[i];
		int outer = i == c->n - 1;
		/* a Line's file is its Function's: the file this frame executes in */
		const char *file = f->file ? f->file : outer ? c->function_file : NULL;
		/* the containing function starts where the database says (symbol.line), inlined ones at their DWARF declaration */
		int start = outer && c->function_line ? c->function_line : f->decl_line;
		if (add_line(t, l, function_id(t, f->function ? f->function : "[unknown]", f->system_name, file, start),
			     f->line) < 0)
			break;
	}
	return 0;
}

/* The data symbol holding @p va in one of the binaries process (@p source, @p pid) has mapped. */
static const char *data_symbol(struct export_ctx *x, int64_t source, int64_t pid, uint64_t va)
{
	for (size_t i = 1; i < x->n_maps; i++) {
		struct export_mapping *m = &x->maps[i];
		if (m->id == 0 || m->source_id != source || m->pid != pid)
			continue;
		struct spe_sym_binary *bin = export_mapping_binary(x, m);
		uint64_t vstart;
		if (!bin || spe_sym_offset_to_vaddr(bin, m->pgoff, &vstart) != 0)
			continue;
		uint64_t vaddr = va - (m->start - vstart); /* the address in the ELF's own space */
		struct spe_sym_result res;
		if (spe_sym_lookup(bin, vaddr, &res) && res.function && res.function_size &&
		    vaddr - res.function_start < res.function_size)
			return res.function;
	}
	return NULL;
}

/* The mapping of process (@p source, @p pid) holding @p va, else @p fallback. */
static int64_t data_mapping(struct tables *t, int64_t source, int64_t pid, uint64_t va, int64_t fallback)
{
	int64_t id = fallback;
	for (size_t i = 1; i < t->x->n_maps; i++) {
		const struct export_mapping *m = &t->x->maps[i];
		if (m->id && m->source_id == source && m->pid == pid && va >= m->start && va < m->end)
			id = m->id;
	}
	if (id > 0 && (size_t)id < t->x->n_maps)
		t->map_data[id] = 1;
	return id;
}

/* The location of a known data object: its name, and for a variable its declaration. */
static int object_location(struct tables *t, const struct pprof *p, const struct pp_key *k, uint32_t *id)
{
	int64_t key[4] = { 3, k->data_object, k->data_line, 0 };
	struct pp_location *l = location(t, key, id);
	if (!l)
		return t->oom ? export_fail(t->x, -spe_nomem, "out of memory") : 0;
	const struct export_data_object *o = export_data_object(&p->objects, k->data_object);
	l->address = k->data_line ? (uint64_t)k->data_line : o->start;
	l->mapping_id = data_mapping(t, k->source_id, k->pid, l->address, o->mapping_id);
	add_line(t, l, function_id(t, o->name, o->name, o->file, o->line), o->line);
	return 0;
}

static int data_location(struct tables *t, const struct pprof *p, const struct pp_key *k, uint32_t *id)
{
	if (k->data_object)
		return object_location(t, p, k, id);
	int64_t key[4] = { 2, k->source_id, k->pid, k->data_line };
	struct pp_location *l = location(t, key, id);
	if (!l)
		return t->oom ? export_fail(t->x, -spe_nomem, "out of memory") : 0;
	uint64_t va = (uint64_t)k->data_line;
	l->address = va;
	l->mapping_id = data_mapping(t, k->source_id, k->pid, va, 0);
	/* heap, stack and anonymous pages hold no symbol: no lookup (dwfl's is a linear search) */
	const char *name = in_image(p, k->source_id, k->pid, va) ? data_symbol(t->x, k->source_id, k->pid, va) : NULL;
	char page[64];
	if (!name) {
		snprintf(page, sizeof page, "[page 0x%llx]", (unsigned long long)(va & ~UINT64_C(4095)));
		name = page;
	}
	add_line(t, l, function_id(t, name, name, NULL, 0), 0);
	return 0;
}

/* ---- writing ------------------------------------------------------------------------ */

static const char *const value_names[N_VALUES][2] = {
	{ "samples", "count" },
	{ "total_latency", "cycles" },
	{ "issue_latency", "cycles" },
	{ "translation_latency", "cycles" },
};

#define SPE_X(bit, id, word, col, since, desc) [bit] = col,
static const char *const event_names[64] = { SPE_EVENT_LIST(SPE_X) };
#undef SPE_X

static int write_header(struct tables *t, struct gz_out *g)
{
	ValueType vt[N_VALUES], *vtp[N_VALUES];
	Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	for (int i = 0; i < N_VALUES; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		vt[i].type = str(t, value_names[i][0]);
		vt[i].unit = str(t, value_names[i][1]);
		vtp[i] = &vt[i];
	}
	p.n_sample_type = N_VALUES;
	p.sample_type = vtp;
	p.default_sample_type = str(t, value_names[1][0]);
	int64_t comment = str(t, "spekit: Arm SPE records (spe-export)");
	p.n_comment = 1;
	p.comment = &comment;
	return t->oom ? export_fail(t->x, -spe_nomem, "out of memory") : gz_profile(g, &p);
}

static int write_samples(struct tables *t, struct gz_out *g, struct agg *samples, const void **keys)
{
	Sample *s = t->b->s, **sp = t->b->sp;
	Label(*lab)[MAX_LABELS] = t->b->lab, *(*labp)[MAX_LABELS] = t->b->labp;
	uint64_t(*locs)[2] = t->b->locs;
	int64_t(*values)[N_VALUES] = t->b->values;
	int64_t k_mem = str(t, "mem_level"), k_op = str(t, "op_class"), k_event = str(t, "event");
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < samples->n;) {
		size_t n = 0;
		for (; n < BATCH && i < samples->n; n++, i++) {
			const struct pp_key *k = keys[i];
			const struct pp_val *v = agg_value(samples, k);
			perftools__profiles__sample__init(&s[n]);
			size_t nl = 0;
			if (v->data_loc)
				locs[n][nl++] = v->data_loc;
			locs[n][nl++] = v->code_loc;
			s[n].n_location_id = nl;
			s[n].location_id = locs[n];
			memcpy(values[n], v->value, sizeof values[n]);
			s[n].n_value = N_VALUES;
			s[n].value = values[n];
			size_t m = 0;
			if (k->mem_level >= 0 && (size_t)k->mem_level < export_n_mem_levels) {
				perftools__profiles__label__init(&lab[n][m]);
				lab[n][m].key = k_mem;
				lab[n][m++].str = str(t, export_mem_level_names[k->mem_level]);
			}
			if (k->op_class >= 0 && (size_t)k->op_class < export_n_op_classes) {
				perftools__profiles__label__init(&lab[n][m]);
				lab[n][m].key = k_op;
				lab[n][m++].str = str(t, export_op_class_names[k->op_class]);
			}
			for (int b = 0; k->events != EXPORT_NULL && b < 64; b++) {
				if (!((uint64_t)k->events >> b & 1) || !event_names[b])
					continue;
				perftools__profiles__label__init(&lab[n][m]);
				lab[n][m].key = k_event;
				lab[n][m++].str = str(t, event_names[b]);
			}
			for (size_t j = 0; j < m; j++)
				labp[n][j] = &lab[n][j];
			s[n].n_label = m;
			s[n].label = labp[n];
			sp[n] = &s[n];
		}
		Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
		p.n_sample = n;
		p.sample = sp;
		rc = t->oom ? export_fail(t->x, -spe_nomem, "out of memory") : gz_profile(g, &p);
	}
	return rc;
}

static int write_mappings(struct tables *t, struct gz_out *g)
{
	struct export_ctx *x = t->x;
	size_t n = 0;
	for (size_t i = 1; i < x->n_maps; i++)
		n += t->map_samples[i] > 0 || t->map_data[i];
	Mapping *m = calloc(n + 1, sizeof *m);
	Mapping **mp = calloc(n + 1, sizeof *mp);
	if (!m || !mp) {
		free(m);
		free(mp);
		return export_fail(x, -spe_nomem, "out of memory");
	}
	n = 0;
	for (size_t i = 1; i < x->n_maps; i++) {
		const struct export_mapping *em = &x->maps[i];
		if (t->map_samples[i] <= 0 && !t->map_data[i])
			continue;
		perftools__profiles__mapping__init(&m[n]);
		m[n].id = (uint64_t)em->id;
		m[n].memory_start = em->start;
		m[n].memory_limit = em->end;
		m[n].file_offset = em->pgoff;
		m[n].filename = str(t, em->path);
		m[n].build_id = str(t, em->build_id);
		m[n].has_functions = m[n].has_filenames = m[n].has_line_numbers = m[n].has_inline_frames = 1;
		mp[n] = &m[n];
		n++;
	}
	/* pprof takes the first mapping for the main binary: the one with the most samples */
	for (size_t i = 1; i < n; i++)
		if (t->map_samples[mp[i]->id] > t->map_samples[mp[0]->id]) {
			Mapping *tmp = mp[0];
			mp[0] = mp[i];
			mp[i] = tmp;
		}
	Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	p.n_mapping = n;
	p.mapping = mp;
	int rc = t->oom ? export_fail(x, -spe_nomem, "out of memory") : gz_profile(g, &p);
	free(m);
	free(mp);
	return rc;
}

static int write_locations(struct tables *t, struct gz_out *g)
{
	Location *loc = t->b->loc, **lp = t->b->lp;
	Line(*line)[EXPORT_MAX_FRAMES] = t->b->line, *(*linep)[EXPORT_MAX_FRAMES] = t->b->linep;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < t->n_locs;) {
		size_t n = 0;
		for (; n < BATCH && i < t->n_locs; n++, i++) {
			const struct pp_location *l = &t->locs[i];
			perftools__profiles__location__init(&loc[n]);
			loc[n].id = i + 1;
			loc[n].mapping_id = (uint64_t)l->mapping_id;
			loc[n].address = l->address;
			for (int j = 0; j < l->n_lines && j < EXPORT_MAX_FRAMES; j++) {
				perftools__profiles__line__init(&line[n][j]);
				line[n][j].function_id = t->lines[l->first_line + (size_t)j].func;
				line[n][j].line = t->lines[l->first_line + (size_t)j].line;
				linep[n][j] = &line[n][j];
			}
			loc[n].n_line = (size_t)l->n_lines;
			loc[n].line = linep[n];
			lp[n] = &loc[n];
		}
		Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
		p.n_location = n;
		p.location = lp;
		rc = gz_profile(g, &p);
	}
	return rc;
}

static int write_functions(struct tables *t, struct gz_out *g)
{
	Function *fn = t->b->fn, **fp = t->b->fp;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < t->n_funcs;) {
		size_t n = 0;
		for (; n < BATCH && i < t->n_funcs; n++, i++) {
			perftools__profiles__function__init(&fn[n]);
			fn[n].id = i + 1;
			fn[n].name = t->funcs[i].name;
			fn[n].system_name = t->funcs[i].system_name;
			fn[n].filename = t->funcs[i].filename;
			fn[n].start_line = t->funcs[i].start_line;
			fp[n] = &fn[n];
		}
		Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
		p.n_function = n;
		p.function = fp;
		rc = gz_profile(g, &p);
	}
	return rc;
}

static int write_strings(struct tables *t, struct gz_out *g)
{
	const struct strtab *st = &t->x->strings;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < st->n; i += 65536) {
		Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
		p.n_string_table = st->n - i < 65536 ? st->n - i : 65536;
		p.string_table = st->str + i;
		rc = gz_profile(g, &p);
	}
	return rc;
}

int export_pprof(struct export_ctx *x, FILE *out)
{
	struct pprof p = { .x = x, .by_data = x->opts->by == SPE_EXPORT_BY_DATA };
	struct tables t = { .x = x };
	struct gz_out *g = NULL;
	const void **keys = NULL;
	export_agg_init(&p.samples, p.by_data ? sizeof(struct pp_key) : CODE_KEY_SIZE, sizeof(struct pp_val));
	if (p.by_data) {
		int rc = export_data_objects_load(x, &p.objects);
		if (rc < 0) {
			export_agg_free(&p.samples);
			return rc;
		}
	}
	export_agg_init(&t.loc_ids, 4 * sizeof(int64_t), sizeof(uint64_t));
	export_agg_init(&t.func_ids, sizeof(struct pp_function), sizeof(uint64_t));
	unsigned cols = EXPORT_COL_LATENCY | EXPORT_COL_LABELS | (p.by_data ? EXPORT_COL_DATA : 0);
	int rc = export_scan(x, NULL, cols, pprof_row, &p);
	if (rc == 0 && !(t.code = export_code_locs_new(x, CODE_LOC_DB)))
		rc = -spe_io;
	if (rc == 0 && (!(keys = export_agg_keys(&p.samples)) || !(t.map_samples = calloc(x->n_maps + 1, sizeof *t.map_samples)) ||
			!(t.map_data = calloc(x->n_maps + 1, 1)) || !(g = malloc(sizeof *g)) || !(t.b = malloc(sizeof *t.b))))
		rc = export_fail(x, -spe_nomem, "out of memory");
	for (size_t i = 0; rc == 0 && i < p.samples.n; i++) {
		const struct pp_key *k = keys[i];
		struct pp_val *v = agg_value(&p.samples, k);
		rc = code_location(&t, k, &v->code_loc);
		if (rc == 0 && p.by_data)
			rc = data_location(&t, &p, k, &v->data_loc);
		if (rc == 0 && t.oom)
			rc = export_fail(x, -spe_nomem, "out of memory");
		if (rc == 0 && k->mapping_id > 0 && (size_t)k->mapping_id < x->n_maps)
			t.map_samples[k->mapping_id] += v->value[0];
	}
	if (rc == 0)
		rc = gz_open(g, x, out);
	if (rc == 0) {
		rc = write_header(&t, g);
		if (rc == 0)
			rc = write_samples(&t, g, &p.samples, keys);
		if (rc == 0)
			rc = write_mappings(&t, g);
		if (rc == 0)
			rc = write_locations(&t, g);
		if (rc == 0)
			rc = write_functions(&t, g);
		if (rc == 0)
			rc = write_strings(&t, g); /* last: every string above is in it */
		if (rc == 0)
			rc = gz_run(g, NULL, 0, Z_FINISH);
		deflateEnd(&g->z);
	}
	x->stats->locations = t.n_locs;
	free(g);
	free(t.b);
	free(keys);
	free(t.map_samples);
	free(t.map_data);
	free(t.locs);
	free(t.lines);
	free(t.funcs);
	export_agg_free(&t.loc_ids);
	export_agg_free(&t.func_ids);
	export_code_locs_free(t.code);
	export_agg_free(&p.samples);
	free(p.images);
	export_data_objects_free(&p.objects);
	return rc;
}
