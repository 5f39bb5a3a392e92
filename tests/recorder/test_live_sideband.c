/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The live path against the real kernel, without SPE: spe_live in
 * sideband-only mode opens the dummy tracking event on a launched command
 * and drains its per-CPU rings with spe_session_drain(), the code that
 * drains SPE rings.  Checks COMM (exec), MMAP2 of the executable, FORK/EXIT,
 * SWITCH, the command's exit status, LOST records from a stalled one-page
 * ring, and that a perf.data written from it reads back.  Exits 77 when
 * perf_event_open is refused.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include "check.h"
#include "spe/kernel_records.h"
#include "spe/live.h"
#include "spe/proc_synth.h"
#include "spe/rec_output.h"
#include "spe/spe.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct capture {
	uint64_t by_type[32];
	uint64_t lost_sum;
	int comm_exec_true, mmap2_true_exec, exit_of_child;
	uint32_t comm_pid;
	char last_mmap[256];
	int trailer_cpu_ok, trailer_count;
	const char *want_suffix; /* count MMAP2s of a file name ending so */
	int want_hits;
	int want_build_id_size;  /* ... and the build-id size of the last one (0: maj/min/ino form) */
	uint32_t threads_of;     /* count COMMs "spe-thr-*" of this pid's threads (not the pid itself) */
	int thread_comms;
	int data_mmaps;          /* MMAP2 marked PERF_RECORD_MISC_MMAP_DATA, all without PROT_EXEC */
	int data_mmaps_exec;     /* ... of which wrongly with PROT_EXEC */
	int stack_mmaps, anon_mmaps;
};

static int on_event(void *ctx, const struct perf_event_header *ev)
{
	struct capture *c = ctx;
	const uint8_t *b = (const uint8_t *)(ev + 1);
	if (ev->type < 32)
		c->by_type[ev->type]++;
	struct spe_sid sid;
	if (spe_sid_decode(spe_rec_output_sample_type(), ev, 8, &sid) == 0) {
		c->trailer_count++;
		c->trailer_cpu_ok += sid.cpu < SPE_LIVE_MAX_CPUS && sid.time != 0;
	}
	switch (ev->type) {
	case PERF_RECORD_COMM: {
		if ((ev->misc & PERF_RECORD_MISC_COMM_EXEC) && !strcmp((const char *)b + 8, "true")) {
			c->comm_exec_true++;
			memcpy(&c->comm_pid, b, 4);
		}
		uint32_t pid, tid;
		memcpy(&pid, b, 4);
		memcpy(&tid, b + 4, 4);
		if (c->threads_of && pid == c->threads_of && tid != pid && !strncmp((const char *)b + 8, "spe-thr-", 8))
			c->thread_comms++;
		break;
	}
	case PERF_RECORD_MMAP2: {
		const char *name = (const char *)b + 64;
		uint32_t prot;
		memcpy(&prot, b + 56, 4);
		snprintf(c->last_mmap, sizeof c->last_mmap, "%s", name);
		size_t n = strlen(name);
		if (n >= 5 && !strcmp(name + n - 5, "/true") && (prot & 4 /* PROT_EXEC */))
			c->mmap2_true_exec++;
		if (ev->misc & PERF_RECORD_MISC_MMAP_DATA) {
			c->data_mmaps++;
			c->data_mmaps_exec += (prot & 4) != 0;
		}
		c->stack_mmaps += !strncmp(name, "[stack", 6);
		c->anon_mmaps += !strcmp(name, "//anon");
		if (c->want_suffix && (prot & 4 /* PROT_EXEC */) && n >= strlen(c->want_suffix) &&
		    !strcmp(name + n - strlen(c->want_suffix), c->want_suffix)) {
			c->want_hits++;
			c->want_build_id_size = ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID ? b[32] : 0;
		}
		break;
	}
	case PERF_RECORD_LOST: {
		uint64_t lost;
		memcpy(&lost, b + 8, 8);
		c->lost_sum += lost;
		break;
	}
	}
	return 0;
}

static int on_aux(void *ctx, const void *d, uint64_t n, uint64_t off, uint32_t idx, int32_t tid, int32_t cpu)
{
	(void)ctx, (void)d, (void)n, (void)off, (void)idx, (void)tid, (void)cpu;
	return -spe_internal; /* sideband-only: there is no AUX area */
}

