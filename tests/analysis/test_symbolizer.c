/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libdwfl symbolizer on the committed aarch64 fixtures (fixtures/elf/, built
 * by fixtures/workloads/build.sh).  Expected names and lines were checked
 * with aarch64-linux-gnu-addr2line -f -i and objdump -d on the same files.
 */
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "spe/analysis.h"

static const char *elf_dir;

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

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

/* The frames at an inlined PC, checked with aarch64-linux-gnu-addr2line -f -i
 * (bump at 51, called from bump_shared at 58) and the source (declarations
 * on lines 49 and 54 of fixtures/workloads/memwork.c). */
TEST(inline_frames_with_call_sites)
{
	struct spe_sym_opts o = { .size = sizeof o, .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "memwork-pie", NULL);
	struct spe_sym_frame f[4];
	CHECK_INT_EQ(spe_sym_frames(bin, 0x8a4, f, 4), 2);
	CHECK_STR_EQ(f[0].function, "bump");
	CHECK(ends_with(f[0].file, "memwork.c"));
	CHECK_INT_EQ(f[0].line, 51);
	CHECK_INT_EQ(f[0].decl_line, 49);
	CHECK_STR_EQ(f[1].function, "bump_shared");
	CHECK(ends_with(f[1].file, "memwork.c"));
	CHECK_INT_EQ(f[1].line, 58);
	CHECK_INT_EQ(f[1].decl_line, 54);
	CHECK(f[1].linkage_name == NULL); /* C */
	/* not inlined: one frame, the function */
	CHECK_INT_EQ(spe_sym_frames(bin, 0x8c4, f, 4), 1);
	CHECK_STR_EQ(f[0].function, "chase");
	CHECK_INT_EQ(f[0].line, 35);
	CHECK_INT_EQ(f[0].decl_line, 31);
	/* room for one frame: the innermost */
	CHECK_INT_EQ(spe_sym_frames(bin, 0x8a4, f, 1), 1);
	CHECK_STR_EQ(f[0].function, "bump");
	/* no DWARF scope: none */
	CHECK_INT_EQ(spe_sym_frames(bin, 0x10, f, 4), 0);
	/* the image: from text to the end of .bss, which holds `shared` (0x2100); readelf -l:
	 * the RW PT_LOAD's memory image (memsz) ends past its file bytes */
	uint64_t lo, hi;
	CHECK_INT_EQ(spe_sym_image_range(bin, &lo, &hi), 0);
	CHECK_U64_EQ(lo, 0);
	CHECK_U64_EQ(hi, 0x2140); /* 0x1dc8 + memsz 0x378 */
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

/* A binary missing at its path is found by build-id in the perf cache (~/.debug/.build-id/xx/rest/elf). */
TEST(found_by_build_id)
{
	char home[] = "/tmp/spe-home-XXXXXX", cmd[1024];
	if (!mkdtemp(home)) {
		CHECK(0);
		return;
	}
	snprintf(cmd, sizeof cmd,
		 "mkdir -p %s/.debug/.build-id/1a/466382803aa50298bdd65d5121800874950ac3 && "
		 "cp %s/memwork-pie %s/.debug/.build-id/1a/466382803aa50298bdd65d5121800874950ac3/elf",
		 home, elf_dir, home);
	CHECK_INT_EQ(system(cmd), 0);
	char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	setenv("HOME", home, 1);
	struct spe_sym_opts o = { .size = sizeof o, .symfs = "/nonexistent-root" };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin =
		spe_sym_binary(sym, "/usr/bin/memwork", "1a466382803aa50298bdd65d5121800874950ac3");
	CHECK(bin != NULL);
	struct spe_sym_result r;
	CHECK_INT_EQ(spe_sym_lookup(bin, 0x8c4, &r), 1);
	CHECK_STR_EQ(r.function, "chase");
	/* a wrong build-id finds nothing */
	CHECK(spe_sym_binary(sym, "/usr/bin/memwork", "00112233445566778899aabbccddeeff00112233") == NULL);
	spe_sym_free(sym);
	/* the file at the path is not the one the trace names: not used */
	struct spe_sym_opts o2 = { .size = sizeof o2, .symfs = elf_dir };
	sym = spe_sym_new(&o2);
	CHECK(spe_sym_binary(sym, "/memwork-nopie", "1a466382803aa50298bdd65d5121800874950ac3") != NULL); /* via ~/.debug */
	CHECK(spe_sym_binary(sym, "/memwork-pie", "1a466382803aa50298bdd65d5121800874950ac3") != NULL);
	CHECK(spe_sym_binary(sym, "/memwork-pie", "00112233445566778899aabbccddeeff00112233") == NULL);
	spe_sym_free(sym);
	if (old_home) {
		setenv("HOME", old_home, 1);
		free(old_home);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", home);
	CHECK_INT_EQ(system(cmd), 0);
}

#define MEMWORK_BUILD_ID "1a466382803aa50298bdd65d5121800874950ac3"
#define DEBUG_ROOT_FILE "usr/lib/debug/.build-id/1a/466382803aa50298bdd65d5121800874950ac3.debug"

/* A temporary root for --symfs (and an empty HOME, so ~/.debug cannot answer instead). */
struct root {
	char dir[32];
	char *old_home;
};

static int root_make(struct root *r)
{
	snprintf(r->dir, sizeof r->dir, "/tmp/spe-root-XXXXXX");
	if (!mkdtemp(r->dir))
		return -1;
	char cmd[256];
	snprintf(cmd, sizeof cmd, "mkdir -p %s/home %s/usr/lib/debug/.build-id/1a", r->dir, r->dir);
	if (system(cmd) != 0)
		return -1;
	r->old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	snprintf(cmd, sizeof cmd, "%s/home", r->dir);
	setenv("HOME", cmd, 1);
	return 0;
}

static void root_remove(struct root *r)
{
	if (r->old_home) {
		setenv("HOME", r->old_home, 1);
		free(r->old_home);
	}
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", r->dir);
	CHECK_INT_EQ(system(cmd), 0);
}

/* A binary missing at its path is found by build-id in SYMFS/usr/lib/debug/.build-id/xx/rest.debug. */
TEST(found_by_build_id_in_debug_root)
{
	struct root root;
	if (root_make(&root) < 0) {
		CHECK(0);
		return;
	}
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cp %s/memwork-pie %s/" DEBUG_ROOT_FILE, elf_dir, root.dir);
	CHECK_INT_EQ(system(cmd), 0);
	struct spe_sym_opts o = { .size = sizeof o, .symfs = root.dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/usr/bin/memwork", MEMWORK_BUILD_ID);
	CHECK(bin != NULL);
	CHECK(bin && ends_with(spe_sym_binary_path(bin), "/" DEBUG_ROOT_FILE));
	struct spe_sym_result r;
	CHECK_INT_EQ(bin ? spe_sym_lookup(bin, 0x8c4, &r) : 0, 1);
	CHECK_STR_EQ(bin ? r.function : "", "chase");
	CHECK(spe_sym_binary(sym, "/usr/bin/memwork", "00112233445566778899aabbccddeeff00112233") == NULL);
	spe_sym_free(sym);
	root_remove(&root);
}

/*
 * A stripped binary under SYMFS whose DWARF is only in
 * SYMFS/usr/lib/debug/.build-id/xx/rest.debug (a debuginfo package
 * installed in the target's root), not beside it.
 */
TEST(stripped_with_debuginfo_in_debug_root)
{
	struct root root;
	if (root_make(&root) < 0) {
		CHECK(0);
		return;
	}
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "mkdir -p %s/usr/bin && cp %s/memwork-stripped %s/usr/bin/memwork && "
		 "cp %s/.debug/memwork-stripped.debug %s/" DEBUG_ROOT_FILE,
		 root.dir, elf_dir, root.dir, elf_dir, root.dir);
	CHECK_INT_EQ(system(cmd), 0);
	struct spe_sym_opts o = { .size = sizeof o, .symfs = root.dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/usr/bin/memwork", MEMWORK_BUILD_ID);
	CHECK(bin && ends_with(spe_sym_binary_path(bin), "/usr/bin/memwork"));
	struct spe_sym_result r;
	CHECK_INT_EQ(bin ? spe_sym_lookup(bin, 0x8c4, &r) : 0, 1);
	CHECK_STR_EQ(bin ? r.function : "", "chase");
	CHECK_INT_EQ(bin ? r.line : 0, 35); /* the line comes from the DWARF */
	spe_sym_free(sym);
	root_remove(&root);
}

/*
 * Would the naming rules (sym_table.h) allow @p name, a symbol of @p mod
 * in section @p shndx, and is it alone at @p addr?  Where dwfl's answer is
 * such a name, it is the only possible one, and the index must give it too.
 */
static int unambiguous(Dwfl_Module *mod, const char *name, GElf_Addr addr, const GElf_Sym *ws, Elf *elf,
		       GElf_Word shndx)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;
	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || name[0] == '$')
		return 0;
	int type = GELF_ST_TYPE(ws->st_info);
	if (type != STT_FUNC && type != STT_OBJECT && type != STT_GNU_IFUNC &&
	    !(type == STT_NOTYPE && (sh.sh_flags & SHF_EXECINSTR)))
		return 0;
	int n = dwfl_module_getsymtab(mod), at = 0;
	for (int i = 1; i < n; i++) {
		GElf_Sym s;
		GElf_Addr a;
		if (dwfl_module_getsym_info(mod, i, &s, &a, NULL, NULL, NULL) && a == addr &&
		    GELF_ST_TYPE(s.st_info) != STT_SECTION && GELF_ST_TYPE(s.st_info) != STT_FILE)
			at++;
	}
	return at == 1;
}

/*
 * spe_sym_lookup answers from its own table (sym_table.h), not from
 * dwfl_module_addrinfo; where dwfl's answer is unambiguous (a name the rules
 * allow, alone at its address, a sized symbol), both must agree on the
 * name, start and size, at and around every symbol edge of real binaries
 * (the fixtures, this test program, and the host's libc with its aliases
 * and IFUNCs).  Returns the number of addresses compared.
 */
static long compare_with_dwfl(const char *path)
{
	/* dwfl's standard search (the debuglink of memwork-stripped); main() keeps debuginfod out of it */
	static const Dwfl_Callbacks cb = { .find_elf = dwfl_build_id_find_elf,
					   .find_debuginfo = dwfl_standard_find_debuginfo,
					   .section_address = dwfl_offline_section_address };
	if (access(path, R_OK) != 0)
		return 0;
	struct spe_sym_opts o = { .size = sizeof o };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, path, NULL);
	Dwfl *dwfl = dwfl_begin(&cb);
	dwfl_report_begin(dwfl);
	Dwfl_Module *mod = dwfl_report_elf(dwfl, path, path, -1, 0, false);
	dwfl_report_end(dwfl, NULL, NULL);
	long tried = 0, wrong = 0;
	int n = mod && bin ? dwfl_module_getsymtab(mod) : 0;
	/*
	 * dwfl scans the whole table per lookup (and unambiguous() once more):
	 * at most ~500 symbols each, ~100 under an emulator (qemu-user runs this
	 * scan 20-50x slower).
	 */
	const char *emulator = getenv("SPE_RUN");
	int step = n / (emulator && *emulator ? 100 : 500) + 1;
	for (int i = 1; i < n && wrong < 5; i += step) {
		GElf_Sym s;
		GElf_Addr a;
		if (!dwfl_module_getsym_info(mod, i, &s, &a, NULL, NULL, NULL))
			continue;
		uint64_t probes[] = { a - 1, a, a + 1, a + s.st_size / 2, a + s.st_size - 1, a + s.st_size };
		for (int k = 0; k < 6; k++) {
			GElf_Off off = 0;
			GElf_Sym ws;
			GElf_Word shndx;
			Elf *elf = NULL;
			const char *want = dwfl_module_addrinfo(mod, probes[k], &off, &ws, &shndx, &elf, NULL);
			if (!want || !ws.st_size || !unambiguous(mod, want, probes[k] - off, &ws, elf, shndx))
				continue;
			struct spe_sym_result r;
			spe_sym_lookup(bin, probes[k], &r);
			tried++;
			if (!same_str(r.function, want) || r.function_start != probes[k] - off || r.function_size != ws.st_size) {
				printf("  %s 0x%llx: got %s+0x%llx, dwfl %s\n", path, (unsigned long long)probes[k],
				       r.function ? r.function : "(none)", (unsigned long long)(probes[k] - r.function_start),
				       want);
				wrong++;
			}
		}
	}
	CHECK_INT_EQ(wrong, 0);
	dwfl_end(dwfl);
	spe_sym_free(sym);
	return tried;
}

