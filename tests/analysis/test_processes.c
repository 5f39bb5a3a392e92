/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Processes, threads and address spaces over time (analysis/load/processes.c):
 * fork without exec, threads, exec, pid and tid reuse, the kernel's space,
 * kernel code unmapped (KSYMBOL), sideband out of order; and every lookup against a naive model that
 * replays the maps up to the asked time, over random histories.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "processes.h"

#define T(x) ((uint64_t)(x))

/* The mapping index of what holds @p addr in @p pid's process at @p time, or -1 (the thread's own process when @p tid >= 0). */
static int mapping_at(struct processes *p, int pid, int tid, uint64_t addr, uint64_t time)
{
	CHECK_INT_EQ(ana_procs_settle(p), 0);
	uint32_t space;
	if (tid >= 0) {
		uint32_t th = ana_procs_thread_at(p, tid, time);
		if (th == PROC_NONE)
			return -2;
		space = p->threads[th].space;
	} else {
		space = ana_procs_space_at(p, pid, time);
	}
	uint32_t m = ana_procs_map_at(p, space, addr, time);
	return m == PROC_NONE ? -1 : (int)p->maps[m].mapping;
}

static int pid_of_thread(struct processes *p, int tid, uint64_t time)
{
	CHECK_INT_EQ(ana_procs_settle(p), 0);
	uint32_t th = ana_procs_thread_at(p, tid, time);
	return th == PROC_NONE ? -2 : p->spaces[p->threads[th].space].pid;
}

TEST(fork_without_exec_copies_the_parents_maps)
{
	struct processes p;
	ana_procs_init(&p);
	ana_procs_comm(&p, 100, 100, "nginx", T(1), 0);
	ana_procs_mmap(&p, 100, 0x400000, 0x500000, 0, T(2));   /* the binary */
	ana_procs_mmap(&p, 100, 0x7f0000, 0x800000, 1, T(3));   /* libc */
	ana_procs_fork(&p, 101, 100, 101, 100, T(10), 0);       /* a worker */
	ana_procs_fork(&p, 102, 100, 102, 100, T(11), 0);
	ana_procs_mmap(&p, 100, 0x900000, 0x901000, 2, T(20));  /* the parent maps more: not the children's */
	ana_procs_mmap(&p, 102, 0x400000, 0x401000, 3, T(30));  /* a child's own: not the parent's */
	CHECK_INT_EQ(mapping_at(&p, -1, 101, 0x400100, T(15)), 0);
	CHECK_INT_EQ(mapping_at(&p, -1, 101, 0x7f0010, T(50)), 1);
	CHECK_INT_EQ(mapping_at(&p, -1, 102, 0x400100, T(15)), 0);
	CHECK_INT_EQ(mapping_at(&p, -1, 102, 0x400100, T(31)), 3); /* cut in the child only */
	CHECK_INT_EQ(mapping_at(&p, -1, 102, 0x401100, T(31)), 0); /* the rest of the binary goes on */
	CHECK_INT_EQ(mapping_at(&p, -1, 100, 0x400100, T(31)), 0);
	CHECK_INT_EQ(mapping_at(&p, -1, 101, 0x900100, T(25)), -1);
	CHECK_INT_EQ(mapping_at(&p, -1, 100, 0x900100, T(25)), 2);
	CHECK_INT_EQ(pid_of_thread(&p, 101, T(12)), 101);
	/* the child inherits its parent's name */
	uint32_t th = ana_procs_thread_at(&p, 101, T(12));
	CHECK_STR_EQ(p.threads[th].comm, "nginx");
	ana_procs_fini(&p);
}

