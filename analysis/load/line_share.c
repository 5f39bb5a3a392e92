/* SPDX-License-Identifier: Apache-2.0 */
/* cacheline_sharing's lines: written lines in memory, the other accesses spilled (line_share.h). */
#include "line_share.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/grow.h"

#define SPILL_BATCH 8192 /* accesses per write and read of the spill: 256 KiB */

/* The hash of a line's key (util_map's): its slot from the low bits, its tag and filter bits from the high ones. */
static uint64_t line_hash(const struct line_share *s, int64_t line, int32_t pid)
{
	struct line_key k = { line, pid };
	return util_map_hash(&s->lines, &k);
}

#define FILTER_WORDS(cap) ((cap) / 16) /* 4 bits a slot: 5 to 11 a line, a small fraction of the slots' bytes */

/*
 * The filter's word of hash @p h, and its two bits there (a Bloom filter
 * of the written lines, blocked in words: most accesses are to lines not
 * written, and one word in cache says so for all but about 5 % of them).
 */
static size_t filter_word(const struct line_share *s, uint64_t h)
{
	return (size_t)(h >> 44) & (FILTER_WORDS(s->filter_cap) - 1);
}

static uint64_t filter_bits(uint64_t h)
{
	return UINT64_C(1) << (h >> 32 & 63) | UINT64_C(1) << (h >> 38 & 63);
}

static int maybe_written(const struct line_share *s, uint64_t h)
{
	uint64_t bits = filter_bits(h);
	return s->filter_cap && (s->filter[filter_word(s, h)] & bits) == bits;
}

/* The number of written line (@p line, @p pid) of hash @p h, -1 if it has none. */
static int64_t find(const struct line_share *s, int64_t line, int32_t pid, uint64_t h)
{
	if (!maybe_written(s, h))
		return -1;
	struct line_key k = { line, pid };
	return util_map_find(&s->lines, &k, h);
}

/* The filter for as many slots as lines has, rebuilt from its keys when they grew.  0, or -1 without memory. */
static int fit_filter(struct line_share *s)
{
	if (s->filter_cap == s->lines.cap)
		return 0;
	size_t cap = s->lines.cap < 64 ? 64 : s->lines.cap;
	uint64_t *filter = calloc(FILTER_WORDS(cap), sizeof *filter);
	if (!filter)
		return -1;
	free(s->filter);
	s->filter = filter;
	s->filter_cap = cap;
	for (size_t n = 0; n < s->lines.n; n++) {
		uint64_t h = util_map_hash(&s->lines, util_map_key(&s->lines, n));
		s->filter[filter_word(s, h)] |= filter_bits(h);
	}
	return 0;
}

/* A new written line: its number, or -1 without memory. */
static int64_t insert(struct line_share *s, int64_t line, int32_t pid, uint64_t h)
{
	struct line_key k = { line, pid };
	int64_t n = util_map_add(&s->lines, &k, h, NULL);
	if (n < 0 || fit_filter(s) < 0)
		return -1;
	s->filter[filter_word(s, h)] |= filter_bits(h);
	return n;
}

/* Count access @p a in line @p n of @p c.  0, or -1 without memory. */
static int add_access(struct line_counts *c, size_t n, const struct line_access *a)
{
	if (util_grow_zeroed((void **)&c->lines, &c->cap, n, sizeof *c->lines) < 0)
		return -1;
	struct line_count *l = &c->lines[n];
	l->accesses++;
	for (unsigned i = 0; i < LS_TOTAL_LATENCY; i++)
		l->sum[i] += a->sums >> i & 1;
	l->known |= (uint16_t)(a->sums >> 16);
	if (a->sums & LA_KNOWN(LS_TOTAL_LATENCY))
		l->total_latency += a->latency;
	l->offsets |= UINT64_C(1) << (a->data_va & 63);
	int64_t first = l->cpu0;
	int rc = ana_value_pool_add(&c->values, &l->more, VALUE_CPU, a->cpu, l->cpus > 0, &first);
	if (rc > 0 && !l->cpus)
		l->cpu0 = (int32_t)first;
	l->cpus += rc > 0;
	if (rc >= 0 && a->tid >= 0) {
		first = l->tid0;
		rc = ana_value_pool_add(&c->values, &l->more, VALUE_TID, a->tid, l->threads > 0, &first);
		if (rc > 0 && !l->threads)
			l->tid0 = (int32_t)first;
		l->threads += rc > 0;
	}
	if (rc >= 0 && a->symbol)
		rc = ana_value_pool_add(&c->values, &l->more, VALUE_SYMBOL, a->symbol, l->symbol0 != 0, &l->symbol0);
	if (rc >= 0 && a->object)
		rc = ana_value_pool_add(&c->values, &l->more, VALUE_OBJECT, a->object, l->object0 != 0, &l->object0);
	return rc < 0 ? -1 : 0;
}

