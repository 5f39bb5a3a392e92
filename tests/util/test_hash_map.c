/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util_map (util/hash_map.h) against a plain array searched end to end:
 * 200,000 keys of three words, many sharing words (as (pid, pc, ...) keys
 * do), added in random order with repeats; every key finds its value, its
 * number is its order of first sight, absent keys are absent, peek names
 * the entry a slot holds or none, and the map is usable again after fini.
 * The mixing function spreads keys that differ in one bit (no slot run
 * longer than a random hash would give).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/hash_map.h"

struct key {
	uint64_t w[3];
};

struct value {
	uint64_t seen, first;
	uint32_t small;
};

/* A key from a small number: words in narrow ranges, so many keys share them. */
static struct key key_of(uint32_t i)
{
	return (struct key){ { i % 7, 0x400000 + 4 * (uint64_t)(i / 7), (uint64_t)(i % 3) << 40 } };
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

TEST(map_against_a_list)
{
	enum { KEYS = 200000, PUTS = 600000 };
	struct util_map m;
	util_map_init(&m, sizeof(struct key), sizeof(struct value));
	CHECK_INT_EQ(m.entry_size, 24 + 24);
	int64_t *number_of = malloc(KEYS * sizeof *number_of); /* the reference: the order of first sight */
	uint32_t *order = malloc(KEYS * sizeof *order);
	for (uint32_t i = 0; i < KEYS; i++)
		number_of[i] = -1;
	size_t n = 0;
	for (uint32_t p = 0; p < PUTS; p++) {
		uint32_t i = next_random() % KEYS;
		struct key k = key_of(i);
		int added;
		int64_t got = util_map_add(&m, &k, util_map_hash(&m, &k), &added);
		if (number_of[i] < 0) {
			CHECK(added);
			CHECK_INT_EQ(got, (int64_t)n);
			number_of[i] = (int64_t)n;
			order[n++] = i;
			((struct value *)util_map_value(&m, (size_t)got))->first = p;
		} else {
			CHECK(!added);
			CHECK_INT_EQ(got, number_of[i]);
		}
		struct value *v = util_map_value(&m, (size_t)got);
		v->seen++;
	}
	CHECK_INT_EQ(m.n, n);
	for (size_t e = 0; e < n; e++) { /* entries in order, each with its key */
		struct key k = key_of(order[e]);
		CHECK(memcmp(util_map_key(&m, e), &k, sizeof k) == 0);
	}
	uint64_t total = 0;
	for (uint32_t i = 0; i < KEYS; i++) {
		struct key k = key_of(i);
		struct value *v = util_map_get(&m, &k);
		CHECK((v != NULL) == (number_of[i] >= 0));
		if (v)
			total += v->seen;
		int64_t peek = util_map_peek(&m, util_map_hash(&m, &k));
		CHECK(peek < 0 || peek < (int64_t)n);
	}
	CHECK_INT_EQ(total, PUTS);
	struct key absent = { { 99, 1, 2 } };
	CHECK(util_map_get(&m, &absent) == NULL);
	/* the slots are at most 3/4 full, and runs stay short */
	CHECK(m.n * 4 <= m.cap * 3);
	size_t run = 0, longest = 0;
	for (size_t i = 0; i < m.cap; i++) {
		run = m.slots[i] ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	CHECK(longest < 200);
	util_map_fini(&m);
	CHECK_INT_EQ(m.n, 0);
	struct value *v = util_map_put(&m, &absent); /* usable again */
	CHECK(v && v->seen == 0);
	CHECK(util_map_get(&m, &absent) == v);
	util_map_fini(&m);
	free(number_of);
	free(order);
}

/* Keys one bit apart land in different slots: the mix is not the identity or a shift. */
TEST(hash_spreads_single_bits)
{
	uint64_t seen[64 * 3];
	size_t n = 0;
	for (int w = 0; w < 3; w++)
		for (int b = 0; b < 64; b++) {
			uint64_t k[3] = { 0, 0, 0 };
			k[w] = 1ull << b;
			seen[n++] = util_hash_words(k, 3) & 4095;
		}
	int same = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			same += seen[i] == seen[j];
	CHECK(same < 20); /* 192 values in 4096 slots: about 4.5 pairs expected at random */
}

int main(void)
{
	RUN(map_against_a_list);
	RUN(hash_spreads_single_bits);
	return check_summary();
}
