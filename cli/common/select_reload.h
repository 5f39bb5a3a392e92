/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The records a selection chooses (--pid, --cpu, --time...), loaded by
 * themselves into a private database: for spe-report's page and --annotate,
 * whose sections read the summaries a load computes (spe/tables.h), so
 * those must be counted from the chosen records only.
 *
 * Which records: the selection's condition (spe/select.h, the same SQL the
 * text report uses) over the database of the whole capture, one bit per
 * record in load order (spe_record.id); the capture is then read again
 * (temp_db.h) keeping those bits (spe_load_opts.keep): the loader meets
 * the records in the same order.  A database given with -d is read again
 * from the file its source row names, when that file is there and its
 * digest is the row's.
 */
#ifndef SPE_CLI_SELECT_RELOAD_H
#define SPE_CLI_SELECT_RELOAD_H

#include <sqlite3.h>

#include "spe/select.h"
#include "temp_db.h"

struct spe_db;

/*
 * Load the records @p sel chooses of @p whole into *@p out (spe_db_close
 * removes it).  @p recording: the file @p whole was loaded from (spe-report
 * FILE.data), or NULL for a database given with -d (@p shown in messages),
 * whose one source the selection chooses from is read again.  @p lo: the
 * load's options (keep, n_keep and selection are set here).  A cli_exit
 * code: 65 when nothing is chosen or the file is not the one loaded, 66
 * when the capture cannot be read again, 64 for a selection of several
 * sources; messages name @p prog.
 */
int cli_select_reload(const char *prog, const char *shown, sqlite3 *whole, const struct spe_selection *sel,
		      const char *recording, struct cli_temp_load *lo, struct spe_db **out);

#endif
