/* SPDX-License-Identifier: Apache-2.0 */
/* The summaries of the records (record_summary.h). */
#include "record_summary.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "spe/analysis.h" /* SPE_LOAD_LINE_BUDGET, SPE_LOAD_PAGE_BUDGET */
#include "util/grow.h"

#define HAS(f) (rec->has & SPE_HAS_##f)

_Static_assert(sizeof(struct page_count) == 64, "a page's counts are one cache line");

#define OP_ATOMIC 0x80 /* op_info(): the op is atomic (its text has the word AT) */

/*
 * The op class of a `codes` op field, as spe_op_code (schema.c) names it:
 * enum spe_op_class + 1, 0 = none; OR OP_ATOMIC for atomics.
 */
static unsigned op_info(uint64_t codes)
{
	static uint8_t table[1024];
	static int built;
	if (!built) { /* the same for every loader: a race writes the same bytes */
		for (unsigned raw = 0; raw < 1024; raw++) {
			uint8_t cls;
			uint32_t flags;
			uint16_t evl;
			spe_op_decode((uint8_t)(raw >> 8), (uint8_t)raw, &cls, &flags, &evl);
			table[raw] = (uint8_t)((cls + 1 < SUMMARY_OP_CLASSES ? cls + 1 : SUMMARY_OP_CLASSES - 1) |
					       (flags & SPE_OPF(ATOMIC) ? OP_ATOMIC : 0));
		}
		built = 1;
	}
	return (codes & SPE_CODES_HAS_OP) ? table[codes & SPE_CODES_OP_RAW_MASK] : 0;
}

/* latency_histogram's buckets: 0, then k + 1 for [2^k, 2^(k+1)). */
static unsigned bucket_of(uint32_t latency)
{
	return latency ? 32u - (unsigned)__builtin_clz(latency) : 0;
}

static int64_t bucket_lo(unsigned b)
{
	return b ? INT64_C(1) << (b - 1) : 0;
}

/* SQL's three values: NULL, false, true. */
enum { SQL_NULL = -1 };

static int sql_and(int a, int b)
{
	return !a || !b ? 0 : a == SQL_NULL || b == SQL_NULL ? SQL_NULL : 1;
}

static int sql_or(int a, int b)
{
	return a == 1 || b == 1 ? 1 : a == SQL_NULL || b == SQL_NULL ? SQL_NULL : 0;
}

/* A value of the view's SQL (SQL_NULL: none) as struct line_access's bits of sum @p i. */
static uint32_t sum_bits(enum line_sum i, int v)
{
	return v == SQL_NULL ? 0 : LA_KNOWN(i) | (v ? LA_VALUE(i) : 0);
}

/*
 * cacheline_sharing's sums, each the value its SQL gives the record (with
 * SQL's NULLs): see the view in memory_schema.c.
 */
static int count_line(struct record_summary *s, const struct spe_record *rec, unsigned info, const struct record_where *w,
		      struct page_count *page)
{
	if (s->lines.dropped)
		return 0;
	unsigned cls = info & ~OP_ATOMIC;
	int is_load = cls ? cls == SPE_OP_CLASS_LOAD + 1 : SQL_NULL;
	int is_store = cls ? cls == SPE_OP_CLASS_STORE + 1 : SQL_NULL;
	int atomic = cls ? !!(info & OP_ATOMIC) : SQL_NULL;
	int snooped = HAS(EVENTS) ? (int)(rec->events >> SPE_EV_DATA_SNOOPED & 1) : SQL_NULL;
	int modified_event = HAS(EVENTS) ? (int)(rec->events >> SPE_EV_CACHE_DATA_MODIFIED & 1) : SQL_NULL;
	int peer = SQL_NULL, remote = SQL_NULL, modified_source = SQL_NULL;
	if (HAS(DATA_SOURCE)) {
		int modified = 0;
		int level = spe_mem_level(w->midr, rec->data_source, &modified);
		if (level >= 0) {
			peer = spe_mem_level_is_peer(level);
			remote = spe_mem_level_is_remote(level);
			modified_source = !!modified;
		}
	}
	struct line_access a = {
		.data_va = rec->data_va,
		.pid = w->pid,
		.tid = w->tid,
		.sums = sum_bits(LS_LOADS, is_load) | sum_bits(LS_STORES, is_store) | sum_bits(LS_SNOOPED, snooped) |
			sum_bits(LS_HITM, sql_and(is_load, sql_or(modified_event, modified_source))) |
			sum_bits(LS_PEER_HITS, sql_and(is_load, peer)) | sum_bits(LS_ATOMICS, atomic) |
			sum_bits(LS_WRITES, sql_or(is_store, atomic)) | sum_bits(LS_MODIFIED_EVENTS, modified_event) |
			sum_bits(LS_MODIFIED_SOURCES, modified_source) |
			sum_bits(LS_REMOTE_HITS, sql_and(is_load, remote)) |
			(HAS(TOTAL_LATENCY) ? LA_KNOWN(LS_TOTAL_LATENCY) : 0),
		.latency = rec->total_latency,
		.cpu = (uint16_t)w->cpu,
	};
	if (ana_line_share_id(&s->lines, LINE_ID_SYMBOL, w->symbol_id, &a.symbol) < 0 ||
	    ana_line_share_id(&s->lines, LINE_ID_OBJECT, w->object_id, &a.object) < 0) {
		/* ids 2^31 apart in one load (never yet): the view scans this source */
		ana_line_share_fini(&s->lines);
		s->lines.dropped = 1;
		return 0;
	}
	/* a line of a page nothing wrote is not written: no need to look it up (most of a capture's lines) */
	if (!(a.sums & LA_VALUE(LS_WRITES)) && !page->written)
		return ana_line_share_unwritten(&s->lines, &a);
	page->written |= !!(a.sums & LA_VALUE(LS_WRITES));
	return ana_line_share_count(&s->lines, &a, s->line_budget ? s->line_budget : SPE_LOAD_LINE_BUDGET);
}

