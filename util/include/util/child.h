/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Launching a workload behind a pipe: the command is forked and held before
 * exec until the caller has attached its counters or events to the pid, then
 * released.  Both pipes are close-on-exec, so the workload inherits neither;
 * an exec failure comes back through the second one as the child's errno
 * (EOF means exec succeeded).
 *
 *   struct util_child c;
 *   if (util_child_spawn(&c, argv) < 0) ...       (errno-style failure)
 *   perf_event_open(..., c.pid, ...);
 *   int e = util_child_release(&c);                (0: the command runs)
 *   ... waitpid(c.pid, ...) ...
 *   util_child_discard(&c);                        (a held child exits 127)
 */
#ifndef SPE_UTIL_CHILD_H
#define SPE_UTIL_CHILD_H

#include <sys/types.h>

struct util_child {
	pid_t pid;        /* -1 when there is none (or it was reaped) */
	int go_fd;        /* write end: one byte lets the child exec; -1 once used */
	int exec_err_fd;  /* read end: the child's errno when exec failed; -1 once read */
};

/* A util_child with nothing to close. */
void util_child_init(struct util_child *c);

/*
 * Fork @p argv (argv[0] looked up in PATH), held before exec.  In the child
 * SIGINT, SIGTERM and SIGXFSZ go back to their default action: a tool's
 * handlers and ignored signals are not the workload's.  Returns 0, or
 * -errno with @p c empty; *@p what then names the call that failed.
 */
int util_child_spawn(struct util_child *c, char *const argv[], const char **what);

/*
 * Let the held child exec.  Returns 0 once exec has succeeded; the child's
 * exec errno (> 0) when it failed (the child is then reaped, c->pid -1);
 * -errno when the child could not be told (it is left to util_child_discard).
 */
int util_child_release(struct util_child *c);

/*
 * Close what is still open and reap the child: a held one reads EOF and
 * exits 127; a running one is waited for (kill it first to stop it).
 * Returns its wait status, or -1 when there was no child.
 */
int util_child_discard(struct util_child *c);

#endif
