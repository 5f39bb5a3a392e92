/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the replay manifest parser on arbitrary text. */
#include "spe/replay_manifest.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spe_replay_manifest *m = NULL;
	char err[256];
	int r = spe_replay_manifest_parse_text((const char *)data, size, "/fuzz", "fuzz.replay", &m, err, sizeof err);
	if (r == 0) {
		/* A parsed manifest always has at least one CPU with data and a usable time conversion. */
		size_t with_aux = 0;
		for (size_t i = 0; i < m->n_cpus; i++)
			with_aux += m->cpus[i].aux_path != NULL;
		if (!with_aux || m->time_mult == 0)
			__builtin_trap();
		spe_replay_manifest_free(m);
	} else if (m || !memchr(err, 0, sizeof err) || !err[0]) {
		__builtin_trap(); /* failures give no manifest and always a message */
	}
	return 0;
}