static void free_counts(struct line_counts *c)
{
	free(c->lines);
	ana_value_pool_fini(&c->values);
	memset(c, 0, sizeof *c);
}

/* Past the budget: no rows, and nothing more kept. */
static void drop(struct line_share *s)
{
	ana_line_share_fini(s);
	s->dropped = 1;
}

/* An unlinked file in $TMPDIR (else /tmp) for the spill, NULL if there is none. */
static FILE *spill_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	if (snprintf(path, sizeof path, "%s/spekit-lines-XXXXXX", dir && *dir ? dir : "/tmp") >= (int)sizeof path)
		return NULL;
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	unlink(path);
	FILE *f = fdopen(fd, "w+b");
	if (!f)
		close(fd);
	return f;
}

/* Write the buffer to the spill file.  0, or -1 when it cannot be written. */
static int flush_spill(struct line_share *s)
{
	if (!s->n_buf)
		return 0;
	if (!s->spill && !(s->spill = spill_file()))
		return -1;
	if (fwrite(s->buf, sizeof *s->buf, s->n_buf, s->spill) != s->n_buf)
		return -1;
	s->spilled += s->n_buf;
	s->n_buf = 0;
	return 0;
}

/* Keep an access to a line not written so far.  0, or -1 without memory. */
static int spill(struct line_share *s, const struct line_access *a)
{
	if (!s->buf && !(s->buf = malloc(SPILL_BATCH * sizeof *s->buf)))
		return -1;
	s->buf[s->n_buf++] = *a;
	if (s->n_buf == SPILL_BATCH && (s->spilled + s->n_buf > LINE_SPILL_MAX || flush_spill(s) < 0))
		drop(s);
	return 0;
}

/* Count one access now. */
static int count_now(struct line_share *s, const struct line_access *a, uint64_t h)
{
	int64_t line = (int64_t)a->data_va >> 6;
	int64_t n = find(s, line, a->pid, h);
	if (n < 0) {
		if (!(a->sums & LA_VALUE(LS_WRITES)))
			return spill(s, a);
		if (s->lines.n >= s->budget) {
			drop(s);
			return 0;
		}
		if ((n = insert(s, line, a->pid, h)) < 0)
			return -1;
	}
	return add_access(&s->after, (size_t)n, a);
}

/*
 * Count the pending accesses, in order: what each reads (its filter word,
 * slot, key, counts and run of values) is fetched first, a stage at a time
 * for all of them (one access at a time, each was a cache miss).
 */
static int count_pending(struct line_share *s)
{
	uint64_t h[LINE_PENDING];
	size_t n = s->n_pending;
	s->n_pending = 0;
	for (size_t i = 0; i < n; i++) {
		h[i] = line_hash(s, (int64_t)s->pending[i].data_va >> 6, s->pending[i].pid);
		if (s->filter_cap)
			__builtin_prefetch(&s->filter[filter_word(s, h[i])]);
	}
	for (size_t i = 0; i < n; i++) /* then the slots of those the filter lets through */
		if (maybe_written(s, h[i]))
			util_map_prefetch(&s->lines, h[i]);
	int64_t found[LINE_PENDING]; /* then the keys and counts of those their slot names, and their runs */
	for (size_t i = 0; i < n; i++) {
		found[i] = maybe_written(s, h[i]) ? util_map_peek(&s->lines, h[i]) : -1; /* the key's entry, too */
		if (found[i] >= 0 && (size_t)found[i] < s->after.cap)
			__builtin_prefetch(&s->after.lines[found[i]]);
		else
			found[i] = -1;
	}
	for (size_t i = 0; i < n; i++)
		if (found[i] >= 0 && s->after.lines[found[i]].more)
			__builtin_prefetch(&s->after.values.entries[s->after.lines[found[i]].more]);
	for (size_t i = 0; i < n && !s->dropped; i++)
		if (count_now(s, &s->pending[i], h[i]) < 0)
			return -1;
	return 0;
}