/* The CPUs to open on: 0 .. online-1 (the CLI passes the PMU's or the online list). */
static uint32_t test_cpus[SPE_LIVE_MAX_CPUS];
static int n_test_cpus;

static void init_test_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	for (n_test_cpus = 0; n_test_cpus < n && n_test_cpus < SPE_LIVE_MAX_CPUS; n_test_cpus++)
		test_cpus[n_test_cpus] = (uint32_t)n_test_cpus;
}

/* On failure @p err (512 bytes) says why: spe_live_open's message, or spe_live_errmsg(). */
static int run(char *const *argv, uint32_t data_pages, struct capture *cap, struct spe_live_result *res,
	       char *err)
{
	struct spe_live_config cfg = { .cpus = test_cpus, .n_cpus = n_test_cpus, .mode = SPE_LIVE_COMMAND, .argv = argv,
					      .with_spe = 0, .data_pages = data_pages,
					      .sample_type = spe_rec_output_sample_type(), .poll_ms = 20 };
	struct spe_live *l;
	int r = spe_live_open(&cfg, &l, err, 512);
	if (r)
		return r;
	struct spe_session_sink sink = { cap, on_event, on_aux };
	r = spe_live_run(l, &sink, res);
	snprintf(err, 512, "%s", spe_live_errmsg(l));
	spe_live_close(l);
	return r;
}

TEST(command_sideband)
{
	char *argv[] = { "/bin/sh", "-c", "/bin/true; /bin/true; exit 3", NULL };
	struct capture cap = { 0 };
	struct spe_live_result res;
	char err[512] = "";
	CHECK_INT_EQ(run(argv, 0, &cap, &res, err), 0);
	CHECK_INT_EQ(res.command_ran, 1);
	CHECK_INT_EQ(res.command_status, 3);
	CHECK_INT_EQ(cap.comm_exec_true, 2);
	CHECK(cap.mmap2_true_exec >= 2);
	/* attr.mmap_data: the loader maps libc's data segment and anonymous memory of each true */
	CHECK(cap.data_mmaps >= 2);
	CHECK_INT_EQ(cap.data_mmaps_exec, 0);
	CHECK(cap.by_type[PERF_RECORD_FORK] >= 2);  /* sh forks each true */
	CHECK(cap.by_type[PERF_RECORD_EXIT] >= 2);
	CHECK(cap.by_type[PERF_RECORD_SWITCH] >= 1);
	CHECK(cap.trailer_count > 0 && cap.trailer_cpu_ok == cap.trailer_count);
	CHECK_U64_EQ(res.stats.lost_events, cap.lost_sum);
	CHECK_U64_EQ(res.stats.kernel_events, cap.by_type[PERF_RECORD_COMM] + cap.by_type[PERF_RECORD_MMAP2] +
						  cap.by_type[PERF_RECORD_FORK] + cap.by_type[PERF_RECORD_EXIT] +
						  cap.by_type[PERF_RECORD_SWITCH] + cap.by_type[PERF_RECORD_LOST] +
						  cap.by_type[PERF_RECORD_MMAP] + cap.by_type[PERF_RECORD_SWITCH_CPU_WIDE]);
	if (check_failures)
		printf("  comm %d mmap2 %d fork %llu exit %llu switch %llu last mmap %s\n", cap.comm_exec_true,
		       cap.mmap2_true_exec, (unsigned long long)cap.by_type[PERF_RECORD_FORK],
		       (unsigned long long)cap.by_type[PERF_RECORD_EXIT],
		       (unsigned long long)cap.by_type[PERF_RECORD_SWITCH], cap.last_mmap);
}

/*
 * A sink that stalls on its first record until @p marker exists, so the
 * reader does not drain while the command fills the ring, then forwards.
 */
struct stalling_sink {
	struct spe_session_sink inner;
	const char *marker;
	int stalled;
};

static int stall_then_forward(void *ctx, const struct perf_event_header *ev)
{
	struct stalling_sink *s = ctx;
	if (!s->stalled) {
		s->stalled = 1;
		for (int i = 0; i < 1000 && access(s->marker, F_OK); i++)
			usleep(10000); /* at most 10 s */
	}
	return s->inner.kernel_event(s->inner.ctx, ev);
}