int ana_record_summary_numa_range(struct record_summary *s, uint32_t node, uint64_t start, uint64_t end)
{
	if (s->counted) /* the loads counted so far would have no node */
		return -spe_invalid;
	struct numa_range *r = realloc(s->ranges, (s->n_ranges + 1) * sizeof *r);
	if (!r)
		return -spe_nomem;
	r[s->n_ranges++] = (struct numa_range){ .start = start, .end = end, .node = node };
	s->ranges = r;
	return 0;
}

/* Add a load to the (CPU, place) row of @p key. */
static int add_numa(struct record_summary *s, const struct spe_record *rec, const struct latency_key *key)
{
	int64_t n = s->numa_last_n;
	if (!s->numa_cap || memcmp(key, &s->numa_last, sizeof *key)) {
		n = util_map_add(&s->numa_index, key, util_map_hash(&s->numa_index, key), NULL);
		if (n < 0 || util_grow_zeroed((void **)&s->numa, &s->numa_cap, (size_t)n, sizeof *s->numa) < 0)
			return -1;
		s->numa_last = *key;
		s->numa_last_n = n;
	}
	struct numa_count *c = &s->numa[n];
	c->loads++;
	if (HAS(TOTAL_LATENCY)) {
		c->timed++;
		c->total_latency += rec->total_latency;
	}
	if (HAS(EVENTS)) {
		c->evented++;
		c->remote_access += rec->events >> SPE_EV_REMOTE_ACCESS & 1;
	}
	return 0;
}

/*
 * numa_traffic's groups: a load with a physical address counts once for
 * each NUMA range holding it (the view's LEFT JOIN: none gives node NULL);
 * one without, by its data source (the view asks the facts if it is remote).
 */
static int count_numa(struct record_summary *s, const struct spe_record *rec, const struct record_where *w)
{
	struct latency_key key = { { (uint64_t)(int64_t)w->cpu, 0, 0 } };
	if (!HAS(DATA_PA)) {
		key.w[1] = HAS(DATA_SOURCE) ? 2 : 0;
		key.w[2] = HAS(DATA_SOURCE) ? rec->data_source : 0;
		return add_numa(s, rec, &key);
	}
	key.w[1] = 1;
	int found = 0;
	for (size_t i = 0; i < s->n_ranges; i++) {
		const struct numa_range *r = &s->ranges[i];
		/* the view compares as SQL's signed integers */
		if ((int64_t)rec->data_pa >= (int64_t)r->start && (int64_t)rec->data_pa < (int64_t)r->end) {
			key.w[2] = (uint64_t)r->node + 1;
			found = 1;
			if (add_numa(s, rec, &key) < 0)
				return -1;
		}
	}
	return found ? 0 : add_numa(s, rec, &key);
}

/* The late-prefetch event bit of the part @p midr names (the facts table's), -1 when it has none. */
static int late_bit(struct record_summary *s, uint32_t midr)
{
	if (!s->late_valid || s->late_midr != midr) {
		s->late_bit = midr ? spe_impdef_event_bit(midr, "late_prefetch") : -1;
		s->late_midr = midr;
		s->late_valid = 1;
	}
	return s->late_bit;
}

/*
 * What a load is to prefetch, in the 32 bits above its group in a pending
 * word: its total latency + 1 (0: none; the counter is 16 bits), then flags.
 */
#define PF_LATENCY_MASK 0x1ffffu
#define PF_EVENTED (1u << 17)
#define PF_LATE_KNOWN (1u << 18)
#define PF_LATE (1u << 19)
#define PF_FETCHED (1u << 20)
#define PLAIN_PENDING_MAX (1u << 16) /* 512 KiB of words, twice (the sort's buffer) */

static void add_prefetch(struct prefetch_count *c, uint32_t what)
{
	uint32_t lat = what & PF_LATENCY_MASK;
	c->loads++;
	if (lat) {
		c->timed++;
		c->total_latency += lat - 1;
	}
	c->evented += !!(what & PF_EVENTED);
	c->recently_fetched += !!(what & PF_FETCHED);
	c->late_known += !!(what & PF_LATE_KNOWN);
	if (what & PF_LATE) {
		c->late++;
		if (lat) {
			c->late_timed++;
			c->late_latency += lat - 1;
		}
	}
}

