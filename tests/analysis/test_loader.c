/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The loader on hand-made records in an in-memory database: thread
 * attribution (CONTEXT, switches, AUXTRACE fallback), mapping choice by
 * time, kernel symbols from a kallsyms file, memory levels by MIDR, and
 * NULL for every unknown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "db_query.h"
#include "loader_internal.h"
#include "spe/analysis.h"

#define NO_TIME UINT64_MAX

static struct spe_db *db;
static struct spe_loader *ld;

static long long q_int(const char *sql)
{
	return db_query_int(spe_db_sqlite(db), sql);
}

static const char *q_text(const char *sql)
{
	return db_query_text(spe_db_sqlite(db), sql);
}

static void start(uint32_t midr, const char *kallsyms)
{
	char err[256];
	CHECK_INT_EQ(spe_db_open_memory(&db, err, sizeof err), 0);
	struct spe_source_info src = { .file = "hand-made", .kind = "raw", .nr_cpus = 2 };
	struct spe_load_opts opts = { .kallsyms = kallsyms };
	CHECK_INT_EQ(spe_loader_new(db, &src, &opts, &ld, err, sizeof err), 0);
	spe_loader_cpu(ld, 0, midr);
	/* identity time conversion: perf time = timestamp */
	struct spe_perf_time_conv tc = { .time_shift = 0, .time_mult = 1, .time_zero = 0 };
	spe_loader_time_conv(ld, &tc);
}

static void finish(void)
{
	struct spe_load_counts k;
	CHECK_INT_EQ(spe_loader_finish(ld, &k), 0);
	spe_loader_free(ld);
	ld = NULL;
}

static void stop(void)
{
	spe_db_close(db);
	db = NULL;
}

static struct spe_record rec_at(uint64_t pc, uint64_t ts)
{
	struct spe_record r;
	memset(&r, 0, sizeof r);
	r.has = SPE_HAS_PC | SPE_HAS_TIMESTAMP;
	r.pc.addr = pc;
	r.timestamp = ts;
	return r;
}

TEST(attribution_order)
{
	start(0x410fd0c0, NULL);
	spe_loader_comm(ld, 100, 101, "worker", NO_TIME);
	spe_loader_switch_in(ld, 0, 200, 201, 1000);
	spe_loader_switch_in(ld, 0, 300, 301, 2000);
	struct spe_record r = rec_at(0x1000, 500); /* before any switch: AUXTRACE tid */
	CHECK_INT_EQ(spe_loader_record(ld, 0, 7, 8, &r), 0);
	r = rec_at(0x1000, 1500); /* thread 201 runs from 1000 */
	CHECK_INT_EQ(spe_loader_record(ld, 0, 7, 8, &r), 0);
	r = rec_at(0x1000, 2500);
	CHECK_INT_EQ(spe_loader_record(ld, 0, 7, 8, &r), 0);
	r = rec_at(0x1000, 2600); /* CONTEXT wins; pid from COMM */
	r.has |= SPE_HAS_CONTEXT;
	r.context = 101;
	CHECK_INT_EQ(spe_loader_record(ld, 0, 7, 8, &r), 0);
	r.context = 999; /* a tid nobody named: pid unknown */
	CHECK_INT_EQ(spe_loader_record(ld, 0, 7, 8, &r), 0);
	finish();
	CHECK_INT_EQ(q_int("SELECT tid FROM spe_record WHERE id = 1"), 8);
	CHECK_INT_EQ(q_int("SELECT pid FROM spe_record WHERE id = 1"), 7);
	CHECK_INT_EQ(q_int("SELECT tid FROM spe_record WHERE id = 2"), 201);
	CHECK_INT_EQ(q_int("SELECT pid FROM spe_record WHERE id = 2"), 200);
	CHECK_INT_EQ(q_int("SELECT tid FROM spe_record WHERE id = 3"), 301);
	CHECK_INT_EQ(q_int("SELECT tid FROM spe_record WHERE id = 4"), 101);
	CHECK_INT_EQ(q_int("SELECT pid FROM spe_record WHERE id = 4"), 100);
	CHECK_INT_EQ(q_int("SELECT pid FROM spe_record WHERE id = 5"), -1); /* NULL */
	CHECK_INT_EQ(q_int("SELECT context FROM spe_record WHERE id = 5"), 999);
	CHECK_STR_EQ(q_text("SELECT comm FROM thread WHERE tid = 101"), "worker");
	CHECK_INT_EQ(q_int("SELECT time FROM spe_record WHERE id = 2"), 1500);
	stop();
}

TEST(mapping_by_time)
{
	start(0x410fd0c0, NULL);
	spe_loader_mmap(ld, 10, 0x400000, 0x1000, 0, "/old", NULL, 100);
	spe_loader_mmap(ld, 10, 0x400000, 0x1000, 0, "/new", NULL, 5000);
	spe_loader_mmap(ld, 11, 0x400000, 0x1000, 0, "/other-process", NULL, 0);
	struct spe_record r = rec_at(0x400010, 1000);
	r.has |= SPE_HAS_CONTEXT;
	r.context = 10;
	spe_loader_comm(ld, 10, 10, "app", NO_TIME);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r.timestamp = 6000;
	r.pc.addr = 0x400020; /* another PC: not the memoized one */
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r.pc.addr = 0x900000; /* outside every mapping */
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	finish();
	CHECK_STR_EQ(q_text("SELECT m.path FROM spe_record r JOIN mapping m ON m.id = r.mapping_id WHERE r.id = 1"), "/old");
	CHECK_STR_EQ(q_text("SELECT m.path FROM spe_record r JOIN mapping m ON m.id = r.mapping_id WHERE r.id = 2"), "/new");
	CHECK_INT_EQ(q_int("SELECT mapping_id FROM spe_record WHERE id = 3"), -1);
	CHECK_INT_EQ(q_int("SELECT no_mapping FROM load_stats"), 1);
	/* mapped, but the file does not exist here: no symbol, an insn row without bytes (never invented) */
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE symbol_id IS NOT NULL"), 0);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE insn_id IS NOT NULL"), 2);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM insn WHERE bytes IS NOT NULL OR mnemonic IS NOT NULL"), 0);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record r JOIN insn i ON i.id = r.insn_id WHERE i.pc = r.pc"), 2);
	stop();
}

