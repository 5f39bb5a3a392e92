/* Print the CPU, time and PC of every SPE record of a perf.data (or a raw SPE file), queue by queue. */
#include <inttypes.h>
#include <stdio.h>

#include "spe/spe.h"

int main(int argc, char **argv)
{
	if (argc < 2)
		return 64;
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	struct spe_raw_input *raw = NULL;
	struct spe_aux_config cfg = SPE_OPTS(spe_aux_config, .order = SPE_AUX_ORDER_QUEUE);
	int rc = f ? spe_perf_open(f, argv[1]) : -spe_nomem;
	if (rc == -spe_bad_file && spe_perf_err_offset(f) == 0) {
		/* not perf.data: bare SPE bytes, here as a Neoverse N1 writes them */
		struct spe_raw_config rcfg = SPE_OPTS(spe_raw_config, .midr = 0x410fd0c0);
		raw = spe_raw_alloc_input(&rcfg);
		rc = raw ? spe_raw_open(raw, argv[1]) : -spe_nomem;
		cfg.raw = raw;
		cfg.raw_cpu = -1;
	} else {
		cfg.perf = f;
	}
	struct spe_aux_decoder *aux = rc == 0 ? spe_aux_alloc_decoder(&cfg) : NULL;
	if (!aux) {
		fprintf(stderr, "%s\n", raw ? spe_raw_errmsg(raw) : f ? spe_perf_errmsg(f) : "out of memory");
		spe_raw_free_input(raw);
		spe_perf_free_file(f);
		return 66;
	}
	struct spe_aux_item it;
	int type;
	while ((type = spe_aux_next(aux, &it, sizeof it)) > 0) {
		printf("cpu %d tid %d file 0x%" PRIx64 " pc 0x%" PRIx64, it.cpu, it.tid, it.file_offset,
		       it.record->pc.addr);
		if (it.time != SPE_AUX_NO_TIME)
			printf(" time %" PRIu64, it.time);
		putchar('\n');
	}
	int status = 0;
	if (type != -spe_eos) { /* bad data: the message names the file, the offset and the problem */
		fprintf(stderr, "%s\n", spe_aux_errmsg(aux));
		status = 65;
	}
	struct spe_aux_stats st;
	spe_aux_get_stats(aux, &st, sizeof st);
	printf("%" PRIu64 " records, %" PRIu64 " bad bytes, %" PRIu64 " gaps\n", st.records, st.bad_bytes, st.gaps);
	spe_aux_free_decoder(aux);
	spe_raw_free_input(raw);
	spe_perf_free_file(f);
	return status ? status : st.bad_bytes ? 1 : 0;
}
