/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A perf.data (or raw SPE) file loaded into a private database, for the
 * commands that read a database but accept a recording too (spe-query
 * FILE.data, spe-export FILE.data).  The database is a temporary of
 * spe/outfile.h's pattern beside $TMPDIR/PROG.db (SPE_DB_SCRATCH): removed by
 * spe_db_close(), by a signal's clean-up, or by the next run after a SIGKILL.
 */
#ifndef SPE_CLI_TEMP_DB_H
#define SPE_CLI_TEMP_DB_H

#include <signal.h>
#include <stdint.h>

struct spe_db;
struct cli_progress;

struct cli_temp_load {
	const char *symfs; /* --symfs, or NULL */
	int raw;           /* the file is bare SPE bytes ... */
	uint32_t midr;     /* ... recorded on this CPU part */
	int cpu;           /* ... as this CPU number */
	const volatile sig_atomic_t *cancel; /* the load stops once *cancel != 0 (a signal handler's flag) */
	int *partial;      /* if not NULL: set to 1 when the file was read in part (cut short, decode errors): exit 1 */
	struct cli_progress *progress; /* the load's progress line (progress.h), erased at its end; or NULL */
	/*
	 * Only these records (spe_load_opts.keep, n_keep), which @p selection
	 * names in words: kept in the database's meta (SPE_SETTING_SELECTION).
	 * The file's warnings are not repeated (its first load said them), and
	 * a load that reads other than n_keep records fails (65): not the file
	 * the bits were counted on.
	 */
	const uint64_t *keep;
	uint64_t n_keep;
	const char *selection;
	uint32_t perf_midr; /* a perf.data file: the part of the CPUs it names none for (spe_load_opts.midr), 0 unknown */
};

/*
 * Load @p input into a private database, committed and reopened read-only,
 * in *@p out; spe_db_close() removes it.  Returns a cli_exit code (128 +
 * SIGINT when *cancel was set); messages name @p prog.
 */
int cli_temp_db_load(const char *prog, const char *input, const struct cli_temp_load *opts, struct spe_db **out);

#endif
