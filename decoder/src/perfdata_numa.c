/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf's NUMA_TOPOLOGY and MEM_TOPOLOGY feature sections (layout in
 * docs/perfdata-api.md, "NUMA topology"; perf writes both by default, and so
 * does spe-record).  The two are merged by node number into one list.
 *
 *   NUMA_TOPOLOGY: u32 nr; nr x { u32 node; u64 mem_total_kb; u64 mem_free_kb;
 *                  string cpus }   (packed: no padding between fields)
 *   MEM_TOPOLOGY:  u64 version (1); u64 block_size; u64 nr;
 *                  nr x { u64 node; u64 size; u64 bits; u64 words[(bits + 63) / 64] }
 */
#include <stdlib.h>

#include "perfdata_internal.h"

/* perf's MAX_NUMNODES is at most 1024; anything far beyond is corrupt. */
#define PD_MAX_NUMA_NODES 4096

static struct pd_numa_node *find_node(struct spe_perf_file *f, uint32_t node)
{
	for (uint32_t i = 0; i < f->n_numa; i++)
		if (f->numa[i].pub.node == node)
			return &f->numa[i];
	return NULL;
}

/* The node's entry, made if new (NULL without memory: the section was checked, so nothing else fails). */
static struct pd_numa_node *node_slot(struct spe_perf_file *f, uint32_t node)
{
	struct pd_numa_node *n = find_node(f, node);
	if (n)
		return n;
	n = realloc(f->numa, (f->n_numa + 1) * sizeof *n);
	if (!n)
		return NULL;
	f->numa = n;
	n = &f->numa[f->n_numa++];
	memset(n, 0, sizeof *n);
	n->pub.node = node;
	n->pub.cpus = "";
	f->info.n_numa_nodes = f->n_numa;
	return n;
}

/*
 * Each section is walked twice: first to check it whole (a section that
 * does not parse is skipped and must leave nothing behind), then to apply
 * it.  @p new_nodes counts, while checking, the nodes the section adds.
 */
static int check_node_count(struct spe_perf_file *f, uint32_t node, uint32_t *new_nodes, uint64_t off)
{
	if (find_node(f, node))
		return 0;
	if (f->n_numa + ++*new_nodes > PD_MAX_NUMA_NODES)
		return pd_fail(f, -spe_bad_file, off, "more than %d NUMA nodes", PD_MAX_NUMA_NODES);
	return 0;
}

static int walk_numa_topology(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off, int apply)
{
	if (size < 4)
		return pd_fail(f, -spe_bad_file, off, "NUMA_TOPOLOGY section is cut (%llu bytes)",
			       (unsigned long long)size);
	uint32_t nr = pd_le32(p), new_nodes = 0;
	if (nr > PD_MAX_NUMA_NODES)
		return pd_fail(f, -spe_bad_file, off, "NUMA_TOPOLOGY announces %u nodes (at most %d)", nr,
			       PD_MAX_NUMA_NODES);
	uint64_t pos = 4;
	for (uint32_t i = 0; i < nr; i++) {
		if (size - pos < 20)
			return pd_fail(f, -spe_bad_file, off + pos, "NUMA_TOPOLOGY node %u of %u is cut", i, nr);
		uint32_t node = pd_le32(p + pos);
		uint64_t used = 0, str = pos + 20;
		int err;
		if (!apply) {
			if ((err = check_node_count(f, node, &new_nodes, off + pos)) ||
			    (err = pd_string_size(f, p + str, size - str, off + str, &used)))
				return err;
		} else {
			struct pd_numa_node *n = node_slot(f, node);
			if (!n)
				return -spe_nomem;
			n->pub.mem_total_kb = pd_le64(p + pos + 4);
			n->pub.mem_free_kb = pd_le64(p + pos + 12);
			if ((err = pd_read_string(f, p + str, size - str, off + str, &n->cpus, &used)))
				return err;
			n->pub.cpus = n->cpus;
		}
		pos = str + used;
	}
	return 0;
}

