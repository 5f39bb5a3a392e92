/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Live recording (see spe/live.h).  Everything after the mmaps -- draining,
 * lost-data accounting, output -- is spe_session_drain(), the code replay runs.
 */
#define _GNU_SOURCE /* pipe2 */
#include "spe/live.h"
#include "spe/spe.h"
#include "util/child.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#define DEFAULT_AUX_BYTES SPE_LIVE_DEFAULT_AUX_BYTES
#define DEFAULT_PERIOD 4096u

/* Trailer bits: the only sample_type bits that shape non-sample records. */
#define TRAILER_BITS                                                                                       \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |   \
	 PERF_SAMPLE_IDENTIFIER)

struct live_cpu {
	uint32_t cpu;
	int spe_fd, dummy_fd;  /* the first task's events; the ring's owner is one of them */
	int *thread_fds;       /* -p: the other threads' events, sent to this CPU's ring */
	int n_thread_fds;
	void *base;      /* control page + data ring */
	size_t base_len;
	void *aux;
	size_t aux_len;
	struct spe_ring ring;
};

struct spe_live {
	struct spe_live_config cfg;
	int n;
	struct live_cpu *c;
	uint32_t *cpu_ids;
	size_t page;
	uint64_t aux_size;
	uint32_t data_pages; /* data ring pages per CPU (without the control page) */
	pid_t *tids;     /* the tasks opened: the command, or -p's threads (PID first); -1 = all */
	int n_tids;
	struct util_child child; /* SPE_LIVE_COMMAND: held before exec until spe_live_run() */
	char errmsg[512];        /* the last failure, spe_live_errmsg() */
};