static struct spe_load_counts finish_counted(void)
{
	struct spe_load_counts k;
	memset(&k, 0, sizeof k);
	CHECK_INT_EQ(spe_loader_finish(ld, &k), 0);
	spe_loader_free(ld);
	ld = NULL;
	return k;
}

static struct spe_record rec_of(int tid, uint64_t pc, uint64_t ts)
{
	struct spe_record r = rec_at(pc, ts);
	r.has |= SPE_HAS_CONTEXT;
	r.context = (uint64_t)tid;
	return r;
}

/* Workers forked without exec (nginx, postgres) run their parent's code: the parent's mappings, never another's. */
TEST(fork_without_exec)
{
	start(0x410fd0c0, NULL);
	spe_loader_comm(ld, 100, 100, "nginx", 10);
	spe_loader_mmap(ld, 100, 0x400000, 0x10000, 0, "/usr/sbin/nginx", NULL, 20);
	spe_loader_comm(ld, 200, 200, "other", 10);
	spe_loader_mmap(ld, 200, 0x400000, 0x10000, 0, "/usr/bin/other", NULL, 20);
	CHECK_INT_EQ(spe_loader_fork(ld, 101, 100, 101, 100, 30, 0), 0);
	CHECK_INT_EQ(spe_loader_fork(ld, 102, 100, 102, 100, 31, 0), 0);
	CHECK_INT_EQ(spe_loader_exit(ld, 102, 102, 80), 0);
	CHECK_INT_EQ(spe_loader_fork(ld, 102, 200, 102, 200, 90, 0), 0); /* the pid again, from another parent */
	struct spe_record r = rec_of(101, 0x400100, 40);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r = rec_of(102, 0x400100, 50);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r = rec_of(102, 0x400100, 95);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r = rec_of(100, 0x400100, 96);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	struct spe_load_counts k = finish_counted();
	CHECK_INT_EQ(k.no_mapping, 0);
	CHECK_INT_EQ(k.no_pid, 0);
	CHECK_INT_EQ(q_int("SELECT no_pid FROM load_stats"), 0);
	CHECK_INT_EQ(q_int("SELECT out_of_order FROM load_stats"), 0); /* sideband given in time order */
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 1"), "/usr/sbin/nginx");
	CHECK_INT_EQ(q_int("SELECT pid FROM spe_record WHERE id = 1"), 101);
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 2"), "/usr/sbin/nginx");
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 3"), "/usr/bin/other");
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 4"), "/usr/sbin/nginx");
	/* children share the parent's mapping rows, and so its instruction rows */
	CHECK_INT_EQ(q_int("SELECT count(DISTINCT insn_id) FROM spe_record WHERE id IN (1, 2, 4)"), 1);
	CHECK_STR_EQ(q_text("SELECT comm FROM spe_sample WHERE id = 1"), "nginx"); /* a child has its parent's name */
	stop();
}

/* No CONTEXT, no switch record, no AUXTRACE thread: the process is unknown, and so are its PCs (never another process's). */
TEST(unknown_pid_is_unknown)
{
	start(0x410fd0c0, NULL);
	spe_loader_comm(ld, 10, 10, "a", 0);
	spe_loader_mmap(ld, 10, 0x400000, 0x10000, 0, "/bin/a", NULL, 0);
	spe_loader_comm(ld, 11, 11, "b", 0);
	spe_loader_mmap(ld, 11, 0x400000, 0x10000, 0, "/bin/b", NULL, 0);
	struct spe_record r = rec_at(0x400100, 10);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r = rec_of(11, 0x400100, 20);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	struct spe_load_counts k = finish_counted();
	CHECK_INT_EQ(k.no_pid, 2);
	CHECK_INT_EQ(k.no_mapping, 0);
	/* load_stats keeps what the load said: the unknown ones apart from the unmapped */
	CHECK_INT_EQ(q_int("SELECT no_pid FROM load_stats"), 2);
	CHECK_INT_EQ(q_int("SELECT no_mapping FROM load_stats"), 0);
	CHECK_INT_EQ(q_int("SELECT kernel_no_symbol FROM load_stats"), 0);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE pid IS NULL AND mapping_id IS NULL AND insn_id IS NULL"), 2);
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 3"), "/bin/b");
	stop();
}

