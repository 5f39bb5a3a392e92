/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the record selection (cli/common/cli_select.h, spe/select.h): the
 * input, split at NUL bytes, is spe-report's words after its name (each
 * selection option with any value); the options taken are compiled against
 * a small in-memory database with spe_record's columns, and the condition
 * must always prepare and run: whatever the values, they are bound
 * parameters, never SQL.  Usage errors go to stderr (closed by ctest's
 * -close_fd_mask=2).  Seeds: fixtures/fuzz/select/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/cli_options.h"
#include "common/cli_select.h"
#include "common/cli_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern const struct cli_command cli_command_report;

static sqlite3 *db;

static void setup(void)
{
	if (db)
		return;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_exec(db,
			 "CREATE TABLE spe_record(id, source_id, pid, tid, cpu, time, mapping_id, symbol_id);"
			 "CREATE TABLE thread(source_id, tid, pid, comm);"
			 "CREATE TABLE mapping(id, path);"
			 "CREATE TABLE symbol(id, name);"
			 "INSERT INTO spe_record VALUES (1, 1, 42, 43, 2, 1000000000, 1, 1), (2, 1, 42, 42, 0, 2000000000, 1, 2);"
			 "INSERT INTO thread VALUES (1, 43, 42, 'worker'), (1, 42, 42, 'main');"
			 "INSERT INTO mapping VALUES (1, '/usr/bin/app');"
			 "INSERT INTO symbol VALUES (1, 'main'), (2, 'work');",
			 NULL, NULL, NULL) != SQLITE_OK)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	setup();
	char *buf = malloc(size + 1);
	char *argv[130];
	int argc = 0;
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	argv[argc++] = (char *)"spe-report";
	for (size_t i = 0; i <= size && argc < 129; i++) {
		argv[argc++] = buf + i;
		i += strlen(buf + i);
	}
	argv[argc] = NULL;
	struct cli_select sel = { 0 };
	struct cli_args a;
	cli_args_init(&a, &cli_command_report, argc, argv);
	FILE *devnull = fopen("/dev/null", "w");
	a.help_out = devnull;
	int c, bad = 0;
	while (!bad && (c = cli_args_next(&a)) > 0)
		bad = cli_select_option(&sel, &a) == CLI_USAGE;
	if (!bad && spe_select_active(&sel.s)) {
		struct spe_selection *chosen = NULL;
		char err[256];
		if (spe_selection_new(db, &sel.s, &chosen, err, sizeof err) < 0)
			abort(); /* the database is fine: only memory could fail */
		char *cond = spe_selection_sql(chosen, "r");
		char *sql = cond ? sqlite3_mprintf("SELECT count(*) FROM spe_record r WHERE %s", cond) : NULL;
		sqlite3_stmt *st = NULL;
		if (!sql || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK ||
		    spe_selection_bind(chosen, st) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW ||
		    sqlite3_column_int64(st, 0) > 2)
			abort(); /* the condition is ours: it always compiles, and chooses among the rows */
		if (!strlen(spe_selection_text(chosen)))
			abort();
		sqlite3_finalize(st);
		sqlite3_free(sql);
		free(cond);
		spe_selection_free(chosen);
	}
	if (devnull)
		fclose(devnull);
	cli_select_fini(&sel);
	free(buf);
	return 0;
}
