/* SPDX-License-Identifier: Apache-2.0 */
/* Replay manifest parser: every directive, defaults, and each error with its line. */
#include "check.h"
#include "spe/replay_manifest.h"
#include "spe/spe.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char *fixtures;

static int parse(const char *text, struct spe_replay_manifest **m, char *err, size_t n)
{
	return spe_replay_manifest_parse_text(text, strlen(text), "/fx", "t.replay", m, err, n);
}

TEST(full_manifest)
{
	const char *text = "# a comment line\n"
			   "spekit-replay 1\n"
			   "midr 0x410fd0c0   # N1\n"
			   "time_conv 10 1000 5\n"
			   "comm 1234 1235 memstress\n"
			   "mmap2 1234 1234 0xaaaac17c3000 0x1000 0x1000 /usr/bin/x build_id=0011aaFF\n"
			   "cpu 2\n"
			   "aux cpu2.bin\n"
			   "itrace_start 1234 1235\n"
			   "cpu 3\n"
			   "midr 0x410fd490\n"
			   "aux /abs/cpu3.bin\n";
	struct spe_replay_manifest *m = NULL;
	char err[256];
	CHECK_INT_EQ(parse(text, &m, err, sizeof err), 0);
	if (!m)
		return;
	CHECK_INT_EQ(m->has_time_conv, 1);
	CHECK_U64_EQ(m->time_shift, 10);
	CHECK_U64_EQ(m->time_mult, 1000);
	CHECK_U64_EQ(m->time_zero, 5);
	CHECK_INT_EQ(m->n_cpus, 2);
	CHECK_INT_EQ(m->cpus[0].cpu, 2);
	CHECK_U64_EQ(m->cpus[0].midr, 0x410fd0c0);
	CHECK_STR_EQ(m->cpus[0].aux_path, "/fx/cpu2.bin");
	CHECK_INT_EQ(m->cpus[0].has_itrace_start, 1);
	CHECK_INT_EQ(m->cpus[0].itrace_tid, 1235);
	CHECK_INT_EQ(m->cpus[1].cpu, 3);
	CHECK_U64_EQ(m->cpus[1].midr, 0x410fd490); /* midr after 'cpu 3' applies to cpu 3 only */
	CHECK_STR_EQ(m->cpus[1].aux_path, "/abs/cpu3.bin");
	CHECK_INT_EQ(m->cpus[1].has_itrace_start, 0);
	CHECK_INT_EQ(m->n_side, 2);
	CHECK_INT_EQ(m->side[0].kind, SPE_REPLAY_COMM);
	CHECK_STR_EQ(m->side[0].u.comm.name, "memstress");
	CHECK_INT_EQ(m->side[0].u.comm.tid, 1235);
	CHECK_INT_EQ(m->side[1].kind, SPE_REPLAY_MMAP2);
	CHECK_U64_EQ(m->side[1].u.mmap2.start, 0xaaaac17c3000);
	CHECK_U64_EQ(m->side[1].u.mmap2.pgoff, 0x1000);
	CHECK_STR_EQ(m->side[1].u.mmap2.path, "/usr/bin/x");
	CHECK_INT_EQ(m->side[1].u.mmap2.build_id_size, 4);
	CHECK_INT_EQ(m->side[1].u.mmap2.build_id[3], 0xff);
	spe_replay_manifest_free(m);
}

TEST(defaults)
{
	struct spe_replay_manifest *m = NULL;
	char err[256];
	/* aux before any 'cpu' line means cpu 0; no time_conv means identity. */
	CHECK_INT_EQ(parse("spekit-replay 1\naux t.bin\n", &m, err, sizeof err), 0);
	if (!m)
		return;
	CHECK_INT_EQ(m->n_cpus, 1);
	CHECK_INT_EQ(m->cpus[0].cpu, 0);
	CHECK_U64_EQ(m->cpus[0].midr, 0);
	CHECK_INT_EQ(m->has_time_conv, 0);
	CHECK_U64_EQ(m->time_mult, 1);
	CHECK_U64_EQ(m->time_shift, 0);
	spe_replay_manifest_free(m);

	CHECK_INT_EQ(spe_replay_manifest_for_raw("x.bin", 5, 0x410fd0c0, &m), 0);
	if (!m)
		return;
	CHECK_INT_EQ(m->n_cpus, 1);
	CHECK_INT_EQ(m->cpus[0].cpu, 5);
	CHECK_STR_EQ(m->cpus[0].aux_path, "x.bin");
	CHECK_U64_EQ(m->time_mult, 1);
	spe_replay_manifest_free(m);
}

