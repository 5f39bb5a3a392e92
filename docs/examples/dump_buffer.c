/* Dump a raw SPE file the way `perf report -D` prints an AUXTRACE buffer. */
#include <stdio.h>

#include "spe/spe.h"

static int to_stdout(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	return fwrite(text, 1, len, stdout) == len ? 0 : -spe_io;
}

int main(int argc, char **argv)
{
	static uint8_t buf[1 << 20];
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
	if (!f)
		return 66;
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	struct spe_dump_config cfg = SPE_OPTS(spe_dump_config, .dialect = SPE_DIALECT_PERF_6_1, .write = to_stdout);
	struct spe_dump_stats st;
	int err = spe_dump_buffer(&cfg, buf, n, &st);
	if (err < 0) {
		fprintf(stderr, "dump: %s\n", spe_errstr(err));
		return 74;
	}
	return st.bad_bytes ? 1 : 0;
}