TEST(threads_share_their_process_maps)
{
	struct processes p;
	ana_procs_init(&p);
	ana_procs_comm(&p, 200, 200, "java", T(1), 0);
	ana_procs_mmap(&p, 200, 0x1000, 0x2000, 0, T(1));
	ana_procs_fork(&p, 200, 200, 201, 200, T(5), 0); /* a thread */
	ana_procs_mmap(&p, 200, 0x3000, 0x4000, 1, T(6)); /* mapped by any thread, seen by all */
	CHECK_INT_EQ(pid_of_thread(&p, 201, T(7)), 200);
	CHECK_INT_EQ(mapping_at(&p, -1, 201, 0x1800, T(7)), 0);
	CHECK_INT_EQ(mapping_at(&p, -1, 201, 0x3800, T(7)), 1);
	CHECK_INT_EQ(mapping_at(&p, -1, 200, 0x3800, T(7)), 1);
	ana_procs_fini(&p);
}

TEST(exec_flushes_nothing_new_maps_cut_old_ones)
{
	struct processes p;
	ana_procs_init(&p);
	ana_procs_comm(&p, 300, 300, "sh", T(1), 0);
	ana_procs_mmap(&p, 300, 0x400000, 0x410000, 0, T(1)); /* /bin/sh */
	ana_procs_mmap(&p, 300, 0x7f0000, 0x800000, 1, T(1)); /* libc */
	ana_procs_comm(&p, 300, 300, "python", T(100), 1);    /* exec */
	ana_procs_mmap(&p, 300, 0x404000, 0x408000, 2, T(101)); /* python, over the middle of sh */
	CHECK_INT_EQ(mapping_at(&p, 300, -1, 0x405000, T(99)), 0);
	CHECK_INT_EQ(mapping_at(&p, 300, -1, 0x405000, T(101)), 2);
	CHECK_INT_EQ(mapping_at(&p, 300, -1, 0x401000, T(150)), 0);  /* below: sh's, still there */
	CHECK_INT_EQ(mapping_at(&p, 300, -1, 0x409000, T(150)), 0);  /* above */
	CHECK_INT_EQ(mapping_at(&p, 300, -1, 0x7f1000, T(150)), 1);  /* libc of the old image stays until cut */
	CHECK_INT_EQ(mapping_at(&p, 300, -1, 0x405000, PROC_NO_TIME), 2); /* no time: the latest state */
	CHECK_INT_EQ(mapping_at(&p, 300, -1, 0x401000, PROC_NO_TIME), 0);
	ana_procs_fini(&p);
}

TEST(pid_and_tid_reuse)
{
	struct processes p;
	ana_procs_init(&p);
	ana_procs_comm(&p, 1, 1, "init", T(0), 0);
	ana_procs_mmap(&p, 1, 0x1000, 0x2000, 0, T(0));
	ana_procs_comm(&p, 2, 2, "cron", T(0), 0);
	ana_procs_mmap(&p, 2, 0x1000, 0x2000, 1, T(0));
	ana_procs_fork(&p, 500, 1, 500, 1, T(10), 0);
	ana_procs_exit(&p, 500, 500, T(20));
	ana_procs_fork(&p, 500, 2, 500, 2, T(30), 0); /* the same pid, another process */
	CHECK_INT_EQ(mapping_at(&p, -1, 500, 0x1800, T(15)), 0);
	CHECK_INT_EQ(mapping_at(&p, -1, 500, 0x1800, T(35)), 1);
	CHECK_INT_EQ(mapping_at(&p, 500, -1, 0x1800, T(15)), 0);
	CHECK_INT_EQ(mapping_at(&p, 500, -1, 0x1800, T(35)), 1);
	/* a tid that was a thread of one process, then of another */
	ana_procs_fork(&p, 1, 1, 700, 1, T(40), 0);
	ana_procs_fork(&p, 2, 2, 700, 2, T(50), 0);
	CHECK_INT_EQ(pid_of_thread(&p, 700, T(45)), 1);
	CHECK_INT_EQ(pid_of_thread(&p, 700, T(55)), 2);
	ana_procs_fini(&p);
}

