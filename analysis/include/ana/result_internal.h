/* SPDX-License-Identifier: Apache-2.0 */
/* JSON pieces of result_format.c for the other printers of spe_analysis (diff, memory report). */
#ifndef SPE_RESULT_INTERNAL_H
#define SPE_RESULT_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>

/* The rows of one query as a JSON array of objects keyed by column name.  0, or -spe_invalid with SQLite's message. */
int ana_result_json_array(sqlite3 *db, const char *sql, FILE *out, char *err, size_t errlen);

#endif
