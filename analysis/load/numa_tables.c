/* SPDX-License-Identifier: Apache-2.0 */
/* NUMA nodes of a capture as rows (see numa_tables.h and docs/schema.md). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "numa_tables.h"

/* Each CPU of @p list ("0-3,8"), inserted for @p node. */
static int write_cpus(const struct spe_row_sink *sink, int64_t source_id, uint32_t node, const char *list, char *err,
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
			struct spe_row_numa_cpu row = { .source_id = source_id, .cpu = (int64_t)c, .node = node };
			int rc = spe_sink_rows(sink, &row, 1);
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

static int write_ranges(const struct spe_row_sink *sink, int64_t source_id, const struct spe_perf_numa_node *n,
			uint64_t block_size, struct record_summary *summary, char *err, size_t errlen)
{
	for (uint64_t b = 0; b < n->n_block_bits;) {
		if (!(n->blocks[b / 64] >> (b % 64) & 1)) {
			b++;
			continue;
		}
		uint64_t first = b;
		while (b < n->n_block_bits && (n->blocks[b / 64] >> (b % 64) & 1))
			b++;
		struct spe_row_numa_memory row = { .source_id = source_id, .node = n->node, .start = first * block_size,
						   .end = b * block_size };
		int rc = ana_record_summary_numa_range(summary, row.node, row.start, row.end);
		if (rc < 0) {
			snprintf(err, errlen, "NUMA node %u: %s", n->node,
				 rc == -spe_invalid ? "memory ranges given after the first record" : "out of memory");
			return rc;
		}
		rc = spe_sink_rows(sink, &row, 1);
		if (rc)
			return rc;
	}
	return 0;
}

int ana_numa_tables_write(const struct spe_row_sink *sink, int64_t source_id, const struct spe_perf_numa_node *nodes,
			  uint32_t n, uint64_t block_size, struct record_summary *summary, char *err, size_t errlen)
{
	int rc = 0;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		const struct spe_perf_numa_node *nd = &nodes[i];
		struct spe_row_numa_node row = { .source_id = source_id,
						 .node = nd->node,
						 .cpus = nd->cpus ? nd->cpus : "",
						 .mem_total_kb = nd->mem_total_kb,
						 .mem_free_kb = nd->mem_free_kb };
		rc = spe_sink_rows(sink, &row, 1);
		if (rc == 0 && nd->cpus)
			rc = write_cpus(sink, source_id, nd->node, nd->cpus, err, errlen);
		if (rc == 0 && block_size && nd->blocks)
			rc = write_ranges(sink, source_id, nd, block_size, summary, err, errlen);
	}
	return rc;
}
