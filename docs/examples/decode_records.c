/* Print PC, op and latency of every record in a raw SPE file. */
#include <stdio.h>
#include <stdlib.h>

#include "spe/spe.h"

static void on_error(void *ctx, uint64_t offset, int err, const char *reason)
{
	(void)ctx;
	fprintf(stderr, "offset %#llx: %s (%s)\n", (unsigned long long)offset, reason, spe_errstr(err));
}

int main(int argc, char **argv)
{
	static uint8_t buf[1 << 16];
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
	if (!f)
		return 66;
	struct spe_rec_config cfg = SPE_OPTS(spe_rec_config, .midr = 0x410fd0c0, .on_error = on_error);
	struct spe_rec_decoder *dec = spe_rec_alloc_decoder(&cfg);
	struct spe_record rec;
	uint64_t offset = 0;
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		/* join = 1: a packet cut at the end of one read is completed by the next */
		spe_rec_feed(dec, buf, n, offset, offset != 0);
		while (spe_rec_next(dec, &rec, sizeof rec) == 0) {
			char op[64];
			spe_record_op_text(&rec, op, sizeof op);
			printf("%#llx %s lat=%u\n", (unsigned long long)rec.pc.addr, op, rec.total_latency);
		}
		offset += n;
	}
	spe_rec_flush(dec);
	while (spe_rec_next(dec, &rec, sizeof rec) == 0)
		printf("%#llx (from the last bytes)\n", (unsigned long long)rec.pc.addr);
	struct spe_rec_stats st;
	spe_rec_get_stats(dec, &st, sizeof st);
	spe_rec_free_decoder(dec);
	fclose(f);
	return st.bad_bytes ? 1 : 0;
}
