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
#include "util/visible.h"

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

/* util_visible: what a terminal would take as a command is shown as text (util/visible.h). */
static const char *vis(const char *s, unsigned flags, size_t max)
{
	static char buf[512];
	char *v = util_visible(s, flags, max);
	snprintf(buf, sizeof buf, "%s", v ? v : "(null)");
	free(v);
	return buf;
}

TEST(visible)
{
	CHECK_STR_EQ(vis("plain name", 0, 0), "plain name");
	CHECK_STR_EQ(vis(NULL, 0, 0), "");
	/* ESC sequences: the window title (OSC 0), clear screen, BEL */
	CHECK_STR_EQ(vis("\x1b]0;pwned\x07", 0, 0), "\\x1b]0;pwned\\x07");
	CHECK_STR_EQ(vis("a\x1b[2Jb", 0, 0), "a\\x1b[2Jb");
	CHECK_STR_EQ(vis("row\nfake row\r\t", 0, 0), "row\\nfake row\\r\\t");
	CHECK_STR_EQ(vis("\tx", UTIL_VISIBLE_TABS, 0), "\tx"); /* source lines keep their tabs */
	CHECK_STR_EQ(vis("\x7f\x01", 0, 0), "\\x7f\\x01");
	/* C1 controls (CSI as U+009B) and bytes that are not UTF-8 */
	CHECK_STR_EQ(vis("\xc2\x9b" "2J", 0, 0), "\\xc2\\x9b2J");
	CHECK_STR_EQ(vis("\x9b\xff\xc3", 0, 0), "\\x9b\\xff\\xc3");
	CHECK_STR_EQ(vis("\xc0\xaf", 0, 0), "\\xc0\\xaf");           /* overlong '/' */
	CHECK_STR_EQ(vis("\xed\xa0\x80", 0, 0), "\\xed\\xa0\\x80"); /* a surrogate */
	CHECK_STR_EQ(vis("\xf4\x90\x80\x80", 0, 0), "\\xf4\\x90\\x80\\x80"); /* above U+10FFFF */
	/* well-formed UTF-8 as it is; the bidi override as \u202e */
	CHECK_STR_EQ(vis("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0", 0, 0), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0");
	CHECK_STR_EQ(vis("a\xe2\x80\xae" "b\xe2\x80\xa8", 0, 0), "a\\u202eb\\u2028");
	/* columns: a UTF-8 character is one, an escape its text */
	CHECK_INT_EQ(util_visible_columns("caf\xc3\xa9", 0, 0), 4);
	CHECK_INT_EQ(util_visible_columns("\x1b", 0, 0), 4);
	/* cut at max columns, the ellipsis included, and counted */
	unsigned long before = util_visible_cuts();
	CHECK_STR_EQ(vis("abcdef", 0, 6), "abcdef");
	CHECK_INT_EQ(util_visible_cuts(), before);
	CHECK_STR_EQ(vis("abcdefg", 0, 6), "abcde\xe2\x80\xa6");
	CHECK_INT_EQ(util_visible_cuts(), before + 1);
	CHECK_STR_EQ(vis("ab\x1b", 0, 4), "ab\xe2\x80\xa6"); /* an escape is never split */
	CHECK_INT_EQ(util_visible_columns("abcdefg", 0, 6), 6);
	/* padding on the visible width */
	char buf[64] = "";
	FILE *f = fmemopen(buf, sizeof buf, "w");
	util_visible_put(f, "\xc3\xa9\n", 0, 0, 5);
	fputc('|', f);
	util_visible_put(f, "ab", 0, 0, -4);
	fputc('|', f);
	fclose(f);
	CHECK_STR_EQ(buf, "\xc3\xa9\\n  |  ab|");
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
	RUN(visible);
	RUN(grow);
	RUN(child_inherits_no_pipe);
	RUN(child_exec_failure);
	RUN(child_discarded_before_release);
	return check_summary();
}
