/* SPDX-License-Identifier: Apache-2.0 */
/* The loader's counting of the records (record_tally.h). */
#include "record_tally.h"

#include <string.h>

#include "spe/spe.h"

#define SET(row, c) ((row)->present >> SPE_RECORD_COL_##c & 1)
#define VAL(row, c) ((uint64_t)(row)->col[SPE_RECORD_COL_##c].i)

/*
 * The record a row was built from, as far as the row keeps it (the loader's
 * record_row): the counters, events, addresses, data source, timestamp and
 * op type; the PC only where the row stores it (else it is the insn's).
 * Fields whose SPE_HAS_ bit is clear are left as they were.
 */
static void record_of_row(const struct spe_row_record *row, struct spe_record *rec)
{
	uint32_t has = 0;
#define FIELD(c, field, bit)                                      \
	do {                                                      \
		if (SET(row, c)) {                                \
			rec->field = (__typeof__(rec->field))VAL(row, c); \
			has |= SPE_HAS_##bit;                     \
		}                                                 \
	} while (0)
	FIELD(TS, timestamp, TIMESTAMP);
	FIELD(PC, pc.addr, PC);
	FIELD(EVENTS, events, EVENTS);
	FIELD(COUNTER_TOTAL, total_latency, TOTAL_LATENCY);
	FIELD(COUNTER_ISSUE, issue_latency, ISSUE_LATENCY);
	FIELD(COUNTER_TRANSLATION, translation_latency, TRANSLATION_LATENCY);
	FIELD(DATA_VA, data_va, DATA_VA);
	FIELD(DATA_PA, data_pa, DATA_PA);
	FIELD(DATA_SOURCE, data_source, DATA_SOURCE);
	FIELD(BRANCH_TARGET, branch_target.addr, BRANCH_TARGET);
	FIELD(PREV_BRANCH_TARGET, prev_branch_target.addr, PREV_BRANCH_TARGET);
	FIELD(CONTEXT, context, CONTEXT);
#undef FIELD
	uint64_t codes = VAL(row, CODES);
	if (codes & SPE_CODES_CONTEXT_IS_TID) {
		rec->context = (uint32_t)VAL(row, TID);
		has |= SPE_HAS_CONTEXT;
	}
	if (codes & SPE_CODES_HAS_OP) {
		rec->op_raw_class = (uint8_t)(codes >> 8 & 3);
		rec->op_raw = (uint8_t)codes;
		has |= SPE_HAS_OP_TYPE;
	}
	rec->pc.el = (uint8_t)(codes >> SPE_CODES_EL_SHIFT & 3);
	rec->has = has;
}

/*
 * Over tens of thousands of data pages, finding a record's page is two
 * cache misses (the index, then the page's entry); the rows of a batch are
 * known in advance, so both are started ahead, in two steps.
 */
#define PREFETCH_FAR 16
#define PREFETCH_NEAR 8

static void prefetch(const struct record_tally *t, const struct spe_row_record *row, int step)
{
	if (SET(row, DATA_VA))
		ana_record_summary_prefetch(&t->summary, SET(row, PID) ? (int)VAL(row, PID) : -1, VAL(row, DATA_VA), step);
}

int ana_record_tally(struct record_tally *t, const struct spe_row_record *rows, const struct tally_note *notes,
		     size_t n)
{
	struct spe_record rec;
	memset(&rec, 0, sizeof rec);
	/* the first rows' index entries too, so their misses overlap rather than come one by one */
	for (size_t i = 0; i < PREFETCH_FAR && i < n; i++)
		prefetch(t, &rows[i], 0);
	for (size_t i = 0; i < n; i++) {
		/* the data page's entries of the records PREFETCH_FAR and PREFETCH_NEAR ahead: see prefetch() */
		if (i + PREFETCH_FAR < n)
			prefetch(t, &rows[i + PREFETCH_FAR], 0);
		if (i + PREFETCH_NEAR < n)
			prefetch(t, &rows[i + PREFETCH_NEAR], 1);
		const struct spe_row_record *row = &rows[i];
		const struct tally_note *note = &notes[i];
		record_of_row(row, &rec);
		struct record_where w = { .cpu = (int)VAL(row, CPU),
					  .pid = SET(row, PID) ? (int)VAL(row, PID) : -1,
					  .tid = SET(row, TID) ? (int)VAL(row, TID) : -1,
					  .midr = note->midr,
					  .symbol_id = note->symbol_id,
					  .object_id = SET(row, DATA_OBJECT_ID) ? (int64_t)VAL(row, DATA_OBJECT_ID) : 0 };
		if (ana_record_summary_count(&t->summary, &rec, VAL(row, CODES), note->group, &w) < 0)
			return -spe_nomem;
		if (w.object_id && ana_object_tally_count(&t->objects, w.object_id, VAL(row, CODES), &rec) < 0)
			return -spe_nomem;
		if (note->symbol_id && ana_op_class_of(VAL(row, CODES)) == SPE_OP_CLASS_LOAD + 1 &&
		    ana_pc_level_count(&t->pc_levels, note->group,
				       (unsigned)(VAL(row, CODES) >> SPE_CODES_MEM_LEVEL_SHIFT & 31)) < 0)
			return -spe_nomem;
	}
	return 0;
}

int ana_record_tally_stage(void *ctx, const struct spe_row_record *rows, const void *notes, size_t n)
{
	return ana_record_tally(ctx, rows, notes, n);
}

int ana_record_tally_settle(struct record_tally *t)
{
	return ana_record_summary_settle(&t->summary) < 0 ? -spe_nomem : 0;
}

void ana_record_tally_init(struct record_tally *t)
{
	ana_record_summary_init(&t->summary);
	ana_object_tally_init(&t->objects);
	ana_pc_level_init(&t->pc_levels);
}

void ana_record_tally_fini(struct record_tally *t)
{
	ana_record_summary_fini(&t->summary);
	ana_object_tally_fini(&t->objects);
	ana_pc_level_fini(&t->pc_levels);
}
