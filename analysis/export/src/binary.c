/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one binary a BOLT or AutoFDO profile is for: chosen by --build-id,
 * by --binary=PATH (its build-id, else its base name, against the mappings),
 * or, with neither, the only binary with sampled instructions.  The
 * profile's addresses are that binary's own (ELF vaddrs), reached from a
 * runtime address through its mapping's file offset.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "export_internal.h"

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int same_binary(const struct export_mapping *a, const struct export_mapping *b)
{
	if (a->build_id && b->build_id)
		return !strcasecmp(a->build_id, b->build_id);
	return a->path && b->path && !strcmp(a->path, b->path);
}

/* Mappings of files (not [kernel.kallsyms] and the like) with sampled instructions. */
static int sampled_mappings(struct export_ctx *x, char *sampled)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(x->db, "SELECT DISTINCT mapping_id FROM insn", -1, &st, NULL) != SQLITE_OK)
		return export_fail(x, export_sql_code(sqlite3_errcode(x->db)), "reading instructions: %s", sqlite3_errmsg(x->db));
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct export_mapping *m = export_mapping(x, sqlite3_column_int64(st, 0));
		if (m && m->path && m->path[0] != '[')
			sampled[m->id] = 1;
	}
	return export_finish(x, st, "reading instructions");
}

static int add_map(struct export_binary *b, int64_t id)
{
	int64_t *ids = realloc(b->map_ids, (b->n_maps + 1) * sizeof *ids);
	if (!ids)
		return -1;
	b->map_ids = ids;
	b->map_ids[b->n_maps++] = id;
	return 0;
}

int export_binary_select(struct export_ctx *x, struct export_binary *b)
{
	const struct spe_export_opts *o = x->opts;
	memset(b, 0, sizeof *b);
	char *sampled = calloc(x->n_maps + 1, 1);
	if (!sampled)
		return export_fail(x, -spe_nomem, "out of memory");
	int rc = sampled_mappings(x, sampled);
	const char *want_id = o->build_id;
	struct spe_symbolizer *own = NULL;
	if (rc == 0 && o->binary) {
		/* the file as given, not under --symfs */
		struct spe_sym_opts so = { .size = sizeof so };
		own = spe_sym_new(&so);
		b->bin = own ? spe_sym_binary(own, o->binary, NULL) : NULL;
		if (!b->bin)
			rc = export_fail(x, -spe_not_found, "--binary=%s: not an ELF file libdw can read", o->binary);
		else if (!want_id && spe_sym_binary_build_id(b->bin)[0])
			want_id = spe_sym_binary_build_id(b->bin);
	}
	/* the mappings of the chosen binary, the first one standing for it */
	struct export_mapping *first = NULL;
	int ambiguous = 0;
	for (size_t i = 1; rc == 0 && i < x->n_maps; i++) {
		struct export_mapping *m = &x->maps[i];
		if (!m->id || !m->path || m->path[0] == '[')
			continue;
		int match;
		if (want_id && m->build_id)
			match = !strcasecmp(m->build_id, want_id);
		else if (o->binary && !o->build_id) /* a mapping without build-id: by file name */
			match = !strcmp(base_name(m->path), base_name(o->binary));
		else if (!want_id && !o->binary && sampled[i])
			match = 1;
		else
			match = 0;
		/* with no choice given, a second sampled binary makes the choice the user's */
		if (match && !want_id && !o->binary && first && !same_binary(first, m)) {
			ambiguous = 1;
			match = 0;
		}
		if (match && (!first || same_binary(first, m))) {
			if (!first)
				first = m;
			if (add_map(b, m->id) < 0)
				rc = export_fail(x, -spe_nomem, "out of memory");
		}
	}
	if (rc == 0 && (ambiguous || !first)) {
		char list[2048] = "";
		size_t len = 0;
		for (size_t i = 1; i < x->n_maps && len < sizeof list - 1; i++) {
			struct export_mapping *m = &x->maps[i];
			int dup = 0;
			for (size_t j = 1; j < i && !dup; j++)
				dup = sampled[j] && same_binary(&x->maps[j], m);
			if (sampled[i] && !dup)
				len += (size_t)snprintf(list + len, sizeof list - len, "%s%s (build-id %s)", len ? ", " : "",
							m->path, m->build_id ? m->build_id : "none");
		}
		rc = export_fail(x, -spe_invalid, "%s; binaries with samples: %s",
				 ambiguous ? "several binaries have samples: choose one with --binary or --build-id"
				 : want_id ? "no mapping has that build-id"
					   : "no mapping of that file name",
				 len ? list : "none");
	}
	if (rc == 0 && !b->bin) {
		b->bin = export_mapping_binary(x, first);
		if (!b->bin)
			rc = export_fail(x, -spe_not_found, "%s: cannot read the binary (give --binary=PATH or --symfs=DIR)",
					 first->path);
	}
	if (rc == 0) {
		b->path = spe_sym_binary_path(b->bin);
		snprintf(x->stats->binary_path, sizeof x->stats->binary_path, "%s", b->path);
		size_t n = 3 + 21 * b->n_maps;
		b->id_list = malloc(n);
		if (!b->id_list)
			rc = export_fail(x, -spe_nomem, "out of memory");
		size_t len = 0;
		for (size_t i = 0; rc == 0 && i < b->n_maps; i++)
			len += (size_t)snprintf(b->id_list + len, n - len, "%s%lld", i ? "," : "(", (long long)b->map_ids[i]);
		if (rc == 0)
			snprintf(b->id_list + len, n - len, ")");
	}
	b->own = own;
	free(sampled);
	if (rc < 0)
		export_binary_free(b);
	return rc;
}

void export_binary_free(struct export_binary *b)
{
	spe_sym_free(b->own);
	free(b->map_ids);
	free(b->id_list);
	memset(b, 0, sizeof *b);
}

int export_binary_vaddr(struct export_ctx *x, const struct export_binary *b, int64_t source_id, int64_t pid,
			uint64_t addr, uint64_t *vaddr)
{
	for (size_t i = 0; i < b->n_maps; i++) {
		const struct export_mapping *m = export_mapping(x, b->map_ids[i]);
		if (m && m->source_id == source_id && m->pid == pid && addr >= m->start && addr < m->end)
			return spe_sym_offset_to_vaddr(b->bin, addr - m->start + m->pgoff, vaddr);
	}
	return -1;
}
