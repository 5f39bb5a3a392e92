/* SPDX-License-Identifier: Apache-2.0 */
/* Rebuild _branch_mispredict, branch_mispredict's groups in its order, from branch_stat (every source). */
#ifndef SPE_BRANCH_ROLLUP_H
#define SPE_BRANCH_ROLLUP_H

#include <stddef.h>

#include <sqlite3.h>

/* 0, or a negative spe error with @p err filled in. */
int ana_branch_rollup(sqlite3 *db, char *err, size_t errlen);

#endif