/* Add the prefetch counts kept for later.  0, or -1 without memory. */
static int settle_prefetch(struct record_summary *s)
{
	size_t n = s->n_plain_pending;
	if (!n)
		return 0;
	/* by group: the counts are then added in address order, not at random (2 s of cache misses at 10 M records) */
	uint64_t *sorted = ana_radix_sort(s->plain_pending, s->plain_sort_tmp, n, 32);
	uint32_t last = (uint32_t)sorted[n - 1]; /* the highest group: the sort is by the 32 bits of the group alone */
	if (util_grow_zeroed((void **)&s->prefetch_plain, &s->prefetch_plain_cap, last, sizeof *s->prefetch_plain) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		add_prefetch(&s->prefetch_plain[(uint32_t)sorted[i]], (uint32_t)(sorted[i] >> 32));
	s->n_plain_pending = 0;
	return 0;
}

int ana_record_summary_settle(struct record_summary *s)
{
	int rc = settle_prefetch(s) < 0 || ana_line_share_finish(&s->lines) < 0 ? -1 : 0;
	s->lines_dropped = s->lines.dropped;
	return rc;
}

/* prefetch's groups: loads by PC group and data object. */
static int count_prefetch(struct record_summary *s, const struct spe_record *rec, uint32_t group,
			  const struct record_where *w)
{
	uint32_t what = HAS(TOTAL_LATENCY) ? (uint32_t)rec->total_latency + 1 : 0;
	if (HAS(EVENTS)) {
		what |= PF_EVENTED | (rec->events >> SPE_EV_RECENTLY_FETCHED & 1 ? PF_FETCHED : 0);
		int bit = late_bit(s, w->midr);
		if (bit >= 0)
			what |= PF_LATE_KNOWN | (rec->events >> bit & 1 ? PF_LATE : 0);
	}
	if (w->object_id) { /* few loads: hashed with their data object, added now */
		struct latency_key key = { { group, (uint64_t)w->object_id, 0 } };
		int64_t n = util_map_add(&s->prefetch_index, &key, util_map_hash(&s->prefetch_index, &key), NULL);
		if (n < 0 || util_grow_zeroed((void **)&s->prefetch, &s->prefetch_cap, (size_t)n, sizeof *s->prefetch) < 0)
			return -1;
		add_prefetch(&s->prefetch[n], what);
		return 0;
	}
	if (!s->plain_sort_tmp) { /* both buffers, or neither: the sort needs the second */
		if (!s->plain_pending && !(s->plain_pending = malloc(PLAIN_PENDING_MAX * sizeof *s->plain_pending)))
			return -1;
		if (!(s->plain_sort_tmp = malloc(PLAIN_PENDING_MAX * sizeof *s->plain_sort_tmp)))
			return -1;
	}
	s->plain_pending[s->n_plain_pending++] = group | (uint64_t)what << 32;
	return s->n_plain_pending == PLAIN_PENDING_MAX ? settle_prefetch(s) : 0;
}

/* data_page's key: (pid + 1, 4 KiB page). */
static struct latency_key page_key(int pid, uint64_t data_va)
{
	return (struct latency_key){ { (uint64_t)(int64_t)pid + 1, (uint64_t)((int64_t)data_va >> 12), 0 } };
}

/* A page's counts of record @p rec (page_stat's columns). */
static inline void add_page(struct page_count *p, const struct spe_record *rec)
{
	p->accesses++;
	if (HAS(EVENTS)) {
		p->evented = 1;
		p->tlb_walks += rec->events >> SPE_EV_TLB_WALK & 1;
	}
	if (HAS(TRANSLATION_LATENCY)) {
		p->translated++;
		p->translation_latency += rec->translation_latency;
	}
	if (HAS(TOTAL_LATENCY)) {
		p->timed++;
		p->total_latency += rec->total_latency;
	}
}

static size_t page_budget(const struct record_summary *s)
{
	return s->page_budget ? s->page_budget : SPE_LOAD_PAGE_BUDGET;
}

/* The (process, 2 MiB region) key of page key @p k, and the page's bit in the region's words. */
static struct latency_key region_key(const struct latency_key *k)
{
	/* the page is data_va >> 12 as a signed value (page_key): the region shifts it as SQL's >> would */
	return (struct latency_key){ { k->w[0], (uint64_t)((int64_t)k->w[1] >> 9), 0 } };
}

#define PAGE_WORD(k) (((k)->w[1] & 511) >> 6)
#define PAGE_BIT(k) (UINT64_C(1) << ((k)->w[1] & 63))

/* Add data object @p object to region number @p r's (0: none).  0, or -1 without memory. */
static int add_region_object(struct record_summary *s, struct page_region *reg, size_t r, int64_t object)
{
	if (object <= 0 || object == reg->last_object)
		return 0;
	reg->last_object = object;
	uint64_t pk[2] = { (uint64_t)r, (uint64_t)object };
	return util_map_add(&s->region_objects, pk, util_map_hash(&s->region_objects, pk), NULL) < 0 ? -1 : 0;
}

/*
 * A record of a page that has no row (its region says so): counted in its
 * region, 1; 0 if the page is not one of those, -1 without memory.  @p as
 * is set to the page as count_line sees it (written or not).
 */
static int count_unlisted(struct record_summary *s, const struct spe_record *rec, const struct latency_key *key,
			  const struct record_where *w, struct page_count *as)
{
	struct latency_key rk = region_key(key);
	int64_t r = util_map_find(&s->page_regions, &rk, util_map_hash(&s->page_regions, &rk));
	if (r < 0)
		return 0;
	struct page_region *reg = util_map_value(&s->page_regions, (size_t)r);
	if (!(reg->unlisted[PAGE_WORD(key)] & PAGE_BIT(key)))
		return 0;
	struct page_count one = { 0 };
	add_page(&one, rec);
	reg->accesses++;
	reg->evented += one.evented;
	reg->tlb_walks += one.tlb_walks;
	reg->translated += one.translated;
	reg->translation_latency += one.translation_latency;
	reg->timed += one.timed;
	reg->total_latency += one.total_latency;
	if (one.tlb_walks)
		reg->walked[PAGE_WORD(key)] |= PAGE_BIT(key);
	s->unlisted_page_records++;
	*as = (struct page_count){ .written = !!(reg->written[PAGE_WORD(key)] & PAGE_BIT(key)) };
	return add_region_object(s, reg, (size_t)r, w->object_id) < 0 ? -1 : 1;
}

/* Page @p key (one past the budget) was written: count_line's shortcut for its next records. */
static void set_written(struct record_summary *s, const struct latency_key *key)
{
	struct latency_key rk = region_key(key);
	struct page_region *reg = util_map_get(&s->page_regions, &rk);
	if (reg)
		reg->written[PAGE_WORD(key)] |= PAGE_BIT(key);
}

/* Page @p k (its counts @p p) into its region: it has no row from now on.  @p ids: room for its objects.  0 or -1. */
static int unlist_page(struct record_summary *s, const struct latency_key *k, const struct page_count *p, int64_t *ids)
{
	struct latency_key rk = region_key(k);
	int64_t r = util_map_add(&s->page_regions, &rk, util_map_hash(&s->page_regions, &rk), NULL);
	if (r < 0)
		return -1;
	struct page_region *reg = util_map_value(&s->page_regions, (size_t)r);
	reg->accesses += p->accesses;
	reg->evented += p->evented;
	reg->tlb_walks += p->tlb_walks;
	reg->translated += p->translated;
	reg->translation_latency += p->translation_latency;
	reg->timed += p->timed;
	reg->total_latency += p->total_latency;
	reg->unlisted[PAGE_WORD(k)] |= PAGE_BIT(k);
	if (p->tlb_walks)
		reg->walked[PAGE_WORD(k)] |= PAGE_BIT(k);
	if (p->written)
		reg->written[PAGE_WORD(k)] |= PAGE_BIT(k);
	s->pages_unlisted++;
	s->unlisted_page_records += p->accesses;
	size_t n_ids = ana_value_pool_list(&s->page_values, p->more, VALUE_OBJECT, p->object0 != 0, p->object0, ids);
	for (size_t i = 0; i < n_ids; i++)
		if (add_region_object(s, reg, (size_t)r, ids[i]) < 0)
			return -1;
	return 0;
}

/*
 * The page map is full: its coldest pages (accesses below 2^k, the least k
 * that frees a quarter of the budget) go to their regions, and the others
 * are kept, renumbered in their order.  0, or -1 without memory.
 */
static int evict_pages(struct record_summary *s)
{
	size_t n = s->page_index.n, want = page_budget(s) / 4 ? page_budget(s) / 4 : 1;
	size_t below[66] = { 0 }; /* below[b + 1]: pages whose count of accesses has b bits, [2^(b-1), 2^b) */
	for (size_t i = 0; i < n; i++)
		below[(s->pages[i].accesses ? 64 - (unsigned)__builtin_clzll(s->pages[i].accesses) : 0) + 1]++;
	unsigned k = 0;
	size_t freed = 0;
	while (k < 64 && (freed += below[k + 1]) < want)
		k++;
	uint64_t limit = k < 64 ? UINT64_C(1) << k : UINT64_MAX; /* accesses < limit go (all when k is 64) */
	struct util_map kept;
	util_map_init(&kept, sizeof(struct latency_key), 0);
	struct value_pool values = { 0 };
	int64_t *ids = malloc((ana_value_pool_widest(&s->page_values) + 1) * sizeof *ids);
	int rc = ids ? 0 : -1;
	size_t m = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct latency_key *key = util_map_key(&s->page_index, i);
		struct page_count p = s->pages[i];
		if (p.accesses < limit || k == 64) {
			rc = unlist_page(s, key, &p, ids);
			continue;
		}
		/* kept: numbered m (<= i, so pages[m] is free to write), its objects into the new pool */
		if (util_map_add(&kept, key, util_map_hash(&kept, key), NULL) < 0) {
			rc = -1;
			break;
		}
		size_t n_ids = ana_value_pool_list(&s->page_values, p.more, VALUE_OBJECT, p.object0 != 0, p.object0, ids);
		p.more = 0;
		for (size_t j = 1; j < n_ids && rc == 0; j++)
			rc = ana_value_pool_add(&values, &p.more, VALUE_OBJECT, ids[j], 1, &p.object0) < 0 ? -1 : 0;
		s->pages[m++] = p;
	}
	free(ids);
	if (rc < 0) {
		util_map_fini(&kept);
		ana_value_pool_fini(&values);
		return -1;
	}
	memset(&s->pages[m], 0, (n - m) * sizeof *s->pages);
	util_map_fini(&s->page_index);
	s->page_index = kept;
	ana_value_pool_fini(&s->page_values);
	s->page_values = values;
	return 0;
}

