/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The docs agree with the tables: docs/filters.md has one row per term
 * exactly as the term table renders it, and names every facts.h event;
 * docs/spe-record.1.md names every filter term's option and every CPU
 * profile; docs/spe-record-messages.md lists every message id and shows
 * every message format the filter library and spe-record's target
 * selection can print (read from the sources, see msg_scan.h).
 * `test_filters_docs FIXTURES DOCS --print` prints the generated rows.
 */
#include "check.h"
#include "fixture_target.h"
#include "msg_scan.h"

#include "spe/facts.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read @p rel, relative to the docs directory; NULL when absent.  One buffer: copy to keep. */
static char *slurp(const char *rel)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", docs_dir(), rel);
	FILE *f = fopen(path, "r");
	if (!f) {
		printf("  cannot open %s\n", path);
		return NULL;
	}
	static char buf[1 << 18];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void term_row(int t, char *buf, size_t len)
{
	static const char *const regs[] = {
#define SPE_X(id, name) #id,
		SPE_REG_LIST(SPE_X)
#undef SPE_X
	};
	const struct spe_term_info *ti = spe_term_info(t);
	char option[48], field[24], drives[48];
	snprintf(option, sizeof option, "--%s", ti->name);
	for (char *p = option; *p; p++)
		if (*p == '_')
			*p = '-';
	char word[4] = "";
	if (ti->word)
		snprintf(word, sizeof word, "%u", ti->word);
	if (ti->lo == ti->hi)
		snprintf(field, sizeof field, "config%s:%u", word, ti->lo);
	else
		snprintf(field, sizeof field, "config%s:%u-%u", word, ti->lo, ti->hi);
	if (ti->reg == SPE_REG_PMBLIMITR)
		snprintf(drives, sizeof drives, "PMBLIMITR.FM");
	else if (ti->reg == SPE_REG_NONE)
		snprintf(drives, sizeof drives, "(raw word)");
	else if (ti->kind == SPE_TERM_FLAG)
		snprintf(drives, sizeof drives, "%s bit %u", regs[ti->reg], ti->reg_bit);
	else
		snprintf(drives, sizeof drives, "%s", regs[ti->reg]);
	snprintf(buf, len, "| `%s` | `%s` | `%s` | %s | %u.%u | %s | %s |", ti->name, option, field,
		 spe_feature_name(ti->feature), ti->since / 100, ti->since % 100, drives, ti->help);
}

TEST(filters_md_rows_match_term_table)
{
	const char *doc = slurp("filters.md");
	CHECK(doc != NULL);
	if (!doc)
		return;
	for (int t = 0; t < SPE_TERM_COUNT; t++) {
		char row[512];
		term_row(t, row, sizeof row);
		if (!strstr(doc, row))
			printf("  docs/filters.md lacks:\n%s\n", row);
		CHECK(strstr(doc, row) != NULL);
	}
}

TEST(filters_md_names_every_event)
{
	const char *doc = slurp("filters.md");
	if (!doc)
		return;
#define SPE_X(bit, id, word, column, since, desc)                               \
	{                                                                       \
		char row[160];                                                  \
		snprintf(row, sizeof row, "| %d | `%s` | %s |", bit, column,     \
			 since[0] ? since : "never");                           \
		if (!strstr(doc, row))                                          \
			printf("  docs/filters.md lacks event row: %s\n", row); \
		CHECK(strstr(doc, row) != NULL);                                \
	}
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
}

TEST(messages_doc_lists_every_message_id)
{
	const char *doc = slurp("spe-record-messages.md");
	CHECK(doc != NULL);
	if (!doc)
		return;
	for (int m = 0; m < SPE_MSG_COUNT; m++) {
		char id[64];
		snprintf(id, sizeof id, "`%s`", spe_filter_msg_id(m));
		if (!strstr(doc, id))
			printf("  docs/spe-record-messages.md lacks message %s\n", id);
		CHECK(strstr(doc, id) != NULL);
	}
}

TEST(man_page_lists_every_term_and_profile)
{
	const char *doc = slurp("spe-record.1.md");
	CHECK(doc != NULL);
	if (!doc)
		return;
	for (int t = 0; t < SPE_TERM_COUNT; t++) {
		char option[48];
		snprintf(option, sizeof option, "`--%s", spe_term_info(t)->name);
		for (char *p = option + 3; *p; p++)
			if (*p == '_')
				*p = '-';
		if (spe_term_info(t)->kind == SPE_TERM_RAW)
			snprintf(option, sizeof option, "`--%s=W`", spe_term_info(t)->name);
		if (!strstr(doc, option))
			printf("  docs/spe-record.1.md lacks option %s\n", option);
		CHECK(strstr(doc, option) != NULL);
	}
	for (unsigned i = 0; i < spe_profile_count(); i++) {
		if (!strstr(doc, spe_profile_name(i)))
			printf("  docs/spe-record.1.md lacks profile %s\n", spe_profile_name(i));
		CHECK(strstr(doc, spe_profile_name(i)) != NULL);
	}
}

struct format_check {
	const char *doc;
	unsigned formats, missing;
};

static void check_format(const char *format, const char *file, unsigned line, void *ctx)
{
	struct format_check *fc = ctx;
	bool checked;
	bool ok = msg_documented(fc->doc, format, &checked);
	fc->formats += checked;
	if (!ok) {
		printf("  docs/spe-record-messages.md shows no message like %s:%u: \"", file, line);
		for (const char *p = format; *p; p++)
			printf(*p == '\n' ? "\\n" : "%c", *p);
		printf("\"\n");
		fc->missing++;
	}
}

