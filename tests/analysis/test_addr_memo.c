/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The loader's memos (analysis/load/addr_memo.c), built here with a bound of
 * 1,024 slots so that it is reached: against a reference that remembers every
 * key, a memo answers each key it still holds with the value last put and
 * never with another key's; it grows to the bound, never past it, and when
 * it fills there it is emptied and keeps working.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "addr_memo.h"

_Static_assert(ADDR_MEMO_MAX_SLOTS == 1024, "built with the small bound (tests/analysis/CMakeLists.txt)");

enum { SPACES = 7, ADDRS = 300 };

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* The space of reference index @p s: pids and the negative tags the loader uses. */
static int64_t space_of(int s)
{
	return s < 4 ? 1000 + s : -1 - s;
}

TEST(bounded_and_right)
{
	static int64_t reference[SPACES][ADDRS]; /* the id last put, 0: never */
	struct addr_memo m = { 0 };
	size_t found = 0, most = 0;
	for (int i = 0; i < 200000; i++) {
		int s = (int)(check_xorshift(&rng) % SPACES);
		uint64_t a = check_xorshift(&rng) % ADDRS;
		int64_t *got = ana_addr_memo_find_id(&m, space_of(s), a << 12);
		if (got) {
			found++;
			if (*got != reference[s][a]) {
				CHECK_FAIL_("space %lld addr %llu: %lld, last put %lld", (long long)space_of(s),
					    (unsigned long long)a, (long long)*got, (long long)reference[s][a]);
				break;
			}
		}
		int64_t id = (int64_t)(check_xorshift(&rng) % 1000000) + 1;
		CHECK(ana_addr_memo_put_id(&m, space_of(s), a << 12, id) == 0);
		reference[s][a] = id;
		CHECK(*ana_addr_memo_find_id(&m, space_of(s), a << 12) == id); /* held right after the put */
		if (m.cap > most)
			most = m.cap;
	}
	CHECK(most == ADDR_MEMO_MAX_SLOTS);       /* grew to the bound ... */
	CHECK(m.count * 4 <= m.cap * 3);          /* ... never filled past 3/4 ... */
	CHECK(m.emptied > 0);                     /* ... and was emptied there: 2,100 keys, at most 768 held */
	CHECK(found > 20000 && found < 180000);   /* still a memo: many answers, not all */
	ana_addr_memo_fini(&m);
}

TEST(pc_values_survive_growth)
{
	struct addr_memo m = { 0 };
	for (uint64_t pc = 0; pc < 700; pc++) /* below the bound: never emptied, every key kept */
		CHECK(ana_addr_memo_put(&m, 42, 0x400000 + 4 * pc,
					(struct pc_value){ .mapping_id = 1, .insn_id = (int64_t)pc + 1,
							   .latency_group = pc % 3 ? (uint32_t)pc : PC_NO_GROUP,
							   .jit = pc % 2 }) != NULL);
	for (uint64_t pc = 0; pc < 700; pc++) {
		struct pc_value *v = ana_addr_memo_find(&m, 42, 0x400000 + 4 * pc);
		CHECK(v && v->insn_id == (int64_t)pc + 1);
		/* the group and the JIT flag share a word: each reads back as put */
		CHECK(v && v->latency_group == (pc % 3 ? (uint32_t)pc : PC_NO_GROUP) && v->jit == pc % 2);
	}
	CHECK(ana_addr_memo_find(&m, 43, 0x400000) == NULL);
	CHECK(m.emptied == 0);
	ana_addr_memo_fini(&m);
}

int main(void)
{
	RUN(bounded_and_right);
	RUN(pc_values_survive_growth);
	return check_summary();
}