TEST(unknown_threads_and_processes_stay_unknown)
{
	struct processes p;
	ana_procs_init(&p);
	ana_procs_comm(&p, 10, 10, "a", T(0), 0);
	ana_procs_mmap(&p, 10, 0x400000, 0x500000, 0, T(0));
	ana_procs_comm(&p, 11, 11, "b", T(0), 0);
	ana_procs_mmap(&p, 11, 0x400000, 0x500000, 1, T(0)); /* the same non-PIE binary */
	CHECK_INT_EQ(ana_procs_settle(&p), 0);
	CHECK_INT_EQ(ana_procs_thread_at(&p, 12, T(5)), PROC_NONE);
	CHECK_INT_EQ(ana_procs_space_at(&p, 12, T(5)), PROC_NONE);
	CHECK_INT_EQ(ana_procs_map_at(&p, PROC_NONE, 0x400100, T(5)), PROC_NONE);
	CHECK_INT_EQ(ana_procs_space_at(&p, -1, T(5)), PROC_NONE); /* no kernel map given */
	ana_procs_fini(&p);
}

TEST(forks_perf_made_from_proc_copy_nothing)
{
	struct processes p;
	ana_procs_init(&p);
	ana_procs_comm(&p, 1, 1, "systemd", T(0), 0);
	ana_procs_mmap(&p, 1, 0x1000, 0x2000, 0, T(0));
	ana_procs_fork(&p, 40, 1, 40, 1, T(0), 1); /* synthesized: its maps come as its own MMAPs */
	ana_procs_mmap(&p, 40, 0x5000, 0x6000, 1, T(0));
	CHECK_INT_EQ(mapping_at(&p, 40, -1, 0x1800, T(1)), -1);
	CHECK_INT_EQ(mapping_at(&p, 40, -1, 0x5800, T(1)), 1);
	ana_procs_fini(&p);
}

TEST(the_kernel_is_one_space)
{
	struct processes p;
	ana_procs_init(&p);
	ana_procs_mmap(&p, -1, 0xffff800008000000ull, 0xffff800009000000ull, 0, T(0));
	ana_procs_mmap(&p, -1, 0xffff800001000000ull, 0xffff800001010000ull, 1, T(0)); /* a module */
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800008001000ull, T(9)), 0);
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800001000400ull, T(9)), 1);
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800002000000ull, T(9)), -1);
	ana_procs_fini(&p);
}

/* KSYMBOL: a BPF program's map from its registration; its unregistration ends it and maps nothing */
TEST(kernel_code_unmapped_ends_its_map)
{
	struct processes p;
	ana_procs_init(&p);
	ana_procs_mmap(&p, -1, 0xffff800008000000ull, 0xffff800009000000ull, 0, T(0));
	ana_procs_mmap(&p, -1, 0xffff800000100000ull, 0xffff800000100200ull, 1, T(10));
	ana_procs_munmap(&p, -1, 0xffff800000100000ull, 0xffff800000100200ull, T(20));
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800000100010ull, T(5)), -1);
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800000100010ull, T(15)), 1);
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800000100010ull, T(25)), -1);
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800008000010ull, T(25)), 0); /* the image stays */
	/* an unmap over part of a map: what lies outside it goes on */
	ana_procs_munmap(&p, -1, 0xffff800008001000ull, 0xffff800008002000ull, T(30));
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800008001800ull, T(35)), -1);
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800008000800ull, T(35)), 0);
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800008002800ull, T(35)), 0);
	CHECK_INT_EQ(mapping_at(&p, -1, -1, 0xffff800008001800ull, T(25)), 0);
	ana_procs_fini(&p);
}

TEST(sideband_out_of_order_is_applied_in_time_order)
{
	struct processes p;
	ana_procs_init(&p);
	/* the file has the later MMAP first (perf writes per-CPU buffers in rounds) */
	ana_procs_mmap(&p, 9, 0x1000, 0x2000, 1, T(50));
	ana_procs_mmap(&p, 9, 0x1000, 0x2000, 0, T(10));
	CHECK_INT_EQ(mapping_at(&p, 9, -1, 0x1800, T(20)), 0);
	CHECK_INT_EQ(mapping_at(&p, 9, -1, 0x1800, T(60)), 1);
	CHECK_INT_EQ(mapping_at(&p, 9, -1, 0x1800, T(5)), -1); /* before either */
	/* an event older than one already applied: counted, still applied */
	ana_procs_mmap(&p, 9, 0x3000, 0x4000, 2, T(40));
	CHECK_INT_EQ(mapping_at(&p, 9, -1, 0x3800, T(45)), 2);
	CHECK_INT_EQ(p.out_of_order, 1);
	ana_procs_fini(&p);
}

