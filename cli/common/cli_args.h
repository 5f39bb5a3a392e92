/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Option values and files the commands share, checked where they are
 * parsed so a mistyped one is a message naming it, not a silently different
 * result or a lost file: a CPU part (--midr), a directory (--symfs,
 * --source-dir), an input of the wrong kind (a database where a recording
 * is read, a perf.data where raw SPE bytes are), one input named twice, an
 * output that is an input, and the default database.
 */
#ifndef SPE_CLI_ARGS_H
#define SPE_CLI_ARGS_H

#include <stdint.h>

/* MIDR_EL1 from a number or a part name of the facts table (neoverse-n1); 0 or -1. */
int cli_parse_midr(const char *s, uint32_t *midr);

/* The i-th CPU part name of the facts table (what --midr takes), NULL after the last: --help and completion. */
const char *cli_cpu_part_name(unsigned i);

/*
 * @p path, given as @p option (e.g. "--symfs"), must be a directory: 0, or
 * CLI_NOINPUT after "PROG: OPTION=PATH: No such file or directory" (or "not
 * a directory").
 */
int cli_check_dir_option(const char *prog, const char *option, const char *path);

/*
 * An input named where a perf.data (or raw SPE file) is expected that is an
 * SQLite database: 0 when it is not one (or cannot be read: the reader says
 * why), else CLI_USAGE after "PROG: PATH is a database, not a recording:
 * ADVICE".
 */
int cli_refuse_database_input(const char *prog, const char *path, const char *advice);

/*
 * An input named where raw SPE bytes are read (--raw, a --replay that is no
 * manifest) that is a perf.data file or a spekit database: 0 when it is
 * neither, else CLI_USAGE after "PROG: PATH is a perf.data file, not raw SPE
 * bytes: ADVICE" (or "is a database").  Such bytes would decode as SPE with
 * errors, or replay into a recording of garbage, and exit 0 or 1.
 */
int cli_refuse_raw_input(const char *prog, const char *path, const char *advice);

/*
 * A database (-d) that is a perf.data file: 0 when it is not, else CLI_USAGE
 * after "PROG: PATH is a perf.data file, not a database: ADVICE" (was:
 * "not an SQLite database", 65).
 */
int cli_refuse_recording_as_db(const char *prog, const char *path, const char *advice);

/*
 * Two of the @p n input @p paths that are one file (the same name twice, a
 * link, a glob that overlaps): 0 when all differ, else CLI_USAGE after "PROG:
 * A and B are the same file: ...".
 */
int cli_refuse_repeated_input(const char *prog, char *const *paths, int n);

/*
 * The output @p output (given as @p option, e.g. "-o") that is the file
 * @p input the command reads (the same name, a link): 0 when it is not (or
 * either does not exist, or OUTPUT is "-"), else CLI_USAGE after "PROG: -o
 * OUT: is the input IN; give another output file".  Written in place, the
 * output would replace the recording or database it was made from.
 */
int cli_refuse_output_is_input(const char *prog, const char *option, const char *output, const char *input);

/*
 * An input named "-" where only files are read (loading needs to seek):
 * 0 when it is not "-" (or a file of that name exists), else CLI_USAGE after
 * "PROG: -: standard input is not read here; save it to a file first
 * (spe-dump reads a pipe-mode perf.data from -)".
 */
int cli_refuse_stdin_input(const char *prog, const char *path);

/* The database spe-load writes and the readers read without -d or -o. */
#define CLI_DEFAULT_DB "spe.db"

/*
 * A database option not given: *@p path becomes CLI_DEFAULT_DB, and when
 * that does not exist, CLI_NOINPUT after "PROG: ./spe.db: no such database
 * (the default without -d DB; spe-load FILE writes it)"; else 0.
 */
int cli_default_db(const char *prog, const char **path);

#endif
