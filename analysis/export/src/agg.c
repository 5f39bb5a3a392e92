/* SPDX-License-Identifier: Apache-2.0 */
/* The exporters' aggregations (export_internal.h): a util_map's keys as a list. */
#include <stdlib.h>

#include "export_internal.h"

const void **export_agg_keys(const struct util_map *m)
{
	const void **keys = malloc((m->n + 1) * sizeof *keys);
	if (!keys)
		return NULL;
	for (size_t i = 0; i < m->n; i++)
		keys[i] = util_map_key(m, i);
	return keys;
}