/* Kernel MMAPs (perf writes one for the kernel and one per module): kernel PCs have their mapping without --kallsyms. */
TEST(kernel_maps_without_kallsyms)
{
	start(0x410fd0c0, NULL);
	spe_loader_mmap(ld, -1, 0xffff800008000000ull, 0x1000000, 0xffff800008000000ull, "[kernel.kallsyms]", NULL, 0);
	spe_loader_mmap(ld, -1, 0xffff800001000000ull, 0x10000, 0, "/lib/modules/6.1.0/kernel/fs/xfs/xfs.ko", NULL, 0);
	struct spe_record r = rec_at(0xffff800008010840ull, 10);
	r.pc.el = 1;
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r.pc.addr = 0xffff800001000040ull;
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r.pc.addr = 0xffff80000f000040ull; /* in neither (BPF, or a module perf did not see) */
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	struct spe_load_counts k = finish_counted();
	CHECK_INT_EQ(k.kernel_no_symbol, 3);
	CHECK_INT_EQ(k.no_symbol, 0);
	CHECK_INT_EQ(k.no_mapping, 0);
	CHECK_INT_EQ(k.no_pid, 0);
	CHECK_INT_EQ(q_int("SELECT kernel_no_symbol FROM load_stats"), 3);
	CHECK_INT_EQ(q_int("SELECT no_symbol + no_mapping + no_pid FROM load_stats"), 0); /* kernel ones apart */
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 1"), "[kernel.kallsyms]");
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 2"), "/lib/modules/6.1.0/kernel/fs/xfs/xfs.ko");
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 3"), "[kernel.kallsyms]");
	CHECK_INT_EQ(q_int("SELECT pid FROM mapping WHERE path = '[kernel.kallsyms]' LIMIT 1"), -1); /* NULL */
	stop();
}

/*
 * An MMAP later in the file and in time (a dlopen while the program runs): the PC
 * memo's answer for the record before it ("no mapping") is not reused after it.
 */
TEST(mmap_after_a_record_of_its_address)
{
	start(0x410fd0c0, NULL);
	spe_loader_comm(ld, 10, 10, "a", 100);
	struct spe_record r = rec_of(10, 0x400100, 110);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	spe_loader_mmap(ld, 10, 0x400000, 0x10000, 0, "/bin/a", NULL, 115);
	r = rec_of(10, 0x400100, 120);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	spe_loader_mmap(ld, 10, 0x400000, 0x10000, 0, "/bin/b", NULL, 125); /* replaces it */
	r = rec_of(10, 0x400100, 130);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	finish_counted();
	CHECK_INT_EQ(q_int("SELECT no_mapping FROM load_stats"), 1);
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 2"), "/bin/a");
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 3"), "/bin/b");
	stop();
}

/* A sideband event older than one already applied is applied late, and counted (load_stats.out_of_order). */
TEST(sideband_out_of_order_counted)
{
	start(0x410fd0c0, NULL);
	spe_loader_comm(ld, 10, 10, "a", 100);
	struct spe_record r = rec_of(10, 0x400100, 110);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0); /* applies the COMM at 100 */
	spe_loader_mmap(ld, 10, 0x400000, 0x10000, 0, "/bin/a", NULL, 50); /* written after, older */
	r = rec_of(10, 0x400100, 120);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	struct spe_load_counts k = finish_counted();
	CHECK_INT_EQ(k.out_of_order, 1);
	CHECK_INT_EQ(q_int("SELECT out_of_order FROM load_stats"), 1);
	/* applied from then on: the first record had no mapping, the second has it */
	CHECK_INT_EQ(q_int("SELECT no_mapping FROM load_stats"), 1);
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 2"), "/bin/a");
	stop();
}

TEST(kernel_pcs_through_kallsyms)
{
	char path[] = "/tmp/spe-kallsyms-XXXXXX";
	int fd = mkstemp(path);
	const char text_ks[] = "ffff800008000000 T _text\n"
			       "ffff800008010000 t el0_svc\n"
			       "ffff800008010400 D some_data\n"
			       "ffff800008010800 T do_page_fault\n"
			       "ffff800008020000 T _etext\n";
	CHECK(write(fd, text_ks, sizeof text_ks - 1) == (ssize_t)(sizeof text_ks - 1));
	close(fd);
	start(0x410fd0c0, path);
	struct spe_record r = rec_at(0xffff800008010840ull, 10);
	r.pc.el = 1;
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r.pc.addr = 0xffff800008010404ull; /* in some_data: a data object ends el0_svc and names no code */
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r.pc.addr = 0xffff8000080103fcull; /* el0_svc's last instruction */
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	finish();
	CHECK_STR_EQ(q_text("SELECT symbol FROM spe_sample WHERE id = 1"), "do_page_fault");
	CHECK_INT_EQ(q_int("SELECT symbol_offset FROM spe_sample WHERE id = 1"), 0x40);
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 1"), "[kernel.kallsyms]");
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_sample WHERE id = 2 AND symbol IS NULL"), 1);
	CHECK_STR_EQ(q_text("SELECT symbol FROM spe_sample WHERE id = 3"), "el0_svc");
	CHECK_INT_EQ(q_int("SELECT size FROM symbol WHERE name = 'el0_svc'"), 0x400);
	CHECK_INT_EQ(q_int("SELECT no_mapping FROM load_stats"), 0); /* kernel PCs are not "unmapped" user PCs */
	stop();
	unlink(path);

	char err[256];
	CHECK(spe_kallsyms_new("/nonexistent/kallsyms", err, sizeof err) == NULL);
	CHECK(strstr(err, "/nonexistent/kallsyms") != NULL);
}