void ana_record_summary_prefetch(const struct record_summary *s, int pid, uint64_t data_va, int step)
{
	struct latency_key key = page_key(pid, data_va);
	uint64_t hash = util_map_hash(&s->page_index, &key);
	if (step == 0) {
		util_map_prefetch(&s->page_index, hash);
		return;
	}
	int64_t n = util_map_peek(&s->page_index, hash);
	if (n >= 0 && (size_t)n < s->page_cap)
		__builtin_prefetch(&s->pages[n]);
}

int ana_record_summary_count(struct record_summary *s, const struct spe_record *rec, uint64_t codes, uint32_t group,
			 const struct record_where *w)
{
	unsigned info = op_info(codes), cls = info & ~OP_ATOMIC;
	int pid = w->pid;
	if (HAS(TOTAL_LATENCY)) {
		struct bucket_count *b = &s->buckets[cls][bucket_of(rec->total_latency)];
		b->samples++;
		b->total_latency += rec->total_latency;
	}
	if (cls == SPE_OP_CLASS_LOAD + 1) {
		unsigned level = codes >> SPE_CODES_MEM_LEVEL_SHIFT & (SUMMARY_LEVELS - 1);
		struct level_count *l = &s->levels[level];
		l->loads++;
		if (HAS(TOTAL_LATENCY)) {
			l->timed++;
			l->total_latency += rec->total_latency;
			struct bucket_count *b = &s->level_buckets[level][bucket_of(rec->total_latency)];
			b->samples++;
			b->total_latency += rec->total_latency;
		}
	}
	if (cls == SPE_OP_CLASS_BRANCH + 1) {
		if (util_grow_zeroed((void **)&s->branches, &s->branch_cap, group, sizeof *s->branches) < 0)
			return -1;
		struct branch_count *b = &s->branches[group];
		b->branches++;
		if (HAS(EVENTS)) {
			b->evented++;
			b->mispredicted += rec->events >> SPE_EV_MISPREDICTED & 1;
			b->not_taken += rec->events >> SPE_EV_NOT_TAKEN & 1;
		}
	}
	if (HAS(DATA_VA)) {
		struct latency_key key = page_key(pid, rec->data_va);
		uint64_t hash = util_map_hash(&s->page_index, &key);
		int64_t n = -1;
		struct page_count unlisted_page;
		struct page_count *p;
		if (s->page_index.n >= page_budget(s) || s->page_regions.n) { /* full, or pages past it: a new page is not just added */
			n = util_map_find(&s->page_index, &key, hash);
			int unlisted = n < 0 && s->page_regions.n ? count_unlisted(s, rec, &key, w, &unlisted_page) : 0;
			if (unlisted < 0)
				return -1;
			if (unlisted) {
				p = &unlisted_page;
				goto counted;
			}
			if (n < 0 && s->page_index.n >= page_budget(s) && evict_pages(s) < 0)
				return -1;
		}
		if (n < 0)
			n = util_map_add(&s->page_index, &key, hash, NULL);
		if (n < 0)
			return -1;
		if (util_grow_zeroed((void **)&s->pages, &s->page_cap, (size_t)n, sizeof *s->pages) < 0)
			return -1;
		p = &s->pages[n];
		add_page(p, rec);
		if (w->object_id > 0 && ana_value_pool_add(&s->page_values, &p->more, VALUE_OBJECT, w->object_id,
							   p->object0 != 0, &p->object0) < 0)
			return -1;
	counted:
		if (count_line(s, rec, info, w, p) < 0)
			return -1;
		if (p == &unlisted_page && unlisted_page.written)
			set_written(s, &key);
		if (cls == SPE_OP_CLASS_LOAD + 1 && count_numa(s, rec, w) < 0)
			return -1;
	}
	if (cls == SPE_OP_CLASS_LOAD + 1 && count_prefetch(s, rec, group, w) < 0)
		return -1;
	s->counted++;
	return 0;
}

