/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PERF_RECORD_KSYMBOL (17) and PERF_RECORD_BPF_EVENT (18) as the kernel
 * writes them (struct perf_event_header, then the fields of
 * include/uapi/linux/perf_event.h's comments on the two record types, then
 * the sample_id trailer): every field comes back, a name ends at its NUL,
 * the trailer is read after it.  perf 6.1's reading of the same records is compared in
 * tests/analysis/cli_kernel.sh.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "spe/spe.h"

static char path[64];

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A file with the given kernel records after the writer's own. */
static struct spe_perf_file *file_with(const uint32_t *types, const uint8_t (*bodies)[64], const size_t *sizes, int n)
{
	strcpy(path, "/tmp/spe-ksym-XXXXXX");
	int fd = mkstemp(path);
	struct spe_perf_writer_config cfg = SPE_OPTS(spe_perf_writer_config, .midr = 0x410fd0c0);
	struct spe_perf_writer *w = spe_perf_writer_open(fd, &cfg);
	struct spe_perf_writer_sid sid = { .pid = UINT32_MAX, .tid = UINT32_MAX, .time = 777, .cpu = 2 };
	for (int i = 0; i < n; i++)
		CHECK_INT_EQ(spe_perf_write_kernel_record(w, types[i], 0, bodies[i], sizes[i], &sid), 0);
	CHECK_INT_EQ(spe_perf_writer_close(w), 0);
	close(fd);
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open(f, path), 0);
	return f;
}

/* The next event of type @p type (the writer's own records skipped); its spe_perf_next code. */
static int next_of(struct spe_perf_file *f, uint32_t type, struct spe_perf_event *ev)
{
	int rc;
	while ((rc = spe_perf_next(f, ev, sizeof *ev)) == 0 && ev->type != type)
		;
	return rc;
}

TEST(ksymbol_and_bpf_event_fields)
{
	uint8_t bodies[3][64] = { { 0 } };
	/* KSYMBOL: addr, len, ksym_type, flags, name padded to 8 */
	put64(bodies[0], 0xffff800001234000ull);
	bodies[0][8] = 0x10, bodies[0][9] = 0x02; /* len 0x210 */
	bodies[0][12] = 1;                       /* BPF */
	memcpy(bodies[0] + 16, "bpf_prog_6deef7357e7b4530_foo", 30);
	/* unregister of an OOL range, a name of exactly 8 bytes with its NUL */
	put64(bodies[1], 0xffff800002000000ull);
	bodies[1][8] = 0x40;
	bodies[1][12] = 2, bodies[1][14] = 1; /* OOL, unregister */
	memcpy(bodies[1] + 16, "kprobe0", 8);
	/* BPF_EVENT: type, flags, id, tag[8] */
	bodies[2][0] = 2, bodies[2][4] = 0x39, bodies[2][5] = 0x30; /* unload, id 0x3039 */
	for (int i = 0; i < 8; i++)
		bodies[2][8 + i] = (uint8_t)(0xa0 + i);
	const uint32_t types[] = { SPE_PERF_RECORD_KSYMBOL, SPE_PERF_RECORD_KSYMBOL, SPE_PERF_RECORD_BPF_EVENT };
	const size_t sizes[] = { 48, 24, 16 };
	struct spe_perf_file *f = file_with(types, bodies, sizes, 3);
	struct spe_perf_event ev;
	CHECK_INT_EQ(next_of(f, SPE_PERF_RECORD_KSYMBOL, &ev), 0);
	CHECK_STR_EQ(spe_perf_record_name(ev.type), "KSYMBOL");
	CHECK_U64_EQ(ev.u.ksymbol.addr, 0xffff800001234000ull);
	CHECK_INT_EQ(ev.u.ksymbol.len, 0x210);
	CHECK_INT_EQ(ev.u.ksymbol.ksym_type, SPE_PERF_KSYMBOL_TYPE_BPF);
	CHECK_INT_EQ(ev.u.ksymbol.flags, 0);
	CHECK_STR_EQ(ev.u.ksymbol.name, "bpf_prog_6deef7357e7b4530_foo");
	CHECK_U64_EQ(ev.sid.time, 777); /* the trailer is read after the name */
	CHECK_INT_EQ(ev.sid.cpu, 2);
	CHECK_INT_EQ(next_of(f, SPE_PERF_RECORD_KSYMBOL, &ev), 0);
	CHECK_INT_EQ(ev.u.ksymbol.ksym_type, SPE_PERF_KSYMBOL_TYPE_OOL);
	CHECK_INT_EQ(ev.u.ksymbol.flags, SPE_PERF_KSYMBOL_UNREGISTER);
	CHECK_INT_EQ(ev.u.ksymbol.len, 0x40);
	CHECK_STR_EQ(ev.u.ksymbol.name, "kprobe0");
	CHECK_INT_EQ(next_of(f, SPE_PERF_RECORD_BPF_EVENT, &ev), 0);
	CHECK_STR_EQ(spe_perf_record_name(ev.type), "BPF_EVENT");
	CHECK_INT_EQ(ev.u.bpf_event.type, SPE_PERF_BPF_PROG_UNLOAD);
	CHECK_INT_EQ(ev.u.bpf_event.flags, 0);
	CHECK_INT_EQ(ev.u.bpf_event.id, 0x3039);
	CHECK_INT_EQ(ev.u.bpf_event.tag[0], 0xa0);
	CHECK_INT_EQ(ev.u.bpf_event.tag[7], 0xa7);
	CHECK_U64_EQ(ev.sid.time, 777);
	CHECK_INT_EQ(spe_perf_next(f, &ev, sizeof ev), -spe_eos);
	struct spe_perf_info info;
	spe_perf_get_info(f, &info, sizeof info);
	CHECK_INT_EQ(info.n_skipped, 0); /* both are parsed */
	spe_perf_free_file(f);
	unlink(path);
}

int main(void)
{
	RUN(ksymbol_and_bpf_event_fields);
	return check_summary();
}