TEST(mem_level_depends_on_midr)
{
	uint32_t midrs[] = { 0x410fd0c0 /* N1: common map */, 0 /* unknown part */, 0xc00fac40 /* AmpereOne-A */ };
	const char *want_level_0[] = { "L1D", "(null)", "peer-core" };
	for (int i = 0; i < 3; i++) {
		start(midrs[i], NULL);
		struct spe_record r = rec_at(0x1000, 10);
		r.has |= SPE_HAS_DATA_SOURCE | SPE_HAS_OP_TYPE;
		r.op_raw_class = 1; /* LD GP-REG */
		r.op_raw = 0;
		r.op_class = SPE_OP_CLASS_LOAD;
		r.data_source = 0;
		CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
		finish();
		CHECK_STR_EQ(q_text("SELECT mem_level FROM spe_record"), want_level_0[i]);
		CHECK_INT_EQ(q_int("SELECT data_source FROM spe_record"), 0);
		CHECK_STR_EQ(q_text("SELECT op FROM spe_record"), "LD GP-REG");
		CHECK_STR_EQ(q_text("SELECT op_class FROM spe_record"), "load");
		stop();
	}
}

/*
 * A mixed-CPU trace: each CPU's data sources decode with that CPU's map.  Code
 * 0 is L1D on a Neoverse N1 (common map) but peer-core on AmpereOne; code 9
 * is peer-core on N1 but L2 on AmpereOne.
 */
TEST(mem_level_per_cpu)
{
	start(0x410fd0c0, NULL); /* CPU 0: Neoverse N1 */
	spe_loader_cpu(ld, 1, 0xc00fac40); /* CPU 1: AmpereOne-A */
	static const struct { int cpu; unsigned ds; } recs[] = { { 0, 0 }, { 1, 0 }, { 0, 9 }, { 1, 9 } };
	for (int i = 0; i < 4; i++) {
		struct spe_record r = rec_at(0x1000, 10 + i);
		r.has |= SPE_HAS_DATA_SOURCE | SPE_HAS_OP_TYPE;
		r.op_raw_class = 1; /* LD GP-REG */
		r.op_class = SPE_OP_CLASS_LOAD;
		r.data_source = recs[i].ds;
		CHECK_INT_EQ(spe_loader_record(ld, recs[i].cpu, -1, -1, &r), 0);
	}
	finish();
	CHECK_STR_EQ(q_text("SELECT group_concat(cpu || ':' || data_source || '=' || mem_level, ' ') FROM"
			    " (SELECT * FROM spe_record ORDER BY id)"),
		     "0:0=L1D 1:0=peer-core 0:9=peer-core 1:9=L2");
	/* the cpu table names both parts */
	CHECK_STR_EQ(q_text("SELECT group_concat(cpu || '=' || part, ' ') FROM (SELECT * FROM cpu ORDER BY cpu)"),
		     "0=neoverse-n1 1=ampereone-a");
	stop();
}

TEST(absent_fields_are_null)
{
	start(0x410fd0c0, NULL);
	struct spe_record r;
	memset(&r, 0, sizeof r);
	r.has = SPE_HAS_END; /* an empty record */
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	finish();
	CHECK_INT_EQ(q_int("SELECT count(*) FROM spe_record WHERE pc IS NULL AND ts IS NULL AND time IS NULL"
			   " AND events IS NULL AND retired IS NULL AND total_latency IS NULL AND data_va IS NULL"
			   " AND op_class IS NULL AND mem_level IS NULL AND pid IS NULL AND tid IS NULL"),
		     1);
	CHECK_INT_EQ(q_int("SELECT no_time FROM load_stats"), 1);
	stop();
}

/* Every event of the facts table reads its own bit, and only it (Perfetto's spe.sql read bit 17 twice). */
TEST(event_columns_read_their_bits)
{
	static const struct { unsigned bit; const char *col; } events[] = {
#define SPE_X(bit, id, word, col, since, desc) { bit, col },
		SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	};
	const size_t n = sizeof events / sizeof *events;
	start(0x410fd0c0, NULL);
	for (size_t i = 0; i < n; i++) {
		struct spe_record r = rec_at(0x1000, 10 + i);
		r.has |= SPE_HAS_EVENTS;
		r.events = 1ull << events[i].bit;
		CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	}
	finish();
	for (size_t i = 0; i < n; i++) {
		char sql[512];
		snprintf(sql, sizeof sql, "SELECT group_concat(id) FROM spe_record WHERE %s = 1", events[i].col);
		/* record i + 1 and no other */
		CHECK_INT_EQ(q_int(sql), (long long)i + 1);
		snprintf(sql, sizeof sql, "SELECT count(*) FROM spe_record WHERE %s = 1", events[i].col);
		CHECK_INT_EQ(q_int(sql), 1);
	}
	stop();
}

static struct spe_record load_at(uint64_t ts, uint64_t va, int has_pa, uint64_t pa)
{
	struct spe_record r = rec_at(0x1000, ts);
	r.has |= SPE_HAS_OP_TYPE | SPE_HAS_DATA_VA | SPE_HAS_DATA_SOURCE | (has_pa ? SPE_HAS_DATA_PA : 0);
	r.op_raw_class = 1; /* LD GP-REG */
	r.op_class = SPE_OP_CLASS_LOAD;
	r.data_va = va;
	r.data_pa = pa;
	r.data_source = 0;
	return r;
}

/*
 * numa_traffic from numa_stat (record_summary.c) on the corners a generated
 * trace does not reach: a physical address in two nodes' ranges counts for
 * both, as the view's join over numa_memory does; one in none has node NULL;
 * and the NUMA layout after a record is refused (its loads would have no node).
 */
