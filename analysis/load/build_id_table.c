/* SPDX-License-Identifier: Apache-2.0 */
/* The recording's build-id table (build_id_table.h). */
#include "build_id_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe/spe.h"
#include "util/grow.h"

#define CPUMODE_MASK 7
#define CPUMODE_KERNEL 1 /* PERF_RECORD_MISC_KERNEL */
#define CPUMODE_USER 2   /* PERF_RECORD_MISC_USER */

int ana_bid_table_add(struct build_id_table *t, int pid, uint16_t misc, const uint8_t *id, unsigned size,
		      const char *name)
{
	unsigned cpumode = misc & CPUMODE_MASK;
	if ((cpumode != CPUMODE_USER && cpumode != CPUMODE_KERNEL) || !name || !*name || !size)
		return 0;
	if (size > 20)
		size = 20;
	struct recorded_bid *p = util_grow(t->e, &t->cap, t->n + 1, sizeof *p);
	if (!p)
		return -spe_nomem;
	t->e = p;
	struct recorded_bid *e = &t->e[t->n];
	e->pid = pid;
	e->kernel = cpumode == CPUMODE_KERNEL;
	if (!(e->name = strdup(name)))
		return -spe_nomem;
	for (unsigned i = 0; i < size; i++)
		snprintf(e->hex + 2 * i, 3, "%02x", id[i]);
	t->n++;
	return 0;
}

static const char *find(const struct build_id_table *t, const char *name, int pid, int kernel)
{
	const char *agreed = NULL;
	int disagree = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct recorded_bid *e = &t->e[i];
		if (e->kernel != kernel || strcmp(e->name, name) != 0)
			continue;
		if (e->pid == pid)
			return e->hex;
		if (agreed && strcmp(agreed, e->hex) != 0)
			disagree = 1;
		agreed = e->hex;
	}
	return disagree ? NULL : agreed;
}

const char *ana_bid_table_find(const struct build_id_table *t, const char *name, int pid)
{
	return find(t, name, pid, 0);
}

const char *ana_bid_table_find_kernel(const struct build_id_table *t, const char *name)
{
	return find(t, name, -1, 1);
}

void ana_bid_table_free(struct build_id_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->e[i].name);
	free(t->e);
	memset(t, 0, sizeof *t);
}
