/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data objects of the database (docs/schema.md, `data_object`), for the
 * locations of --by=data: what spe-load attributed each record's data
 * address to -- a variable of a mapped binary, its section, or the data
 * mapping ([heap], [stack], anonymous or shared memory, a file mapped as
 * data).  Read once, indexed by id; there are as many as the capture has
 * variables and data mappings touched, not records.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana/data_object.h"
#include "export_internal.h"

/*
 * The name a location shows.  Anonymous and shared regions all share one
 * name ("//anon"); their size and address tell them apart in a profile, as
 * a function's name does ("//anon 64 MiB at 0xffff80000000").
 */
static void shown_name(const char *name, int kind, uint64_t start, uint64_t size, char *buf, size_t cap)
{
	if (kind != DOBJ_ANON && kind != DOBJ_SHARED) {
		snprintf(buf, cap, "%s", name ? name : "?");
		return;
	}
	if (size >= (1u << 20))
		snprintf(buf, cap, "%s %" PRIu64 " MiB at 0x%" PRIx64, name, size >> 20, start);
	else
		snprintf(buf, cap, "%s %" PRIu64 " KiB at 0x%" PRIx64, name, size >> 10, start);
}

int export_data_objects_load(struct export_ctx *x, struct export_data_objects *o)
{
	memset(o, 0, sizeof *o);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(x->db,
			       "SELECT id, kind, name, start, size, file, line, mapping_id FROM data_object ORDER BY id", -1,
			       &st, NULL) != SQLITE_OK)
		return export_fail(x, export_sql_code(sqlite3_errcode(x->db)), "reading data objects: %s", sqlite3_errmsg(x->db));
	int rc = 0, oom = 0;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (id <= 0 || id > EXPORT_MAX_ROWID)
			continue; /* not a rowid spe-load writes: such an object is simply unknown */
		struct export_data_object *by_id = export_index_grow(o->by_id, &o->n, sizeof *by_id, id);
		if (!by_id) {
			rc = -spe_nomem;
			break;
		}
		o->by_id = by_id;
		struct export_data_object *d = &o->by_id[id];
		char name[512];
		d->id = id;
		d->kind = sqlite3_column_int(st, 1);
		d->start = (uint64_t)sqlite3_column_int64(st, 3);
		d->size = (uint64_t)sqlite3_column_int64(st, 4);
		shown_name((const char *)sqlite3_column_text(st, 2), d->kind, d->start, d->size, name, sizeof name);
		d->name = export_strtab_intern(&x->strings, name, &oom);
		d->file = export_strtab_intern(&x->strings, (const char *)sqlite3_column_text(st, 5), &oom);
		d->line = sqlite3_column_int(st, 6);
		d->mapping_id = sqlite3_column_type(st, 7) == SQLITE_NULL ? 0 : sqlite3_column_int64(st, 7);
		/* a binary's variables and sections are small: their 64-byte lines are worth telling apart */
		d->per_line = d->kind == DOBJ_VARIABLE || d->kind == DOBJ_SYMBOL || d->kind == DOBJ_SECTION;
	}
	if (rc < 0) {
		sqlite3_finalize(st);
	} else if ((rc = export_finish(x, st, "reading data objects")) < 0) {
		export_data_objects_free(o);
		return rc;
	}
	if (rc == 0 && oom)
		rc = -spe_nomem;
	if (rc < 0) {
		export_data_objects_free(o);
		return export_fail(x, rc, "reading data objects: out of memory");
	}
	return 0;
}

const struct export_data_object *export_data_object(const struct export_data_objects *o, int64_t id)
{
	if (id <= 0 || (uint64_t)id >= o->n || o->by_id[id].id != id)
		return NULL;
	return &o->by_id[id];
}

void export_data_objects_free(struct export_data_objects *o)
{
	free(o->by_id);
	memset(o, 0, sizeof *o);
}