TEST(numa_summary_ranges)
{
	static const uint64_t blocks0 = 0x3, blocks1 = 0x6; /* node 0: blocks 0-1, node 1: blocks 1-2 */
	struct spe_perf_numa_node nodes[] = { { .node = 0, .cpus = "0", .n_block_bits = 2, .blocks = &blocks0 },
					      { .node = 1, .cpus = "1", .n_block_bits = 3, .blocks = &blocks1 } };
	start(0x410fd0c0, NULL);
	CHECK_INT_EQ(spe_loader_numa(ld, nodes, 2, 0x1000), 0);
	struct spe_record r = load_at(10, 0x7000, 1, 0x100); /* node 0 only */
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r = load_at(11, 0x7000, 1, 0x1800); /* both nodes */
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r = load_at(12, 0x7000, 1, 0x9000); /* no range */
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	r = load_at(13, 0x7000, 0, 0); /* no physical address: by data source */
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	finish();
	CHECK_STR_EQ(q_text("SELECT group_concat(ifnull(memory_node, '-') || '/' || basis || '=' || loads, ' ') FROM"
			    " (SELECT * FROM numa_traffic ORDER BY basis, memory_node)"),
		     "-/data source=1 -/physical address=1 0/physical address=2 1/physical address=1");
	CHECK_INT_EQ(q_int("SELECT count(*) FROM numa_traffic WHERE memory_node = 1 AND remote = 1"), 1);
	stop();

	start(0x410fd0c0, NULL);
	r = load_at(10, 0x7000, 1, 0x100);
	CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	CHECK_INT_EQ(spe_loader_numa(ld, nodes, 2, 0x1000), -spe_invalid);
	CHECK(strstr(spe_loader_error(ld), "after the first record") != NULL);
	spe_loader_free(ld);
	ld = NULL;
	stop();
}

/* A kallsyms file of @p text in @p path (a mkstemp template). */
static void write_kallsyms(char *path, const char *text)
{
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
}

/* Stores and loads of kernel PCs @p pcs[0..n) to one data line, CPUs 0 and 1 in turn: a shared line. */
static void touch_line(const uint64_t *pcs, int n)
{
	for (int i = 0; i < n; i++) {
		struct spe_record r = rec_at(pcs[i], 10 + (uint64_t)i);
		r.pc.el = 1;
		r.has |= SPE_HAS_OP_TYPE | SPE_HAS_DATA_VA;
		r.op_raw_class = 1;
		r.op_raw = i % 2; /* LD, ST */
		r.op_class = i % 2 ? SPE_OP_CLASS_STORE : SPE_OP_CLASS_LOAD;
		r.data_va = 0x10040 + 8 * (uint64_t)i;
		CHECK_INT_EQ(spe_loader_record(ld, i % 2, -1, -1, &r), 0);
	}
}

/*
 * cacheline_sharing's names: a line's functions in the order the load
 * first saw them (cacheline_stat's ids), a name two symbol rows share once
 * (static functions of one name in the kernel).  A second load into the
 * same database (--append) numbers its symbol rows after the first's and
 * its lines name its own rows, the first load's lines unchanged.
 */
TEST(cacheline_names)
{
	char first[] = "/tmp/spe-kallsyms-XXXXXX", second[] = "/tmp/spe-kallsyms-XXXXXX";
	write_kallsyms(first, "ffff800008010000 t dup\n"
			      "ffff800008010400 t other\n"
			      "ffff800008010800 t dup\n"
			      "ffff800008020000 T _etext\n");
	write_kallsyms(second, "ffff800008010000 t fresh\n"
			       "ffff800008010400 t dup\n"
			       "ffff800008020000 T _etext\n");
	start(0x410fd0c0, first);
	spe_loader_cpu(ld, 1, 0x410fd0c0);
	/* the second dup first, then other, then the first dup: its name was given already */
	static const uint64_t pcs1[] = { 0xffff800008010804ull, 0xffff800008010404ull, 0xffff800008010004ull,
					 0xffff800008010808ull };
	touch_line(pcs1, 4);
	finish();
	CHECK_INT_EQ(q_int("SELECT count(*) FROM symbol WHERE name = 'dup'"), 2);
	CHECK_STR_EQ(q_text("SELECT symbols FROM cacheline_sharing"), "dup,other");
	/* three symbol rows, numbered as the load met them (the second dup, other, the first dup), two names */
	CHECK_STR_EQ(q_text("SELECT symbol_ids FROM cacheline_stat"), "[1,2,3]");
	CHECK_INT_EQ(q_int("SELECT cpus FROM cacheline_sharing"), 2);
	CHECK_INT_EQ(q_int("SELECT data_objects IS NULL FROM cacheline_sharing"), 1);

	char err[256];
	struct spe_source_info src = { .file = "hand-made 2", .kind = "raw", .nr_cpus = 2 };
	struct spe_load_opts opts = { .kallsyms = second };
	CHECK_INT_EQ(spe_loader_new(db, &src, &opts, &ld, err, sizeof err), 0);
	spe_loader_cpu(ld, 0, 0x410fd0c0);
	spe_loader_cpu(ld, 1, 0x410fd0c0);
	static const uint64_t pcs2[] = { 0xffff800008010404ull, 0xffff800008010004ull, 0xffff800008010408ull };
	touch_line(pcs2, 3);
	finish();
	/* the second load numbers its rows after the first load's 3 */
	CHECK_STR_EQ(q_text("SELECT group_concat(id || name, ' ') FROM (SELECT * FROM symbol WHERE id > 3 ORDER BY id)"),
		     "4dup 5fresh");
	CHECK_STR_EQ(q_text("SELECT group_concat(source_id || ':' || symbols, ' ') FROM"
			    " (SELECT * FROM cacheline_sharing ORDER BY source_id)"),
		     "1:dup,other 2:dup,fresh");
	stop();
	unlink(first);
	unlink(second);
}