int ana_line_share_count(struct line_share *s, const struct line_access *a, size_t budget)
{
	if (s->dropped)
		return 0;
	s->budget = budget;
	s->pending[s->n_pending++] = *a;
	return s->n_pending == LINE_PENDING ? count_pending(s) : 0;
}

int ana_line_share_id(struct line_share *s, enum line_id_kind kind, int64_t id, uint32_t *out)
{
	*out = 0;
	if (!id)
		return 0;
	if (!(s->id_based >> kind & 1)) {
		s->id_base[kind] = id - (INT64_C(1) << 31);
		s->id_based |= 1u << kind;
	}
	int64_t d = id - s->id_base[kind];
	if (d < 1 || d > UINT32_MAX)
		return -1;
	*out = (uint32_t)d;
	return 0;
}

int ana_line_share_unwritten(struct line_share *s, const struct line_access *a)
{
	return s->dropped ? 0 : spill(s, a);
}

/* Count the spilled accesses @p a[0..n) of written lines in their counts before the first write. */
static int read_back(struct line_share *s, const struct line_access *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int64_t line = (int64_t)a[i].data_va >> 6;
		int64_t k = find(s, line, a[i].pid, line_hash(s, line, a[i].pid));
		if (k >= 0 && add_access(&s->before, (size_t)k, &a[i]) < 0)
			return -1;
	}
	return 0;
}

int ana_line_share_finish(struct line_share *s)
{
	if (s->dropped || s->finished)
		return 0;
	if (count_pending(s) < 0)
		return -1;
	if (s->dropped)
		return 0;
	s->finished = 1;
	int rc = 0;
	if (s->lines.n && s->spill) { /* all of it through the file, in the order it came */
		if (flush_spill(s) < 0 || fflush(s->spill) != 0 || fseek(s->spill, 0, SEEK_SET) != 0) {
			drop(s); /* cannot be read back: the view scans */
			return 0;
		}
		for (uint64_t left = s->spilled; left && rc == 0;) {
			size_t want = left < SPILL_BATCH ? (size_t)left : SPILL_BATCH;
			if (fread(s->buf, sizeof *s->buf, want, s->spill) != want) {
				drop(s);
				return 0;
			}
			rc = read_back(s, s->buf, want);
			left -= want;
		}
	} else if (s->lines.n) {
		rc = read_back(s, s->buf, s->n_buf);
	}
	if (s->spill)
		fclose(s->spill);
	s->spill = NULL;
	free(s->buf);
	s->buf = NULL;
	s->n_buf = s->spilled = 0;
	return rc;
}

/* A line's values of @p kind in @p p into @p out: their number. */
static size_t values_of(const struct value_pool *p, const struct line_count *l, unsigned kind, int64_t *out)
{
	switch (kind) {
	case VALUE_CPU:
		return ana_value_pool_list(p, l->more, kind, l->cpus > 0, l->cpu0, out);
	case VALUE_TID:
		return ana_value_pool_list(p, l->more, kind, l->threads > 0, l->tid0, out);
	case VALUE_SYMBOL:
		return ana_value_pool_list(p, l->more, kind, l->symbol0 != 0, l->symbol0, out);
	default:
		return ana_value_pool_list(p, l->more, kind, l->object0 != 0, l->object0, out);
	}
}

/*
 * Line @p n's values of @p kind, before its first write and after, into
 * @p out in first-seen order (@p tmp: room for the latter): their number.
 */
static size_t merged_values(const struct line_share *s, size_t n, unsigned kind, int64_t *out, int64_t *tmp)
{
	size_t k = n < s->before.cap ? values_of(&s->before.values, &s->before.lines[n], kind, out) : 0;
	size_t m = values_of(&s->after.values, &s->after.lines[n], kind, tmp);
	for (size_t i = 0; i < m; i++) {
		size_t j = 0;
		while (j < k && out[j] != tmp[i])
			j++;
		if (j == k)
			out[k++] = tmp[i];
	}
	return k;
}

