/* SPDX-License-Identifier: Apache-2.0 */
/* spe_export(): the context shared by the exporters, and the dispatch to them. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "ana/result_internal.h"
#include "util/grow.h"

int export_fail(struct export_ctx *x, int code, const char *fmt, ...)
{
	if (x->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(x->err, x->errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

int export_write(struct export_ctx *x, FILE *out, const void *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, out) != len)
		return export_fail(x, -spe_io, "writing the output: %s", strerror(errno));
	return 0;
}

int export_printf(struct export_ctx *x, FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vfprintf(out, fmt, ap);
	va_end(ap);
	if (n < 0)
		return export_fail(x, -spe_io, "writing the output: %s", strerror(errno));
	return 0;
}

int export_sql_code(int rc)
{
	return ana_sqlite_code(rc);
}

int export_finish(struct export_ctx *x, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_finalize(st);
	if (rc == SQLITE_OK)
		return 0;
	return export_fail(x, export_sql_code(rc), "%s: %s", what,
			   (rc & 0xff) == SQLITE_NOMEM ? "out of memory" : sqlite3_errmsg(x->db));
}

struct export_mapping *export_mapping(struct export_ctx *x, int64_t id)
{
	if (id <= 0 || (uint64_t)id >= x->n_maps || x->maps[id].id != id)
		return NULL;
	return &x->maps[id];
}

struct spe_sym_binary *export_mapping_binary(struct export_ctx *x, struct export_mapping *m)
{
	if (!m->bin_tried) {
		m->bin_tried = 1;
		if (!x->sym) {
			struct spe_sym_opts so = { .size = sizeof so, .symfs = x->opts->symfs };
			x->sym = spe_sym_new(&so);
		}
		if (x->sym && m->path && m->path[0] != '[')
			m->bin = spe_sym_binary(x->sym, m->path, m->build_id);
	}
	return m->bin;
}

int export_mapping_vaddr(struct export_ctx *x, struct export_mapping *m, uint64_t addr, uint64_t *vaddr)
{
	struct spe_sym_binary *bin = export_mapping_binary(x, m);
	if (!bin || addr < m->start || addr >= m->end)
		return -1;
	return spe_sym_offset_to_vaddr(bin, addr - m->start + m->pgoff, vaddr);
}

void *export_index_grow(void *array, size_t *n, size_t elem, int64_t id)
{
	if ((size_t)id < *n)
		return array;
	size_t old = *n;
	unsigned char *p = util_grow(array, n, (size_t)id + 1, elem);
	if (!p)
		return NULL;
	memset(p + old * elem, 0, (*n - old) * elem);
	return p;
}

/* Every mapping row, indexed by id (ids are dense rowids from 1). */
static int load_mappings(struct export_ctx *x)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(x->db, "SELECT id, source_id, pid, path, build_id, start, end, pgoff FROM mapping ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK)
		return export_fail(x, export_sql_code(sqlite3_errcode(x->db)), "reading mappings: %s", sqlite3_errmsg(x->db));
	int rc = 0, oom = 0;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (id <= 0 || id > EXPORT_MAX_ROWID)
			continue; /* not a rowid spe-load writes; such a mapping is simply unknown */
		struct export_mapping *maps = export_index_grow(x->maps, &x->n_maps, sizeof *maps, id);
		if (!maps) {
			rc = -spe_nomem;
			break;
		}
		x->maps = maps;
		struct export_mapping *m = &x->maps[id];
		m->id = id;
		m->source_id = sqlite3_column_int64(st, 1);
		m->pid = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 2);
		m->path = export_strtab_intern(&x->strings, (const char *)sqlite3_column_text(st, 3), &oom);
		m->build_id = export_strtab_intern(&x->strings, (const char *)sqlite3_column_text(st, 4), &oom);
		m->start = (uint64_t)sqlite3_column_int64(st, 5);
		m->end = (uint64_t)sqlite3_column_int64(st, 6);
		m->pgoff = (uint64_t)sqlite3_column_int64(st, 7);
	}
	if (rc < 0)
		sqlite3_finalize(st);
	else if ((rc = export_finish(x, st, "reading mappings")) < 0)
		return rc;
	if (rc == 0 && oom)
		rc = -spe_nomem;
	return rc < 0 ? export_fail(x, rc, "reading mappings: out of memory") : 0;
}

int spe_export(sqlite3 *db, enum spe_export_format fmt, const struct spe_export_opts *opts, FILE *out,
	       struct spe_export_stats *stats, char *err, size_t errlen)
{
	struct spe_export_stats dummy;
	if (!stats)
		stats = &dummy;
	memset(stats, 0, sizeof *stats);
	struct export_ctx x = { .db = db, .opts = opts, .stats = stats, .err = err, .errlen = errlen };
	if (errlen)
		err[0] = 0;
	if (!db || !opts || opts->size < sizeof *opts || !out)
		return export_fail(&x, -spe_invalid, "spe_export: bad arguments");
	if (export_strtab_init(&x.strings) < 0)
		return export_fail(&x, -spe_nomem, "out of memory");
	/*
	 * One read transaction around every query: the export sees one state of
	 * the database, and SQLite takes its shared lock once.  In autocommit each
	 * statement took and dropped it (two fcntl calls and a look for a hot
	 * journal), and the exporters run one small query per sampled PC: that was
	 * a third of a 1 M-record folded export.  A caller's own transaction is
	 * left as it is.
	 */
	int own_txn = sqlite3_get_autocommit(db) && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	int rc = load_mappings(&x);
	if (rc == 0) {
		switch (fmt) {
		case SPE_EXPORT_PPROF: rc = export_pprof(&x, out); break;
		case SPE_EXPORT_FOLDED: rc = export_folded(&x, out); break;
		case SPE_EXPORT_BOLT: rc = export_bolt(&x, out); break;
		case SPE_EXPORT_AUTOFDO: rc = export_autofdo(&x, out); break;
		default: rc = export_fail(&x, -spe_invalid, "unknown export format %d", (int)fmt);
		}
	}
	if (own_txn)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL); /* nothing was written: this only ends the read */
	if (rc == 0 && fflush(out) != 0)
		rc = export_fail(&x, -spe_io, "writing the output: %s", strerror(errno));
	spe_sym_free(x.sym);
	free(x.maps);
	export_strtab_free(&x.strings);
	return rc;
}
