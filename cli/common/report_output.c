/* SPDX-License-Identifier: Apache-2.0 */
/* spe-report's output through spe/outfile.h (a temporary beside the target, renamed when complete). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cli_util.h"
#include "common/report_output.h"
#include "spe/outfile.h"
#include "util/visible.h"

int cli_report_output_check(const char *prog, const char *path)
{
	char err[512];
	if (!strcmp(path, "-"))
		return CLI_OK;
	int rc = spe_outfile_check(path, 0, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return rc == -spe_invalid ? CLI_USAGE : CLI_IOERR;
	}
	return CLI_OK;
}

int cli_report_output_write(const char *prog, const char *path, int (*write)(FILE *out, void *arg), void *arg)
{
	if (!strcmp(path, "-"))
		return cli_finish_stdout(prog, write(stdout, arg));
	char err[512];
	struct spe_outfile *o;
	int rc = spe_outfile_open(path, "spe-report", 0, &o, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return rc == -spe_invalid ? CLI_USAGE : CLI_IOERR;
	}
	spe_outfile_cleanup_on_signals(); /* Ctrl-C: the temporary goes, the target stays */
	int fd = dup(spe_outfile_fd(o));
	FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out) {
		if (fd >= 0)
			close(fd);
		spe_outfile_abort(o);
		fprintf(stderr, "%s: %s: cannot write the temporary file\n", prog, path);
		return CLI_IOERR;
	}
	int status = write(out, arg);
	int failed = ferror(out) | (fflush(out) != 0);
	failed |= fclose(out) != 0;
	if (status == CLI_OK && failed) {
		fprintf(stderr, "%s: %s: write failed\n", prog, path);
		status = CLI_IOERR;
	}
	if (status != CLI_OK) {
		spe_outfile_abort(o);
		return status;
	}
	if (spe_outfile_commit(o, err, sizeof err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return CLI_IOERR;
	}
	return CLI_OK;
}

void cli_report_cuts(const char *prog)
{
	unsigned long n = util_visible_cuts();
	if (n)
		fprintf(stderr, "%s: %lu value%s longer than %d characters %s shown cut, ending in \xe2\x80\xa6 (spe-query shows "
				"%s whole)\n",
			prog, n, n == 1 ? "" : "s", UTIL_VISIBLE_MAX, n == 1 ? "was" : "were", n == 1 ? "it" : "them");
}
