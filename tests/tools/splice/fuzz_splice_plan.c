/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz spe-splice's plan parser (plan.c) on any bytes: every directive,
 * the nested event syntax of between(...), targets and key=value lists.
 * Seeds: fixtures/fuzz/splice_plan/ (the real-capture cases' plans).
 */
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plan p;
	char err[512];
	if (plan_parse(&p, (const char *)data, size, "fuzz", err, sizeof err) == 0) {
		/* every task a spe line names resolves */
		for (unsigned i = 0; i < p.n_spes; i++)
			if (!plan_task(&p, p.spes[i].task))
				__builtin_trap();
	}
	plan_free(&p);
	return 0;
}
