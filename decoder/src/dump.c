/* SPDX-License-Identifier: Apache-2.0 */
/* spe_dump_buffer: a whole buffer as `perf report -D` prints it (docs/spe-format.md §2.2). */
#include "describe_internal.h"
#include "packet_internal.h"

unsigned spe_pad_coalesce(const uint8_t *buf, size_t len, unsigned pkt_size)
{
	unsigned n = pkt_size;
	if (!buf)
		return n;
	while (n < 16 && n < len && buf[n] == 0)
		n++;
	return n;
}

int spe_dump_buffer(const struct spe_dump_config *config, const uint8_t *buf, size_t len,
		    struct spe_dump_stats *stats)
{
	struct spe_dump_config cfg = { 0 };
	char text[16384];
	struct text_out o;
	struct spe_dump_stats st = { 0 };
	const struct spe_dialect_rules *r;
	int err = 0;

	if (!config || config->size < offsetof(struct spe_dump_config, ctx) + sizeof(void *) ||
	    (!buf && len))
		return -spe_invalid;
	memcpy(&cfg, config, config->size < sizeof cfg ? config->size : sizeof cfg);
	r = spe_dialect_rules_get(cfg.dialect);
	if (!r || !cfg.write)
		return -spe_invalid;

	out_init(&o, text, sizeof text);
	for (size_t pos = 0; pos < len;) {
		struct spe_packet pkt;
		int ret = spe_pkt_decode(buf + pos, len - pos, cfg.align_offset + pos, &pkt);
		if (ret > 0) {
			if (pkt.type == SPE_PKT_PAD || pkt.type == SPE_PKT_ALIGN_PAD)
				pkt.size = (uint8_t)spe_pad_coalesce(buf + pos, len - pos, pkt.size);
			if (pkt.type == SPE_PKT_UNKNOWN)
				st.unknown_packets++;
			else
				st.packets++;
		} else {
			pkt.type = SPE_PKT_BAD;
			pkt.size = 1;
			st.bad_bytes++;
		}
		spe_dump_line_out(&o, buf + pos, &pkt, cfg.offset + pos, r, cfg.midr);
		pos += spe_dump_line_bytes(&pkt, r); /* perf-6.1: an unknown packet's first byte only */
		if ((size_t)(o.end - o.p) < SPE_DUMP_LINE_MAX) {
			err = cfg.write(cfg.ctx, text, (size_t)(o.p - text));
			if (err < 0)
				break;
			out_init(&o, text, sizeof text);
		}
	}
	if (err >= 0 && o.p > text)
		err = cfg.write(cfg.ctx, text, (size_t)(o.p - text));
	if (stats)
		*stats = st;
	return err < 0 ? err : 0;
}