/* ---- JIT code: perf-PID.map and jitdump ------------------------------------ */

static char jit_dir[64];

static void write_file(const char *name, const void *data, size_t n)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", jit_dir, name);
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f) {
		fwrite(data, 1, n, f);
		fclose(f);
	}
}

static void start_jit(void)
{
	char err[256];
	CHECK_INT_EQ(spe_db_open_memory(&db, err, sizeof err), 0);
	struct spe_source_info src = { .file = "hand-made", .kind = "raw", .nr_cpus = 2 };
	struct spe_load_opts opts = { .symbolize = 1, .jit_maps = jit_dir };
	CHECK_INT_EQ(spe_loader_new(db, &src, &opts, &ld, err, sizeof err), 0);
	spe_loader_cpu(ld, 0, 0x410fd0c0);
}

/*
 * perf-PID.map: the file of the process that made the mapping (perf's
 * rule): a child forked from a JIT process names inherited code from its
 * parent's file, the code it maps itself from its own; an unreadable file
 * is said once, with its pid and path, and its PCs have no name.
 */
TEST(perf_map_of_the_mapping_process)
{
	static const char parent[] = "7f0000001000 100 JS:*parentFn /app.js:1:1\n7f0000002000 0x80 int Foo.bar(int)\n";
	static const char child[] = "7f0000001000 100 JS:*wrongFn\n7f0000101000 40 JS:*childFn /c.js:2:2\n";
	write_file("perf-100.map", parent, sizeof parent - 1);
	write_file("perf-101.map", child, sizeof child - 1);
	start_jit();
	struct spe_perf_time_conv tc = { .time_mult = 1 };
	spe_loader_time_conv(ld, &tc);
	spe_loader_comm(ld, 100, 100, "node", 10);
	spe_loader_mmap(ld, 100, 0x7f0000000000, 0x100000, 0x7f0000000000, "//anon", NULL, 20);
	spe_loader_fork(ld, 101, 100, 101, 100, 30, 0);
	spe_loader_mmap(ld, 101, 0x7f0000100000, 0x10000, 0, "//anon", NULL, 40);
	spe_loader_comm(ld, 102, 102, "java", 10);
	spe_loader_mmap(ld, 102, 0x7f0000000000, 0x100000, 0, "[heap]", NULL, 20);
	const struct { int tid; uint64_t pc; } recs[] = {
		{ 100, 0x7f0000001010 }, { 101, 0x7f0000001010 }, { 101, 0x7f0000101020 },
		{ 100, 0x7f0000002040 }, { 100, 0x7f0000003000 }, { 102, 0x7f0000001010 },
	};
	for (size_t i = 0; i < sizeof recs / sizeof *recs; i++) {
		struct spe_record r = rec_of(recs[i].tid, recs[i].pc, 50);
		CHECK_INT_EQ(spe_loader_record(ld, 0, -1, -1, &r), 0);
	}
	struct spe_load_counts k = finish_counted();
	CHECK_STR_EQ(q_text("SELECT symbol FROM spe_sample WHERE id = 1"), "JS:*parentFn /app.js:1:1");
	CHECK_STR_EQ(q_text("SELECT symbol FROM spe_sample WHERE id = 2"), "JS:*parentFn /app.js:1:1");
	CHECK_STR_EQ(q_text("SELECT symbol FROM spe_sample WHERE id = 3"), "JS:*childFn /c.js:2:2");
	CHECK_STR_EQ(q_text("SELECT symbol FROM spe_sample WHERE id = 4"), "int Foo.bar(int)");
	CHECK_STR_EQ(q_text("SELECT symbol FROM spe_sample WHERE id = 5"), "(null)");
	CHECK_STR_EQ(q_text("SELECT symbol FROM spe_sample WHERE id = 6"), "(null)");
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 6"), "[heap]");
	CHECK_INT_EQ(q_int("SELECT symbol_offset FROM spe_sample WHERE id = 4"), 0x40);
	CHECK_INT_EQ(q_int("SELECT size FROM symbol WHERE name = 'int Foo.bar(int)'"), 0x80);
	CHECK_INT_EQ(k.jit_records, 6);
	CHECK_INT_EQ(k.jit_no_symbol, 2);
	char want[256];
	snprintf(want, sizeof want, "pid 102: anonymous executable memory unnamed: %s/perf-102.map", jit_dir);
	CHECK(strstr(k.jit_what, want) != NULL);
	CHECK(strstr(k.jit_what, "pid 100") == NULL);
	stop();
}

/* A jitdump being written: its bytes, in this machine's order. */
struct dumpw {
	uint8_t b[4096];
	size_t n;
};

static void dw(struct dumpw *d, const void *p, size_t n)
{
	memcpy(d->b + d->n, p, n);
	d->n += n;
}
static void dw32(struct dumpw *d, uint32_t v) { dw(d, &v, 4); }
static void dw64(struct dumpw *d, uint64_t v) { dw(d, &v, 8); }

static void dump_header(struct dumpw *d, uint32_t pid, uint64_t flags)
{
	dw32(d, 0x4A695444);
	dw32(d, 1);
	dw32(d, 40);
	dw32(d, 183);
	dw32(d, 0);
	dw32(d, pid);
	dw64(d, 0);
	dw64(d, flags);
}

