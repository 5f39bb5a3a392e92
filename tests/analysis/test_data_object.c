/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data objects of a binary (analysis/resolve/data_object.c) on the committed
 * aarch64 fixtures: DWARF variables with type, size and declaration, ELF
 * data symbols where DWARF has none, sections where no variable covers an
 * address, and the names of data mappings.  Expected addresses and sizes
 * were checked with aarch64-linux-gnu-nm -S and readelf -S on the same files;
 * lines against fixtures/workloads/datawork.c.
 *
 * usage: test_data_object ELF_DIR
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "check.h"
#include "ana/data_object.h"

static const char *elf_dir;

static int ends_with(const char *s, const char *suffix)
{
	size_t a = s ? strlen(s) : 0, b = strlen(suffix);
	return s && a >= b && !strcmp(s + a - b, suffix);
}

TEST(dwarf_variables)
{
	struct spe_sym_opts o = { .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/datawork-pie", NULL);
	CHECK(bin != NULL);
	struct dobj_vars *v = ana_dobj_vars_new(bin);
	CHECK(v != NULL);
	const struct dobj_var *x = ana_dobj_vars_lookup(v, 0x3878 + 8 * 1000); /* table[1000] */
	CHECK(x != NULL);
	if (x) {
		CHECK_STR_EQ(x->name, "table");
		CHECK_INT_EQ(x->kind, DOBJ_VARIABLE);
		CHECK_U64_EQ(x->start, 0x3878);
		CHECK_U64_EQ(x->size, 0x80000);
		CHECK_STR_EQ(x->type, "double[65536]");
		CHECK(ends_with(x->file, "datawork.c"));
		CHECK_INT_EQ(x->line, 28);
	}
	x = ana_dobj_vars_lookup(v, 0xdd0 + 255); /* the last byte of weights, in the r-x segment (.rodata) */
	CHECK(x && !strcmp(x->name, "weights") && x->size == 256);
	if (x)
		CHECK_STR_EQ(x->type, "const int[64]");
	x = ana_dobj_vars_lookup(v, 0x3060 + 8 * 37);
	CHECK(x && !strcmp(x->name, "histogram") && x->size == 2048 && x->line == 32);
	x = ana_dobj_vars_lookup(v, 0x3868);
	CHECK(x && !strcmp(x->name, "shared_counter") && x->size == 8);
	if (x)
		CHECK_STR_EQ(x->type, "atomic_long");
	/* a function-static: calls.0 in the symbol table, sum_table::calls in DWARF */
	x = ana_dobj_vars_lookup(v, 0x3870);
	CHECK(x != NULL);
	if (x) {
		CHECK_STR_EQ(x->name, "sum_table::calls");
		CHECK_STR_EQ(x->type, "long int");
		CHECK_INT_EQ(x->line, 42);
	}
	/* crtstuff's completed.0 has no DWARF: the ELF symbol names it */
	x = ana_dobj_vars_lookup(v, 0x3860);
	CHECK(x && !strcmp(x->name, "completed.0") && x->kind == DOBJ_SYMBOL && x->size == 1);
	/* no variable at the GOT: its section */
	x = ana_dobj_vars_lookup(v, 0x2fc0);
	CHECK(x && !strcmp(x->name, ".got") && x->kind == DOBJ_SECTION);
	/* past the end of .bss (0x83898): not the binary's data */
	CHECK(ana_dobj_vars_lookup(v, 0x83898) == NULL);
	CHECK(ana_dobj_vars_lookup(v, 0x90000000) == NULL);
	uint64_t lo, hi;
	ana_dobj_vars_span(v, &lo, &hi);
	CHECK_U64_EQ(lo, 0);
	CHECK_U64_EQ(hi, 0x83880);
	ana_dobj_vars_free(v);
	spe_sym_free(sym);
}

/* A stripped binary: the variables come from its separate debuginfo (.gnu_debuglink). */
TEST(stripped_binary_debuglink)
{
	struct spe_sym_opts o = { .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/memwork-stripped", NULL);
	struct dobj_vars *v = ana_dobj_vars_new(bin);
	const struct dobj_var *x = ana_dobj_vars_lookup(v, 0x2100 + 8); /* shared.b */
	CHECK(x != NULL);
	if (x) {
		CHECK_STR_EQ(x->name, "shared");
		CHECK_INT_EQ(x->kind, DOBJ_VARIABLE);
		CHECK_U64_EQ(x->size, 64);
		CHECK_STR_EQ(x->type, "struct shared_line");
	}
	ana_dobj_vars_free(v);
	spe_sym_free(sym);
}

TEST(mapping_kinds)
{
	char name[256];
	CHECK_INT_EQ(ana_dobj_mapping_kind("[heap]", PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, name, sizeof name), DOBJ_HEAP);
	CHECK_STR_EQ(name, "[heap]");
	CHECK_INT_EQ(ana_dobj_mapping_kind("[stack]", PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, name, sizeof name), DOBJ_STACK);
	CHECK_INT_EQ(ana_dobj_mapping_kind("//anon", PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, name, sizeof name), DOBJ_ANON);
	CHECK_STR_EQ(name, "//anon");
	CHECK_INT_EQ(ana_dobj_mapping_kind("//anon", PROT_READ | PROT_WRITE, MAP_SHARED, 0, name, sizeof name), DOBJ_SHARED);
	CHECK_INT_EQ(ana_dobj_mapping_kind("/dev/shm/ring", PROT_READ, MAP_SHARED, 0, name, sizeof name), DOBJ_SHARED);
	CHECK_INT_EQ(ana_dobj_mapping_kind("/SYSV00000000 (deleted)", PROT_READ, MAP_SHARED, 0, name, sizeof name),
		     DOBJ_SHARED);
	CHECK_INT_EQ(ana_dobj_mapping_kind("[vdso]", PROT_READ, MAP_PRIVATE, 0, name, sizeof name), DOBJ_OTHER);
	CHECK_INT_EQ(ana_dobj_mapping_kind("/data/index.db", PROT_READ, MAP_PRIVATE, 0x40000, name, sizeof name), DOBJ_FILE);
	CHECK_STR_EQ(name, "/data/index.db+0x40000");
	CHECK_STR_EQ(ana_dobj_kind_name(DOBJ_VARIABLE), "variable");
	CHECK_STR_EQ(ana_dobj_kind_name(DOBJ_FILE), "file");
	CHECK(ana_dobj_kind_name(0) == NULL);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_data_object ELF_DIR\n");
		return 64;
	}
	elf_dir = argv[1];
	RUN(dwarf_variables);
	RUN(stripped_binary_debuglink);
	RUN(mapping_kinds);
	return check_summary();
}