TEST(gaps_have_spans_too)
{
	struct processes p;
	ana_procs_init(&p);
	ana_procs_mmap(&p, 3, 0x1000, 0x2000, 0, T(10));
	ana_procs_mmap(&p, 3, 0x1000, 0x2000, 1, T(30));
	CHECK_INT_EQ(ana_procs_settle(&p), 0);
	uint32_t s = ana_procs_space_at(&p, 3, T(0));
	uint64_t from, to;
	CHECK_INT_EQ(ana_procs_map_span(&p, s, 0x1800, T(5), &from, &to), PROC_NONE);
	CHECK_U64_EQ(from, 0);
	CHECK_U64_EQ(to, 10);
	uint32_t m = ana_procs_map_span(&p, s, 0x1800, T(15), &from, &to);
	CHECK_INT_EQ(p.maps[m].mapping, 0);
	CHECK_U64_EQ(from, 10);
	CHECK_U64_EQ(to, 30);
	ana_procs_fini(&p);
}

/* ---- random histories against a naive replay ---------------------------- */

struct naive_map {
	uint64_t start, end;
	int mapping;
};

/* Cut [start, end) out of the @p n maps of @p cur (in place); the new count. */
static size_t naive_cut(struct naive_map *cur, size_t n, uint64_t start, uint64_t end)
{
	struct naive_map next[4096];
	size_t nn = 0;
	for (size_t i = 0; i < n; i++) {
		struct naive_map m = cur[i];
		if (m.end <= start || m.start >= end) {
			next[nn++] = m;
			continue;
		}
		if (m.start < start)
			next[nn++] = (struct naive_map){ m.start, start, m.mapping };
		if (m.end > end)
			next[nn++] = (struct naive_map){ end, m.end, m.mapping };
	}
	memcpy(cur, next, nn * sizeof *cur);
	return nn;
}

/*
 * What holds @p addr after the MMAPs up to @p time (in time, then arrival
 * order), replayed from nothing, with the layers of processes.h: code
 * (flag PROC_MAP_CODE) above the maps; a plain MMAP cuts both, an
 * anonymous one the maps only, code the code only.
 */
static int naive_layered_at(const struct proc_event *ev, size_t n, uint64_t addr, uint64_t time)
{
	static struct naive_map base[4096], code[4096];
	size_t nb = 0, nc = 0;
	size_t order[512];
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = 1; i < n; i++) /* insertion sort by (time, arrival) */
		for (size_t j = i; j > 0 && ev[order[j - 1]].time > ev[order[j]].time; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (size_t k = 0; k < n; k++) {
		const struct proc_event *e = &ev[order[k]];
		if (time != PROC_NO_TIME && e->time > time)
			break;
		struct naive_map m = { e->start, e->end, (int)e->mapping };
		if (e->flag == PROC_MAP_CODE) {
			nc = naive_cut(code, nc, e->start, e->end);
			code[nc++] = m;
			continue;
		}
		if (e->flag == PROC_MAP_PLAIN)
			nc = naive_cut(code, nc, e->start, e->end);
		nb = naive_cut(base, nb, e->start, e->end);
		base[nb++] = m;
	}
	for (size_t i = 0; i < nc; i++)
		if (addr >= code[i].start && addr < code[i].end)
			return code[i].mapping;
	for (size_t i = 0; i < nb; i++)
		if (addr >= base[i].start && addr < base[i].end)
			return base[i].mapping;
	return -1;
}

