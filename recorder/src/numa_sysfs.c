/* SPDX-License-Identifier: Apache-2.0 */
/* NUMA nodes, their CPUs and memory blocks from sysfs (see spe/numa_sysfs.h). */
#include "spe/numa_sysfs.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Node numbers and block indexes beyond these are not plausible sysfs entries. */
#define MAX_NODE 4095u
#define MAX_BLOCK (1u << 24)

/* "node12" -> 12 with @p prefix "node"; -1 for anything else. */
static long numbered(const char *name, const char *prefix, unsigned long max)
{
	size_t n = strlen(prefix);
	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]))
		return -1;
	char *end;
	unsigned long v = strtoul(name + n, &end, 10);
	return *end || v > max ? -1 : (long)v;
}

/* The first line of @p path without its newline, or NULL. */
static char *read_line(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char buf[4096];
	char *s = fgets(buf, sizeof buf, f) ? strdup(buf) : NULL;
	fclose(f);
	if (s)
		s[strcspn(s, "\n")] = 0;
	return s;
}

/* "Node 0 MemTotal:  16384 kB" lines of nodeN/meminfo. */
static void read_meminfo(const char *path, struct spe_perf_numa_node *n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[256];
	while (fgets(line, sizeof line, f)) {
		unsigned node;
		char key[64];
		unsigned long long kb;
		if (sscanf(line, "Node %u %63[^:]: %llu", &node, key, &kb) != 3)
			continue;
		if (!strcmp(key, "MemTotal"))
			n->mem_total_kb = kb;
		else if (!strcmp(key, "MemFree"))
			n->mem_free_kb = kb;
	}
	fclose(f);
}

/* Set bit @p b of the node's block bitmap, growing it.  0 or -spe_nomem. */
static int set_block(struct spe_perf_numa_node *n, uint64_t b)
{
	uint64_t words = (n->n_block_bits + 63) / 64;
	if (b >= n->n_block_bits) {
		uint64_t need = b / 64 + 1;
		if (need > words) {
			uint64_t *p = realloc((uint64_t *)n->blocks, need * 8);
			if (!p)
				return -spe_nomem;
			memset(p + words, 0, (need - words) * 8);
			n->blocks = p;
		}
		n->n_block_bits = b + 1;
	}
	((uint64_t *)n->blocks)[b / 64] |= 1ull << (b % 64);
	return 0;
}

static int read_node(const char *dir, struct spe_perf_numa_node *n)
{
	char path[4500];
	snprintf(path, sizeof path, "%s/cpulist", dir);
	char *cpus = read_line(path);
	n->cpus = cpus ? cpus : strdup("");
	if (!n->cpus)
		return -spe_nomem;
	snprintf(path, sizeof path, "%s/meminfo", dir);
	read_meminfo(path, n);
	DIR *d = opendir(dir);
	struct dirent *e;
	int r = 0;
	while (d && r == 0 && (e = readdir(d))) {
		long b = numbered(e->d_name, "memory", MAX_BLOCK);
		if (b >= 0)
			r = set_block(n, (uint64_t)b);
	}
	if (d)
		closedir(d);
	return r;
}

static int by_node(const void *a, const void *b)
{
	const struct spe_perf_numa_node *x = a, *y = b;
	return (x->node > y->node) - (x->node < y->node);
}

int spe_numa_read_sysfs(const char *sys_root, struct spe_numa_topology *t)
{
	memset(t, 0, sizeof *t);
	char path[4096];
	snprintf(path, sizeof path, "%s/devices/system/node", sys_root);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *e;
	int r = 0;
	while (r == 0 && (e = readdir(d))) {
		long node = numbered(e->d_name, "node", MAX_NODE);
		if (node < 0)
			continue;
		struct spe_perf_numa_node *p = realloc(t->nodes, (t->n_nodes + 1) * sizeof *p);
		if (!p) {
			r = -spe_nomem;
			break;
		}
		t->nodes = p;
		struct spe_perf_numa_node *n = &t->nodes[t->n_nodes++];
		memset(n, 0, sizeof *n);
		n->node = (uint32_t)node;
		char dir[4400];
		snprintf(dir, sizeof dir, "%s/%s", path, e->d_name);
		r = read_node(dir, n);
	}
	closedir(d);
	if (r) {
		spe_numa_topology_fini(t);
		return r;
	}
	if (t->n_nodes)
		qsort(t->nodes, t->n_nodes, sizeof *t->nodes, by_node);
	snprintf(path, sizeof path, "%s/devices/system/memory/block_size_bytes", sys_root);
	char *bs = read_line(path);
	if (bs) {
		char *end;
		unsigned long long v = strtoull(bs, &end, 16); /* the kernel prints it in hex, without 0x */
		if (end != bs && !*end && v && !(v & (v - 1)))
			t->block_size = v;
		free(bs);
	}
	return 0;
}

void spe_numa_topology_fini(struct spe_numa_topology *t)
{
	for (uint32_t i = 0; i < t->n_nodes; i++) {
		free((char *)t->nodes[i].cpus);
		free((uint64_t *)t->nodes[i].blocks);
	}
	free(t->nodes);
	memset(t, 0, sizeof *t);
}
