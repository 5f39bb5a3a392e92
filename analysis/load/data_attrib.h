/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attribution of data addresses to data objects during a load (rows of
 * `data_object`, spe_record.data_object_id; docs/schema.md).  A record's
 * data address is looked up in its process's address space at the record's
 * time (processes.h): a variable of one of the process's executable images
 * (data_object.c finds them through the images' program headers: .data and
 * .bss lie in the binary's span whichever mapping holds them), else the
 * data mapping holding it (heap, stack, anonymous, files: MMAP2 without
 * PROT_EXEC).
 *
 * Lookups are memoized per (address space, 4 KiB page) while the map found
 * there is still the one there: a page of a data mapping resolves to its
 * object at once, a page of a binary to the binary (then one binary search
 * among its variables).
 */
#ifndef SPE_DATA_ATTRIB_H
#define SPE_DATA_ATTRIB_H

#include <stdint.h>

#include "ana/data_object.h"
#include "attribution.h"
#include "addr_memo.h"
#include "util/hash_map.h"
#include "spe/row_sink.h"

struct dattr_image;
struct dattr_space;

struct data_attrib {
	const struct spe_row_sink *sink; /* data_object rows go here */
	struct spe_row_ids *next;        /* the load's next free ids */
	int64_t source_id;
	struct spe_symbolizer *sym;      /* NULL: no binaries are read (only mappings name objects) */
	struct attribution *at;          /* the mapping rows and the process model */
	struct dattr_image *images;      /* by mapping row index: the variables of executable mappings */
	size_t n_images;
	struct dattr_space *spaces;      /* by address space: the spans of its images that have variables */
	size_t n_spaces;
	struct addr_memo pages;          /* (space, page) -> what it gave and when (see data_attrib.c) */
	struct util_map objects;         /* (pid, kind, runtime start) -> object id */
	uint64_t unresolved;             /* user data addresses in no object */
	char err[256];
};

void ana_data_attrib_init(struct data_attrib *a, const struct spe_row_sink *sink, struct spe_row_ids *next,
			  int64_t source_id, struct spe_symbolizer *sym, struct attribution *at);
void ana_data_attrib_fini(struct data_attrib *a);

/*
 * The data_object id of user address @p va in address space @p space at
 * @p time: > 0, 0 when no object holds it (counted in a->unresolved), < 0
 * on a sink or memory error (message in a->err, or the sink's errmsg).
 */
int64_t ana_data_attrib_resolve(struct data_attrib *a, uint32_t space, uint64_t va, uint64_t time);
/* A hint: start loading the memo entry ana_data_attrib_resolve(@p a, @p space, @p va) will read. */
void ana_data_attrib_prefetch(const struct data_attrib *a, uint32_t space, uint64_t va);

#endif
