/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the packet layer: spe_pkt_read at every offset, the description in
 * both dialects (with and without the N1 MIDR), and the whole-buffer dump.
 * Checks: sizes stay within the buffer, descriptions fit SPE_PKT_DESC_MAX.
 */
#include <stdlib.h>
#include <string.h>

#include "spe/spe.h"

static int sink(void *ctx, const char *text, size_t len)
{
	size_t *total = ctx;
	*total += len;
	return text[len - 1] == '\n' ? 0 : -spe_internal;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char desc[SPE_PKT_DESC_MAX], line[SPE_DUMP_LINE_MAX];
	for (size_t pos = 0; pos < size; pos++) {
		struct spe_packet pkt;
		int ret = spe_pkt_read(data + pos, size - pos, pos, &pkt);
		if (ret > 0) {
			if ((size_t)ret > size - pos || ret != pkt.size)
				abort();
			for (int d = 0; d < 2; d++) {
				int n = spe_pkt_describe(&pkt, (enum spe_dialect)d, d ? 0 : 0x410fd0c0, desc, sizeof desc);
				if (n < 0 || n >= (int)sizeof desc - 1)
					abort();
			}
			if (spe_pkt_dump_line(data + pos, &pkt, pos, SPE_DIALECT_NEWEST, 0, line, sizeof line) < 0)
				abort();
		} else if (ret != -spe_need_more && ret != -spe_bad_packet) {
			abort();
		}
	}
	for (int d = 0; d < 2; d++) {
		size_t total = 0;
		struct spe_dump_stats st;
		struct spe_dump_config cfg = SPE_OPTS(spe_dump_config, .dialect = (enum spe_dialect)d, .write = sink,
						      .ctx = &total, .align_offset = size & 15);
		if (spe_dump_buffer(&cfg, data, size, &st) < 0)
			abort();
		if (st.bad_bytes > size || (size && !total))
			abort();
	}
	return 0;
}
