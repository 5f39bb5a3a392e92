/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli_util.h"
#include "common/report_output.h"

/* The temporary being written, removed if a signal ends the program first. */
static char pending[PATH_MAX + 32];
static volatile sig_atomic_t have_pending;

static void on_fatal_signal(int sig)
{
	if (have_pending)
		unlink(pending);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard(int on)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on ? on_fatal_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}

int report_output_check(const char *prog, const char *path)
{
	struct stat sb;
	if (!strcmp(path, "-"))
		return CLI_OK;
	if (!*path) {
		fprintf(stderr, "%s: the output file name is empty\n", prog);
		return CLI_USAGE;
	}
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		fprintf(stderr, "%s: %s: not a regular file; refusing to write the report over it\n", prog, path);
		return CLI_USAGE;
	}
	return CLI_OK;
}

int report_output_write(const char *prog, const char *path, int (*write)(FILE *out, void *arg), void *arg)
{
	int rc = report_output_check(prog, path);
	if (rc != CLI_OK)
		return rc;
	if (!strcmp(path, "-")) {
		rc = write(stdout, arg);
		return cli_finish_stdout(prog, rc);
	}
	/* a symbolic link stays; the file it names is replaced */
	char target[PATH_MAX];
	struct stat lsb;
	if (lstat(path, &lsb) == 0 && S_ISLNK(lsb.st_mode) && realpath(path, target)) {
		/* target resolved */
	} else if (snprintf(target, sizeof target, "%s", path) >= (int)sizeof target) {
		fprintf(stderr, "%s: %s: name too long\n", prog, path);
		return CLI_USAGE;
	}
	const char *slash = strrchr(target, '/');
	int dirlen = slash ? (int)(slash - target + 1) : 0;
	snprintf(pending, sizeof pending, "%.*s.%s.XXXXXX", dirlen, target, slash ? slash + 1 : target);
	guard(1);
	int fd = mkstemp(pending);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: cannot create a temporary file beside it: %s\n", prog, path, strerror(errno));
		guard(0);
		return CLI_IOERR;
	}
	have_pending = 1;
	/* the mode a new file would get (mkstemp makes 0600), or the replaced file's */
	struct stat sb;
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, stat(target, &sb) == 0 ? (sb.st_mode & 07777) : (0666 & ~mask));
	FILE *out = fdopen(fd, "w");
	if (!out) {
		close(fd);
		rc = CLI_IOERR;
	} else {
		rc = write(out, arg);
		int werr = ferror(out) || fflush(out) != 0 || fsync(fileno(out)) != 0;
		int saved = errno;
		if (fclose(out) != 0 && !werr) {
			werr = 1;
			saved = errno;
		}
		if (rc == CLI_OK && werr) {
			fprintf(stderr, "%s: %s: write failed: %s\n", prog, path, strerror(saved));
			rc = CLI_IOERR;
		}
	}
	if (rc == CLI_OK && rename(pending, target) != 0) {
		fprintf(stderr, "%s: %s: cannot rename the finished report into place: %s\n", prog, path,
			strerror(errno));
		rc = CLI_IOERR;
	}
	if (rc != CLI_OK)
		unlink(pending);
	have_pending = 0;
	guard(0);
	return rc;
}