/* A CODE_LOAD of @p n bytes of ldr x0, [x0] (0xf9400000), after a DEBUG_INFO with one line when @p line. */
static void dump_load(struct dumpw *d, uint64_t time, uint64_t addr, const char *name, uint32_t n, uint64_t index,
		      int line)
{
	if (line) {
		size_t at = d->n;
		dw32(d, 2);
		dw32(d, 0);
		dw64(d, time);
		dw64(d, addr);
		dw64(d, 1);
		dw64(d, addr + 4);
		dw32(d, (uint32_t)line);
		dw32(d, 0);
		dw(d, "app.js", 7);
		uint32_t size = (uint32_t)(d->n - at);
		memcpy(d->b + at + 4, &size, 4);
	}
	size_t at = d->n;
	dw32(d, 0);
	dw32(d, 0);
	dw64(d, time);
	dw32(d, 1);
	dw32(d, 1);
	dw64(d, addr);
	dw64(d, addr);
	dw64(d, n);
	dw64(d, index);
	dw(d, name, strlen(name) + 1);
	for (uint32_t i = 0; i < n; i += 4)
		dw32(d, 0xf9400000);
	uint32_t size = (uint32_t)(d->n - at);
	memcpy(d->b + at + 4, &size, 4);
}

/* The dump: f at 0x1000 (t 100), g over f's tail (t 200), f moved to 0x9000 (t 300). */
static void write_dump(const char *name, uint64_t flags, uint64_t scale)
{
	struct dumpw d = { .n = 0 };
	dump_header(&d, 300, flags);
	dump_load(&d, 100 * scale, 0x1000, "f", 0x40, 1, 11);
	dump_load(&d, 200 * scale, 0x1020, "g", 0x40, 2, 0);
	size_t at = d.n;
	dw32(&d, 1);
	dw32(&d, 64);
	dw64(&d, 300 * scale);
	dw32(&d, 1);
	dw32(&d, 1);
	dw64(&d, 0x1000);
	dw64(&d, 0x1000);
	dw64(&d, 0x9000);
	dw64(&d, 0x40);
	dw64(&d, 1);
	(void)at;
	write_file(name, d.b, d.n);
}

static void load_with_dump(const char *marker, int monotonic, const struct spe_perf_time_conv *tc)
{
	start_jit();
	if (tc)
		spe_loader_time_conv(ld, tc);
	spe_loader_clock(ld, monotonic);
	spe_loader_comm(ld, 300, 300, "node", 10);
	spe_loader_mmap(ld, 300, 0x0, 0x100000, 0, "//anon", NULL, 20); /* the code space */
	spe_loader_mmap(ld, 300, 0x7f00000000, 0x1000, 0, marker, NULL, 50);
	/* records: f's head and tail, and 0x9010, before and after each load */
	const uint64_t pcs[] = { 0x1008, 0x1030, 0x9010 };
	const uint64_t times[] = { 60, 150, 250, 350 };
	for (size_t t = 0; t < 4; t++)
		for (size_t i = 0; i < 3; i++) {
			struct spe_record r = rec_of(300, pcs[i], times[t]);
			if (!tc)
				r.has &= ~(uint64_t)SPE_HAS_TIMESTAMP;
			CHECK_INT_EQ(spe_loader_record_at(ld, 0, -1, -1, &r, tc ? times[t] : UINT64_MAX), 0);
		}
}

static const char *sym_of(int id)
{
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT coalesce(symbol, '-') FROM spe_sample WHERE id = %d", id);
	return q_text(sql);
}

/* Code loads placed at their times: a later load replaces the code under it, a move adds the code elsewhere. */
TEST(jitdump_loads_at_their_times)
{
	char marker[128];
	snprintf(marker, sizeof marker, "/home/u/.debug/jit/x/jit-300.dump"); /* the recording's path: read under --jit-maps */
	write_dump("jit-300.dump", 0, 1);
	struct spe_perf_time_conv tc = { .time_mult = 1 };
	load_with_dump(marker, 1, &tc);
	struct spe_load_counts k = finish_counted();
	/* t 60: nothing loaded (the //anon code space); t 150: f; t 250: g over f's tail; t 350: f moved too */
	const char *want[] = { "-", "-", "-", "f", "f", "-", "f", "g", "-", "f", "g", "f" };
	for (int i = 0; i < 12; i++)
		CHECK_STR_EQ(sym_of(i + 1), want[i]);
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 4"), marker);
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 1"), "//anon");
	CHECK_INT_EQ(q_int("SELECT count(*) FROM mapping WHERE path LIKE '%jit-300.dump'"), 1);
	CHECK_INT_EQ(q_int("SELECT start FROM mapping WHERE path LIKE '%jit-300.dump'"), 0x1000);
	CHECK_INT_EQ(q_int("SELECT \"end\" FROM mapping WHERE path LIKE '%jit-300.dump'"), 0x9040);
	/* DEBUG_INFO: f's line from its entry on; the code's bytes (AArch64) disassembled */
	CHECK_STR_EQ(q_text("SELECT src_file || ':' || src_line FROM spe_sample WHERE id = 4"), "app.js:11");
	CHECK_STR_EQ(q_text("SELECT mnemonic FROM spe_sample WHERE id = 4"), "ldr");
	CHECK_INT_EQ(q_int("SELECT line FROM symbol WHERE name = 'f' LIMIT 1"), 11);
	/* the moved f is a symbol at its new place */
	CHECK_INT_EQ(q_int("SELECT start FROM symbol s JOIN spe_record r ON r.symbol_id = s.id WHERE r.id = 12"), 0x9000);
	CHECK_INT_EQ(k.jit_records, 12);
	CHECK_INT_EQ(k.jit_no_symbol, 5);
	/* the dump read whole: nothing to say of it; the code space's perf-300.map is not there */
	CHECK(strstr(k.jit_what, "jit-300.dump") == NULL);
	CHECK(strstr(k.jit_what, "perf-300.map") != NULL);
	stop();
}