static int64_t null_sum(const struct line_count *l, enum line_sum i)
{
	return l->known >> i & 1 ? (int64_t)(i == LS_TOTAL_LATENCY ? l->total_latency : l->sum[i]) : -1;
}

int ana_line_share_write(const struct line_share *s, const struct spe_row_sink *sink, int64_t source_id)
{
	if (s->dropped || !s->lines.n)
		return 0;
	/* a line's values of a kind: its runs and firsts before and after the first write */
	size_t room = ana_value_pool_widest(&s->before.values) + ana_value_pool_widest(&s->after.values) + 2;
	int64_t *ids = malloc(3 * room * sizeof *ids);
	if (!ids)
		return -spe_nomem;
	int64_t *symbols = ids, *objects = ids + room, *tmp = ids + 2 * room;
	int rc = 0;
	for (size_t n = 0; n < s->lines.n && rc == 0; n++) {
		struct line_count m = s->after.lines[n];
		if (n < s->before.cap) {
			const struct line_count *b = &s->before.lines[n];
			m.accesses += b->accesses;
			for (unsigned i = 0; i < LS_TOTAL_LATENCY; i++)
				m.sum[i] += b->sum[i];
			m.known |= b->known;
			m.total_latency += b->total_latency;
			m.offsets |= b->offsets;
		}
		/* written (its first write is in after): shown when two CPUs or threads touched it */
		size_t cpus = merged_values(s, n, VALUE_CPU, symbols, tmp);
		size_t threads = merged_values(s, n, VALUE_TID, symbols, tmp);
		if (cpus < 2 && threads < 2)
			continue;
		size_t n_symbols = merged_values(s, n, VALUE_SYMBOL, symbols, tmp);
		size_t n_objects = merged_values(s, n, VALUE_OBJECT, objects, tmp);
		for (size_t i = 0; i < n_symbols; i++)
			symbols[i] += s->id_base[LINE_ID_SYMBOL];
		for (size_t i = 0; i < n_objects; i++)
			objects[i] += s->id_base[LINE_ID_OBJECT];
		struct spe_row_cacheline_stat row = {
			.source_id = source_id,
			.pid = (int32_t)((const struct line_key *)util_map_key(&s->lines, n))->pid,
			.line = (uint64_t)((const struct line_key *)util_map_key(&s->lines, n))->line,
			.accesses = m.accesses,
			.loads = null_sum(&m, LS_LOADS),
			.stores = null_sum(&m, LS_STORES),
			.cpus = (uint32_t)cpus,
			.threads = (uint32_t)threads,
			.offsets = (uint32_t)__builtin_popcountll(m.offsets),
			.snooped = null_sum(&m, LS_SNOOPED),
			.hitm = null_sum(&m, LS_HITM),
			.peer_hits = null_sum(&m, LS_PEER_HITS),
			.total_latency = null_sum(&m, LS_TOTAL_LATENCY),
			.atomics = null_sum(&m, LS_ATOMICS),
			.writes = null_sum(&m, LS_WRITES),
			.modified_events = null_sum(&m, LS_MODIFIED_EVENTS),
			.modified_sources = null_sum(&m, LS_MODIFIED_SOURCES),
			.remote_hits = null_sum(&m, LS_REMOTE_HITS),
			.n_symbol_ids = n_symbols,
			.symbol_ids = symbols,
			.n_data_object_ids = n_objects,
			.data_object_ids = objects,
		};
		rc = spe_sink_rows(sink, &row, 1);
	}
	free(ids);
	return rc;
}

void ana_line_share_init(struct line_share *s)
{
	memset(s, 0, sizeof *s);
	util_map_init(&s->lines, sizeof(struct line_key), 0);
}

void ana_line_share_fini(struct line_share *s)
{
	util_map_fini(&s->lines);
	free(s->filter);
	free_counts(&s->after);
	free_counts(&s->before);
	free(s->buf);
	if (s->spill)
		fclose(s->spill);
	memset(s, 0, sizeof *s);
}
