/* SPDX-License-Identifier: Apache-2.0 */
/* Test helpers: fixture targets and one-call compiles. */
#ifndef SPE_TEST_FIXTURE_TARGET_H
#define SPE_TEST_FIXTURE_TARGET_H

#include "spe/filters.h"

/* argv[1] = fixtures dir, argv[2] = docs dir; call first in main(). */
void fixture_init(int argc, char **argv);
const char *fixture_dir(void);
const char *docs_dir(void);

/* Load fixtures/sysfs/<name> (one PMU); privileged unless told otherwise.  Aborts on error. */
struct spe_target sysfs_target(const char *name);
/* A CPU profile target on @p kernel (privileged). */
struct spe_target profile_target(const char *cpu, unsigned kernel);

/* Compile an event string (may be NULL) for @p t into @p out; returns compile's result. */
int compile_event(const struct spe_target *t, const char *event, bool strict, struct spe_filter_result *out);

/* Index of the first diagnostic with message @p m, or -1. */
int find_diag(const struct spe_filter_diags *d, enum spe_filter_msg m);
/* Does any diagnostic's text contain @p s? */
bool diag_text_has(const struct spe_filter_diags *d, const char *s);

#endif