int pd_parse_numa_topology(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off)
{
	int err = walk_numa_topology(f, p, size, off, 0);
	return err ? err : walk_numa_topology(f, p, size, off, 1);
}

static int walk_mem_topology(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off, int apply)
{
	if (size < 24)
		return pd_fail(f, -spe_bad_file, off, "MEM_TOPOLOGY section is cut (%llu bytes)",
			       (unsigned long long)size);
	uint64_t version = pd_le64(p), bsize = pd_le64(p + 8), nr = pd_le64(p + 16);
	uint32_t new_nodes = 0;
	if (version != 1)
		return 0; /* a later layout: perf refuses it too; the NUMA data is optional */
	if (bsize == 0 || (bsize & (bsize - 1)))
		return pd_fail(f, -spe_bad_file, off + 8, "MEM_TOPOLOGY block size %llu is not a power of two",
			       (unsigned long long)bsize);
	if (nr > PD_MAX_NUMA_NODES)
		return pd_fail(f, -spe_bad_file, off + 16, "MEM_TOPOLOGY announces %llu nodes (at most %d)",
			       (unsigned long long)nr, PD_MAX_NUMA_NODES);
	uint64_t pos = 24;
	for (uint64_t i = 0; i < nr; i++) {
		if (size - pos < 24)
			return pd_fail(f, -spe_bad_file, off + pos, "MEM_TOPOLOGY node %llu of %llu is cut",
				       (unsigned long long)i, (unsigned long long)nr);
		uint64_t node = pd_le64(p + pos), bits = pd_le64(p + pos + 16);
		uint64_t words = bits / 64 + (bits % 64 != 0);
		if (!apply) {
			if (node > UINT32_MAX)
				return pd_fail(f, -spe_bad_file, off + pos, "MEM_TOPOLOGY node number %llu is impossible",
					       (unsigned long long)node);
			if (words > (size - pos - 24) / 8)
				return pd_fail(f, -spe_bad_file, off + pos + 16,
					       "MEM_TOPOLOGY node %llu: a bitmap of %llu bits does not fit the section",
					       (unsigned long long)node, (unsigned long long)bits);
			int err = check_node_count(f, (uint32_t)node, &new_nodes, off + pos);
			if (err)
				return err;
		} else {
			struct pd_numa_node *n = node_slot(f, (uint32_t)node);
			uint64_t *b = words ? malloc(words * 8) : NULL;
			if (!n || (words && !b)) {
				free(b);
				return -spe_nomem;
			}
			for (uint64_t w = 0; w < words; w++)
				b[w] = pd_le64(p + pos + 24 + 8 * w);
			free(n->blocks);
			n->blocks = b;
			n->pub.blocks = b;
			n->pub.n_block_bits = words ? bits : 0;
		}
		pos += 24 + 8 * words;
	}
	if (apply)
		f->info.memory_block_size = bsize;
	return 0;
}

int pd_parse_mem_topology(struct spe_perf_file *f, const uint8_t *p, uint64_t size, uint64_t off)
{
	int err = walk_mem_topology(f, p, size, off, 0);
	return err ? err : walk_mem_topology(f, p, size, off, 1);
}

void pd_free_numa(struct spe_perf_file *f)
{
	for (uint32_t i = 0; i < f->n_numa; i++) {
		free(f->numa[i].cpus);
		free(f->numa[i].blocks);
	}
	free(f->numa);
	f->numa = NULL;
	f->n_numa = 0;
}

int spe_perf_numa_node(const struct spe_perf_file *f, uint32_t i, struct spe_perf_numa_node *node, size_t size)
{
	if (!f || !node || i >= f->n_numa)
		return -spe_invalid;
	memset(node, 0, size);
	memcpy(node, &f->numa[i].pub, size < sizeof f->numa[i].pub ? size : sizeof f->numa[i].pub);
	return 0;
}
