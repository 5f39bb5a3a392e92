/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: one capture's function statistics and histograms for the
 * function_stat and function_latency tables (ch_functions.c).
 */
#ifndef SPE_CH_FUNCTIONS_H
#define SPE_CH_FUNCTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "ch_internal.h"
#include "ana/latency_hist.h"
#include "spe/row_sink.h"

struct ch_functions {
	int64_t source_id;
	char **names;        /* symbol name by id - source_id (NULL: no such symbol) */
	int64_t *mapping_of; /* its mapping id */
	int32_t *lines;      /* its line (0: none) */
	size_t n_names, cap_names, cap_map, cap_lines;
	char **files;        /* its source file */
	size_t n_files, cap_files;
	char **paths;        /* mapping path by id - source_id */
	size_t n_paths, cap_paths;
	struct latency_groups by_symbol; /* symbol slot (0: none) -> histogram, as pc_latency rows come */
	/* at the end (ch_functions_write) */
	uint32_t *fn_of;     /* symbol -> function + 1 */
	int64_t *first_id;   /* function -> its smallest symbol id */
	uint32_t n_fn;
	struct latency_groups groups; /* function (n_fn: no symbol) -> histogram */
};

/* A new capture: forget the last (and free its memory). */
void ch_functions_begin(struct ch_functions *f, int64_t source_id);
/* The capture's symbols and mappings, as the sink receives them.  0, or -1 without memory. */
int ch_functions_symbol(struct ch_functions *f, const struct spe_row_symbol *r);
int ch_functions_mapping(struct ch_functions *f, int64_t id, const char *path);
/* Count a PC's histogram into its symbol's.  0, or -1 without memory. */
int ch_functions_pc_latency(struct ch_functions *f, const struct spe_row_pc_histogram *r);
/* The RowBinary rows of function_stat and function_latency (once every row is in).  0, or -1 without memory. */
int ch_functions_write(struct ch_functions *f, struct ch_buf *stat, struct ch_buf *latency);
void ch_functions_fini(struct ch_functions *f);

#endif
