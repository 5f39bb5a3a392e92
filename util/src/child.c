/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE /* pipe2 */
#include "util/child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

void util_child_init(struct util_child *c)
{
	c->pid = -1;
	c->go_fd = c->exec_err_fd = -1;
}

static void close_pair(int fd[2])
{
	close(fd[0]);
	close(fd[1]);
}

int util_child_spawn(struct util_child *c, char *const argv[], const char **what)
{
	int go[2], ex[2];
	util_child_init(c);
	if (pipe2(go, O_CLOEXEC) < 0) {
		*what = "pipe";
		return -errno;
	}
	if (pipe2(ex, O_CLOEXEC) < 0) {
		int e = errno;
		close_pair(go);
		*what = "pipe";
		return -e;
	}
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close_pair(go);
		close_pair(ex);
		*what = "fork";
		return -e;
	}
	if (pid == 0) {
		char b;
		close(go[1]);
		close(ex[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		int e = errno;
		if (write(ex[1], &e, sizeof e) < 0) {
			/* the parent sees EOF and a 127 exit status */
		}
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	c->pid = pid;
	c->go_fd = go[1];
	c->exec_err_fd = ex[0];
	return 0;
}

int util_child_release(struct util_child *c)
{
	char go = 1;
	if (write(c->go_fd, &go, 1) != 1)
		return -errno;
	close(c->go_fd);
	c->go_fd = -1;
	int e = 0;
	ssize_t n;
	do
		n = read(c->exec_err_fd, &e, sizeof e);
	while (n < 0 && errno == EINTR);
	close(c->exec_err_fd);
	c->exec_err_fd = -1;
	if (n != (ssize_t)sizeof e)
		return 0;
	waitpid(c->pid, NULL, 0);
	c->pid = -1;
	return e > 0 ? e : ENOEXEC;
}

int util_child_discard(struct util_child *c)
{
	int status = -1;
	if (c->go_fd >= 0)
		close(c->go_fd);
	if (c->exec_err_fd >= 0)
		close(c->exec_err_fd);
	if (c->pid > 0 && waitpid(c->pid, &status, 0) != c->pid)
		status = -1;
	util_child_init(c);
	return status;
}
