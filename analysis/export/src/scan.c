/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one pass over spe_record every exporter makes.  The options' filters
 * become bound parameters; --where is an expression over the spe_sample
 * view's columns (the names users already query), tested per record by an
 * EXISTS on that view's row of the same id, so the scan itself reads
 * spe_record in rowid order without the view's joins.  Text columns with a
 * closed set of values come back as small codes from the facts table.
 */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "util/text.h"

#define SPE_X(id, name) name,
const char *const export_op_class_names[] = { SPE_OP_CLASS_LIST(SPE_X) };
#undef SPE_X
#define SPE_X(id, name, peer, desc) name,
const char *const export_mem_level_names[] = { SPE_MEM_LEVEL_LIST(SPE_X) };
#undef SPE_X
const size_t export_n_op_classes = sizeof export_op_class_names / sizeof *export_op_class_names;
const size_t export_n_mem_levels = sizeof export_mem_level_names / sizeof *export_mem_level_names;

/* CASE col WHEN 'name0' THEN 0 ... ELSE -1 END */
static void append_code(struct util_text *t, const char *col, const char *const *names, size_t n)
{
	util_text_appendf(t, "CASE %s", col);
	for (size_t i = 0; i < n; i++)
		util_text_appendf(t, " WHEN '%s' THEN %zu", names[i], i);
	util_text_append(t, " ELSE -1 END");
}

/* One column fetch per value (sqlite3_column_type then _int64 would look the column up twice). */
static int64_t col_or_null(sqlite3_stmt *st, int i)
{
	sqlite3_value *v = sqlite3_column_value(st, i);
	return sqlite3_value_type(v) == SQLITE_NULL ? EXPORT_NULL : sqlite3_value_int64(v);
}

enum { PROGRESS_EVERY = 65536 }; /* records between progress calls */

