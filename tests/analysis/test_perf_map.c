/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The perf-PID.map reader (analysis/resolve/perf_map.c): perf's line rules
 * (tools/perf/util/symbol.c, dso__load_perf_map) and where this reader
 * differs on purpose, the later line winning over overlaps against a
 * brute-force search, streaming, the limits, and the files V8 and HotSpot
 * wrote (fixtures/jit) read line by line against sscanf.
 *   test_perf_map FIXTURES_JIT_DIR
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "perf_map.h"
#include "spe/spe.h"

static const char *dir;

static int parse_text(struct perf_map *m, const char *text)
{
	ana_perf_map_init(m);
	int rc = ana_perf_map_feed(m, text, strlen(text));
	return rc < 0 ? rc : ana_perf_map_end(m);
}

static const char *name_at(const struct perf_map *m, uint64_t addr)
{
	const struct perf_map_entry *e = ana_perf_map_lookup(m, addr, NULL);
	return e ? ana_perf_map_name(m, e) : NULL;
}

TEST(perf_line_rules)
{
	struct perf_map m;
	CHECK_INT_EQ(parse_text(&m, "0x1000 0x10 name with spaces\n"
				    "2000 20 a\n"           /* a one-character name: perf skips it */
				    "3000 30 ab\n"          /* two: skipped too */
				    "3100 30 abc\n"         /* three: kept */
				    "  4000 40 lead\n"      /* blanks before a number, as strtoull takes them */
				    "5000\t50\ttabs\n"      /* any one character separates */
				    "zz 10 no start\n"      /* no hex digit: skipped (perf: a symbol at 0) */
				    "6000 zz no size\n"
				    "ffffffffffffff00 1000 past the end\n"
				    "7000 0 zero size\n"
				    "\n"
				    "8000 10 lastname"),   /* no newline: read whole (perf drops the e) */
		     0);
	CHECK_INT_EQ(m.n_entries, 6);
	CHECK_STR_EQ(name_at(&m, 0x1000), "name with spaces");
	CHECK_STR_EQ(name_at(&m, 0x100f), "name with spaces");
	CHECK(name_at(&m, 0x1010) == NULL);
	CHECK(name_at(&m, 0x2000) == NULL);
	CHECK(name_at(&m, 0x3000) == NULL);
	CHECK_STR_EQ(name_at(&m, 0x3100), "abc");
	CHECK_STR_EQ(name_at(&m, 0x4000), "lead");
	CHECK_STR_EQ(name_at(&m, 0x5010), "tabs");
	CHECK_STR_EQ(name_at(&m, 0x7000), "zero size");
	CHECK(name_at(&m, 0x7001) == NULL);
	CHECK_STR_EQ(name_at(&m, 0x800f), "lastname");
	CHECK_INT_EQ(m.lines, 12);
	CHECK_INT_EQ(m.skipped_short, 3); /* two names too short, the empty line */
	CHECK_INT_EQ(m.malformed, 2);
	CHECK_INT_EQ(m.bad_range, 1);
	CHECK_INT_EQ(m.no_final_newline, 1);
	ana_perf_map_fini(&m);
}

TEST(later_lines_win_where_entries_overlap)
{
	struct perf_map m;
	CHECK_INT_EQ(parse_text(&m, "1000 100 old\n"
				    "1040 20 new\n"   /* inside old: old goes on on both sides */
				    "1000 10 head\n"  /* same start, shorter */
				    "10f0 40 tail\n"  /* over old's end */
				    "1000 100 old\n"), /* the old code again, last: all of it */
		     0);
	CHECK_STR_EQ(name_at(&m, 0x1050), "old");
	ana_perf_map_fini(&m);
	CHECK_INT_EQ(parse_text(&m, "1000 100 old\n1040 20 new\n1000 10 head\n10f0 40 tail\n"), 0);
	CHECK_STR_EQ(name_at(&m, 0x1000), "head");
	CHECK_STR_EQ(name_at(&m, 0x1010), "old");
	CHECK_STR_EQ(name_at(&m, 0x1045), "new");
	CHECK_STR_EQ(name_at(&m, 0x1060), "old");
	CHECK_STR_EQ(name_at(&m, 0x10f0), "tail");
	CHECK_STR_EQ(name_at(&m, 0x112f), "tail");
	CHECK(name_at(&m, 0x1130) == NULL);
	CHECK_INT_EQ(m.overlapping, 3);
	/* the symbol of a segment is its entry's: start and size as written */
	const struct perf_map_entry *e = ana_perf_map_lookup(&m, 0x1060, NULL);
	CHECK_U64_EQ(e->start, 0x1000);
	CHECK_U64_EQ(e->size, 0x100);
	ana_perf_map_fini(&m);
}

