/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A very small unit-test harness.  A test file defines test functions with
 * TEST(name) and lists them in main() with RUN(name); CHECK_* record
 * failures with file:line and the values seen, and the run ends with the
 * line "N passed, N failed" that CI reads.
 */
#ifndef SPE_TEST_CHECK_H
#define SPE_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

extern int check_failures;   /* failures in the current test */
extern int check_passed, check_failed;

#define TEST(name) static void test_##name(void)

#define RUN(name)                                                          \
	do {                                                               \
		check_failures = 0;                                        \
		test_##name();                                             \
		if (check_failures) {                                      \
			check_failed++;                                    \
			printf("FAIL %s\n", #name);                        \
		} else {                                                   \
			check_passed++;                                    \
		}                                                          \
	} while (0)

#define CHECK_FAIL_(fmt, ...)                                                      \
	do {                                                                       \
		check_failures++;                                                  \
		printf("  %s:%d: " fmt "\n", __FILE__, __LINE__, __VA_ARGS__);     \
	} while (0)

#define CHECK(cond)                                              \
	do {                                                     \
		if (!(cond))                                     \
			CHECK_FAIL_("CHECK(%s) failed", #cond);  \
	} while (0)

#define CHECK_INT_EQ(a, b)                                                                     \
	do {                                                                                   \
		long long a_ = (long long)(a), b_ = (long long)(b);                            \
		if (a_ != b_)                                                                  \
			CHECK_FAIL_("%s == %s: %lld != %lld", #a, #b, a_, b_);                 \
	} while (0)

#define CHECK_U64_EQ(a, b)                                                                              \
	do {                                                                                            \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                        \
		if (a_ != b_)                                                                           \
			CHECK_FAIL_("%s == %s: 0x%" PRIx64 " != 0x%" PRIx64, #a, #b, a_, b_);           \
	} while (0)

/* |a - b| <= tol, for doubles. */
#define CHECK_NEAR_TOL(a, b, tol)                                                               \
	do {                                                                                    \
		double a_ = (a), b_ = (b);                                                      \
		if (!(a_ - b_ <= (tol) && b_ - a_ <= (tol)))                                    \
			CHECK_FAIL_("%s ~ %s: %.9f != %.9f", #a, #b, a_, b_);                   \
	} while (0)

#define CHECK_STR_EQ(a, b)                                                                      \
	do {                                                                                    \
		const char *a_ = (a), *b_ = (b);                                                \
		if (!a_ || !b_ || strcmp(a_, b_) != 0)                                          \
			CHECK_FAIL_("%s == %s: \"%s\" != \"%s\"", #a, #b, a_ ? a_ : "(null)",   \
				    b_ ? b_ : "(null)");                                        \
	} while (0)

/* Print the closing line and return the process exit status. */
int check_summary(void);

/* A repeatable pseudo-random number (xorshift64): the tests' random inputs are the same every run. */
static inline uint64_t check_xorshift(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

#endif