/*
 * A one-page data ring that is not drained while the command runs 64
 * processes (the reader stalls until the command says it is done): the
 * kernel drops records and, at the command's next records after the drain,
 * writes LOST records.  Their total is what the session counts and what the
 * written file holds.  The test process (and so the command) is pinned to one
 * CPU so that drops and the later records meet in the same ring.
 */
TEST(small_ring_accounts_losses)
{
	char path[] = "/tmp/spe-test-lost-XXXXXX", marker[64];
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	snprintf(marker, sizeof marker, "%s.done", path);
	char script[512];
	snprintf(script, sizeof script,
		 "i=0; while [ $i -lt 64 ]; do /bin/true; i=$((i+1)); done; : >'%s'; sleep 0.3; "
		 "for i in 1 2 3 4; do /bin/true; done", marker);
	char *argv[] = { "/bin/sh", "-c", script, NULL };

	cpu_set_t old, one;
	CHECK_INT_EQ(sched_getaffinity(0, sizeof old, &old), 0);
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &old)) {
			CPU_SET(c, &one);
			break;
		}
	CHECK_INT_EQ(sched_setaffinity(0, sizeof one, &one), 0);

	struct spe_live_config cfg = { .cpus = test_cpus, .n_cpus = n_test_cpus,
					      .mode = SPE_LIVE_COMMAND, .argv = argv, .data_pages = 1,
					      .sample_type = spe_rec_output_sample_type(), .poll_ms = 20 };
	struct spe_live *l;
	char err[512] = "";
	CHECK_INT_EQ(spe_live_open(&cfg, &l, err, sizeof err), 0);
	const uint32_t *cpus;
	int n = spe_live_cpus(l, &cpus);
	struct spe_rec_output_config oc = { .n_cpus = (uint32_t)n, .cpus = cpus };
	struct spe_rec_output *o;
	char msg[512];
	CHECK_INT_EQ(spe_rec_output_open(path, &oc, &o, msg, sizeof msg), 0);
	struct stalling_sink st = { spe_rec_output_sink(o), marker, 0 };
	struct spe_session_sink sink = { &st, stall_then_forward, st.inner.auxtrace };
	struct spe_live_result res;
	CHECK_INT_EQ(spe_live_run(l, &sink, &res), 0);
	spe_live_close(l);
	CHECK_INT_EQ(spe_rec_output_close(o, msg, sizeof msg), 0);
	sched_setaffinity(0, sizeof old, &old);
	CHECK_INT_EQ(res.command_status, 0);
	CHECK_INT_EQ(access(marker, F_OK), 0); /* the command got that far */

	/* The file: its LOST records add up to the session's count, which is not 0. */
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	CHECK_INT_EQ(spe_perf_open(f, path), 0);
	struct spe_perf_event ev;
	uint64_t lost_in_file = 0, lost_records = 0;
	while (spe_perf_next(f, &ev, sizeof ev) == 0)
		if (ev.type == SPE_PERF_RECORD_LOST) {
			lost_in_file += ev.u.lost.lost;
			lost_records++;
		}
	spe_perf_free_file(f);
	printf("  one-page ring, reader stalled: %llu records lost, in %llu LOST records\n",
	       (unsigned long long)res.stats.lost_events, (unsigned long long)lost_records);
	CHECK(res.stats.lost_events > 0);
	CHECK(lost_records > 0);
	CHECK_U64_EQ(lost_in_file, res.stats.lost_events);
	unlink(marker);
	unlink(path);
}

TEST(command_not_found)
{
	char *argv[] = { "/nonexistent/cmd", NULL };
	struct capture cap = { 0 };
	struct spe_live_result res;
	char err[512] = "";
	CHECK_INT_EQ(run(argv, 0, &cap, &res, err), -spe_invalid);
	CHECK_INT_EQ(res.command_ran, 0);
	CHECK_INT_EQ(res.command_status, 127);
	CHECK_STR_EQ(err, "cannot run '/nonexistent/cmd': No such file or directory");
}

