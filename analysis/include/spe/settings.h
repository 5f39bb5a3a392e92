/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Settings a database keeps for the commands that read it, as rows of the
 * table meta (docs/schema.md): what spe-load was given that a later report
 * needs again, so spe-report needs --symfs and --source-dir only when the
 * files moved.
 *
 *   load.symfs       the last load's --symfs, absolute
 *   load.source_dir  the last load's --source-dir values, absolute, one per line
 *   KEY.seal         each of the two sealed for the user who loaded it: an
 *                    HMAC-SHA256 under that user's key, without which a report
 *                    does not use it (cli/common/kept_dirs.h)
 *   load.selection   the records are only those a selection chose, in words
 *                    ("pid 42; cpu 1"): spe-report's private database of the
 *                    page and --annotate with --pid, --cpu... (every report of
 *                    it says so)
 */
#ifndef SPE_SETTINGS_H
#define SPE_SETTINGS_H

#include <stddef.h>

#include <sqlite3.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPE_SETTING_SYMFS "load.symfs"
#define SPE_SETTING_SOURCE_DIR "load.source_dir"
#define SPE_SETTING_SELECTION "load.selection"

/* Set @p key to @p value (NULL: remove it) in @p db's open transaction.  0, or -spe_io / -spe_bad_file with @p err. */
int spe_setting_set(sqlite3 *db, const char *key, const char *value, char *err, size_t errlen);

/*
 * The value of @p key: a malloc'd string in *@p value, NULL when the
 * database has none (a database written before, or a load without the
 * option).  0, or -spe_nomem / -spe_bad_file with @p err.
 */
int spe_setting_get(sqlite3 *db, const char *key, char **value, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
