/* Print the CPU, time and PC of every SPE record of a perf.data, queue by queue. */
#include <inttypes.h>
#include <stdio.h>

#include "spe/spe.h"

int main(int argc, char **argv)
{
	struct spe_perf_file *f = spe_perf_alloc_file(NULL);
	if (!f || argc < 2 || spe_perf_open(f, argv[1]) < 0) {
		fprintf(stderr, "%s\n", f ? spe_perf_errmsg(f) : "out of memory");
		spe_perf_free_file(f);
		return 66;
	}
	struct spe_aux_config cfg = SPE_OPTS(spe_aux_config, .perf = f, .order = SPE_AUX_ORDER_QUEUE);
	struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&cfg);
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
	spe_perf_free_file(f);
	return status ? status : st.bad_bytes ? 1 : 0;
}
