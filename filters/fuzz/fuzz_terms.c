/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the term parser and the compiler: the input is an event string
 * ("arm_spe/event_filter=retired,l1d_refill/u"); it is parsed, then
 * compiled for three targets (v1.1 on 6.1, v1.2 on 6.16, v1.4 with EFT,
 * FDS and SME on 6.19).  Nothing may crash, read out of bounds or leave a
 * diagnostic without text.
 */
#include "spe/filters.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct spe_target targets[3];
	static bool ready;
	if (!ready) {
		char err[128];
		spe_target_from_profile("neoverse-n1", 601, &targets[0], err, sizeof err);
		spe_target_from_profile("neoverse-n2", 616, &targets[1], err, sizeof err);
		spe_target_from_regs(0x7 | 0xe0 | 3u << 16 | 1u << 26 | 1ull << 32, 5, 619, &targets[2]);
		ready = true;
	}
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	static struct spe_filter_request req;
	static struct spe_filter_result out;
	spe_filter_request_init(&req);
	req.strict = size & 1;
	spe_filter_parse_terms(&req, text);
	/* The same bytes as one --option=value. */
	char *eq = strchr(text, '=');
	if (eq) {
		*eq = '\0';
		spe_filter_set_term(&req, text, eq + 1);
	}
	for (int i = 0; i < 3; i++) {
		spe_filter_compile(&req, &targets[i], &out);
		for (unsigned k = 0; k < out.diags.count; k++)
			if (!out.diags.d[k].text[0] || !memchr(out.diags.d[k].text, '\0', sizeof out.diags.d[k].text))
				abort();
		if (out.accepted && spe_filter_diag_errors(&out.diags))
			abort();
	}
	free(text);
	return 0;
}