/* What holds @p addr after the MMAPs up to @p time (in time, then arrival order), replayed from nothing. */
static int naive_at(const struct proc_event *ev, size_t n, uint64_t addr, uint64_t time)
{
	struct naive_map cur[4096];
	size_t nc = 0;
	size_t order[512];
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = 1; i < n; i++) /* insertion sort by (time, arrival) */
		for (size_t j = i; j > 0 && ev[order[j - 1]].time > ev[order[j]].time; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (size_t k = 0; k < n; k++) {
		const struct proc_event *e = &ev[order[k]];
		if (time != PROC_NO_TIME && e->time > time)
			break;
		struct naive_map next[4096];
		size_t nn = 0;
		for (size_t i = 0; i < nc; i++) {
			struct naive_map m = cur[i];
			if (m.end <= e->start || m.start >= e->end) {
				next[nn++] = m;
				continue;
			}
			if (m.start < e->start)
				next[nn++] = (struct naive_map){ m.start, e->start, m.mapping };
			if (m.end > e->end)
				next[nn++] = (struct naive_map){ e->end, m.end, m.mapping };
		}
		next[nn++] = (struct naive_map){ e->start, e->end, (int)e->mapping };
		memcpy(cur, next, nn * sizeof *cur);
		nc = nn;
	}
	for (size_t i = 0; i < nc; i++)
		if (addr >= cur[i].start && addr < cur[i].end)
			return cur[i].mapping;
	return -1;
}

TEST(random_histories_match_a_naive_replay)
{
	uint64_t rng = 0x5eed;
	for (int round = 0; round < 200; round++) {
		struct processes p;
		ana_procs_init(&p);
		struct proc_event ev[64];
		size_t n = 1 + check_xorshift(&rng) % 40;
		for (size_t i = 0; i < n; i++) {
			uint64_t a = (check_xorshift(&rng) % 64) * 0x1000, len = (1 + check_xorshift(&rng) % 16) * 0x1000;
			ev[i] = (struct proc_event){ .time = 1 + check_xorshift(&rng) % 100, .start = a, .end = a + len,
						     .mapping = (uint32_t)i };
			ana_procs_mmap(&p, 77, ev[i].start, ev[i].end, ev[i].mapping, ev[i].time);
		}
		for (int q = 0; q < 300; q++) {
			uint64_t addr = (check_xorshift(&rng) % (80 * 0x1000));
			uint64_t t = q % 50 == 0 ? PROC_NO_TIME : check_xorshift(&rng) % 110;
			int want = naive_at(ev, n, addr, t);
			int got = mapping_at(&p, 77, -1, addr, t);
			if (want != got) {
				CHECK_INT_EQ(got, want);
				printf("  round %d: addr 0x%llx time %llu\n", round, (unsigned long long)addr,
				       (unsigned long long)t);
				round = 1000;
				break;
			}
			/* and the span says how long that answer holds */
			uint64_t from, to;
			uint32_t s = ana_procs_space_at(&p, 77, t);
			ana_procs_map_span(&p, s, addr, t, &from, &to);
			if (t != PROC_NO_TIME) {
				CHECK(from <= t && t < to);
				if (from > 0)
					CHECK(naive_at(ev, n, addr, from) == want);
				if (to != PROC_NO_TIME)
					CHECK(naive_at(ev, n, addr, to - 1) == want);
			}
		}
		ana_procs_fini(&p);
	}
}

