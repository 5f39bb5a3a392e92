/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libdwfl symbolizer on the committed aarch64 fixtures (fixtures/elf/, built
 * by fixtures/workloads/build.sh).  Expected names and lines were checked
 * with aarch64-linux-gnu-addr2line -f -i and objdump -d on the same files.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "spe/analysis.h"

static const char *elf_dir;

static int ends_with(const char *s, const char *suffix)
{
	size_t a = s ? strlen(s) : 0, b = strlen(suffix);
	return s && a >= b && strcmp(s + a - b, suffix) == 0;
}

TEST(pie_function_line_and_code)
{
	struct spe_sym_opts o = { .size = sizeof o, .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/memwork-pie", NULL);
	CHECK(bin != NULL);
	CHECK_STR_EQ(spe_sym_binary_build_id(bin), "1a466382803aa50298bdd65d5121800874950ac3");
	struct spe_sym_result r;
	CHECK_INT_EQ(spe_sym_lookup(bin, 0x8c4, &r), 1); /* ldr x0, [x0] in chase */
	CHECK_STR_EQ(r.function, "chase");
	CHECK_U64_EQ(r.function_start, 0x8b8);
	CHECK(r.function_size > 0);
	CHECK(ends_with(r.file, "memwork.c"));
	CHECK_INT_EQ(r.line, 35);
	CHECK_INT_EQ(r.decl_line, 34);
	CHECK(r.inline_function == NULL);
	uint8_t code[4];
	CHECK_INT_EQ(spe_sym_read_code(bin, 0x8c4, code, 4), 4);
	CHECK_INT_EQ(code[3], 0xf9);
	CHECK_INT_EQ(code[0], 0x00);
	/* the text segment starts at file offset 0, vaddr 0 */
	uint64_t va = 0;
	CHECK_INT_EQ(spe_sym_offset_to_vaddr(bin, 0x8c4, &va), 0);
	CHECK_U64_EQ(va, 0x8c4);
	spe_sym_free(sym);
}

TEST(inline_frame)
{
	struct spe_sym_opts o = { .size = sizeof o, .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "memwork-pie", NULL);
	struct spe_sym_result r;
	CHECK_INT_EQ(spe_sym_lookup(bin, 0x8a4, &r), 1); /* str x1, [x0]: bump() inlined */
	CHECK_STR_EQ(r.function, "bump_shared");
	CHECK_STR_EQ(r.inline_function, "bump");
	CHECK_INT_EQ(r.line, 51);
	spe_sym_free(sym);
}

TEST(nopie_addresses)
{
	struct spe_sym_opts o = { .size = sizeof o, .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/memwork-nopie", NULL);
	struct spe_sym_result r;
	CHECK_INT_EQ(spe_sym_lookup(bin, 0x4007b4, &r), 1);
	CHECK_STR_EQ(r.function, "chase");
	CHECK_U64_EQ(r.function_start, 0x4007a8);
	uint64_t va = 0;
	CHECK_INT_EQ(spe_sym_offset_to_vaddr(bin, 0x7b4, &va), 0);
	CHECK_U64_EQ(va, 0x4007b4);
	spe_sym_free(sym);
}

TEST(stripped_with_debuglink)
{
	struct spe_sym_opts o = { .size = sizeof o, .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/memwork-stripped", NULL);
	CHECK(bin != NULL);
	struct spe_sym_result r;
	CHECK_INT_EQ(spe_sym_lookup(bin, 0x8c4, &r), 1);
	CHECK_STR_EQ(r.function, "chase"); /* only in .debug/memwork-stripped.debug */
	CHECK_INT_EQ(r.line, 35);
	spe_sym_free(sym);
}

TEST(unknowns_are_null)
{
	struct spe_sym_opts o = { .size = sizeof o, .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	CHECK(spe_sym_binary(sym, "/no-such-binary", NULL) == NULL);
	CHECK(spe_sym_binary(sym, "/no-such-binary", NULL) == NULL); /* remembered */
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/memwork-pie", NULL);
	struct spe_sym_result r;
	CHECK_INT_EQ(spe_sym_lookup(bin, 0x100000, &r), 0);
	CHECK(r.function == NULL);
	CHECK(r.file == NULL);
	CHECK_INT_EQ(r.line, 0);
	spe_sym_free(sym);
}

int main(int argc, char **argv)
{
	elf_dir = argc > 1 ? argv[1] : "fixtures/elf";
	RUN(pie_function_line_and_code);
	RUN(inline_frame);
	RUN(nopie_addresses);
	RUN(stripped_with_debuglink);
	RUN(unknowns_are_null);
	return check_summary();
}
