/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The docs agree with the tables: docs/filters.md has one row per term
 * exactly as the term table renders it, and names every facts.h event;
 * docs/spe-record.1.md lists every message id and every CPU profile.
 * `test_filters_docs FIXTURES DOCS --print` prints the generated rows.
 */
#include "check.h"
#include "fixture_target.h"

#include "spe/facts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *name)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", docs_dir(), name);
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

TEST(man_page_lists_every_message)
{
	const char *doc = slurp("spe-record.1.md");
	CHECK(doc != NULL);
	if (!doc)
		return;
	for (int m = 0; m < SPE_MSG_COUNT; m++) {
		char id[64];
		snprintf(id, sizeof id, "`%s`", spe_filter_msg_id(m));
		if (!strstr(doc, id))
			printf("  docs/spe-record.1.md lacks message %s\n", id);
		CHECK(strstr(doc, id) != NULL);
	}
	for (int t = 0; t < SPE_TERM_COUNT; t++) {
		char option[48];
		snprintf(option, sizeof option, "`--%s", spe_term_info(t)->name);
		for (char *p = option + 3; *p; p++)
			if (*p == '_')
				*p = '-';
		if (spe_term_info(t)->kind == SPE_TERM_RAW)
			snprintf(option, sizeof option, "`--config=W` ... `--config4=W`");
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
	RUN(man_page_lists_every_message);
	return check_summary();
}
