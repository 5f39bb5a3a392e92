/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_util: JSON strings keep every byte (control bytes escaped, never
 * dropped), the growable array doubles and refuses overflow, and a held
 * child inherits none of the launcher's pipes, reports an exec failure and
 * exits 127 when discarded before release.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "util/child.h"
#include "util/grow.h"
#include "util/json.h"

static char *json(const char *s)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	util_json_string(f, s);
	fclose(f);
	return buf;
}

TEST(json_string)
{
	CHECK_STR_EQ(json("plain"), "\"plain\"");
	CHECK_STR_EQ(json("a\"b\\c"), "\"a\\\"b\\\\c\"");
	CHECK_STR_EQ(json("l1\nl2\tx\r"), "\"l1\\nl2\\tx\\r\"");
	CHECK_STR_EQ(json("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"");
	CHECK_STR_EQ(json("caf\xc3\xa9"), "\"caf\xc3\xa9\""); /* UTF-8 passes through */
	CHECK_STR_EQ(json(NULL), "\"\"");
}

TEST(grow)
{
	size_t cap = 0;
	int *v = util_grow(NULL, &cap, 1, sizeof *v);
	CHECK(v != NULL);
	CHECK_INT_EQ(cap, 16);
	v = util_grow(v, &cap, 16, sizeof *v);
	CHECK_INT_EQ(cap, 16); /* room already */
	v = util_grow(v, &cap, 17, sizeof *v);
	CHECK_INT_EQ(cap, 32);
	v = util_grow(v, &cap, 100, sizeof *v);
	CHECK_INT_EQ(cap, 128);
	v[127] = 7;
	size_t big = cap;
	CHECK(util_grow(v, &big, SIZE_MAX / 2, sizeof *v) == NULL); /* overflow: refused, unchanged */
	CHECK_INT_EQ(big, 128);
	CHECK_INT_EQ(v[127], 7);
	free(v);
}

/*
 * Run @p argv and return what it wrote to stdout: held by util_child and
 * released (@p plain 0), or by a bare fork and exec (@p plain 1: the
 * descriptors any child of this process inherits).
 */
static int run_child(char *const argv[], int plain, char *out, size_t len, int *status)
{
	int p[2]; /* the test's own descriptors are close-on-exec */
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	int saved = fcntl(1, F_DUPFD_CLOEXEC, 3);
	dup2(p[1], 1);
	close(p[1]);
	struct util_child c;
	const char *what = "";
	int rc = 0;
	pid_t pid = -1;
	if (plain) {
		if ((pid = fork()) == 0) {
			execvp(argv[0], argv);
			_exit(127);
		}
	} else {
		rc = util_child_spawn(&c, argv, &what);
	}
	dup2(saved, 1);
	close(saved);
	if (rc < 0 || (plain && pid == -1)) {
		close(p[0]);
		return rc < 0 ? rc : -1;
	}
	if (plain) {
		waitpid(pid, status, 0);
	} else {
		rc = util_child_release(&c);
		*status = util_child_discard(&c);
	}
	ssize_t n = read(p[0], out, len - 1);
	out[n > 0 ? n : 0] = 0;
	close(p[0]);
	return rc;
}

TEST(child_inherits_no_pipe)
{
	/*
	 * The workload's (the shell's) open descriptors above 2, tested one by one
	 * with stat (a pipeline or a directory listing would open descriptors of
	 * its own), are those of a child started by a bare fork and exec: what
	 * the test's own parent left open (under qemu-user, qemu's), nothing of
	 * util_child's pipes.
	 */
	char *argv[] = { "/bin/sh", "-c",
			 "i=3; while [ $i -lt 256 ]; do [ -e /proc/$$/fd/$i ] && printf '%s ' $i; i=$((i + 1)); done;"
			 " printf 'checked'",
			 NULL };
	char out[1024], control[1024];
	int status = -1;
	CHECK_INT_EQ(run_child(argv, 1, control, sizeof control, &status), 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(strstr(control, "checked") != NULL);
	status = -1;
	CHECK_INT_EQ(run_child(argv, 0, out, sizeof out, &status), 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_STR_EQ(out, control);
}

TEST(child_exec_failure)
{
	char *argv[] = { "/nonexistent/workload", NULL };
	char out[64];
	int status = 0;
	CHECK_INT_EQ(run_child(argv, 0, out, sizeof out, &status), ENOENT);
	CHECK_INT_EQ(status, -1); /* reaped by util_child_release */
}

TEST(child_discarded_before_release)
{
	char *argv[] = { "/bin/true", NULL };
	struct util_child c;
	const char *what = "";
	CHECK_INT_EQ(util_child_spawn(&c, argv, &what), 0);
	CHECK(c.pid > 0);
	int status = util_child_discard(&c);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 127);
	CHECK_INT_EQ(c.pid, -1);
	CHECK_INT_EQ(util_child_discard(&c), -1); /* nothing left */
}

int main(void)
{
	RUN(json_string);
	RUN(grow);
	RUN(child_inherits_no_pipe);
	RUN(child_exec_failure);
	RUN(child_discarded_before_release);
	return check_summary();
}
