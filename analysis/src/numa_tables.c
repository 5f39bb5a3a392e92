/* SPDX-License-Identifier: Apache-2.0 */
/* NUMA nodes of a capture into SQL (see numa_tables.h and docs/schema.md). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "numa_tables.h"

static int step(sqlite3 *db, sqlite3_stmt *st, char *err, size_t errlen)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE)
		return 0;
	snprintf(err, errlen, "numa: %s", sqlite3_errmsg(db));
	return -spe_io;
}

/* Each CPU of @p list ("0-3,8"), inserted for @p node. */
static int write_cpus(sqlite3 *db, sqlite3_stmt *st, int64_t source_id, uint32_t node, const char *list, char *err,
		      size_t errlen)
{
	const char *s = list;
	while (*s) {
		char *end;
		if (!isdigit((unsigned char)*s))
			goto bad;
		unsigned long a = strtoul(s, &end, 10), b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				goto bad;
			b = strtoul(end + 1, &end, 10);
		}
		if (b < a || b >= 1u << 20)
			goto bad;
		for (unsigned long c = a; c <= b; c++) {
			sqlite3_bind_int64(st, 1, source_id);
			sqlite3_bind_int64(st, 2, (int64_t)c);
			sqlite3_bind_int64(st, 3, node);
			int rc = step(db, st, err, errlen);
			if (rc)
				return rc;
		}
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		s = end;
	}
	return 0;
bad:
	snprintf(err, errlen, "NUMA node %u: CPU list '%s' does not parse", node, list);
	return -spe_bad_file;
}

static int write_ranges(sqlite3 *db, sqlite3_stmt *st, int64_t source_id, const struct spe_perf_numa_node *n,
			uint64_t block_size, char *err, size_t errlen)
{
	for (uint64_t b = 0; b < n->n_block_bits;) {
		if (!(n->blocks[b / 64] >> (b % 64) & 1)) {
			b++;
			continue;
		}
		uint64_t first = b;
		while (b < n->n_block_bits && (n->blocks[b / 64] >> (b % 64) & 1))
			b++;
		sqlite3_bind_int64(st, 1, source_id);
		sqlite3_bind_int64(st, 2, n->node);
		sqlite3_bind_int64(st, 3, (int64_t)(first * block_size));
		sqlite3_bind_int64(st, 4, (int64_t)(b * block_size));
		int rc = step(db, st, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

int numa_tables_write(sqlite3 *db, int64_t source_id, const struct spe_perf_numa_node *nodes, uint32_t n,
		      uint64_t block_size, char *err, size_t errlen)
{
	sqlite3_stmt *node_st = NULL, *cpu_st = NULL, *mem_st = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO numa_node VALUES(?, ?, ?, ?, ?)", -1, &node_st, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO numa_cpu VALUES(?, ?, ?)", -1, &cpu_st, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT INTO numa_memory VALUES(?, ?, ?, ?)", -1, &mem_st, NULL)) {
		snprintf(err, errlen, "numa: %s", sqlite3_errmsg(db));
		rc = -spe_io;
	}
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		const struct spe_perf_numa_node *nd = &nodes[i];
		sqlite3_bind_int64(node_st, 1, source_id);
		sqlite3_bind_int64(node_st, 2, nd->node);
		sqlite3_bind_text(node_st, 3, nd->cpus ? nd->cpus : "", -1, SQLITE_STATIC);
		if (nd->mem_total_kb)
			sqlite3_bind_int64(node_st, 4, (int64_t)nd->mem_total_kb);
		if (nd->mem_free_kb)
			sqlite3_bind_int64(node_st, 5, (int64_t)nd->mem_free_kb);
		rc = step(db, node_st, err, errlen);
		if (rc == 0 && nd->cpus)
			rc = write_cpus(db, cpu_st, source_id, nd->node, nd->cpus, err, errlen);
		if (rc == 0 && block_size && nd->blocks)
			rc = write_ranges(db, mem_st, source_id, nd, block_size, err, errlen);
	}
	sqlite3_finalize(node_st);
	sqlite3_finalize(cpu_st);
	sqlite3_finalize(mem_st);
	return rc;
}
