/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf core's permission rules (filters/src/perf_access.c): the table for
 * every perf_event_paranoid level and capability, then the running kernel
 * as the oracle.  A child drops to an unprivileged user (when this runs as
 * root) and opens software events the way spe-record opens SPE events --
 * with and without kernel samples, with PERF_SAMPLE_PHYS_ADDR, CPU-wide --
 * and each outcome (EACCES or an fd) must be what the rules predict at this
 * machine's perf_event_paranoid.
 */
#include "check.h"
#include "perf_access.h"

#include <errno.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

TEST(rules_by_level_and_capability)
{
	for (int paranoid = -1; paranoid <= 4; paranoid++) {
		for (int caps = 0; caps < 4; caps++) {
			struct perf_caller c = { .paranoid = paranoid, .perfmon = caps >= 1, .sys_admin = caps >= 2,
						 .restrict_patch = caps == 3 || caps == 0 };
			bool open = !(c.restrict_patch && paranoid > 2) || c.sys_admin;
			CHECK_INT_EQ(filt_perf_may_open(&c), open);
			CHECK_INT_EQ(filt_perf_may_sample_kernel(&c), open && (paranoid <= 1 || c.perfmon));
			CHECK_INT_EQ(filt_perf_may_profile_cpu(&c), open && (paranoid <= 0 || c.perfmon));
		}
	}
	/* Mainline has no level above 2: 3 and 4 behave like 2 there. */
	struct perf_caller mainline = { .paranoid = 4 };
	CHECK(filt_perf_may_open(&mainline));
	CHECK(!filt_perf_may_sample_kernel(&mainline));
	/* Debian's 3 and Ubuntu's 4: CAP_PERFMON is not enough, CAP_SYS_ADMIN is. */
	struct perf_caller debian = { .paranoid = 3, .perfmon = true, .restrict_patch = true };
	CHECK(!filt_perf_may_open(&debian));
	debian.sys_admin = true;
	CHECK(filt_perf_may_open(&debian) && filt_perf_may_profile_cpu(&debian));
}

TEST(mlock_allowance)
{
	/* perf-security.rst's example: 8 CPUs x 516 KiB above RLIMIT_MEMLOCK. */
	struct perf_mlock m = { .mlock_kb = 516, .online_cpus = 8, .rlimit_bytes = 64 << 10, .page_size = 4096 };
	struct perf_caller user = { .paranoid = 2 };
	CHECK_U64_EQ(filt_perf_mlock_allowance(&user, &m), 129 * 8 + 16);
	/* 64 KiB pages: 576 KiB is 9 pages per CPU. */
	m.page_size = 65536;
	m.mlock_kb = 576;
	CHECK_U64_EQ(filt_perf_mlock_allowance(&user, &m), 9 * 8 + 1);
	struct perf_caller lock = { .paranoid = 2, .ipc_lock = true }, minus1 = { .paranoid = -1 };
	CHECK_U64_EQ(filt_perf_mlock_allowance(&lock, &m), UINT64_MAX);
	CHECK_U64_EQ(filt_perf_mlock_allowance(&minus1, &m), UINT64_MAX);
	m.rlimit_bytes = UINT64_MAX;
	CHECK_U64_EQ(filt_perf_mlock_allowance(&user, &m), UINT64_MAX);
}

/* What the kernel said to one open: 1 opened, 0 EACCES, -1 anything else (errno kept). */
static int try_open(int exclude_kernel, int phys_addr, int cpu_wide)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.disabled = 1;
	a.exclude_hv = 1;
	a.exclude_kernel = (unsigned)exclude_kernel;
	if (phys_addr) {
		a.sample_period = 100000;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PHYS_ADDR;
	}
	int fd = (int)syscall(SYS_perf_event_open, &a, cpu_wide ? -1 : 0, cpu_wide ? 0 : -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EACCES || errno == EPERM ? 0 : -1;
}

static int read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 99;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 99;
		fclose(f);
	}
	return v;
}

TEST(the_running_kernel_agrees)
{
	int paranoid = read_paranoid();
	if (paranoid > 2 || paranoid < -1) {
		/* Whether a level above 2 refuses everything depends on a distribution patch. */
		printf("  skipped: perf_event_paranoid=%d\n", paranoid);
		return;
	}
	if (try_open(1, 0, 0) < 0) {
		printf("  skipped: perf_event_open unusable here (errno %d)\n", errno);
		return;
	}
	int pipefd[2];
	CHECK_INT_EQ(pipe(pipefd), 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		/* Root: become nobody, which also clears every effective capability. */
		if (geteuid() == 0 && (setgroups(0, NULL) || setgid(65534) || setuid(65534)))
			_exit(3);
		int r[4] = { try_open(1, 0, 0), try_open(0, 0, 0), try_open(1, 1, 0), try_open(1, 0, 1) };
		if (write(pipefd[1], r, sizeof r) != (ssize_t)sizeof r)
			_exit(4);
		_exit(0);
	}
	close(pipefd[1]);
	int r[4] = { -2, -2, -2, -2 }, status = 0;
	ssize_t n = read(pipefd[0], r, sizeof r);
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	CHECK_INT_EQ(n, (ssize_t)sizeof r);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (geteuid() != 0)
		printf("  not root: the caller's own capabilities apply\n");
	struct perf_caller c = { .paranoid = paranoid };
	CHECK_INT_EQ(r[0], 1);                               /* user space of a task: always */
	CHECK_INT_EQ(r[1], filt_perf_may_sample_kernel(&c));      /* exclude_kernel = 0 */
	CHECK_INT_EQ(r[2], filt_perf_may_sample_kernel(&c));      /* PERF_SAMPLE_PHYS_ADDR */
	CHECK_INT_EQ(r[3], filt_perf_may_profile_cpu(&c));        /* pid -1, CPU 0 */
	printf("  perf_event_paranoid=%d: user %d, kernel %d, phys_addr %d, cpu-wide %d\n", paranoid, r[0], r[1],
	       r[2], r[3]);
}

int main(void)
{
	RUN(rules_by_level_and_capability);
	RUN(mlock_allowance);
	RUN(the_running_kernel_agrees);
	return check_summary();
}
