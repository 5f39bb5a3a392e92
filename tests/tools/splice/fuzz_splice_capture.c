/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz spe-splice's input reader (capture.c) on any bytes: the file and
 * pipe headers, attrs, feature tables, record framing, sample_id trailers
 * and perf -z's zstd stream across COMPRESSED records; then the timeline
 * (model.c) built from what it decoded.
 * Seeds: fixtures/fuzz/splice_capture/ (small inputs of the real-capture cases).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	struct capture c;
	char err[512];
	int status;
	if (cap_parse(&c, buf, size, "fuzz", err, sizeof err, &status) == 0) {
		struct model m;
		model_init(&m, &c);
		for (uint32_t i = 0; i < m.n_lives; i++) {
			struct maps mp;
			model_maps_at(&m, m.lives[i].pid, m.lives[i].birth + 1, &mp);
			model_maps_free(&mp);
		}
		model_free(&m);
	}
	cap_free(&c);
	return 0;
}
