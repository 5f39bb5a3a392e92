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
	uint8_t *kernel;     /* by id - source_id: a kernel map (pid NULL) */
	size_t n_kernel, cap_kernel;
	/* (symbol slot, 0), or for PCs without a symbol (0, their mapping's slot) -> histogram, as pc_latency rows come */
	struct latency_hist_map by_symbol;
	/* at the end (ch_functions_write) */
	uint32_t *fn_of;     /* symbol -> function + 1 */
	int64_t *first_id;   /* function -> its smallest symbol id */
	uint32_t n_fn;
	/* groups n_fn + 1 ..: no symbol, in a kernel map path; its smallest mapping id */
	int64_t *kernel_map;
	uint32_t n_kernel_fn;
	size_t cap_kernel_fn;
	struct latency_hist_map groups; /* function (n_fn: no symbol, then the kernel maps') -> histogram */
};

/* A new capture: forget the last (and free its memory). */
void ch_functions_begin(struct ch_functions *f, int64_t source_id);
/* The capture's symbols and mappings, as the sink receives them.  0, or -1 without memory. */
int ch_functions_symbol(struct ch_functions *f, const struct spe_row_symbol *r);
int ch_functions_mapping(struct ch_functions *f, int64_t id, const char *path, int kernel);
/*
 * Count a PC's histogram into its symbol's, or without one its mapping's
 * (@p mapping_id, its instruction's; 0: none).  0, or -1 without memory.
 */
int ch_functions_pc_latency(struct ch_functions *f, const struct spe_row_pc_histogram *r, int64_t mapping_id);
/* The RowBinary rows of function_stat and function_latency (once every row is in).  0, or -1 without memory. */
int ch_functions_write(struct ch_functions *f, struct ch_buf *stat, struct ch_buf *latency);
void ch_functions_fini(struct ch_functions *f);

#endif