/* The same with JIT code above the maps: code loads, anonymous re-maps under them, files over both. */
TEST(random_layered_histories_match_a_naive_replay)
{
	uint64_t rng = 0xc0de;
	for (int round = 0; round < 300; round++) {
		struct processes p;
		ana_procs_init(&p);
		struct proc_event ev[128];
		size_t n = 1 + check_xorshift(&rng) % 100;
		for (size_t i = 0; i < n; i++) {
			int kind = (int)(check_xorshift(&rng) % 5); /* code more often than the rest */
			kind = kind >= 2 ? PROC_MAP_CODE : kind;
			uint64_t a = (check_xorshift(&rng) % 256) * 0x100;
			uint64_t len = kind == PROC_MAP_CODE ? (1 + check_xorshift(&rng) % 8) * 0x100
							     : (1 + check_xorshift(&rng) % 64) * 0x100;
			ev[i] = (struct proc_event){ .time = 1 + check_xorshift(&rng) % 100, .start = a, .end = a + len,
						     .mapping = (uint32_t)i, .flag = kind };
			ana_procs_mmap_kind(&p, 78, ev[i].start, ev[i].end, ev[i].mapping, ev[i].time, kind);
		}
		for (int q = 0; q < 300; q++) {
			uint64_t addr = check_xorshift(&rng) % (300 * 0x100);
			uint64_t t = q % 50 == 0 ? PROC_NO_TIME : check_xorshift(&rng) % 110;
			int want = naive_layered_at(ev, n, addr, t);
			int got = mapping_at(&p, 78, -1, addr, t);
			uint64_t from, to;
			uint32_t s = ana_procs_space_at(&p, 78, t);
			ana_procs_map_span(&p, s, addr, t, &from, &to);
			int span_ok = t == PROC_NO_TIME ||
				      (from <= t && t < to && (from == 0 || naive_layered_at(ev, n, addr, from) == want) &&
				       (to == PROC_NO_TIME || naive_layered_at(ev, n, addr, to - 1) == want));
			if (want != got || !span_ok) {
				CHECK_INT_EQ(got, want);
				CHECK(span_ok);
				printf("  round %d: addr 0x%llx time %llu\n", round, (unsigned long long)addr,
				       (unsigned long long)t);
				round = 1000;
				break;
			}
		}
		ana_procs_fini(&p);
	}
}

/* A child forked after JIT code was loaded has it, not the code loaded after; a file over it hides it. */
TEST(fork_copies_the_code_layer)
{
	struct processes p;
	ana_procs_init(&p);
	ana_procs_comm(&p, 400, 400, "node", T(0), 0);
	ana_procs_mmap_kind(&p, 400, 0x10000, 0x20000, 0, T(1), PROC_MAP_ANON);  /* the code space */
	ana_procs_mmap_kind(&p, 400, 0x10100, 0x10200, 1, T(2), PROC_MAP_CODE);  /* fib */
	ana_procs_mmap_kind(&p, 400, 0x10000, 0x20000, 2, T(3), PROC_MAP_ANON);  /* re-mapped: the code stays */
	ana_procs_fork(&p, 401, 400, 401, 400, T(4), 0);
	ana_procs_mmap_kind(&p, 400, 0x10180, 0x10280, 3, T(5), PROC_MAP_CODE);  /* replaces fib's tail */
	ana_procs_mmap_kind(&p, 401, 0x10000, 0x11000, 4, T(6), PROC_MAP_PLAIN); /* the child maps a file there */
	CHECK_INT_EQ(mapping_at(&p, 400, -1, 0x10150, T(4)), 1);
	CHECK_INT_EQ(mapping_at(&p, 400, -1, 0x10050, T(4)), 2);
	CHECK_INT_EQ(mapping_at(&p, 400, -1, 0x101c0, T(5)), 3);
	CHECK_INT_EQ(mapping_at(&p, 400, -1, 0x10150, T(5)), 1);
	CHECK_INT_EQ(mapping_at(&p, 401, -1, 0x101c0, T(5)), 1);   /* not the parent's later code */
	CHECK_INT_EQ(mapping_at(&p, 401, -1, 0x10150, T(6)), 4);   /* the file cut the code too */
	CHECK_INT_EQ(mapping_at(&p, 401, -1, 0x11150, T(6)), 2);
	CHECK_INT_EQ(mapping_at(&p, 400, -1, 0x10150, T(6)), 1);   /* the parent's untouched */
	ana_procs_fini(&p);
}

