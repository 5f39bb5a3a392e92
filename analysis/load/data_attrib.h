/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attribution of data addresses to data objects during a load (rows of
 * `data_object`, spe_record.data_object_id; docs/schema.md).  The loader
 * hands over the process's executable mappings (images, whose variables
 * data_object.c finds through their program headers) and its data
 * mappings (MMAP2 without PROT_EXEC: heap, stack, anonymous, files), then
 * asks for the object of each record's data address.
 *
 * Lookups are memoized per (pid, 4 KiB page): a page that lies in one data
 * mapping resolves to its object at once, a page of a binary to the binary
 * (then one binary search among its variables).
 */
#ifndef SPE_DATA_ATTRIB_H
#define SPE_DATA_ATTRIB_H

#include <stdint.h>

#include "ana/data_object.h"
#include "build_id_table.h"
#include "pc_cache.h"
#include "spe/row_sink.h"

struct dattr_image;
struct dattr_map;

struct data_attrib {
	const struct spe_row_sink *sink; /* data_object rows go here */
	struct spe_row_ids *next;        /* the load's next free ids */
	int64_t source_id;
	struct spe_symbolizer *sym; /* NULL: no binaries are read (only mappings name objects) */
	const struct build_id_table *recorded_ids; /* the ids of mappings whose MMAP2 has none */
	struct dattr_image *images;
	size_t n_images, cap_images;
	struct dattr_map *maps;
	size_t n_maps, cap_maps;
	struct pc_cache pages;   /* (pid, page) -> -(image index + 1), or the object id (0: none) */
	struct pc_cache objects; /* (pid, kind, runtime start) -> object id */
	uint64_t unresolved;     /* user data addresses in no object */
	char err[256];
};

void ana_data_attrib_init(struct data_attrib *a, const struct spe_row_sink *sink, struct spe_row_ids *next,
			  int64_t source_id, struct spe_symbolizer *sym, const struct build_id_table *recorded_ids);
void ana_data_attrib_fini(struct data_attrib *a);

/* An executable mapping of @p pid (row @p mapping_id of `mapping`). */
int ana_data_attrib_add_image(struct data_attrib *a, int pid, uint64_t start, uint64_t len, uint64_t pgoff,
			      const char *path, const char *build_id, int64_t mapping_id);
/* A data mapping of @p pid (row @p mapping_id). */
int ana_data_attrib_add_map(struct data_attrib *a, int pid, uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot,
			    uint32_t flags, const char *path, int64_t mapping_id);

/*
 * The data_object id of user address @p va in @p pid: > 0, 0 when no object
 * holds it (counted in a->unresolved), < 0 on a sink or memory error
 * (message in a->err, or the sink's errmsg).
 */
int64_t ana_data_attrib_resolve(struct data_attrib *a, int pid, uint64_t va);
/* A hint: start loading the memo entry ana_data_attrib_resolve(@p a, @p pid, @p va) will read. */
void ana_data_attrib_prefetch(const struct data_attrib *a, int pid, uint64_t va);

#endif
