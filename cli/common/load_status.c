/* SPDX-License-Identifier: Apache-2.0 */
#include "load_status.h"

#include <stdio.h>

static const char *times(uint64_t n)
{
	return n == 1 ? "time" : "times";
}

void cli_load_warn(const char *prog, const char *file, const struct spe_load_counts *k)
{
	/* perf's own words for these ("AUX data lost N times out of M!"), with what we did about them */
	if (k->aux_truncated)
		fprintf(stderr, "%s: %s: warning: AUX data lost %llu %s out of %llu (truncated: SPE records were "
			"dropped there; the data recorded is loaded)\n", prog, file,
			(unsigned long long)k->aux_truncated, times(k->aux_truncated), (unsigned long long)k->aux_records);
	if (k->aux_partial)
		fprintf(stderr, "%s: %s: warning: AUX data had gaps in it %llu %s out of %llu (a record across a gap "
			"may be cut)\n", prog, file, (unsigned long long)k->aux_partial,
			times(k->aux_partial), (unsigned long long)k->aux_records);
	if (k->aux_collision)
		fprintf(stderr, "%s: %s: warning: AUX data detected collision %llu %s out of %llu (samples were not "
			"taken there)\n", prog, file, (unsigned long long)k->aux_collision, times(k->aux_collision),
			(unsigned long long)k->aux_records);
	if (k->lost_events)
		fprintf(stderr, "%s: %s: warning: the kernel lost %llu sideband events (PERF_RECORD_LOST): threads or "
			"mappings may be missing\n", prog, file, (unsigned long long)k->lost_events);
	size_t kept = sizeof k->warnings / sizeof k->warnings[0];
	for (uint32_t i = 0; i < k->n_warnings && i < kept; i++)
		fprintf(stderr, "%s: warning: %s\n", prog, k->warnings[i]);
	if (k->n_warnings > kept)
		fprintf(stderr, "%s: %s: warning: and %llu more warnings of the perf.data reader\n", prog, file,
			(unsigned long long)(k->n_warnings - kept));
}
