/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the loader on raw SPE bytes: the AUX layer, attribution, memory
 * levels and the SQL inserts, into an in-memory database, then every view.
 * The first byte picks the CPU part (and so the data-source map) and the
 * window size; the rest is the trace, decoded in windows joined so that
 * records and packets may span them.
 */
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "spe/analysis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t midrs[] = { 0, 0x410fd0c0, 0xc00fac40, 0x480fd060, 0x410fd490 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char err[256];
	struct spe_db *db;
	if (spe_db_open_memory(&db, err, sizeof err) < 0)
		return 0;
	struct spe_raw_config rc = SPE_OPTS(spe_raw_config, .midr = midrs[data[0] % (sizeof midrs / sizeof *midrs)],
					    .window = (size - 1) / 2 + 1 + (data[0] >> 4));
	struct spe_raw_input *raw = spe_raw_alloc_input(&rc);
	struct spe_source_info src = { .file = "fuzz", .kind = "raw", .nr_cpus = -1 };
	struct spe_load_opts opts = { 0 };
	struct spe_loader *ld;
	if (raw && spe_raw_open_mem(raw, data + 1, size - 1, "fuzz") == 0 &&
	    spe_loader_new(db, &src, &opts, &ld, err, sizeof err) == 0) {
		spe_loader_mmap(ld, 1, 0x400000, 0x10000, 0, "/nonexistent", NULL, UINT64_MAX);
		struct spe_aux_config ac = SPE_OPTS(spe_aux_config, .raw = raw, .raw_cpu = 0, .items = SPE_AUX_WANT_CHUNKS);
		struct spe_aux_decoder *aux = spe_aux_alloc_decoder(&ac);
		if (aux && spe_load_aux(ld, aux, &opts) == 0)
			spe_loader_finish(ld, NULL);
		spe_aux_free_decoder(aux);
		spe_loader_free(ld);
		static const char *views[] = { "spe_sample", "hot_pc", "hot_symbol", "mem_level_summary",
					       "latency_histogram", "tlb_hotspot", "cacheline_sharing",
					       "branch_mispredict" };
		for (size_t i = 0; i < sizeof views / sizeof *views; i++) {
			char sql[64];
			sqlite3_snprintf(sizeof sql, sql, "SELECT count(*) FROM %s", views[i]);
			sqlite3_exec(spe_db_sqlite(db), sql, NULL, NULL, NULL);
		}
	}
	spe_raw_free_input(raw);
	spe_db_close(db);
	return 0;
}