TEST(perf_data_from_live_sideband)
{
	char path[] = "/tmp/spe-test-live-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	/* The sleep guarantees a context switch (a bare /bin/true may run through without one under load). */
	char *argv[] = { "/bin/sh", "-c", "sleep 0.01; exec /bin/true", NULL };
	struct spe_live_config cfg = { .cpus = test_cpus, .n_cpus = n_test_cpus, .mode = SPE_LIVE_COMMAND, .argv = argv,
					      .sample_type = spe_rec_output_sample_type(), .poll_ms = 20 };
	struct spe_live *l;
	char err[512] = "";
	CHECK_INT_EQ(spe_live_open(&cfg, &l, err, sizeof err), 0);
	const uint32_t *cpus;
	int n = spe_live_cpus(l, &cpus);
	CHECK(n > 0);
	struct spe_rec_output_config oc = { .n_cpus = (uint32_t)n, .cpus = cpus };
	struct spe_rec_output *o;
	char msg[512];
	CHECK_INT_EQ(spe_rec_output_open(path, &oc, &o, msg, sizeof msg), 0);
	struct spe_session_sink sink = spe_rec_output_sink(o);
	struct spe_live_result res;
	CHECK_INT_EQ(spe_live_run(l, &sink, &res), 0);
	spe_live_close(l);
	uint64_t unwritten = spe_rec_output_unwritten(o, NULL);
	CHECK_INT_EQ(spe_rec_output_close(o, msg, sizeof msg), 0);

	struct spe_perf_config pc = SPE_OPTS(spe_perf_config);
	struct spe_perf_file *f = spe_perf_alloc_file(&pc);
	CHECK_INT_EQ(spe_perf_open(f, path), 0);
	struct spe_perf_event ev;
	int comm = 0, mmap2 = 0, exits = 0, switches = 0;
	while (spe_perf_next(f, &ev, sizeof ev) == 0) {
		exits += ev.type == SPE_PERF_RECORD_EXIT;
		switches += ev.type == SPE_PERF_RECORD_SWITCH;
		if (ev.type == SPE_PERF_RECORD_COMM && !strcmp(ev.u.comm.comm, "true") && ev.u.comm.exec)
			comm++;
		if (ev.type == SPE_PERF_RECORD_MMAP2 && strstr(ev.u.mmap.filename, "/true"))
			mmap2++;
	}
	CHECK_INT_EQ(comm, 1);
	CHECK(mmap2 >= 1);
	CHECK(exits >= 1);
	CHECK(switches >= 1);
	CHECK_U64_EQ(unwritten, 0); /* every kernel record type reached the file */
	spe_perf_free_file(f);
	unlink(path);
}

/* Processes running before recording starts get COMM/MMAP2 from /proc. */
TEST(proc_synthesis)
{
	pid_t child = fork();
	if (child == 0) {
		execl("/bin/sleep", "sleep", "5", (char *)NULL);
		_exit(127);
	}
	usleep(200000); /* let it exec */
	struct capture cap = { .want_suffix = "/sleep" };
	struct spe_session_sink sink = { &cap, on_event, on_aux };
	int64_t n = spe_proc_synthesize("/proc", child, spe_rec_output_sample_type(), 7, 0, &sink);
	CHECK(n >= 2);
	CHECK_INT_EQ(cap.by_type[PERF_RECORD_COMM], 1);
	CHECK(cap.by_type[PERF_RECORD_MMAP2] >= 1);
	CHECK_INT_EQ(cap.want_hits, 1); /* the executable's r-x mapping */
	CHECK_INT_EQ(cap.want_build_id_size, 20); /* Debian's coreutils carry a GNU build-id (sha1) */
	/* data mappings too (perf record -d): the stack, sleep's and libc's rw-p segments */
	CHECK(cap.data_mmaps >= 3);
	CHECK_INT_EQ(cap.data_mmaps_exec, 0);
	CHECK_INT_EQ(cap.stack_mmaps, 1);
	CHECK(cap.trailer_count == n && cap.trailer_cpu_ok == 0); /* synthesized at time 0 */
	struct capture all = { 0 };
	struct spe_session_sink all_sink = { &all, on_event, on_aux };
	CHECK(spe_proc_synthesize("/proc", -1, spe_rec_output_sample_type(), 7, 0, &all_sink) > n);
	CHECK(all.by_type[PERF_RECORD_COMM] >= 2); /* at least this test and sleep */
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	memset(&cap, 0, sizeof cap);
	CHECK_INT_EQ(spe_proc_synthesize("/proc", child, spe_rec_output_sample_type(), 7, 0, &sink), 0);
}

