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
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "db_query.h"
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
	struct spe_source_info src = { .size = sizeof src, .file = "hand-made", .kind = "raw", .nr_cpus = 2 };
	struct spe_load_opts opts = { .size = sizeof opts, .kallsyms = kallsyms };
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
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 1"), "[kernel.kallsyms]");
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 2"), "/lib/modules/6.1.0/kernel/fs/xfs/xfs.ko");
	CHECK_STR_EQ(q_text("SELECT mapping FROM spe_sample WHERE id = 3"), "[kernel.kallsyms]");
	CHECK_INT_EQ(q_int("SELECT pid FROM mapping WHERE path = '[kernel.kallsyms]' LIMIT 1"), -1); /* NULL */
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
	struct spe_source_info src = { .size = sizeof src, .file = "hand-made 2", .kind = "raw", .nr_cpus = 2 };
	struct spe_load_opts opts = { .size = sizeof opts, .kallsyms = second };
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

int main(void)
{
	RUN(attribution_order);
	RUN(mapping_by_time);
	RUN(fork_without_exec);
	RUN(unknown_pid_is_unknown);
	RUN(kernel_maps_without_kallsyms);
	RUN(kernel_pcs_through_kallsyms);
	RUN(mem_level_depends_on_midr);
	RUN(mem_level_per_cpu);
	RUN(absent_fields_are_null);
	RUN(event_columns_read_their_bits);
	RUN(numa_summary_ranges);
	RUN(cacheline_names);
	return check_summary();
}
