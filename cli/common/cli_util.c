/* SPDX-License-Identifier: Apache-2.0 */
#include "cli_util.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "spe/spe.h"

int cli_exit_status(int code)
{
	switch (code < 0 ? -code : code) {
	case spe_ok: return CLI_OK;
	case spe_invalid: return CLI_USAGE;
	case spe_not_found: return CLI_NOINPUT;
	case spe_unavailable: return CLI_UNAVAILABLE;
	case spe_no_permission: return CLI_NOPERM;
	case spe_cancelled: return 128 + SIGINT;
	case spe_io:
	case spe_nomem:
	case spe_internal: return CLI_IOERR;
	default: return CLI_DATAERR;
	}
}

int cli_finish_stdout(const char *prog, int status)
{
	int err = 0;
	if (fflush(stdout) != 0)
		err = errno;
	if (fclose(stdout) != 0 && !err)
		err = errno;
	if (err && err != EPIPE) {
		fprintf(stderr, "%s: error writing standard output: %s\n", prog, strerror(err));
		return CLI_IOERR;
	}
	return status;
}

int cli_parse_size(const char *s, uint64_t *out)
{
	char *end;
	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno)
		return -1;
	unsigned shift = 0;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	if (shift)
		end++;
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}
