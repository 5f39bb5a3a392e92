/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A book of names by row id: the names of the symbol rows (or of the
 * data_object rows) a load writes, so that cacheline_stat can store a
 * line's names as text instead of its ids (schema 8: the view joined each
 * row's id list to its names, 1 s at 10 M records).
 *
 * Each distinct name is stored once (a function name repeats in every
 * mapping of its binary); a row id maps to its name's number.  The loader
 * adds a row's name when it writes the row (resolve.c, data_attrib.c), and
 * a load's lines only ever name the rows it wrote itself: each load numbers
 * its own symbol and data_object rows, from the first free ids of the
 * database at its begin, so an --append never needs an earlier load's.
 *
 * Zeroed is empty.
 */
#ifndef SPE_NAME_BOOK_H
#define SPE_NAME_BOOK_H

#include <stddef.h>
#include <stdint.h>

#include "pc_cache.h"

struct name_book {
	struct pc_cache ids;  /* row id -> name number */
	char *text;           /* the names, each once, NUL-terminated, one after the other */
	size_t text_len, text_cap;
	size_t *starts;       /* name number -> its offset in text */
	size_t n_names, starts_cap;
	uint32_t *slots;      /* open addressing on the names' hash: name number + 1, 0 = empty */
	size_t slot_cap;      /* a power of two, or 0 */
	uint32_t *seen;       /* ana_name_book_list's marks: name number -> the last call that listed it */
	size_t seen_cap;
	uint32_t call;        /* ana_name_book_list's calls, for the marks */
	char *list;           /* the last list */
	size_t list_cap;
};

/*
 * Row @p id is named @p name (a row's name is set once; another call for
 * the same id replaces it).  0, or -spe_nomem.
 */
int ana_name_book_add(struct name_book *b, int64_t id, const char *name);

/* The name of row @p id, or NULL when the book has none. */
const char *ana_name_book_name(const struct name_book *b, int64_t id);

/*
 * The names of rows @p ids[0..@p n) (distinct ids, in first-seen order) as
 * SQL's group_concat(DISTINCT name) over those rows in that order gives
 * them: joined by ',', a name that an earlier id already gave left out, an
 * id the book does not know skipped (as a join finds no row for it).
 * *@p out: the text, valid until the next call or ana_name_book_free; NULL
 * when no id has a name (SQL's NULL).  0, or -spe_nomem.
 */
int ana_name_book_list(struct name_book *b, const int64_t *ids, size_t n, const char **out);

void ana_name_book_free(struct name_book *b);

#endif