static int set_err(struct spe_live *l, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int set_err(struct spe_live *l, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->errmsg, sizeof l->errmsg, fmt, ap);
	va_end(ap);
	return code;
}

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int read_int_file(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fscanf(f, "%d", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* The message for a refused perf_event_open, naming the fix. */
static int open_error(struct spe_live *l, const char *what, uint32_t cpu, int e)
{
	int paranoid = 99;
	read_int_file("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	switch (e) {
	case EACCES:
	case EPERM:
		return set_err(l, -spe_no_permission,
			       "perf_event_open(%s) on CPU %u: %s. Recording needs perf privileges: run as root "
			       "or give the binary CAP_PERFMON (setcap cap_perfmon+ep), or lower "
			       "/proc/sys/kernel/perf_event_paranoid (now %d), e.g. sysctl kernel.perf_event_paranoid=-1",
			       what, cpu, strerror(e), paranoid);
	case ESRCH:
		return set_err(l, -spe_not_found, "perf_event_open(%s) on CPU %u: %s: the process to record is gone",
			       what, cpu, strerror(e));
	case ENOSYS:
		return set_err(l, -spe_unavailable,
			       "perf_event_open(%s): %s. The kernel was built without perf events, or this runs "
			       "under an emulator (qemu-user) that lacks the system call",
			       what, strerror(e));
	case EBUSY:
		return set_err(l, -spe_unavailable,
			       "perf_event_open(%s) on CPU %u: %s. Another session (perf record?) is using SPE on "
			       "that CPU; SPE allows one event per CPU",
			       what, cpu, strerror(e));
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
	case EINVAL:
	case E2BIG:
		return set_err(l, -spe_unavailable,
			       "perf_event_open(%s) on CPU %u: %s. The kernel rejected the event attributes; "
			       "check the filter options with spe-record --dry-run",
			       what, cpu, strerror(e));
	default:
		return set_err(l, -spe_io, "perf_event_open(%s) on CPU %u: %s", what, cpu, strerror(e));
	}
}

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/*
 * The SPE event (with_spe) and the tracking event -- dummy:u with the
 * sideband bits, same trailer layout -- of task @p target (-1: all) on @p cpu.
 * A refused open leaves its fd at -1 with errno set.
 */
static int open_events(struct spe_live *l, uint32_t cpu, pid_t target, int *spe_fd, int *dummy_fd)
{
	int per_task = l->cfg.mode == SPE_LIVE_PID || l->cfg.mode == SPE_LIVE_COMMAND;
	*spe_fd = *dummy_fd = -1;
	if (l->cfg.with_spe) {
		union {
			struct perf_event_attr a;
			uint8_t raw[SPE_LIVE_ATTR_MAX];
		} u;
		spe_live_spe_attr(&l->cfg, u.raw);
		if ((*spe_fd = perf_event_open(&u.a, target, (int)cpu)) < 0)
			return -1;
	}
	struct perf_event_attr d = { 0 };
	d.size = sizeof d;
	d.type = PERF_TYPE_SOFTWARE;
	d.config = PERF_COUNT_SW_DUMMY;
	d.sample_period = 1;
	d.sample_type = (l->cfg.sample_type & TRAILER_BITS) | PERF_SAMPLE_IP;
	d.sample_id_all = 1;
	d.disabled = 1;
	d.inherit = per_task;
	d.enable_on_exec = l->cfg.mode == SPE_LIVE_COMMAND;
	d.exclude_kernel = 1;
	d.exclude_hv = 1;
	d.mmap = 1;
	d.mmap2 = 1;
	d.mmap_data = 1; /* heap, stack, anonymous and file data mappings too (perf record -d): data objects */
	d.comm = 1;
	d.comm_exec = 1;
	d.task = 1;
	d.context_switch = 1;
	d.build_id = 1;
	*dummy_fd = perf_event_open(&d, target, (int)cpu);
	if (*dummy_fd < 0 && errno == EINVAL) {
		d.build_id = 0; /* kernels before 5.12 */
		*dummy_fd = perf_event_open(&d, target, (int)cpu);
	}
	return *dummy_fd < 0 ? -1 : 0;
}

/* open_events() for the first task, with the message for a refusal. */
static int open_task(struct spe_live *l, uint32_t cpu, pid_t target, int *spe_fd, int *dummy_fd)
{
	if (open_events(l, cpu, target, spe_fd, dummy_fd) == 0)
		return 0;
	return open_error(l, *spe_fd < 0 && l->cfg.with_spe ? "arm_spe" : "dummy", cpu, errno);
}

/*
 * -p: the threads of the process besides the first one (/proc/PID/task).
 * Threads they start later inherit their events; threads that exist already
 * need their own.  Any other mode: the one target.
 */
static int list_tasks(struct spe_live *l, pid_t target)
{
	l->tids = malloc(sizeof *l->tids);
	if (!l->tids)
		return set_err(l, -spe_nomem, "out of memory");
	l->tids[0] = target;
	l->n_tids = 1;
	if (l->cfg.mode != SPE_LIVE_PID)
		return 0;
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", (int)target);
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		pid_t tid = (pid_t)strtol(e->d_name, NULL, 10);
		if (tid <= 0 || tid == target)
			continue;
		pid_t *nt = realloc(l->tids, (size_t)(l->n_tids + 1) * sizeof *nt);
		if (!nt) {
			closedir(d);
			return set_err(l, -spe_nomem, "out of memory");
		}
		l->tids = nt;
		l->tids[l->n_tids++] = tid;
	}
	if (d)
		closedir(d);
	return 0; /* a vanished process fails at its first perf_event_open */
}

/* The events of -p's other threads on @p c, their output sent to its ring (mapped already). */
static int open_other_threads(struct spe_live *l, struct live_cpu *c)
{
	if (l->n_tids < 2)
		return 0;
	c->thread_fds = malloc((size_t)(l->n_tids - 1) * 2 * sizeof *c->thread_fds);
	if (!c->thread_fds)
		return set_err(l, -spe_nomem, "out of memory");
	int owner = l->cfg.with_spe ? c->spe_fd : c->dummy_fd;
	for (int t = 1; t < l->n_tids; t++) {
		int fds[2];
		if (open_events(l, c->cpu, l->tids[t], &fds[0], &fds[1]) < 0) {
			int e = errno;
			for (int k = 0; k < 2; k++)
				if (fds[k] >= 0)
					close(fds[k]);
			if (e == ESRCH)
				continue; /* the thread ended meanwhile */
			return open_error(l, fds[0] < 0 && l->cfg.with_spe ? "arm_spe" : "dummy", c->cpu, e);
		}
		for (int k = 0; k < 2; k++) {
			if (fds[k] < 0)
				continue;
			c->thread_fds[c->n_thread_fds++] = fds[k];
			if (ioctl(fds[k], PERF_EVENT_IOC_SET_OUTPUT, owner) < 0)
				return set_err(l, -spe_io,
					       "cannot send thread %d's events to the ring on CPU %u: %s",
					       (int)l->tids[t], c->cpu, strerror(errno));
		}
	}
	return 0;
}

/* Fork the command, held before exec until spe_live_run() releases it. */
static int fork_command(struct spe_live *l)
{
	const char *what = "";
	int e = util_child_spawn(&l->child, l->cfg.argv, &what);
	return e ? set_err(l, -spe_io, "%s: %s", what, strerror(-e)) : 0;
}

static int map_cpu(struct spe_live *l, struct live_cpu *c)
{
	int owner = l->cfg.with_spe ? c->spe_fd : c->dummy_fd;
	size_t data_pages = l->data_pages;
	c->base_len = (1 + data_pages) * l->page;
	c->base = mmap(NULL, c->base_len, PROT_READ | PROT_WRITE, MAP_SHARED, owner, 0);
	if (c->base == MAP_FAILED) {
		int e = errno;
		c->base = NULL;
		return set_err(l, -spe_io,
			       "cannot map the %zu-page data ring on CPU %u: %s; try fewer pages or raise "
			       "/proc/sys/kernel/perf_event_mlock_kb",
			       data_pages, c->cpu, strerror(e));
	}
	struct perf_event_mmap_page *pg = c->base;
	c->ring.page = pg;
	c->ring.data = (uint8_t *)c->base + l->page;
	c->ring.data_size = data_pages * l->page;
	if (l->cfg.with_spe) {
		pg->aux_offset = c->base_len;
		pg->aux_size = l->aux_size;
		/* Read-write: the kernel then runs the AUX area in full (non-overwrite) mode. */
		c->aux = mmap(NULL, l->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, owner, (off_t)pg->aux_offset);
		if (c->aux == MAP_FAILED) {
			int e = errno;
			c->aux = NULL;
			return set_err(l, -spe_io,
				       "cannot map the %llu-byte AUX area on CPU %u: %s; try a smaller -m or raise "
				       "/proc/sys/kernel/perf_event_mlock_kb",
				       (unsigned long long)l->aux_size, c->cpu, strerror(e));
		}
		c->aux_len = l->aux_size;
		c->ring.aux = c->aux;
		c->ring.aux_size = l->aux_size;
		if (c->dummy_fd >= 0 && ioctl(c->dummy_fd, PERF_EVENT_IOC_SET_OUTPUT, c->spe_fd) < 0)
			return set_err(l, -spe_io, "cannot send sideband to the SPE ring on CPU %u: %s",
				       c->cpu, strerror(errno));
	}
	return 0;
}

uint32_t spe_live_spe_attr(const struct spe_live_config *cfg, uint8_t attr[SPE_LIVE_ATTR_MAX])
{
	/* config3 (offset 128) and config4 (136) may be newer than the uapi header: lay out bytes. */
	union {
		struct perf_event_attr a;
		uint8_t raw[SPE_LIVE_ATTR_MAX];
	} u;
	memset(&u, 0, sizeof u);
	struct perf_event_attr *a = &u.a;
	uint32_t size = cfg->attr_size ? cfg->attr_size : 128;
	if (cfg->config[4] && size < 144)
		size = 144;
	else if (cfg->config[3] && size < 136)
		size = 136;
	if (size < 128)
		size = 128;
	if (size > SPE_LIVE_ATTR_MAX)
		size = SPE_LIVE_ATTR_MAX;
	int per_task = cfg->mode == SPE_LIVE_PID || cfg->mode == SPE_LIVE_COMMAND;
	a->type = cfg->pmu_type;
	a->config = cfg->config[0];
	a->config1 = cfg->config[1];
	a->config2 = cfg->config[2];
	a->sample_period = cfg->period ? cfg->period : DEFAULT_PERIOD;
	a->exclude_user = !!cfg->exclude_user;
	a->exclude_kernel = !!cfg->exclude_kernel;
	a->sample_type = cfg->sample_type;
	a->sample_id_all = 1;
	a->disabled = 1;
	a->inherit = per_task;
	a->enable_on_exec = cfg->mode == SPE_LIVE_COMMAND;
	memcpy(u.raw + 128, &cfg->config[3], 8);
	memcpy(u.raw + 136, &cfg->config[4], 8);
	uint32_t sz = size;
	memcpy(u.raw + 4, &sz, 4); /* attr.size */
	memcpy(attr, u.raw, SPE_LIVE_ATTR_MAX);
	return size;
}

int spe_live_open(const struct spe_live_config *cfg_in, struct spe_live **out, char *err, size_t errlen)
{
	struct spe_live *l = calloc(1, sizeof *l);
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	l->cfg = *cfg_in;
	util_child_init(&l->child);
	l->page = (size_t)sysconf(_SC_PAGESIZE);
	*out = NULL;
	int r;

	uint64_t aux_pages = l->cfg.aux_pages ? l->cfg.aux_pages : DEFAULT_AUX_BYTES / l->page;
	/* 512 KiB of data ring: 128 pages of 4 KiB, 8 of 64 KiB (128 of those would lock 8 MiB per CPU) */
	size_t default_data = SPE_LIVE_DEFAULT_DATA_BYTES / l->page;
	uint32_t data_pages = l->cfg.data_pages ? l->cfg.data_pages : default_data ? (uint32_t)default_data : 1;
	if (!is_pow2(aux_pages) || aux_pages < 2) {
		r = set_err(l, -spe_invalid, "AUX size of %llu pages: need a power of two, at least 2",
			    (unsigned long long)aux_pages);
		goto fail;
	}
	if (!is_pow2(data_pages)) {
		r = set_err(l, -spe_invalid, "data ring of %u pages: need a power of two", data_pages);
		goto fail;
	}
	l->aux_size = aux_pages * l->page;
	l->data_pages = data_pages;

	if (!l->cfg.cpus || l->cfg.n_cpus <= 0 || l->cfg.n_cpus > SPE_LIVE_MAX_CPUS) {
		r = set_err(l, -spe_invalid, "no CPUs to record on");
		goto fail;
	}
	l->n = l->cfg.n_cpus;
	l->cpu_ids = calloc((size_t)l->n, sizeof *l->cpu_ids);
	if (!l->cpu_ids) {
		r = set_err(l, -spe_nomem, "out of memory");
		goto fail;
	}
	memcpy(l->cpu_ids, l->cfg.cpus, (size_t)l->n * sizeof *l->cpu_ids);
	l->cfg.cpus = l->cpu_ids; /* the caller's array need not outlive this call */
	l->c = calloc((size_t)l->n, sizeof *l->c);
	if (!l->c) {
		r = set_err(l, -spe_nomem, "out of memory");
		goto fail;
	}
	for (int i = 0; i < l->n; i++) {
		l->c[i].cpu = l->cpu_ids[i];
		l->c[i].spe_fd = l->c[i].dummy_fd = -1;
	}

	/* Can this process use perf_event_open at all?  Asked before forking a command. */
	{
		struct perf_event_attr probe = { .size = sizeof probe, .type = PERF_TYPE_SOFTWARE,
						 .config = PERF_COUNT_SW_DUMMY, .disabled = 1, .exclude_kernel = 1,
						 .exclude_hv = 1 };
		int fd = perf_event_open(&probe, 0, -1);
		if (fd < 0) {
			r = open_error(l, "dummy", 0, errno);
			goto fail;
		}
		close(fd);
	}

	pid_t target = -1;
	if (l->cfg.mode == SPE_LIVE_COMMAND) {
		if (!l->cfg.argv || !l->cfg.argv[0]) {
			r = set_err(l, -spe_invalid, "no command to run");
			goto fail;
		}
		if ((r = fork_command(l)))
			goto fail;
		target = l->child.pid;
	} else if (l->cfg.mode == SPE_LIVE_PID) {
		target = l->cfg.pid;
	}

	if ((r = list_tasks(l, target)))
		goto fail;
	for (int i = 0; i < l->n; i++) {
		struct live_cpu *c = &l->c[i];
		if ((r = open_task(l, c->cpu, l->tids[0], &c->spe_fd, &c->dummy_fd)) ||
		    (r = map_cpu(l, c)) || (r = open_other_threads(l, c)))
			goto fail;
	}
	*out = l;
	return 0;
fail:
	snprintf(err, errlen, "%s", l->errmsg);
	spe_live_close(l);
	return r;
}

const char *spe_live_errmsg(const struct spe_live *l)
{
	return l->errmsg;
}

int spe_live_cpus(const struct spe_live *l, const uint32_t **cpus)
{
	*cpus = l->cpu_ids;
	return l->n;
}

int spe_live_tasks(const struct spe_live *l, const pid_t **tids)
{
	*tids = l->tids;
	return l->n_tids;
}

void spe_live_time_conv(const struct spe_live *l, struct spe_live_time_conv *tc)
{
	memset(tc, 0, sizeof *tc);
	if (!l->n || !l->c[0].base)
		return;
	const struct perf_event_mmap_page *pg = l->c[0].base;
	tc->time_shift = pg->time_shift;
	tc->time_mult = pg->time_mult;
	tc->time_zero = pg->time_zero;
	tc->time_cycles = pg->time_cycles;
	tc->time_mask = pg->time_mask;
	tc->cap_user_time_zero = pg->cap_user_time_zero;
	tc->cap_user_time_short = pg->cap_user_time_short;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every event on @p c: the first task's and the other threads'. */
static void for_cpu_fds(const struct live_cpu *c, unsigned long req)
{
	if (c->spe_fd >= 0)
		ioctl(c->spe_fd, req, 0);
	if (c->dummy_fd >= 0)
		ioctl(c->dummy_fd, req, 0);
	for (int k = 0; k < c->n_thread_fds; k++)
		ioctl(c->thread_fds[k], req, 0);
}

static void for_each_fd(struct spe_live *l, unsigned long req)
{
	for (int i = 0; i < l->n; i++)
		for_cpu_fds(&l->c[i], req);
}

/* A session that knows its spe_live (for reenable). */
struct live_session {
	struct spe_session s; /* first: the callbacks get &s */
	struct spe_live *l;
};

/*
 * After a truncation the kernel disables the AUX event that hit it (with -p,
 * any thread's on that CPU); turn them back on (enabling an enabled one is a
 * no-op).
 */
static void reenable(struct spe_session *s, struct spe_session_cpu *cpu)
{
	struct live_session *ls = (struct live_session *)s;
	if (cpu->spe_fd >= 0)
		for_cpu_fds(&ls->l->c[cpu->idx], PERF_EVENT_IOC_ENABLE);
}

/* The state letter of /proc/PID[/task/TID]/stat at @p path, or 0 if unreadable. */
static char stat_state(const char *path)
{
	char buf[256];
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *paren = strrchr(buf, ')'); /* comm may contain spaces and parentheses */
	return paren && paren[1] == ' ' ? paren[2] : 0;
}

/*
 * The -p target has exited: no such process, or every thread of it a zombie
 * nobody reaped yet.  A leader that called pthread_exit() is a zombie while
 * its other threads still run, so the leader's state alone does not tell.
 */
static int process_gone(pid_t pid)
{
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return 1;
	char path[96];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	char leader = stat_state(path);
	if (leader != 'Z' && leader != 'X')
		return 0;
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 1;
	int alive = 0;
	struct dirent *e;
	while (!alive && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%.16s/stat", (int)pid, e->d_name);
		char st = stat_state(path);
		alive = st && st != 'Z' && st != 'X';
	}
	closedir(d);
	return !alive;
}

static int wait_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

int spe_live_run(struct spe_live *l, const struct spe_session_sink *sink, struct spe_live_result *res)
{
	memset(res, 0, sizeof *res);
	res->n_cpus = l->n;
	res->aux_size = l->cfg.with_spe ? l->aux_size : 0;
	spe_live_time_conv(l, &res->time_conv);

	struct live_session ls = { .s = { .sink = *sink, .n_cpus = (size_t)l->n, .on_truncated = reenable }, .l = l };
	struct spe_session *s = &ls.s;
	struct pollfd *pfd = calloc((size_t)l->n, sizeof *pfd);
	s->cpus = calloc((size_t)l->n, sizeof *s->cpus);
	if (!pfd || !s->cpus) {
		free(pfd);
		free(s->cpus);
		return set_err(l, -spe_nomem, "out of memory");
	}
	for (int i = 0; i < l->n; i++) {
		s->cpus[i] = (struct spe_session_cpu){ .cpu = l->c[i].cpu, .idx = (uint32_t)i, .tid = -1,
						      .ring = &l->c[i].ring, .spe_fd = l->c[i].spe_fd };
		pfd[i].fd = l->cfg.with_spe ? l->c[i].spe_fd : l->c[i].dummy_fd;
		pfd[i].events = POLLIN;
	}

	int r = 0, child_done = 0, child_status = 0;
	if (l->cfg.mode == SPE_LIVE_COMMAND) {
		int e = util_child_release(&l->child);
		if (e < 0) {
			r = set_err(l, -spe_io, "cannot start the command: %s", strerror(-e));
			goto stop;
		}
		if (e > 0) {
			res->command_status = 127;
			r = set_err(l, -spe_invalid, "cannot run '%s': %s", l->cfg.argv[0], strerror(e));
			goto stop;
		}
		res->command_ran = 1;
	} else {
		for_each_fd(l, PERF_EVENT_IOC_ENABLE);
	}

	double start = now_s();
	int poll_ms = l->cfg.poll_ms > 0 ? l->cfg.poll_ms : 100;
	for (;;) {
		int pr = poll(pfd, (nfds_t)l->n, poll_ms);
		int64_t d = spe_session_drain(s);
		if (d < 0) {
			r = set_err(l, (int)d, "recording stopped: %s", spe_errstr((int)d));
			break;
		}
		if (l->cfg.stop && *l->cfg.stop) {
			res->stopped_by_signal = 1;
			break;
		}
		if (l->cfg.duration > 0 && now_s() - start >= l->cfg.duration)
			break;
		if (l->child.pid > 0 && waitpid(l->child.pid, &child_status, WNOHANG) == l->child.pid) {
			child_done = 1;
			l->child.pid = -1;
			break;
		}
		if (l->cfg.mode == SPE_LIVE_PID && process_gone(l->cfg.pid))
			break;
		if (l->cfg.mode == SPE_LIVE_PID && pr > 0) {
			/*
			 * Every polled event is PID's first thread's: all hung up means
			 * that thread has exited, but the others may run on (their events
			 * still write to these rings).  poll() returns at once from now on,
			 * so wait here instead.
			 */
			int hup = 0;
			for (int i = 0; i < l->n; i++)
				hup += (pfd[i].revents & POLLHUP) != 0;
			if (hup == l->n)
				usleep((useconds_t)poll_ms * 1000);
		}
	}
stop:
	for_each_fd(l, PERF_EVENT_IOC_DISABLE);
	if (r == 0 || r == -spe_invalid) {
		int64_t d = spe_session_drain(s);
		if (d < 0 && r == 0)
			r = set_err(l, (int)d, "recording stopped: %s", spe_errstr((int)d));
	}
	if (l->child.pid > 0) {
		/* Stopped before the command ended (signal, --duration, error): end it too. */
		kill(l->child.pid, SIGTERM);
		child_status = util_child_discard(&l->child);
		child_done = 1;
	}
	if (child_done)
		res->command_status = wait_status(child_status);
	res->stats = s->stats;
	spe_session_fini(s);
	free(s->cpus);
	free(pfd);
	return r;
}

void spe_live_close(struct spe_live *l)
{
	if (!l)
		return;
	for (int i = 0; l->c && i < l->n; i++) {
		struct live_cpu *c = &l->c[i];
		if (c->aux)
			munmap(c->aux, c->aux_len);
		if (c->base)
			munmap(c->base, c->base_len);
		if (c->dummy_fd >= 0)
			close(c->dummy_fd);
		if (c->spe_fd >= 0)
			close(c->spe_fd);
		for (int k = 0; k < c->n_thread_fds; k++)
			close(c->thread_fds[k]);
		free(c->thread_fds);
		spe_ring_fini(&c->ring);
	}
	util_child_discard(&l->child); /* a held child reads EOF and exits 127 */
	free(l->c);
	free(l->cpu_ids);
	free(l->tids);
	free(l);
}