/* 100,000 code loads backwards in address order, each over the one before's tail, and a file over all. */
TEST(many_code_loads)
{
	struct processes p;
	ana_procs_init(&p);
	enum { N = 100000 };
	for (uint32_t i = 0; i < N; i++) {
		uint64_t a = 0x40000000 + (uint64_t)(N - i) * 0x100;
		ana_procs_mmap_kind(&p, 5, a, a + 0x180, i, T(10 + i), PROC_MAP_CODE);
	}
	ana_procs_mmap_kind(&p, 5, 0x40000000, 0x40000000 + (uint64_t)(N + 2) * 0x100, N, T(10 + N), PROC_MAP_PLAIN);
	CHECK_INT_EQ(ana_procs_settle(&p), 0);
	int bad = 0;
	for (uint32_t i = 0; i < N; i += 7) {
		uint64_t a = 0x40000000 + (uint64_t)(N - i) * 0x100;
		bad += mapping_at(&p, 5, -1, a + 0x80, T(10 + N - 1)) != (int)i;     /* its own head */
		bad += mapping_at(&p, 5, -1, a + 0x140, T(10 + i)) != (int)i;          /* over the one before's head */
		if (i)
			bad += mapping_at(&p, 5, -1, a + 0x140, T(10 + i - 1)) != (int)(i - 1); /* which held it before */
		bad += mapping_at(&p, 5, -1, a + 0x80, T(10 + N)) != N;             /* under the file */
	}
	CHECK_INT_EQ(bad, 0);
	ana_procs_fini(&p);
}

/* Change @p i of the name history: tid, time and name (NULL: unknown). */
static void check_change(const struct processes *p, size_t i, int tid, uint64_t time, const char *comm)
{
	CHECK(i < p->n_comm_changes);
	if (i >= p->n_comm_changes)
		return;
	CHECK_INT_EQ(p->comm_changes[i].tid, tid);
	CHECK_INT_EQ((long long)p->comm_changes[i].time, (long long)time);
	if (comm)
		CHECK_STR_EQ(p->comm_changes[i].comm, comm);
	else
		CHECK(p->comm_changes[i].comm == NULL);
}

TEST(every_name_is_kept_with_its_time)
{
	struct processes p;
	ana_procs_init(&p);
	/* arrival order is not time order: the history is in time order, as applied */
	ana_procs_comm(&p, 600, 601, "worker-2", T(40), 0);       /* prctl(PR_SET_NAME) of the thread */
	ana_procs_comm(&p, 600, 600, "server", T(1), 1);
	ana_procs_fork(&p, 600, 600, 601, 600, T(10), 0);         /* a thread: the parent's name */
	ana_procs_comm(&p, 600, 600, "server-main", T(20), 0);    /* the parent renames: not the child */
	ana_procs_fork(&p, 602, 600, 602, 600, T(30), 0);         /* a process without exec: the name then */
	ana_procs_comm(&p, 602, 602, "helper", T(50), 1);         /* its exec */
	ana_procs_fork(&p, 700, 699, 700, 699, T(60), 0);         /* the parent unknown: no name */
	ana_procs_comm(&p, 600, 601, NULL, T(70), 0);             /* a switch naming the pid only: no change */
	CHECK_INT_EQ(ana_procs_settle(&p), 0);
	CHECK_INT_EQ((long long)p.n_comm_changes, 7);
	check_change(&p, 0, 600, T(1), "server");
	check_change(&p, 1, 601, T(10), "server");
	check_change(&p, 2, 600, T(20), "server-main");
	check_change(&p, 3, 602, T(30), "server-main");
	check_change(&p, 4, 601, T(40), "worker-2");
	check_change(&p, 5, 602, T(50), "helper");
	check_change(&p, 6, 700, T(60), NULL);
	ana_procs_fini(&p);
}

int main(void)
{
	RUN(fork_without_exec_copies_the_parents_maps);
	RUN(threads_share_their_process_maps);
	RUN(exec_flushes_nothing_new_maps_cut_old_ones);
	RUN(pid_and_tid_reuse);
	RUN(unknown_threads_and_processes_stay_unknown);
	RUN(forks_perf_made_from_proc_copy_nothing);
	RUN(the_kernel_is_one_space);
	RUN(kernel_code_unmapped_ends_its_map);
	RUN(sideband_out_of_order_is_applied_in_time_order);
	RUN(gaps_have_spans_too);
	RUN(random_histories_match_a_naive_replay);
	RUN(random_layered_histories_match_a_naive_replay);
	RUN(fork_copies_the_code_layer);
	RUN(many_code_loads);
	RUN(every_name_is_kept_with_its_time);
	return check_summary();
}