/* Each bad manifest fails with its line number and the problem in the message. */
TEST(errors)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "", "t.replay: empty manifest" },
		{ "aux x\n", "t.replay:1: expected 'spekit-replay 1' as the first directive, got 'aux'" },
		{ "spekit-replay 2\n", "t.replay:1: unsupported manifest version '2'" },
		{ "spekit-replay 1\n", "t.replay: no 'aux FILE' line" },
		{ "spekit-replay 1\nfrob 1\naux x\n", "t.replay:2: unknown directive 'frob'" },
		{ "spekit-replay 1\nmidr zz\n", "t.replay:2: midr: 'zz' is not a number" },
		{ "spekit-replay 1\nmidr 0x1ffffffff\n", "t.replay:2: midr: 0x1ffffffff is out of range" },
		{ "spekit-replay 1\ncpu 1\ncpu 1\n", "t.replay:3: cpu 1 appears twice" },
		{ "spekit-replay 1\naux a\naux b\n", "t.replay:3: cpu 0 already has an aux file" },
		{ "spekit-replay 1\ncomm 1 2\n", "t.replay:2: 'comm' takes 3 arguments, got 2" },
		{ "spekit-replay 1\ncomm 1 2 averyveryverylongname\n", "t.replay:2: comm: name 'averyveryverylongname' is longer than 15" },
		{ "spekit-replay 1\nmmap2 1 1 0x1000 0 0 /x\n", "t.replay:2: mmap2: start 0x1000 len 0x0 is not a valid range" },
		{ "spekit-replay 1\nmmap2 1 1 0x1000 1 0 /x build_id=abc\n", "t.replay:2: build_id: expected 2 to 40 hex digits" },
		{ "spekit-replay 1\nmmap2 1 1 0x1000 1 0 /x build_id=zz\n", "t.replay:2: build_id: 'zz' is not hex" },
		{ "spekit-replay 1\nmmap2 1 1 0x1000 1 0 /x foo\n", "t.replay:2: mmap2: unexpected 'foo'" },
		{ "spekit-replay 1\ntime_conv 0 0 0\n", "t.replay:2: time_conv: mult 0 would make perf divide by zero" },
		{ "spekit-replay 1\ntime_conv 64 1 0\n", "t.replay:2: time_conv shift: 64 is out of range" },
		{ "spekit-replay 1\nitrace_start -1 2\n", "t.replay:2: itrace_start pid: expected a number, got '-1'" },
		{ "spekit-replay 1\nspekit-replay 1\n", "t.replay:2: 'spekit-replay' must be the first directive" },
		{ "spekit-replay 1\nmmap2 1 1 0x1000 1 0 /x prot=rwx\n", "t.replay:2: mmap2: prot 'rwx' is not of the form" },
		{ "spekit-replay 1\nmmap2 1 1 0x1000 1 0 /x prot=rw-q\n", "t.replay:2: mmap2: prot 'rw-q' is not of the form" },
		{ "spekit-replay 1\nmemory_block_size 0x3000\n", "t.replay:2: memory_block_size: 0x3000 is not a power of two" },
		{ "spekit-replay 1\nnuma_node 0 0-1,x\n", "t.replay:2: numa_node cpus: '0-1,x' is not a list like 0-3,8" },
		{ "spekit-replay 1\nnuma_node 0 3-1\n", "t.replay:2: numa_node cpus: range 3-1 in '3-1' is empty" },
		{ "spekit-replay 1\nnuma_node 0 0 0-99999999\n", "t.replay:2: numa_node blocks: range 0-99999999" },
		{ "spekit-replay 1\nnuma_node 0 0\nnuma_node 0 1\n", "t.replay:3: numa_node 0 appears twice" },
		{ "spekit-replay 1\nnuma_node 5000 0\n", "t.replay:2: numa_node: node 5000 is above 4095" },
		{ "spekit-replay 1\nnuma_node 0 0 0-9999999\nnuma_node 1 1 0-9999999\n",
		  "t.replay:3: numa_node: the nodes' block lists reach past 16777216 blocks in all" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct spe_replay_manifest *m = (void *)1;
		char err[256] = "";
		int r = parse(cases[i].text, &m, err, sizeof err);
		CHECK_INT_EQ(r, -spe_bad_file);
		CHECK(m == NULL);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)))
			CHECK_STR_EQ(err, cases[i].msg);
	}
}