/* The largest record id (the rowid's last b-tree page: no scan), for the progress's total; 0 if unknown. */
static uint64_t last_id(sqlite3 *db)
{
	sqlite3_stmt *st;
	uint64_t id = 0;
	if (sqlite3_prepare_v2(db, "SELECT max(rowid) FROM _spe_record", -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0)
		id = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int export_scan(struct export_ctx *x, const char *extra, unsigned cols, export_row_fn fn, void *arg)
{
	const struct spe_export_opts *o = x->opts;
	struct util_text t = { 0 };
	/* columns not asked for are constants: SQLite neither decodes nor converts them */
	util_text_append(&t, "SELECT r.source_id, r.pid, r.mapping_id, r.pc, ");
	util_text_append(&t, cols & EXPORT_COL_DATA ? "r.data_va, r.data_object_id, " : "NULL, NULL, ");
	util_text_append(&t, cols & EXPORT_COL_BRANCH ? "r.branch_target, r.prev_branch_target, " : "NULL, NULL, ");
	util_text_append(&t, cols & EXPORT_COL_LABELS ? "r.events, " : "NULL, ");
	util_text_append(&t, cols & EXPORT_COL_LATENCY ? "r.total_latency, r.issue_latency, r.translation_latency, "
						 : "NULL, NULL, NULL, ");
	if (cols & EXPORT_COL_LABELS) {
		append_code(&t, "r.op_class", export_op_class_names, export_n_op_classes);
		util_text_append(&t, ", ");
		append_code(&t, "r.mem_level", export_mem_level_names, export_n_mem_levels);
	} else {
		util_text_append(&t, "-1, -1");
	}
	util_text_append(&t, ", r.id\nFROM spe_record r WHERE 1");
	if (o->source_id != SPE_EXPORT_ANY)
		util_text_append(&t, " AND r.source_id = :source");
	if (o->pid != SPE_EXPORT_ANY)
		util_text_append(&t, " AND r.pid = :pid");
	if (o->cpu != SPE_EXPORT_ANY)
		util_text_append(&t, " AND r.cpu = :cpu");
	if (extra)
		util_text_appendf(&t, " AND (%s)", extra);
	if (o->selection) {
		char *sel = spe_selection_sql(o->selection, "r");
		if (sel)
			util_text_appendf(&t, " AND %s", sel);
		else
			t.failed = 1;
		free(sel);
	}
	if (o->where)
		util_text_appendf(&t, "\n AND EXISTS (SELECT 1 FROM spe_sample WHERE spe_sample.id = r.id AND (%s\n))", o->where);
	if (!util_text_ok(&t)) {
		util_text_fini(&t);
		return export_fail(x, -spe_nomem, "out of memory");
	}
	sqlite3_stmt *st;
	const char *tail = NULL;
	int rc = sqlite3_prepare_v2(x->db, t.buf, -1, &st, &tail);
	if (rc == SQLITE_OK && tail && tail[strspn(tail, " \t\r\n")]) {
		sqlite3_finalize(st);
		util_text_fini(&t);
		return export_fail(x, -spe_invalid, "--where: one expression, not several statements");
	}
	util_text_fini(&t);
	if (rc != SQLITE_OK)
		return export_fail(x, o->where && (rc & 0xff) == SQLITE_ERROR ? -spe_invalid : export_sql_code(rc), "%s%s",
				   o->where && (rc & 0xff) == SQLITE_ERROR ? "--where: " : "reading the records: ",
				   sqlite3_errmsg(x->db));
	if (o->source_id != SPE_EXPORT_ANY)
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":source"), o->source_id);
	if (o->pid != SPE_EXPORT_ANY)
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":pid"), o->pid);
	if (o->cpu != SPE_EXPORT_ANY)
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":cpu"), o->cpu);
	if ((rc = spe_selection_bind(o->selection, st)) != SQLITE_OK) {
		sqlite3_finalize(st);
		return export_fail(x, export_sql_code(rc), "binding the selection: %s", sqlite3_errstr(rc));
	}

	struct spe_progress pr = { .unit = "records", .total = o->on_progress ? last_id(x->db) : 0 };
	uint64_t next = PROGRESS_EVERY;
	int ret = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct export_row r = {
			.source_id = sqlite3_column_int64(st, 0),
			.pid = col_or_null(st, 1),
			.mapping_id = col_or_null(st, 2),
			.pc = col_or_null(st, 3),
			.data_va = col_or_null(st, 4),
			.data_object_id = col_or_null(st, 5),
			.branch_target = col_or_null(st, 6),
			.prev_branch_target = col_or_null(st, 7),
			.events = col_or_null(st, 8),
			.latency = { col_or_null(st, 9), col_or_null(st, 10), col_or_null(st, 11) },
			.op_class = sqlite3_column_int(st, 12),
			.mem_level = sqlite3_column_int(st, 13),
		};
		x->stats->records++;
		if ((ret = fn(arg, &r)) != 0)
			break;
		if (o->on_progress && ++pr.count >= next) {
			next = pr.count + PROGRESS_EVERY;
			pr.done = (uint64_t)sqlite3_column_int64(st, 14);
			o->on_progress(o->progress_arg, &pr);
		}
	}
	if (o->on_progress && rc == SQLITE_DONE && ret == 0) {
		pr.done = pr.total, pr.step = "writing the output";
		o->on_progress(o->progress_arg, &pr);
	}
	/* a run-time error of the --where expression is the request's; the rest is the database's or the disk's */
	if (ret == 0 && rc != SQLITE_DONE)
		ret = export_fail(x, o->where && (rc & 0xff) == SQLITE_ERROR ? -spe_invalid : export_sql_code(rc), "%s%s",
				  o->where && (rc & 0xff) == SQLITE_ERROR ? "--where: " : "reading the records: ",
				  (rc & 0xff) == SQLITE_NOMEM ? "out of memory" : sqlite3_errmsg(x->db));
	sqlite3_finalize(st);
	return ret;
}
