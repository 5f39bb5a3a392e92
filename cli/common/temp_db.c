/* SPDX-License-Identifier: Apache-2.0 */
#include "temp_db.h"
#include "progress.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_util.h"
#include "cli_signals.h"
#include "load_status.h"
#include "spe/analysis.h"
#include "spe/settings.h"

int cli_temp_db_load(const char *prog, const char *input, const struct cli_temp_load *o, struct spe_db **out)
{
	char err[1024], path[4096];
	*out = NULL;
	int rc = cli_refuse_stdin_input(prog, input);
	if (rc)
		return rc;
	if (access(input, R_OK) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, input, strerror(errno));
		return CLI_NOINPUT;
	}
	char advice[4200];
	snprintf(advice, sizeof advice, "give it as -d %s", input);
	rc = o && o->raw ? cli_refuse_raw_input(prog, input, "drop --raw")
			 : cli_refuse_database_input(prog, input, advice);
	if (rc == 0 && o && o->symfs)
		rc = cli_check_dir_option(prog, "--symfs", o->symfs);
	if (rc)
		return rc;
	const char *tmpdir = getenv("TMPDIR");
	if ((size_t)snprintf(path, sizeof path, "%s/%s.db", tmpdir && *tmpdir ? tmpdir : "/tmp", prog) >= sizeof path) {
		fprintf(stderr, "%s: TMPDIR is too long\n", prog);
		return CLI_USAGE;
	}
	struct spe_db *db;
	rc = spe_db_open(path, SPE_DB_SCRATCH, &db, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return rc == -spe_invalid ? CLI_USAGE : CLI_IOERR;
	}
	struct spe_load_opts opts = { .symbolize = 1, .symfs = o ? o->symfs : NULL,
				      .cancel = o ? o->cancel : NULL };
	if (o && !o->raw)
		opts.midr = o->perf_midr;
	const char *selection = o && o->keep ? o->selection : NULL;
	if (selection)
		opts.keep = o->keep, opts.n_keep = o->n_keep;
	if (o && o->progress)
		opts.on_progress = cli_progress_update, opts.progress_arg = o->progress;
	struct spe_load_counts k = { 0 };
	rc = o && o->raw ? spe_load_raw_file(db, input, o->midr, o->cpu, &opts, &k, err, sizeof err)
			 : spe_load_perf_file(db, input, &opts, &k, err, sizeof err);
	if (rc == 0 && selection && k.records + k.unselected != o->n_keep) {
		snprintf(err, sizeof err, "%s: read again for the selection, it gave %llu records where the load the "
			 "selection was made on had %llu: not the file that was loaded", input,
			 (unsigned long long)(k.records + k.unselected), (unsigned long long)o->n_keep);
		rc = -spe_bad_file;
	}
	if (rc == 0 && selection)
		rc = spe_setting_set(spe_db_sqlite(db), SPE_SETTING_SELECTION, selection, err, sizeof err);
	if (rc == 0)
		rc = spe_db_commit(db, err, sizeof err);
	if (o)
		cli_progress_clear(o->progress);
	if (rc < 0) {
		spe_db_close(db);
		if (o && o->cancel && *o->cancel)
			rc = -spe_cancelled; /* whatever failed once the flag was set */
		if (rc == -spe_cancelled) /* 128 + the signal (cli_signals.h) */
			return cli_stop_signal() ? cli_stop_status() : cli_exit_status(rc);
		fprintf(stderr, "%s: %s\n", prog, err);
		return rc == -spe_io ? CLI_NOINPUT : rc == -spe_nomem ? CLI_IOERR : CLI_DATAERR;
	}
	if (selection) { /* said by the file's first load */
		*out = db;
		return CLI_OK;
	}
	if (k.cut) /* the records before the cut are read: say what is missing */
		fprintf(stderr, "%s: %s; the %llu records before the cut are read\n", prog, k.cut_what,
			(unsigned long long)k.records);
	cli_load_warn(prog, input, &k);
	if (o && o->partial && cli_load_is_partial(&k))
		*o->partial = 1;
	*out = db;
	return CLI_OK;
}
