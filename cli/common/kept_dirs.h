/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The --symfs and --source-dir a database keeps (spe/settings.h) are paths
 * spe-report reads files under, and the page it writes may be shared: a
 * database someone sent could name / and have /etc/passwd's lines drawn as
 * "source".  So each kept value is sealed for the user who gave it: spe-load
 * stores beside it (meta key + ".seal") an HMAC-SHA256 of the key and the
 * value under a key of that user's own (a random file, made on first use:
 * $XDG_CONFIG_HOME/spekit/local.key, else ~/.config/spekit/local.key, mode
 * 0600), and spe-report uses a kept value only when its seal is this user's.
 * A database from elsewhere, or from before seals, keeps its values but they
 * are not used: the report says so and asks for the option (docs/security.md).
 */
#ifndef SPE_CLI_KEPT_DIRS_H
#define SPE_CLI_KEPT_DIRS_H

#include <stddef.h>

#include <sqlite3.h>

/*
 * Keep @p value (NULL: remove it) for @p key in @p db's open transaction,
 * sealed for this user.  0; -spe_io / -spe_nomem / -spe_bad_file with @p
 * err; 1 when it is kept without a seal (the user's key could not be made:
 * no HOME, a read-only one), which @p err then says.
 */
int cli_kept_dir_set(sqlite3 *db, const char *key, const char *value, char *err, size_t errlen);

/*
 * The value @p key keeps, malloc'd in *@p value, only when its seal is this
 * user's; else *@p value is NULL and *@p unsealed (if not NULL) the value
 * kept without a usable seal, malloc'd (NULL when none is kept).  0, or
 * -spe_nomem / -spe_bad_file with @p err.
 */
int cli_kept_dir_get(sqlite3 *db, const char *key, char **value, char **unsealed, char *err, size_t errlen);

#endif
