/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the loader on raw SPE bytes: decoder, attribution, memory levels and
 * the SQL inserts, into an in-memory database, then every view.  The first
 * byte picks the CPU part (and so the data-source map); the rest is the trace.
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
	struct spe_source_info src = { .size = sizeof src, .file = "fuzz", .kind = "raw", .nr_cpus = -1 };
	struct spe_load_opts opts = { .size = sizeof opts };
	struct spe_loader *ld;
	if (spe_loader_new(db, &src, &opts, &ld, err, sizeof err) == 0) {
		spe_loader_cpu(ld, 0, midrs[data[0] % (sizeof midrs / sizeof *midrs)]);
		spe_loader_mmap(ld, 1, 0x400000, 0x10000, 0, "/nonexistent", NULL, UINT64_MAX);
		/* two chunks, joined, so records and packets may span them */
		size_t half = (size - 1) / 2;
		if (spe_loader_aux(ld, 0, 1, 1, data + 1, half, 0, 0) == 0 &&
		    spe_loader_aux(ld, 0, 1, 1, data + 1 + half, size - 1 - half, half, 1) == 0)
			spe_loader_finish(ld, NULL);
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
	spe_db_close(db);
	return 0;
}