static volatile sig_atomic_t stop_flag;
static void on_alarm(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A stop request (what SIGINT/SIGTERM set) ends a recording early; the command is terminated. */
TEST(stop_flag_duration_and_pid)
{
	char *argv[] = { "/bin/sleep", "5", NULL };
	struct capture cap = { 0 };
	struct spe_session_sink sink = { &cap, on_event, on_aux };
	struct spe_live_result res;
	char err[512] = "";
	struct spe_live *l;

	stop_flag = 0;
	signal(SIGALRM, on_alarm);
	struct spe_live_config cfg = { .cpus = test_cpus, .n_cpus = n_test_cpus, .mode = SPE_LIVE_COMMAND, .argv = argv,
					      .sample_type = spe_rec_output_sample_type(), .stop = &stop_flag,
					      .poll_ms = 20 };
	CHECK_INT_EQ(spe_live_open(&cfg, &l, err, sizeof err), 0);
	double t0 = now();
	ualarm(300000, 0);
	CHECK_INT_EQ(spe_live_run(l, &sink, &res), 0);
	spe_live_close(l);
	CHECK(now() - t0 < 3);
	CHECK_INT_EQ(res.stopped_by_signal, 1);
	CHECK_INT_EQ(res.command_status, 128 + SIGTERM);

	/* --duration */
	cfg.stop = NULL;
	cfg.duration = 0.3;
	CHECK_INT_EQ(spe_live_open(&cfg, &l, err, sizeof err), 0);
	t0 = now();
	CHECK_INT_EQ(spe_live_run(l, &sink, &res), 0);
	spe_live_close(l);
	CHECK(now() - t0 < 3 && now() - t0 >= 0.3);
	CHECK_INT_EQ(res.stopped_by_signal, 0);
	CHECK_INT_EQ(res.command_status, 128 + SIGTERM);

	/* -p: recording ends when the process exits (here a zombie nobody has reaped yet). */
	pid_t child = fork();
	if (child == 0) {
		usleep(300000);
		_exit(0);
	}
	struct spe_live_config pc = { .cpus = test_cpus, .n_cpus = n_test_cpus, .mode = SPE_LIVE_PID, .pid = child,
					     .sample_type = spe_rec_output_sample_type(), .poll_ms = 20,
					     .duration = 10 };
	CHECK_INT_EQ(spe_live_open(&pc, &l, err, sizeof err), 0);
	t0 = now();
	CHECK_INT_EQ(spe_live_run(l, &sink, &res), 0);
	spe_live_close(l);
	CHECK(now() - t0 < 5);
	waitpid(child, NULL, 0);
}

/* -p CHILD on the test CPUs, polled every 20 ms, at most 10 s (a hung test ends). */
static struct spe_live *open_pid(pid_t child)
{
	struct spe_live_config cfg = { .cpus = test_cpus, .n_cpus = n_test_cpus,
					      .mode = SPE_LIVE_PID, .pid = child,
					      .sample_type = spe_rec_output_sample_type(), .poll_ms = 20,
					      .duration = 10 };
	struct spe_live *l = NULL;
	char err[512] = "";
	CHECK_INT_EQ(spe_live_open(&cfg, &l, err, sizeof err), 0);
	return l;
}

/*
 * -p of a process whose threads exist before recording starts: each has its
 * own events (threads started later would inherit them; these do not), so the
 * COMM each thread writes when it renames itself is recorded.
 */
#define N_THREADS 3
static int go_fd = -1;

static void *renaming_thread(void *arg)
{
	char c, name[16];
	if (read(go_fd, &c, 1) != 1)
		return NULL;
	snprintf(name, sizeof name, "spe-thr-%d", (int)(intptr_t)arg);
	prctl(PR_SET_NAME, name);
	usleep(20000);
	return NULL;
}

static void send_go(int sig)
{
	(void)sig;
	static const char go[N_THREADS] = { 0 };
	if (write(go_fd, go, sizeof go) < 0) {
		/* the threads then never rename: the test fails on the count */
	}
}

TEST(pid_follows_existing_threads)
{
	int go[2], ready[2];
	CHECK_INT_EQ(pipe(go), 0);
	CHECK_INT_EQ(pipe(ready), 0);
	pid_t child = fork();
	if (child == 0) {
		/* The fixture: a process with N_THREADS threads waiting for the go. */
		go_fd = go[0];
		pthread_t t[N_THREADS];
		for (int i = 0; i < N_THREADS; i++)
			if (pthread_create(&t[i], NULL, renaming_thread, (void *)(intptr_t)i))
				_exit(2);
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		for (int i = 0; i < N_THREADS; i++)
			pthread_join(t[i], NULL);
		_exit(0);
	}
	char c;
	CHECK_INT_EQ((int)read(ready[0], &c, 1), 1);

	struct spe_live *l = open_pid(child);
	if (!l) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return;
	}
	const pid_t *tids;
	int n = spe_live_tasks(l, &tids);
	CHECK_INT_EQ(n, 1 + N_THREADS);
	CHECK_INT_EQ(tids[0], child);
	struct capture cap = { .threads_of = (uint32_t)child };
	struct spe_session_sink sink = { &cap, on_event, on_aux };
	struct spe_live_result res;
	go_fd = go[1];
	signal(SIGALRM, send_go);
	ualarm(100000, 0); /* the go, once the events are enabled */
	CHECK_INT_EQ(spe_live_run(l, &sink, &res), 0);
	spe_live_close(l);
	int st = 0;
	waitpid(child, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_INT_EQ(cap.thread_comms, N_THREADS);
	if (check_failures)
		printf("  %d of %d thread COMMs recorded\n", cap.thread_comms, N_THREADS);
	for (int i = 0; i < 2; i++) {
		close(go[i]);
		close(ready[i]);
	}
}

/*
 * -p of a process whose main thread calls pthread_exit() first: the leader is
 * then a zombie while its other thread still runs, and recording goes on
 * until that thread is done too (its COMM, written 300 ms after the leader
 * exited, is recorded).
 */
static void *late_thread(void *arg)
{
	(void)arg;
	usleep(300000);
	prctl(PR_SET_NAME, "spe-thr-late");
	usleep(50000);
	return NULL;
}

TEST(pid_outlives_its_main_thread)
{
	int ready[2];
	CHECK_INT_EQ(pipe(ready), 0);
	pid_t child = fork();
	if (child == 0) {
		pthread_t t;
		if (pthread_create(&t, NULL, late_thread, NULL))
			_exit(2);
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		usleep(100000); /* exit once recording has started */
		pthread_exit(NULL);
	}
	char c;
	CHECK_INT_EQ((int)read(ready[0], &c, 1), 1);
	struct spe_live *l = open_pid(child);
	if (!l) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return;
	}
	struct capture cap = { .threads_of = (uint32_t)child };
	struct spe_session_sink sink = { &cap, on_event, on_aux };
	struct spe_live_result res;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK_INT_EQ(spe_live_run(l, &sink, &res), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	spe_live_close(l);
	double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	int st = 0;
	waitpid(child, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_INT_EQ(cap.thread_comms, 1);
	CHECK(took > 0.25 && took < 5); /* ended with the last thread, not with the leader or --duration */
	if (check_failures)
		printf("  recording took %.2f s, %d thread COMMs\n", took, cap.thread_comms);
	close(ready[0]);
	close(ready[1]);
}

int main(void)
{
	init_test_cpus();
	/* Probe: can this process open a dummy event on itself? */
	char *probe[] = { "/bin/true", NULL };
	struct spe_live_config cfg = { .cpus = test_cpus, .n_cpus = n_test_cpus, .mode = SPE_LIVE_COMMAND, .argv = probe,
					      .sample_type = spe_rec_output_sample_type() };
	struct spe_live *l;
	char err[512] = "";
	if (spe_live_open(&cfg, &l, err, sizeof err)) {
		printf("SKIP: %s\n", err);
		return 77;
	}
	spe_live_close(l);
	RUN(command_sideband);
	RUN(small_ring_accounts_losses);
	RUN(command_not_found);
	RUN(perf_data_from_live_sideband);
	RUN(proc_synthesis);
	RUN(stop_flag_duration_and_pid);
	RUN(pid_follows_existing_threads);
	RUN(pid_outlives_its_main_thread);
	return check_summary();
}