TEST(symbol_names_agree_with_dwfl_where_unambiguous)
{
	char path[4096];
	long tried = 0;
	const char *names[] = { "memwork-pie", "memwork-nopie", "memwork-stripped", ".debug/memwork-stripped.debug",
				"symwork-pie" };
	for (int i = 0; i < 5; i++) {
		snprintf(path, sizeof path, "%s/%s", elf_dir, names[i]);
		long t = compare_with_dwfl(path);
		if (t == 0)
			printf("  %s: nothing compared\n", names[i]);
		CHECK(t > 0);
		tried += t;
	}
	tried += compare_with_dwfl("/proc/self/exe");
	const char *libcs[] = { "/lib/x86_64-linux-gnu/libc.so.6", "/lib/aarch64-linux-gnu/libc.so.6",
				"/lib64/libc.so.6", "/usr/lib/libc.so.6" };
	for (int i = 0; i < 4; i++)
		tried += compare_with_dwfl(libcs[i]);
	printf("  %ld addresses compared\n", tried);
}

/* The name at @p vaddr, or "(none)". */
static const char *name_at(struct spe_sym_binary *bin, uint64_t vaddr)
{
	struct spe_sym_result r;
	spe_sym_lookup(bin, vaddr, &r);
	return r.function ? r.function : "(none)";
}