static int write_levels(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id)
{
	for (int32_t code = 0; code < SUMMARY_LEVELS; code++) {
		const struct level_count *l = &s->levels[code];
		if (!l->loads)
			continue;
		struct spe_row_mem_level_stat row = { .source_id = source_id,
						      .mem_level = code,
						      .loads = l->loads,
						      .timed = l->timed,
						      .total_latency = l->total_latency };
		int rc = spe_sink_rows(sink, &row, 1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int write_buckets(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id)
{
	for (unsigned cls = 0; cls < SUMMARY_OP_CLASSES; cls++)
		for (unsigned b = 0; b < SUMMARY_BUCKETS; b++) {
			const struct bucket_count *c = &s->buckets[cls][b];
			if (!c->samples)
				continue;
			struct spe_row_latency_bucket row = { .source_id = source_id,
							      .op_class = cls ? spe_op_class_name(cls - 1) : NULL,
							      .latency_lo = bucket_lo(b),
							      .samples = c->samples,
							      .total_latency = c->total_latency };
			int rc = spe_sink_rows(sink, &row, 1);
			if (rc < 0)
				return rc;
		}
	return 0;
}

static int write_level_buckets(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id)
{
	for (int32_t code = 0; code < SUMMARY_LEVELS; code++)
		for (unsigned b = 0; b < SUMMARY_BUCKETS; b++) {
			const struct bucket_count *c = &s->level_buckets[code][b];
			if (!c->samples)
				continue;
			struct spe_row_level_latency_bucket row = { .source_id = source_id,
								    .mem_level = code,
								    .latency_lo = bucket_lo(b),
								    .samples = c->samples,
								    .total_latency = c->total_latency };
			int rc = spe_sink_rows(sink, &row, 1);
			if (rc < 0)
				return rc;
		}
	return 0;
}

/* Latency group keys are (pc, insn_id, symbol_id << 1 | has_pc): see the loader's count_latency. */
static int write_branches(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id,
			  const struct latency_hist_map *groups)
{
	for (size_t g = 0; g < s->branch_cap && g < ana_latency_hist_map_n(groups); g++) {
		const struct branch_count *b = &s->branches[g];
		if (!b->branches)
			continue;
		const struct latency_key *k = &ana_latency_group(groups, g)->key;
		struct spe_row_branch_stat row = { .source_id = source_id,
						   .has_pc = (int)(k->w[2] & 1),
						   .pc = k->w[0],
						   .insn_id = (int64_t)k->w[1],
						   .branches = b->branches,
						   .has_events = b->evented > 0,
						   .mispredicted = b->mispredicted,
						   .not_taken = b->not_taken };
		int rc = spe_sink_rows(sink, &row, 1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int write_pages(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id)
{
	int64_t *ids = malloc((ana_value_pool_widest(&s->page_values) + 1) * sizeof *ids); /* the run and the first */
	if (!ids)
		return -spe_nomem;
	int rc = 0;
	for (uint32_t n = 0; n < s->page_index.n && rc == 0; n++) {
		const struct page_count *p = &s->pages[n];
		const struct latency_key *k = util_map_key(&s->page_index, n);
		struct spe_row_page_stat row = {
			.source_id = source_id,
			.pid = (int32_t)((int64_t)k->w[0] - 1),
			.page = k->w[1],
			.accesses = p->accesses,
			.has_events = p->evented > 0,
			.tlb_walks = p->tlb_walks,
			.translated = p->translated,
			.translation_latency = p->translation_latency,
			.timed = p->timed,
			.total_latency = p->total_latency,
			.n_data_object_ids = ana_value_pool_list(&s->page_values, p->more, VALUE_OBJECT, p->object0 != 0,
							      p->object0, ids),
			.data_object_ids = ids,
		};
		rc = spe_sink_rows(sink, &row, 1);
	}
	free(ids);
	return rc;
}

/* One 2 MiB region of one process: its pages' page_count added up (page_region_stat). */
struct region_count {
	uint64_t accesses, evented, tlb_walks, translated, translation_latency, timed, total_latency;
	uint64_t pages, walked_pages;
	int64_t last_object; /* the data object last paired with it: most regions have one (no lookup) */
};

/*
 * page_stat's rows added up by (process, 2 MiB region), data_page's 2 MiB
 * rows: the reports' huge-page hint, regions and TLB totals read these
 * instead of grouping every page.
 * A pass over the pages (not the records), at the end of the load, then
 * over the regions of the pages past the budget (page_regions: counted
 * there, no page_stat row); one row per region actually touched, its
 * counts those of all its pages, listed or not.
 */
static int write_regions(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id)
{
	struct util_map regions, pairs; /* (pid + 1, region) -> counts; (region number, data object) */
	util_map_init(&regions, sizeof(struct latency_key), sizeof(struct region_count));
	util_map_init(&pairs, 2 * sizeof(uint64_t), 0);
	int64_t *ids = malloc((ana_value_pool_widest(&s->page_values) + 1) * sizeof *ids);
	uint64_t *sorted = NULL;
	int rc = ids ? 0 : -spe_nomem;
	for (uint32_t n = 0; n < s->page_index.n && rc == 0; n++) {
		const struct page_count *p = &s->pages[n];
		const struct latency_key *k = util_map_key(&s->page_index, n);
		struct latency_key rk = region_key(k);
		int64_t r = util_map_add(&regions, &rk, util_map_hash(&regions, &rk), NULL);
		if (r < 0) {
			rc = -spe_nomem;
			break;
		}
		struct region_count *c = util_map_value(&regions, (size_t)r);
		c->accesses += p->accesses;
		c->evented += p->evented;
		c->tlb_walks += p->tlb_walks;
		c->translated += p->translated;
		c->translation_latency += p->translation_latency;
		c->timed += p->timed;
		c->total_latency += p->total_latency;
		c->pages++;
		c->walked_pages += p->tlb_walks > 0;
		size_t n_ids = ana_value_pool_list(&s->page_values, p->more, VALUE_OBJECT, p->object0 != 0, p->object0, ids);
		for (size_t i = 0; i < n_ids && rc == 0; i++) {
			if (ids[i] == c->last_object)
				continue;
			c->last_object = ids[i];
			uint64_t pk[2] = { (uint64_t)r, (uint64_t)ids[i] };
			if (util_map_add(&pairs, pk, util_map_hash(&pairs, pk), NULL) < 0)
				rc = -spe_nomem;
		}
	}
	/* the pages past the budget (no page_stat row), after the listed ones: their objects after those too */
	for (size_t u = 0; u < s->page_regions.n && rc == 0; u++) {
		const struct latency_key *k = util_map_key(&s->page_regions, u);
		const struct page_region *reg = util_map_value(&s->page_regions, u);
		int64_t r = util_map_add(&regions, k, util_map_hash(&regions, k), NULL);
		if (r < 0) {
			rc = -spe_nomem;
			break;
		}
		struct region_count *c = util_map_value(&regions, (size_t)r);
		c->accesses += reg->accesses;
		c->evented += reg->evented;
		c->tlb_walks += reg->tlb_walks;
		c->translated += reg->translated;
		c->translation_latency += reg->translation_latency;
		c->timed += reg->timed;
		c->total_latency += reg->total_latency;
		for (int i = 0; i < 8; i++) {
			c->pages += (uint64_t)__builtin_popcountll(reg->unlisted[i]);
			c->walked_pages += (uint64_t)__builtin_popcountll(reg->walked[i]);
		}
	}
	for (size_t i = 0; i < s->region_objects.n && rc == 0; i++) {
		const uint64_t *ok = util_map_key(&s->region_objects, i); /* (number in page_regions, object) */
		const struct latency_key *k = util_map_key(&s->page_regions, ok[0]);
		int64_t r = util_map_find(&regions, k, util_map_hash(&regions, k));
		uint64_t pk[2] = { (uint64_t)r, ok[1] };
		if (r < 0 || util_map_add(&pairs, pk, util_map_hash(&pairs, pk), NULL) < 0)
			rc = -spe_nomem;
	}
	/*
	 * Each region's objects in first-seen order (the pairs map keeps the order they were added: pages in
	 * page_stat's order, each page's objects in its list's), as data_page's names over the pages come:
	 * the pairs placed by region, a counting sort that keeps that order.
	 */
	size_t *start = rc == 0 ? calloc(regions.n + 1, sizeof *start) : NULL;
	if (rc == 0 && !start)
		rc = -spe_nomem;
	if (rc == 0 && pairs.n && !(sorted = malloc(pairs.n * sizeof *sorted)))
		rc = -spe_nomem;
	if (rc == 0 && pairs.n) {
		for (size_t i = 0; i < pairs.n; i++)
			start[((const uint64_t *)util_map_key(&pairs, i))[0] + 1]++;
		for (size_t r = 0; r < regions.n; r++)
			start[r + 1] += start[r];
		size_t *at = malloc(regions.n * sizeof *at);
		if (!at)
			rc = -spe_nomem;
		for (size_t r = 0; at && r < regions.n; r++)
			at[r] = start[r];
		for (size_t i = 0; at && i < pairs.n; i++) {
			const uint64_t *pk = util_map_key(&pairs, i);
			sorted[at[pk[0]]++] = pk[1];
		}
		free(at);
	}
	for (size_t r = 0; r < regions.n && rc == 0; r++) {
		const struct latency_key *k = util_map_key(&regions, r);
		const struct region_count *c = util_map_value(&regions, r);
		size_t n_ids = start[r + 1] - start[r];
		const int64_t *region_ids = n_ids ? (const int64_t *)&sorted[start[r]] : NULL;
		struct spe_row_page_region_stat row = {
			.source_id = source_id,
			.pid = (int32_t)((int64_t)k->w[0] - 1),
			.region = k->w[1],
			.accesses = c->accesses,
			.has_events = c->evented > 0,
			.tlb_walks = c->tlb_walks,
			.translated = c->translated,
			.translation_latency = c->translation_latency,
			.timed = c->timed,
			.total_latency = c->total_latency,
			.pages_4k = c->pages,
			.walked_pages_4k = c->walked_pages,
			.n_data_object_ids = n_ids,
			.data_object_ids = region_ids,
		};
		rc = spe_sink_rows(sink, &row, 1);
	}
	free(start);
	free(sorted);
	free(ids);
	util_map_fini(&pairs);
	util_map_fini(&regions);
	return rc;
}

static int write_numa(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id)
{
	for (uint32_t n = 0; n < s->numa_index.n; n++) {
		const struct numa_count *c = &s->numa[n];
		const struct latency_key *k = util_map_key(&s->numa_index, n); /* see count_numa */
		int physical = (int)(k->w[1] & 1);
		struct spe_row_numa_stat row = { .source_id = source_id,
						  .cpu = (int32_t)k->w[0],
						  .physical = physical,
						  .memory_node = physical ? (int32_t)k->w[2] - 1 : -1,
						  .has_data_source = !physical && (k->w[1] & 2),
						  .data_source = physical ? 0 : k->w[2],
						  .loads = c->loads,
						  .timed = c->timed,
						  .total_latency = c->total_latency,
						  .has_events = c->evented > 0,
						  .remote_access = c->remote_access };
		int rc = spe_sink_rows(sink, &row, 1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* One prefetch_stat row: group @p g's loads of data object @p object (0: none). */
static int write_prefetch_row(const struct prefetch_count *c, const struct spe_row_sink *sink, int64_t source_id,
			      const struct latency_hist_map *groups, uint64_t g, int64_t object)
{
	/* latency group keys are (pc, insn_id, symbol_id << 1 | has_pc): see the loader's count_latency */
	const struct latency_key *k = &ana_latency_group(groups, g)->key;
	struct spe_row_prefetch_stat row = { .source_id = source_id,
					     .has_pc = (int)(k->w[2] & 1),
					     .pc = k->w[0],
					     .insn_id = (int64_t)k->w[1],
					     .symbol_id = (int64_t)(k->w[2] >> 1),
					     .data_object_id = object,
					     .loads = c->loads,
					     .timed = c->timed,
					     .total_latency = c->total_latency,
					     .has_late = c->late_known > 0,
					     .late_prefetch = c->late,
					     .has_late_latency = c->late_timed > 0,
					     .late_latency = c->late_latency,
					     .has_events = c->evented > 0,
					     .recently_fetched = c->recently_fetched };
	return spe_sink_rows(sink, &row, 1);
}

static int write_prefetch(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id,
			  const struct latency_hist_map *groups)
{
	int rc = 0;
	for (size_t g = 0; g < s->prefetch_plain_cap && g < ana_latency_hist_map_n(groups) && rc == 0; g++)
		if (s->prefetch_plain[g].loads)
			rc = write_prefetch_row(&s->prefetch_plain[g], sink, source_id, groups, g, 0);
	for (uint32_t n = 0; n < s->prefetch_index.n && rc == 0; n++) {
		const struct latency_key *pk = util_map_key(&s->prefetch_index, n); /* (group, data object) */
		rc = write_prefetch_row(&s->prefetch[n], sink, source_id, groups, pk->w[0], (int64_t)pk->w[1]);
	}
	return rc;
}

int ana_record_summary_write(const struct record_summary *s, const struct spe_row_sink *sink, int64_t source_id,
			 const struct latency_hist_map *groups)
{
	if (s->n_plain_pending)
		return -spe_invalid; /* ana_record_summary_settle first */
	int rc = 0;
	/* the summaries the sink stores (a sink without them computes the views its own way) */
	if (rc == 0 && spe_sink_takes(sink, MEM_LEVEL_STAT))
		rc = write_levels(s, sink, source_id);
	if (rc == 0 && spe_sink_takes(sink, LATENCY_BUCKET))
		rc = write_buckets(s, sink, source_id);
	if (rc == 0 && spe_sink_takes(sink, LEVEL_LATENCY_BUCKET))
		rc = write_level_buckets(s, sink, source_id);
	if (rc == 0 && spe_sink_takes(sink, BRANCH_STAT))
		rc = write_branches(s, sink, source_id, groups);
	if (rc == 0 && spe_sink_takes(sink, PAGE_STAT))
		rc = write_pages(s, sink, source_id);
	if (rc == 0 && spe_sink_takes(sink, PAGE_REGION_STAT))
		rc = write_regions(s, sink, source_id);
	if (rc == 0 && spe_sink_takes(sink, CACHELINE_STAT))
		rc = ana_line_share_write(&s->lines, sink, source_id);
	if (rc == 0 && spe_sink_takes(sink, NUMA_STAT))
		rc = write_numa(s, sink, source_id);
	if (rc == 0 && spe_sink_takes(sink, PREFETCH_STAT))
		rc = write_prefetch(s, sink, source_id, groups);
	return rc;
}

void ana_record_summary_init(struct record_summary *s)
{
	memset(s, 0, sizeof *s);
	util_map_init(&s->page_index, sizeof(struct latency_key), 0);
	util_map_init(&s->page_regions, sizeof(struct latency_key), sizeof(struct page_region));
	util_map_init(&s->region_objects, 2 * sizeof(uint64_t), 0);
	util_map_init(&s->numa_index, sizeof(struct latency_key), 0);
	util_map_init(&s->prefetch_index, sizeof(struct latency_key), 0);
	ana_line_share_init(&s->lines);
}

void ana_record_summary_fini(struct record_summary *s)
{
	free(s->branches);
	free(s->pages);
	ana_value_pool_fini(&s->page_values);
	util_map_fini(&s->page_index);
	util_map_fini(&s->page_regions);
	util_map_fini(&s->region_objects);
	ana_line_share_fini(&s->lines);
	free(s->ranges);
	free(s->numa);
	util_map_fini(&s->numa_index);
	free(s->prefetch_plain);
	free(s->plain_pending);
	free(s->plain_sort_tmp);
	free(s->prefetch);
	util_map_fini(&s->prefetch_index);
	memset(s, 0, sizeof *s);
}
