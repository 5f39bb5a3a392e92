/* SPDX-License-Identifier: Apache-2.0 */
#include "cli_util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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

void cli_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(out, "\\%c", *c);
		else if (*c < 0x20)
			fprintf(out, "\\u%04x", *c);
		else
			fputc(*c, out);
	}
	fputc('"', out);
}