/*
 * Every instruction of .plt named as binutils names it: objdump -d labels
 * each PLT entry `<func@plt>` (its synthetic symbols, from the entry size
 * its aarch64 backend knows) and the header `<.plt>`, which gets no name
 * here.  16-byte entries (symwork-pie) and 24-byte ones (BTI: symwork-bti;
 * PAC: symwork-pac).  Returns the instructions compared.
 */
static long plt_against_objdump(const char *file)
{
	char cmd[4200], line[512], label[256] = "";
	snprintf(cmd, sizeof cmd, "aarch64-linux-gnu-objdump -d --section=.plt %s/%s 2>/dev/null", elf_dir, file);
	FILE *p = popen(cmd, "r");
	if (!p)
		return 0;
	char path[4200];
	snprintf(path, sizeof path, "/%s", file);
	struct spe_sym_opts o = { .size = sizeof o, .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, path, NULL);
	long n = 0, wrong = 0, entries = 0;
	while (bin && fgets(line, sizeof line, p)) {
		unsigned long long a;
		char l[256];
		if (sscanf(line, "%llx <%255[^>]>:", &a, l) == 2) {
			snprintf(label, sizeof label, "%s", l);
			entries += strstr(label, "@plt") != NULL;
			continue;
		}
		if (sscanf(line, " %llx:", &a) != 1 || !*label)
			continue;
		const char *want = strcmp(label, ".plt") ? label : "(none)", *got = name_at(bin, a);
		n++;
		if (strcmp(got, want) && wrong++ < 5)
			printf("  %s 0x%llx: got %s, objdump %s\n", file, a, got, want);
	}
	pclose(p);
	CHECK(bin != NULL);
	CHECK_INT_EQ(wrong, 0);
	CHECK(entries >= 7); /* printf, puts, malloc, free, strlen, memset, atoi at least */
	spe_sym_free(sym);
	return n;
}