/* The latest line holding @p addr, by reading every line. */
static int brute(const uint64_t *start, const uint64_t *size, int n, uint64_t addr)
{
	for (int i = n - 1; i >= 0; i--)
		if (addr >= start[i] && addr < start[i] + (size[i] ? size[i] : 1))
			return i;
	return -1;
}

TEST(random_overlaps_match_a_brute_force_search)
{
	uint64_t rng = 0x9e37;
	for (int round = 0; round < 300; round++) {
		int n = 1 + (int)(check_xorshift(&rng) % 60);
		uint64_t start[64], size[64];
		char text[64 * 48] = "", *t = text;
		for (int i = 0; i < n; i++) {
			start[i] = 0x1000 + check_xorshift(&rng) % 0x400;
			size[i] = check_xorshift(&rng) % 5 == 0 ? 0 : check_xorshift(&rng) % 0x100;
			t += sprintf(t, "%" PRIx64 " %" PRIx64 " fn%d\n", start[i], size[i], i);
		}
		struct perf_map m;
		CHECK_INT_EQ(parse_text(&m, text), 0);
		for (uint64_t a = 0xff0; a < 0x1520; a++) {
			int want = brute(start, size, n, a);
			uint32_t index = UINT32_MAX;
			const struct perf_map_entry *e = ana_perf_map_lookup(&m, a, &index);
			if ((want < 0) != (e == NULL) || (e && (int)index != want)) {
				CHECK_INT_EQ(e ? (int)index : -1, want);
				printf("  round %d addr 0x%" PRIx64 "\n", round, a);
				round = 1000;
				break;
			}
		}
		ana_perf_map_fini(&m);
	}
}

TEST(streamed_in_any_pieces)
{
	const char *text = "1000 10 one\n2000 20 two two\n3000 30 three";
	for (size_t piece = 1; piece < 12; piece++) {
		struct perf_map m;
		ana_perf_map_init(&m);
		for (size_t at = 0; at < strlen(text); at += piece)
			ana_perf_map_feed(&m, text + at, strlen(text) - at < piece ? strlen(text) - at : piece);
		CHECK_INT_EQ(ana_perf_map_end(&m), 0);
		CHECK_INT_EQ(m.n_entries, 3);
		CHECK_STR_EQ(name_at(&m, 0x2010), "two two");
		CHECK_STR_EQ(name_at(&m, 0x3000), "three");
		ana_perf_map_fini(&m);
	}
}

TEST(long_lines_are_skipped)
{
	size_t n = PERF_MAP_MAX_LINE + 100;
	char *text = malloc(n + 64);
	strcpy(text, "1000 10 ");
	memset(text + 8, 'x', n - 8);
	strcpy(text + n, "\n2000 10 after\n");
	struct perf_map m;
	CHECK_INT_EQ(parse_text(&m, text), 0);
	CHECK_INT_EQ(m.skipped_long, 1);
	CHECK(name_at(&m, 0x1000) == NULL);
	CHECK_STR_EQ(name_at(&m, 0x2000), "after");
	ana_perf_map_fini(&m);
	free(text);
}

