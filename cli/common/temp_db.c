/* SPDX-License-Identifier: Apache-2.0 */
#include "temp_db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "spe/analysis.h"

int cli_temp_db_load(const char *prog, const char *input, const struct cli_temp_load *o, struct cli_temp_db *t)
{
	char err[1024];
	t->dir[0] = t->path[0] = 0;
	if (access(input, R_OK) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, input, strerror(errno));
		return CLI_NOINPUT;
	}
	const char *tmp = getenv("TMPDIR");
	if ((size_t)snprintf(t->dir, sizeof t->dir, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prog) >= sizeof t->dir) {
		fprintf(stderr, "%s: TMPDIR is too long\n", prog);
		t->dir[0] = 0;
		return CLI_USAGE;
	}
	if (!mkdtemp(t->dir)) {
		fprintf(stderr, "%s: cannot create a temporary directory %s: %s\n", prog, t->dir, strerror(errno));
		t->dir[0] = 0;
		return CLI_IOERR;
	}
	snprintf(t->path, sizeof t->path, "%s/spe.db", t->dir);
	struct spe_db *db;
	if (spe_db_open(t->path, SPE_DB_CREATE, &db, err, sizeof err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return CLI_IOERR;
	}
	struct spe_load_opts opts = { .size = sizeof opts, .symbolize = 1, .symfs = o ? o->symfs : NULL };
	int rc = o && o->raw ? spe_load_raw_file(db, input, o->midr, o->cpu, &opts, NULL, err, sizeof err)
			     : spe_load_perf_file(db, input, &opts, NULL, err, sizeof err);
	if (rc == 0)
		rc = spe_db_commit(db, err, sizeof err);
	spe_db_close(db);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return CLI_DATAERR;
	}
	return CLI_OK;
}

void cli_temp_db_remove(struct cli_temp_db *t)
{
	if (!t->dir[0])
		return;
	if (t->path[0])
		unlink(t->path);
	rmdir(t->dir);
	t->dir[0] = t->path[0] = 0;
}

int cli_parse_midr(const char *s, uint32_t *midr)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (!errno && *s && !*end && v <= 0xffffffffUL) {
		*midr = (uint32_t)v;
		return 0;
	}
	const struct spe_cpu_info *info = spe_cpu_by_name(s);
	if (!info)
		return -1;
	*midr = info->implementer << 24 | 0xfu << 16 | info->part << 4;
	return 0;
}
