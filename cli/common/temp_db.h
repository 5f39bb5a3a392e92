/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A perf.data (or raw SPE) file loaded into a private database in a
 * temporary directory, for the commands that read a database but accept a
 * recording too (spe-query FILE.data, spe-export FILE.data).
 */
#ifndef SPE_CLI_TEMP_DB_H
#define SPE_CLI_TEMP_DB_H

#include <stdint.h>

struct cli_temp_db {
	char dir[4000];  /* the temporary directory, "" before it exists */
	char path[4096]; /* the database in it */
};

struct cli_temp_load {
	const char *symfs; /* --symfs, or NULL */
	int raw;           /* the file is bare SPE bytes ... */
	uint32_t midr;     /* ... recorded on this CPU part */
	int cpu;           /* ... as this CPU number */
};

/*
 * Load @p input into a new database in $TMPDIR (default /tmp).  Returns a
 * cli_exit code; messages name @p prog.  Call cli_temp_db_remove() in every
 * case afterwards.
 */
int cli_temp_db_load(const char *prog, const char *input, const struct cli_temp_load *opts, struct cli_temp_db *t);
void cli_temp_db_remove(struct cli_temp_db *t);

/* MIDR_EL1 from a number or a part name of the facts table (neoverse-n1); 0 or -1. */
int cli_parse_midr(const char *s, uint32_t *midr);

#endif
