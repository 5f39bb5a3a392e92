/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The NUMA layout spe-record stores with a capture, read from a sysfs tree:
 * the two-node fixture (fixtures/sysfs/numa-2node: node 0 = CPUs 0-1 and
 * memory blocks 0-7, node 1 = CPUs 2-3 and blocks 8-15 and 64, 128 MiB
 * blocks), and this machine's /sys checked against its own node files.
 *
 * usage: test_numa_sysfs FIXTURES_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "spe/numa_sysfs.h"

static const char *fixtures;

TEST(two_node_fixture)
{
	char root[4096];
	snprintf(root, sizeof root, "%s/sysfs/numa-2node", fixtures);
	struct spe_numa_topology t;
	CHECK_INT_EQ(spe_numa_read_sysfs(root, &t), 0);
	CHECK_INT_EQ(t.n_nodes, 2);
	CHECK_U64_EQ(t.block_size, 0x8000000);
	if (t.n_nodes == 2) {
		CHECK_INT_EQ(t.nodes[0].node, 0);
		CHECK_STR_EQ(t.nodes[0].cpus, "0-1");
		CHECK_U64_EQ(t.nodes[0].mem_total_kb, 1048576);
		CHECK_U64_EQ(t.nodes[0].mem_free_kb, 524288);
		CHECK_U64_EQ(t.nodes[0].n_block_bits, 8);
		CHECK_U64_EQ(t.nodes[0].blocks[0], 0xff);
		CHECK_INT_EQ(t.nodes[1].node, 1);
		CHECK_STR_EQ(t.nodes[1].cpus, "2-3");
		CHECK_U64_EQ(t.nodes[1].n_block_bits, 65);
		CHECK_U64_EQ(t.nodes[1].blocks[0], 0xff00);
		CHECK_U64_EQ(t.nodes[1].blocks[1], 0x1);
	}
	spe_numa_topology_fini(&t);
	CHECK_INT_EQ(t.n_nodes, 0);
}

TEST(no_numa_sysfs)
{
	struct spe_numa_topology t;
	CHECK_INT_EQ(spe_numa_read_sysfs("/nonexistent-sysfs-root", &t), 0);
	CHECK_INT_EQ(t.n_nodes, 0);
	CHECK_U64_EQ(t.block_size, 0);
}

/* This machine: every node directory's cpulist, in node order. */
TEST(this_machine)
{
	struct spe_numa_topology t;
	CHECK_INT_EQ(spe_numa_read_sysfs("/sys", &t), 0);
	if (t.n_nodes == 0) {
		printf("SKIP this_machine: no /sys/devices/system/node\n");
		return;
	}
	for (uint32_t i = 0; i < t.n_nodes; i++) {
		char path[128], want[4096] = "";
		snprintf(path, sizeof path, "/sys/devices/system/node/node%u/cpulist", t.nodes[i].node);
		FILE *f = fopen(path, "r");
		CHECK(f != NULL);
		if (f && fgets(want, sizeof want, f))
			want[strcspn(want, "\n")] = 0;
		if (f)
			fclose(f);
		CHECK_STR_EQ(t.nodes[i].cpus, want);
		if (i)
			CHECK(t.nodes[i].node > t.nodes[i - 1].node);
	}
	spe_numa_topology_fini(&t);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_numa_sysfs FIXTURES_DIR\n");
		return 64;
	}
	fixtures = argv[1];
	RUN(two_node_fixture);
	RUN(no_numa_sysfs);
	RUN(this_machine);
	return check_summary();
}
