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
	struct spe_sym_opts o = { .symfs = elf_dir };
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
	struct spe_sym_opts o = { .symfs = elf_dir };
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
	struct spe_sym_opts o = { .symfs = elf_dir };
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
	struct spe_sym_opts o = { .symfs = elf_dir };
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
	struct spe_sym_opts o = { .symfs = elf_dir };
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
	struct spe_sym_opts o = { .symfs = elf_dir };
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
	struct spe_sym_opts o = { .symfs = "/nonexistent-root" };
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
	struct spe_sym_opts o2 = { .symfs = elf_dir };
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
	struct spe_sym_opts o = { .symfs = root.dir };
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
	struct spe_sym_opts o = { .symfs = root.dir };
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
 * spe_sym_lookup answers from its own index of unambiguous symbols and asks
 * dwfl_module_addrinfo only for the rest: the function name and start must be
 * dwfl's at and around every symbol edge of real binaries (the fixtures,
 * this test program with its full symbol table, and the host's libc, with its
 * aliases and IFUNCs, when present).  Returns the number of addresses tried.
 */
static long compare_with_dwfl(const char *path)
{
	static const Dwfl_Callbacks cb = { .find_elf = dwfl_build_id_find_elf,
					   .find_debuginfo = dwfl_standard_find_debuginfo,
					   .section_address = dwfl_offline_section_address };
	if (access(path, R_OK) != 0)
		return 0;
	struct spe_sym_opts o = { 0 };
	struct spe_symbolizer *sym = spe_sym_new(&o);
	struct spe_sym_binary *bin = spe_sym_binary(sym, path, NULL);
	Dwfl *dwfl = dwfl_begin(&cb);
	dwfl_report_begin(dwfl);
	Dwfl_Module *mod = dwfl_report_elf(dwfl, path, path, -1, 0, false);
	dwfl_report_end(dwfl, NULL, NULL);
	long tried = 0, wrong = 0;
	int n = mod && bin ? dwfl_module_getsymtab(mod) : 0;
	/*
	 * dwfl scans the whole table per lookup: at most ~1000 symbols each, ~200
	 * under an emulator (qemu-user runs this scan 20-50x slower).
	 */
	const char *emulator = getenv("SPE_RUN");
	int step = n / (emulator && *emulator ? 200 : 1000) + 1;
	for (int i = 1; i < n && wrong < 5; i += step) {
		GElf_Sym s;
		GElf_Addr a;
		if (!dwfl_module_getsym_info(mod, i, &s, &a, NULL, NULL, NULL))
			continue;
		uint64_t probes[] = { a - 1, a, a + 1, a + s.st_size / 2, a + s.st_size - 1, a + s.st_size };
		for (int k = 0; k < 6; k++) {
			GElf_Off off = 0;
			GElf_Sym ws;
			const char *want = dwfl_module_addrinfo(mod, probes[k], &off, &ws, NULL, NULL, NULL);
			struct spe_sym_result r;
			spe_sym_lookup(bin, probes[k], &r);
			tried++;
			if (!same_str(r.function, want) || (want && (r.function_start != probes[k] - off ||
								   r.function_size != ws.st_size))) {
				printf("  %s 0x%llx: got %s+0x%llx, dwfl %s\n", path, (unsigned long long)probes[k],
				       r.function ? r.function : "(none)", (unsigned long long)(probes[k] - r.function_start),
				       want ? want : "(none)");
				wrong++;
			}
		}
	}
	CHECK_INT_EQ(wrong, 0);
	dwfl_end(dwfl);
	spe_sym_free(sym);
	return tried;
}

TEST(symbol_index_agrees_with_dwfl)
{
	char path[4096];
	long tried = 0;
	const char *names[] = { "memwork-pie", "memwork-nopie", "memwork-stripped", ".debug/memwork-stripped.debug" };
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "%s/%s", elf_dir, names[i]);
		long t = compare_with_dwfl(path);
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

int main(int argc, char **argv)
{
	elf_dir = argc > 1 ? argv[1] : "fixtures/elf";
	RUN(pie_function_line_and_code);
	RUN(inline_frame);
	RUN(inline_frames_with_call_sites);
	RUN(nopie_addresses);
	RUN(stripped_with_debuglink);
	RUN(unknowns_are_null);
	RUN(found_by_build_id);
	RUN(found_by_build_id_in_debug_root);
	RUN(stripped_with_debuginfo_in_debug_root);
	RUN(symbol_index_agrees_with_dwfl);
	return check_summary();
}