TEST(plt_names_agree_with_objdump)
{
	if (system("aarch64-linux-gnu-objdump --version >/dev/null 2>&1") != 0) {
		printf("  SKIP: aarch64-linux-gnu-objdump not installed\n");
		return;
	}
	/* 16-byte entries: 32 + 16n bytes of .plt; 24-byte ones: 32 + 24n (readelf -S, -r) */
	long pie = plt_against_objdump("symwork-pie"), bti = plt_against_objdump("symwork-bti"),
	     pac = plt_against_objdump("symwork-pac");
	CHECK_INT_EQ(pie, (0xd0) / 4);
	CHECK_INT_EQ(bti, (0x110) / 4);
	CHECK_INT_EQ(pac, (0x128) / 4);
}

/*
 * symwork.c's names, addresses from aarch64-linux-gnu-readelf -sW and
 * objdump -d of fixtures/elf/symwork-pie.
 */
TEST(names_aliases_and_mapping_symbols)
{
	struct spe_sym_opts o = { .size = sizeof o, .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/symwork-pie", NULL);
	CHECK(bin != NULL);
	/* aliases: fewer leading underscores (impl_write, __impl_write, weak write_weak at 0x938) */
	CHECK_STR_EQ(name_at(bin, 0x938), "impl_write");
	CHECK_STR_EQ(name_at(bin, 0x96c), "impl_write");
	/* local helper_local over weak helper_weak (0x970) */
	CHECK_STR_EQ(name_at(bin, 0x974), "helper_local");
	/* two globals, same underscores: the longer name (sum, sum_longer_name at 0x97c) */
	CHECK_STR_EQ(name_at(bin, 0x97c), "sum_longer_name");
	/* the data words inside asm_with_data ($d at 0x91c, $x again at 0x924) */
	CHECK_STR_EQ(name_at(bin, 0x91c), "asm_with_data");
	CHECK_STR_EQ(name_at(bin, 0x920), "asm_with_data");
	CHECK_STR_EQ(name_at(bin, 0x924), "asm_with_data");
	/* a sizeless function reaches to the next symbol, a label inside it */
	CHECK_STR_EQ(name_at(bin, 0x92c), "asm_sizeless");
	CHECK_STR_EQ(name_at(bin, 0x930), "asm_sizeless_tail");
	struct spe_sym_result r;
	spe_sym_lookup(bin, 0x92c, &r);
	CHECK_U64_EQ(r.function_start, 0x928);
	CHECK_U64_EQ(r.function_size, 0); /* sizeless: symbol.size NULL */
	/* _init (sizeless, .init 0x710-0x728) stops at its section's end: not over the gap, not over PLT0 */
	CHECK_STR_EQ(name_at(bin, 0x724), "_init");
	CHECK_STR_EQ(name_at(bin, 0x728), "(none)");
	CHECK_STR_EQ(name_at(bin, 0x730), "(none)"); /* PLT0 */
	CHECK_STR_EQ(name_at(bin, 0x74c), "(none)");
	spe_sym_lookup(bin, 0x750, &r); /* the first PLT entry: 16 bytes */
	CHECK_STR_EQ(r.function, "strlen@plt");
	CHECK_U64_EQ(r.function_start, 0x750);
	CHECK_U64_EQ(r.function_size, 16);
	/* no name is ever a mapping symbol, anywhere in the file's code */
	for (uint64_t a = 0x700; a < 0xb20; a += 4) {
		const char *n = name_at(bin, a);
		if (n[0] == '$') {
			printf("  0x%llx: %s\n", (unsigned long long)a, n);
			CHECK(0);
			break;
		}
	}
	spe_sym_free(sym);
}

/* The same names in the BTI binary: the 24-byte entries start with `bti c` (objdump -d). */
TEST(bti_plt_entries)
{
	struct spe_sym_opts o = { .size = sizeof o, .symfs = elf_dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/symwork-bti", NULL);
	struct spe_sym_result r;
	spe_sym_lookup(bin, 0x40070c, &r); /* adrp of the second entry */
	CHECK_STR_EQ(r.function, "__libc_start_main@plt");
	CHECK_U64_EQ(r.function_start, 0x400708);
	CHECK_U64_EQ(r.function_size, 24);
	CHECK_STR_EQ(name_at(bin, 0x400704), "strlen@plt"); /* the nop ending the first entry */
	CHECK_STR_EQ(name_at(bin, 0x4006ec), "(none)");     /* PLT0's last nop */
	spe_sym_free(sym);
}

#define SYMWORK_PIE_ID "e651cb20a79cb8c9cb884e5f8aaa609faa6ab6c7"
#define SYMWORK_REBUILT_ID "5ff24a5a7c5709763137d77394e0fe1409834e4a"

struct seen {
	int calls;
	enum spe_sym_match last;
};

static void count_binary(void *arg, const char *path, const char *build_id, const struct spe_sym_check *c)
{
	(void)path, (void)build_id;
	struct seen *s = arg;
	s->calls++;
	s->last = c->match;
}

/* A file is used only when its build-id is the recorded one; each outcome named once. */
TEST(build_id_decides_the_file)
{
	struct root root;
	if (root_make(&root) < 0) {
		CHECK(0);
		return;
	}
	char cmd[1024];
	/* the program rebuilt since the recording, at the recorded path */
	snprintf(cmd, sizeof cmd, "cp %s/symwork-rebuilt %s/symwork", elf_dir, root.dir);
	CHECK_INT_EQ(system(cmd), 0);
	struct seen seen = { 0 };
	struct spe_sym_opts o = { .size = sizeof o, .symfs = root.dir, .on_binary = count_binary, .arg = &seen };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_check c;
	CHECK(spe_sym_binary_check(sym, "/symwork", SYMWORK_PIE_ID, &c) == NULL);
	CHECK_INT_EQ(c.match, SPE_SYM_MISMATCH);
	CHECK(c.file && ends_with(c.file, "/symwork"));
	CHECK_STR_EQ(c.file_build_id, SYMWORK_REBUILT_ID);
	CHECK(spe_sym_binary_check(sym, "/symwork", SYMWORK_PIE_ID, &c) == NULL); /* remembered */
	CHECK_INT_EQ(c.match, SPE_SYM_MISMATCH);
	CHECK_INT_EQ(seen.calls, 1); /* named once */
	CHECK_INT_EQ(spe_sym_known_match(sym, "/symwork", SYMWORK_PIE_ID), SPE_SYM_MISMATCH);
	CHECK_INT_EQ(spe_sym_known_match(sym, "/symwork", NULL), SPE_SYM_UNCHECKED);
	/* the rebuilt file's own id: it is the one */
	struct spe_sym_binary *bin = spe_sym_binary_check(sym, "/symwork", SYMWORK_REBUILT_ID, &c);
	CHECK(bin != NULL);
	CHECK_INT_EQ(c.match, SPE_SYM_MATCHED);
	/* perf pads ids to 20 bytes: a longer recorded id with zeros past the file's is the same, else not */
	CHECK(spe_sym_binary_check(sym, "/symwork", SYMWORK_REBUILT_ID "0000", &c) != NULL);
	CHECK_INT_EQ(c.match, SPE_SYM_MATCHED);
	CHECK(spe_sym_binary_check(sym, "/symwork", SYMWORK_REBUILT_ID "0001", &c) == NULL);
	CHECK_INT_EQ(c.match, SPE_SYM_MISMATCH);
	/* no recorded id: the file at the path, unverified */
	CHECK(spe_sym_binary_check(sym, "/symwork", NULL, &c) != NULL);
	CHECK_INT_EQ(c.match, SPE_SYM_UNRECORDED);
	CHECK_STR_EQ(c.file_build_id, SYMWORK_REBUILT_ID);
	/* nothing at all */
	CHECK(spe_sym_binary_check(sym, "/absent", SYMWORK_PIE_ID, &c) == NULL);
	CHECK_INT_EQ(c.match, SPE_SYM_NOT_FOUND);
	CHECK(c.file == NULL);
	CHECK_INT_EQ(seen.calls, 6);
	CHECK_STR_EQ(spe_sym_match_name(SPE_SYM_MISMATCH), "mismatch");
	CHECK(spe_sym_match_name(SPE_SYM_UNCHECKED) == NULL);
	spe_sym_free(sym);
	root_remove(&root);
}

/*
 * perf's build-id cache layouts (tools/perf/util/build-id.c): a directory
 * per id holding `elf` and `debug`, linked from .build-id/xx/rest; the
 * older link straight to the file; roots from the option, $PERF_BUILDID_DIR
 * and ~/.debug.  A `debug` file gives names and lines but no code.
 */
TEST(build_id_cache_layouts)
{
	struct root root;
	if (root_make(&root) < 0) {
		CHECK(0);
		return;
	}
	char cmd[2048];
	const char *id = SYMWORK_PIE_ID;
	snprintf(cmd, sizeof cmd,
		 "cd %s && mkdir -p a/.build-id/%.2s a/bin/symwork/%s && cp %s/symwork-pie a/bin/symwork/%s/elf && "
		 "ln -s ../../bin/symwork/%s a/.build-id/%.2s/%s && "
		 "mkdir -p b/.build-id/%.2s && cp %s/symwork-pie b/symwork && ln -s ../../symwork b/.build-id/%.2s/%s && "
		 "mkdir -p c/.build-id/1a c/memwork/" MEMWORK_BUILD_ID " && "
		 "cp %s/.debug/memwork-stripped.debug c/memwork/" MEMWORK_BUILD_ID "/debug && "
		 "ln -s ../../memwork/" MEMWORK_BUILD_ID " c/.build-id/1a/466382803aa50298bdd65d5121800874950ac3",
		 root.dir, id, id, elf_dir, id, id, id, id + 2, id, elf_dir, id, id + 2, elf_dir);
	CHECK_INT_EQ(system(cmd), 0);
	const char *layouts[] = { "a", "b" };
	for (int i = 0; i < 2; i++) {
		char dir[64];
		snprintf(dir, sizeof dir, "%s/%s", root.dir, layouts[i]);
		struct spe_sym_opts o = { .size = sizeof o, .symfs = root.dir, .buildid_dir = dir };
		struct spe_symbolizer *sym = spe_sym_new(&o);
		struct spe_sym_check c;
		struct spe_sym_binary *bin = spe_sym_binary_check(sym, "/usr/bin/symwork", SYMWORK_PIE_ID, &c);
		CHECK(bin != NULL);
		CHECK_INT_EQ(c.match, SPE_SYM_MATCHED);
		if (c.match != SPE_SYM_MATCHED)
			printf("  %s: %s has %s\n", layouts[i], c.file ? c.file : "-", c.file_build_id ? c.file_build_id : "-");
		CHECK_STR_EQ(bin ? name_at(bin, 0x974) : "", "helper_local");
		uint8_t code[4];
		CHECK_INT_EQ(bin ? spe_sym_read_code(bin, 0x974, code, 4) : 0, 4);
		spe_sym_free(sym);
	}
	/* the same through $PERF_BUILDID_DIR, and through ~/.debug */
	char env[64];
	snprintf(env, sizeof env, "%s/a", root.dir);
	setenv("PERF_BUILDID_DIR", env, 1);
	struct spe_sym_opts o = { .size = sizeof o, .symfs = root.dir };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	CHECK(spe_sym_binary(sym, "/usr/bin/symwork", SYMWORK_PIE_ID) != NULL);
	spe_sym_free(sym);
	unsetenv("PERF_BUILDID_DIR");
	snprintf(cmd, sizeof cmd, "mv %s/a %s/home/.debug", root.dir, root.dir);
	CHECK_INT_EQ(system(cmd), 0);
	sym = spe_sym_new(&o);
	CHECK(spe_sym_binary(sym, "/usr/bin/symwork", SYMWORK_PIE_ID) != NULL);
	spe_sym_free(sym);
	/* only the cache's `debug`: names and lines, no code bytes */
	snprintf(env, sizeof env, "%s/c", root.dir);
	struct spe_sym_opts oc = { .size = sizeof oc, .symfs = root.dir, .buildid_dir = env };
	sym = spe_sym_new(&oc);
	struct spe_sym_binary *bin = spe_sym_binary(sym, "/usr/bin/memwork", MEMWORK_BUILD_ID);
	CHECK(bin && ends_with(spe_sym_binary_path(bin), "/debug"));
	struct spe_sym_result r;
	CHECK_INT_EQ(bin ? spe_sym_lookup(bin, 0x8c4, &r) : 0, 1);
	CHECK_STR_EQ(bin ? r.function : "", "chase");
	CHECK_INT_EQ(bin ? r.line : 0, 35);
	uint8_t code[4];
	CHECK_INT_EQ(bin ? spe_sym_read_code(bin, 0x8c4, code, 4) : 1, 0);
	spe_sym_free(sym);
	root_remove(&root);
}

int main(int argc, char **argv)
{
	setenv("DEBUGINFOD_URLS", "", 1); /* the reference dwfl session's standard callbacks would ask it */
	static char abs_dir[4096];
	elf_dir = realpath(argc > 1 ? argv[1] : "fixtures/elf", abs_dir) ? abs_dir : "fixtures/elf";
	RUN(pie_function_line_and_code);
	RUN(inline_frame);
	RUN(inline_frames_with_call_sites);
	RUN(nopie_addresses);
	RUN(stripped_with_debuglink);
	RUN(unknowns_are_null);
	RUN(found_by_build_id);
	RUN(found_by_build_id_in_debug_root);
	RUN(stripped_with_debuginfo_in_debug_root);
	RUN(symbol_names_agree_with_dwfl_where_unambiguous);
	RUN(plt_names_agree_with_objdump);
	RUN(names_aliases_and_mapping_symbols);
	RUN(bti_plt_entries);
	RUN(build_id_decides_the_file);
	RUN(build_id_cache_layouts);
	return check_summary();
}