/* Data mappings (prot=, the kernel's pseudo paths) and the NUMA layout. */
TEST(data_mappings_and_numa)
{
	const char *text = "spekit-replay 1\n"
			   "mmap2 7 7 0x1000 0x1000 0x1000 rel/prog prot=rw-p\n"
			   "mmap2 7 7 0x5000 0x21000 0 [heap] prot=rw-p\n"
			   "mmap2 7 7 0x9000 0x1000 0 //anon prot=rw-s build_id=01\n"
			   "mmap2 7 7 0xa000 0x1000 0 /bin/x\n"
			   "memory_block_size 0x8000000\n"
			   "numa_node 1 2-3 8-15,64\n"
			   "numa_node 0 0,1 0-7\n"
			   "numa_node 2 - -\n"
			   "aux a.bin\n";
	struct spe_replay_manifest *m = NULL;
	char err[256] = "";
	CHECK_INT_EQ(parse(text, &m, err, sizeof err), 0);
	if (!m) {
		printf("  %s\n", err);
		return;
	}
	CHECK_INT_EQ(m->n_side, 4);
	CHECK_U64_EQ(m->side[0].u.mmap2.prot, PROT_READ | PROT_WRITE);
	CHECK_U64_EQ(m->side[0].u.mmap2.flags, MAP_PRIVATE);
	CHECK(strstr(m->side[0].u.mmap2.path, "/fx/rel/prog") != NULL);
	CHECK_STR_EQ(m->side[1].u.mmap2.path, "[heap]");
	CHECK_STR_EQ(m->side[2].u.mmap2.path, "//anon");
	CHECK_U64_EQ(m->side[2].u.mmap2.flags, MAP_SHARED);
	CHECK_INT_EQ(m->side[2].u.mmap2.build_id_size, 1);
	CHECK_U64_EQ(m->side[3].u.mmap2.prot, PROT_READ | PROT_EXEC); /* the default: an executable mapping */
	CHECK_U64_EQ(m->memory_block_size, 0x8000000);
	CHECK_INT_EQ(m->n_numa_nodes, 3);
	CHECK_INT_EQ(m->numa_nodes[0].node, 1);
	CHECK_STR_EQ(m->numa_nodes[0].cpus, "2-3");
	CHECK_U64_EQ(m->numa_nodes[0].n_block_bits, 65);
	CHECK_U64_EQ(m->numa_nodes[0].blocks[0], 0xff00);
	CHECK_U64_EQ(m->numa_nodes[0].blocks[1], 1);
	CHECK_STR_EQ(m->numa_nodes[1].cpus, "0,1");
	CHECK_U64_EQ(m->numa_nodes[1].blocks[0], 0xff);
	CHECK_STR_EQ(m->numa_nodes[2].cpus, "");
	CHECK_U64_EQ(m->numa_nodes[2].n_block_bits, 0);
	spe_replay_manifest_free(m);
}

TEST(file_and_detection)
{
	char path[1024], err[512];
	struct spe_replay_manifest *m = NULL;
	snprintf(path, sizeof path, "%s/two-records.replay", fixtures);
	CHECK_INT_EQ(spe_replay_is_manifest(path), 1);
	CHECK_INT_EQ(spe_replay_manifest_parse(path, &m, err, sizeof err), 0);
	if (m) {
		char want[1100];
		snprintf(want, sizeof want, "%s/two-records.bin", fixtures);
		CHECK_STR_EQ(m->cpus[0].aux_path, want);
		spe_replay_manifest_free(m);
	}
	snprintf(path, sizeof path, "%s/two-records.bin", fixtures);
	CHECK_INT_EQ(spe_replay_is_manifest(path), 0);
	CHECK_INT_EQ(spe_replay_manifest_parse(path, &m, err, sizeof err), -spe_bad_file);
	CHECK_INT_EQ(spe_replay_manifest_parse("/nonexistent/x.replay", &m, err, sizeof err), -spe_io);
	CHECK(strstr(err, "/nonexistent/x.replay: cannot open") != NULL);
}

int main(int argc, char **argv)
{
	fixtures = argc > 1 ? argv[1] : "fixtures/replay";
	RUN(full_manifest);
	RUN(defaults);
	RUN(errors);
	RUN(data_mappings_and_numa);
	RUN(file_and_detection);
	return check_summary();
}