/* ARCH_TIMESTAMP: the dump's times are the counter's, through TIME_CONV like the trace's. */
TEST(jitdump_arch_timestamps)
{
	write_dump("jit-300.dump", 1, 4); /* counter = 4 x ns */
	struct spe_perf_time_conv tc = { .time_shift = 2, .time_mult = 1, .cap_user_time_zero = 1 };
	load_with_dump("/tmp/jit-300.dump", 0, &tc);
	finish_counted();
	const char *want[] = { "-", "-", "-", "f", "f", "-", "f", "g", "-", "f", "g", "f" };
	for (int i = 0; i < 12; i++)
		CHECK_STR_EQ(sym_of(i + 1), want[i]);
	stop();
}

/*
 * CLOCK_MONOTONIC times and a recording not made with perf record -k 1: the
 * times cannot be related.  The code is placed from the marker on; where f
 * and g both were, no name; and the load says so.
 */
TEST(jitdump_times_unrelated)
{
	write_dump("jit-300.dump", 0, 1);
	struct spe_perf_time_conv tc = { .time_mult = 1 };
	load_with_dump("/tmp/jit-300.dump", 0, &tc);
	struct spe_load_counts k = finish_counted();
	/* 0x1008: f alone; 0x1030: f and g; 0x9010: f (moved) alone; t 60 is after the marker (50) */
	for (int t = 0; t < 4; t++) {
		CHECK_STR_EQ(sym_of(3 * t + 1), "f");
		CHECK_STR_EQ(sym_of(3 * t + 2), "-");
		CHECK_STR_EQ(sym_of(3 * t + 3), "f");
	}
	CHECK(strstr(k.jit_what, "cannot be related") != NULL);
	CHECK(strstr(k.jit_what, "perf record -k 1") != NULL);
	stop();
}

/*
 * A dump cut inside its move (t 300): what it had is placed at its times,
 * and from the time of the record it was cut in, no code of it has a name
 * (what replaced it is not known).
 */
TEST(jitdump_cut_short)
{
	write_dump("jit-300.dump", 0, 1);
	char path[256];
	snprintf(path, sizeof path, "%s/jit-300.dump", jit_dir);
	struct stat st;
	CHECK_INT_EQ(stat(path, &st), 0);
	CHECK_INT_EQ(truncate(path, st.st_size - 10), 0);
	struct spe_perf_time_conv tc = { .time_mult = 1 };
	load_with_dump("/tmp/jit-300.dump", 1, &tc);
	struct spe_load_counts k = finish_counted();
	const char *want[] = { "-", "-", "-", "f", "f", "-", "f", "g", "-", "-", "-", "-" };
	for (int i = 0; i < 12; i++)
		CHECK_STR_EQ(sym_of(i + 1), want[i]);
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 10"), "/tmp/jit-300.dump");
	CHECK(strstr(k.jit_what, "the file ends inside a record (cut while being written?) (its code unnamed from that "
				 "record's time on)") != NULL);
	stop();
}

/* A marker whose dump is not there: said once, with the pid and path; the code space stays //anon. */
TEST(jitdump_missing)
{
	start_jit();
	spe_loader_comm(ld, 300, 300, "node", 10);
	spe_loader_mmap(ld, 300, 0x0, 0x100000, 0, "//anon", NULL, 20);
	spe_loader_mmap(ld, 300, 0x7f00000000, 0x1000, 0, "/x/jit-301.dump", NULL, 50);
	struct spe_record r = rec_of(300, 0x1008, 60);
	CHECK_INT_EQ(spe_loader_record_at(ld, 0, -1, -1, &r, 60), 0);
	struct spe_load_counts k = finish_counted();
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 1"), "//anon");
	char want[256];
	snprintf(want, sizeof want, "pid 300: %s/jit-301.dump", jit_dir);
	CHECK(strstr(k.jit_what, want) != NULL);
	CHECK_INT_EQ(q_int("SELECT count(*) FROM mapping WHERE path LIKE '%.dump'"), 0);
	stop();
}

int main(void)
{
	RUN(attribution_order);
	RUN(mapping_by_time);
	RUN(fork_without_exec);
	RUN(unknown_pid_is_unknown);
	RUN(kernel_maps_without_kallsyms);
	RUN(mmap_after_a_record_of_its_address);
	RUN(sideband_out_of_order_counted);
	RUN(kernel_pcs_through_kallsyms);
	RUN(mem_level_depends_on_midr);
	RUN(mem_level_per_cpu);
	RUN(absent_fields_are_null);
	RUN(event_columns_read_their_bits);
	RUN(numa_summary_ranges);
	RUN(cacheline_names);
	snprintf(jit_dir, sizeof jit_dir, "/tmp/spe-test-jit-XXXXXX");
	if (mkdtemp(jit_dir)) {
		RUN(perf_map_of_the_mapping_process);
		RUN(jitdump_loads_at_their_times);
		RUN(jitdump_arch_timestamps);
		RUN(jitdump_times_unrelated);
		RUN(jitdump_cut_short);
		RUN(jitdump_missing);
		const char *names[] = { "perf-100.map", "perf-101.map", "jit-300.dump" };
		for (size_t i = 0; i < 3; i++) {
			char path[256];
			snprintf(path, sizeof path, "%s/%s", jit_dir, names[i]);
			unlink(path);
		}
		rmdir(jit_dir);
	}
	return check_summary();
}