/*
 * Every message format of filters/src and of spe-record's target and filter
 * option handling has a line in spe-record-messages.md that holds its fixed text.
 */
TEST(messages_doc_shows_every_message_format)
{
	static char doc[1 << 18];
	const char *d = slurp("spe-record-messages.md");
	CHECK(d != NULL);
	if (!d)
		return;
	snprintf(doc, sizeof doc, "%s", d);
	struct format_check fc = { doc, 0, 0 };

	static const struct msg_call lib_calls[] = { { "filt_diag_add", 4, false }, { "snprintf", 2, true } };
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/../filters/src", docs_dir());
	DIR *dd = opendir(dir);
	CHECK(dd != NULL);
	unsigned files = 0;
	for (struct dirent *e; dd && (e = readdir(dd));) {
		size_t n = strlen(e->d_name);
		if (n < 3 || strcmp(e->d_name + n - 2, ".c"))
			continue;
		char rel[512];
		snprintf(rel, sizeof rel, "../filters/src/%s", e->d_name);
		const char *src = slurp(rel);
		CHECK(src != NULL);
		if (src) {
			msg_scan(src, rel, 1, lib_calls, 2, check_format, &fc);
			files++;
		}
	}
	if (dd)
		closedir(dd);
	CHECK(files >= 8);

	/* spe-record: option parsing, and the target and filter options (not recording's). */
	static const char *const functions[] = { "parse_args", "opt_format", "opt_kernel", "opt_pmsidr",
						 "opt_pmsver", "opt_valid_events", "opt_paranoid", "opt_period",
						 "opt_freq", "opt_cpus", "load_sysfs_target", "load_target" };
	static const struct msg_call cli_calls[] = { { "usage_error", 0, false }, { "fprintf", 1, false } };
	const char *cli = slurp("../cli/cmd_record.c");
	CHECK(cli != NULL);
	static char body[1 << 16];
	for (size_t i = 0; cli && i < sizeof functions / sizeof functions[0]; i++) {
		unsigned line = msg_scan_function(cli, functions[i], body, sizeof body);
		if (!line)
			printf("  cli/cmd_record.c: no function %s (renamed? update this list)\n", functions[i]);
		CHECK(line > 0);
		if (line)
			msg_scan(body, "cli/cmd_record.c", line, cli_calls, 2, check_format, &fc);
	}
	/* the scanner did find the messages (a broken scanner would pass everything) */
	CHECK(fc.formats >= 60);
	CHECK_INT_EQ(fc.missing, 0);
}

/* The scanner and matcher themselves, on made-up sources. */
TEST(msg_scan_finds_formats)
{
	static const struct msg_call calls[] = { { "filt_diag_add", 4, false }, { "snprintf", 2, true } };
	const char *src = "static void f(void)\n{\n"
			  "\tsnprintf(err, len, cpus ? \"no PMU covers:\" : \"%u PMUs, \"\n\t\t\"pick one\", n);\n"
			  "\tsnprintf(path, len, \"%s/%s\", a, b);\n"
			  "\tvsnprintf(buf, len, \"not this\", ap);\n"
			  "\tfilt_diag_add(d, M, true, \"opt\", \"bits 0x%llx (\\\"%s\\\")\", f(1, 2), s);\n}\n";
	struct format_check fc = { "x: no PMU covers: a\n3 PMUs, pick one\nopt: bits 0x80 (\"x\")\n", 0, 0 };
	CHECK_INT_EQ(msg_scan(src, "t.c", 1, calls, 2, check_format, &fc), 3);
	CHECK_INT_EQ(fc.formats, 3);
	CHECK_INT_EQ(fc.missing, 0);
	bool checked;
	CHECK(!msg_documented("a: 1 is below 2\n", "%s: %u is above %u", &checked));
	CHECK(msg_documented("a: 1 is above 2\n", "%s: %u is above %u", &checked));
	CHECK(!msg_documented("is\nabove\n", "%u is %u above", &checked)); /* one line */
	CHECK(msg_documented("", "%s: %s\n", &checked));
	CHECK(!checked);
}

static void print_generated(void)
{
	char row[512];
	for (int t = 0; t < SPE_TERM_COUNT; t++) {
		term_row(t, row, sizeof row);
		printf("%s\n", row);
	}
	printf("\n");
#define SPE_X(bit, id, word, column, since, desc) printf("| %d | `%s` | %s | %s |\n", bit, column, since[0] ? since : "never", desc);
	SPE_EVENT_LIST(SPE_X)
#undef SPE_X
	printf("\n");
	for (int m = 0; m < SPE_MSG_COUNT; m++)
		printf("| `%s` | %s |\n", spe_filter_msg_id(m), spe_filter_msg_what(m));
}

int main(int argc, char **argv)
{
	fixture_init(argc, argv);
	if (argc > 3 && !strcmp(argv[3], "--print")) {
		print_generated();
		return 0;
	}
	RUN(filters_md_rows_match_term_table);
	RUN(filters_md_names_every_event);
	RUN(messages_doc_lists_every_message_id);
	RUN(man_page_lists_every_term_and_profile);
	RUN(msg_scan_finds_formats);
	RUN(messages_doc_shows_every_message_format);
	return check_summary();
}