TEST(a_file_over_the_limits_is_refused_whole)
{
	struct perf_map m;
	ana_perf_map_init(&m);
	char line[32];
	int rc = 0;
	for (uint32_t i = 0; i <= PERF_MAP_MAX_ENTRIES && rc == 0; i++) {
		int len = snprintf(line, sizeof line, "%x 1 abc\n", i);
		rc = ana_perf_map_feed(&m, line, (size_t)len);
	}
	CHECK_INT_EQ(rc, -spe_bad_file);
	CHECK_INT_EQ(m.over_limit, 1);
	CHECK_INT_EQ(ana_perf_map_end(&m), -spe_bad_file);
	ana_perf_map_fini(&m);
}

/* Every line of a runtime's file, read with sscanf, is what the reader looks up at its start and last byte. */
static void check_real_file(const char *name, size_t want_lines)
{
	char path[4096], err[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	struct perf_map m;
	ana_perf_map_init(&m);
	CHECK_INT_EQ(ana_perf_map_read(&m, path, err, sizeof err), 0);
	CHECK_INT_EQ(m.lines, want_lines);
	CHECK_INT_EQ(m.n_entries, want_lines);
	CHECK_INT_EQ(m.overlapping + m.malformed + m.skipped_short + m.no_final_newline, 0);
	FILE *f = fopen(path, "r");
	char text[4096];
	size_t checked = 0;
	while (f && fgets(text, sizeof text, f)) {
		uint64_t start, size;
		int at = 0;
		if (sscanf(text, "%" SCNx64 " %" SCNx64 " %n", &start, &size, &at) != 2 || !at)
			break;
		text[strcspn(text, "\n")] = 0;
		const char *a = name_at(&m, start), *b = name_at(&m, start + (size ? size - 1 : 0));
		if (!a || !b || strcmp(a, text + at) || strcmp(b, text + at)) {
			CHECK_STR_EQ(a ? a : "(none)", text + at);
			break;
		}
		checked++;
	}
	if (f)
		fclose(f);
	CHECK_INT_EQ(checked, want_lines);
	ana_perf_map_fini(&m);
}

TEST(node_and_java_files)
{
	check_real_file("node-perf-basic-prof.map", 369);
	check_real_file("java-DumpPerfMapAtExit.map", 290);
	/* names with spaces, as HotSpot writes them */
	char path[4096], err[512];
	snprintf(path, sizeof path, "%s/java-DumpPerfMapAtExit.map", dir);
	struct perf_map m;
	ana_perf_map_init(&m);
	CHECK_INT_EQ(ana_perf_map_read(&m, path, err, sizeof err), 0);
	CHECK_STR_EQ(name_at(&m, 0x00007ffb04ec7640 + 0x20), "int Fib.fib(int)");
	ana_perf_map_fini(&m);
}

TEST(unreadable_files_say_why)
{
	struct perf_map m;
	char err[512] = "";
	ana_perf_map_init(&m);
	CHECK(ana_perf_map_read(&m, "/nonexistent/perf-1.map", err, sizeof err) < 0);
	CHECK(strstr(err, "/nonexistent/perf-1.map") != NULL);
	ana_perf_map_fini(&m);
	/* a FIFO without a writer is refused, not waited on */
	char fifo[] = "/tmp/spe-test-perfmap-XXXXXX";
	int fd = mkstemp(fifo);
	if (fd >= 0) {
		close(fd);
		unlink(fifo);
		if (mkfifo(fifo, 0600) == 0) {
			ana_perf_map_init(&m);
			CHECK_INT_EQ(ana_perf_map_read(&m, fifo, err, sizeof err), -spe_unsupported);
			ana_perf_map_fini(&m);
			unlink(fifo);
		}
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_perf_map FIXTURES_JIT_DIR\n");
		return 2;
	}
	dir = argv[1];
	RUN(perf_line_rules);
	RUN(later_lines_win_where_entries_overlap);
	RUN(random_overlaps_match_a_brute_force_search);
	RUN(streamed_in_any_pieces);
	RUN(long_lines_are_skipped);
	RUN(a_file_over_the_limits_is_refused_whole);
	RUN(node_and_java_files);
	RUN(unreadable_files_say_why);
	return check_summary();
}
