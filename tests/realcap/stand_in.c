/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stand-in: the x86-64 program that stands in for one of the aarch64
 * programs of fixtures/workloads/realcap while `perf record` runs on this
 * (x86) host, so that the capture's sideband -- COMM, FORK, EXIT, MMAP2,
 * SWITCH, written by the kernel and perf, compressed by perf -z, piped by
 * perf -o - -- describes the aarch64 program's real layout:
 *
 *   - the aarch64 executable is mapped as the kernel's ELF loader maps it
 *     (fs/binfmt_elf.c, 6.1: each PT_LOAD at its page; for ET_DYN the first
 *     segment is mapped over the image's whole span, then the rest is
 *     unmapped), then its PT_INTERP (ld-linux-aarch64.so.1) the same way;
 *   - each DT_NEEDED library is mapped from /usr/lib/aarch64-linux-gnu as
 *     glibc's ld.so maps it (elf/dl-map-segments.h: one mapping of the whole
 *     span with the first segment's protection, the others mapped over it,
 *     the bss tail zero-filled);
 *   - then the program's process shape is played: forks without exec,
 *     exec, threads, pid reuse, a JIT region with its /tmp/perf-PID.map,
 *     with busy loops where the aarch64 program computes.
 *
 * The kernel records the aarch64 files' real paths, inodes, lengths and
 * offsets (the executable mappings; data ones too with perf record -d).
 * Nothing aarch64 is executed.  The program to play is the basename of
 * argv[0] (the recording script execs copies named like the aarch64
 * programs, so COMM records carry those names); the aarch64 files are read
 * from /usr/bin and /usr/lib/aarch64-linux-gnu, so it runs chrooted into a
 * sysroot holding them (tests/realcap/record.sh).  Build it static.
 *
 * Exit status: 0, 66 when a file cannot be opened, 69 when an address is
 * taken, 70 for anything else (a message on stderr says what).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define PAGE 4096ul
#define PAGE_DOWN(x) ((x) & ~(PAGE - 1))
#define PAGE_UP(x) (((x) + PAGE - 1) & ~(PAGE - 1))

/* Where the images go: fixed, so that every recording has the same layout. */
#define PIE_BASE 0x555555550000ul  /* an ET_DYN executable */
#define INTERP_BASE 0x7e0000100000ul /* ld-linux-aarch64.so.1 */
#define LIB_BASE 0x7e0001000000ul    /* the first DT_NEEDED library, then 16 MiB apart */
#define JIT_BASE 0x7e0020000000ul    /* the JIT region */
#define LIBDIR "/usr/lib/aarch64-linux-gnu/"
#define STANDIN_DIR "/usr/libexec/realcap/"

static const char *self;

static void die(int status, const char *what, const char *path)
{
	fprintf(stderr, "stand-in %s: %s%s%s: %s\n", self, what, path ? " " : "", path ? path : "", strerror(errno));
	exit(status);
}

static void spin_ms(long ms)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

struct image {
	int fd;
	Elf64_Ehdr eh;
	Elf64_Phdr ph[32];
	int nph;
	char interp[256];
	char needed[8][64];
	int nneeded;
};

static void read_at(int fd, void *buf, size_t n, off_t off, const char *path)
{
	if (pread(fd, buf, n, off) != (ssize_t)n) {
		errno = errno ? errno : EIO;
		die(70, "short read of", path);
	}
}

/* The ELF header, program headers, PT_INTERP and DT_NEEDED of @p path. */
static void open_image(struct image *im, const char *path)
{
	memset(im, 0, sizeof *im);
	im->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (im->fd < 0)
		die(66, "cannot open", path);
	read_at(im->fd, &im->eh, sizeof im->eh, 0, path);
	if (memcmp(im->eh.e_ident, ELFMAG, SELFMAG) != 0 || im->eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    im->eh.e_phnum > 32 || im->eh.e_phentsize != sizeof(Elf64_Phdr)) {
		errno = ENOEXEC;
		die(70, "not a 64-bit ELF with at most 32 program headers:", path);
	}
	im->nph = im->eh.e_phnum;
	read_at(im->fd, im->ph, sizeof(Elf64_Phdr) * (size_t)im->nph, (off_t)im->eh.e_phoff, path);
	for (int i = 0; i < im->nph; i++) {
		const Elf64_Phdr *p = &im->ph[i];
		if (p->p_type == PT_INTERP && p->p_filesz < sizeof im->interp)
			read_at(im->fd, im->interp, p->p_filesz, (off_t)p->p_offset, path);
		if (p->p_type != PT_DYNAMIC)
			continue;
		/* DT_NEEDED names are offsets into DT_STRTAB, an address: find its file offset. */
		Elf64_Dyn dyn[128];
		size_t n = p->p_filesz / sizeof dyn[0] < 128 ? p->p_filesz / sizeof dyn[0] : 128;
		read_at(im->fd, dyn, n * sizeof dyn[0], (off_t)p->p_offset, path);
		uint64_t strtab = 0;
		for (size_t k = 0; k < n && dyn[k].d_tag != DT_NULL; k++)
			if (dyn[k].d_tag == DT_STRTAB)
				strtab = dyn[k].d_un.d_ptr;
		off_t stroff = -1;
		for (int j = 0; j < im->nph; j++)
			if (im->ph[j].p_type == PT_LOAD && strtab >= im->ph[j].p_vaddr &&
			    strtab < im->ph[j].p_vaddr + im->ph[j].p_filesz)
				stroff = (off_t)(strtab - im->ph[j].p_vaddr + im->ph[j].p_offset);
		for (size_t k = 0; k < n && dyn[k].d_tag != DT_NULL && stroff >= 0; k++)
			if (dyn[k].d_tag == DT_NEEDED && im->nneeded < 8) {
				char *name = im->needed[im->nneeded++];
				if (pread(im->fd, name, 63, stroff + (off_t)dyn[k].d_un.d_val) <= 0)
					die(70, "cannot read DT_NEEDED of", path);
				name[63] = 0;
			}
	}
}

static int prot_of(uint32_t flags)
{
	return (flags & PF_R ? PROT_READ : 0) | (flags & PF_W ? PROT_WRITE : 0) | (flags & PF_X ? PROT_EXEC : 0);
}

static void *map_at(uint64_t addr, size_t len, int prot, int flags, int fd, off_t off, const char *path)
{
	void *p = mmap((void *)addr, len, prot, flags, fd, off);
	if (p == MAP_FAILED)
		die(errno == EEXIST ? 69 : 70, "cannot map", path);
	if ((flags & MAP_FIXED_NOREPLACE) && (uint64_t)p != addr) {
		errno = EEXIST;
		die(69, "address taken for", path);
	}
	return p;
}

/* Zero the end of the last file page of a writable segment, map the rest of its bss. */
static void fill_bss(uint64_t dataend, uint64_t allocend, int prot, const char *path)
{
	uint64_t zeropage = PAGE_UP(dataend);
	if (zeropage > allocend)
		zeropage = allocend;
	if ((prot & PROT_WRITE) && zeropage > dataend)
		memset((void *)dataend, 0, zeropage - dataend);
	if (allocend > zeropage)
		map_at(zeropage, PAGE_UP(allocend) - zeropage, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0,
		       path);
}

static uint64_t image_span(const struct image *im, uint64_t *first_vaddr)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int i = 0; i < im->nph; i++)
		if (im->ph[i].p_type == PT_LOAD) {
			if (PAGE_DOWN(im->ph[i].p_vaddr) < lo)
				lo = PAGE_DOWN(im->ph[i].p_vaddr);
			if (im->ph[i].p_vaddr + im->ph[i].p_memsz > hi)
				hi = im->ph[i].p_vaddr + im->ph[i].p_memsz;
		}
	*first_vaddr = lo;
	return PAGE_UP(hi) - lo;
}

/* As the kernel maps an executable or its interpreter (binfmt_elf elf_map). */
static void map_like_kernel(const char *path, uint64_t dyn_base)
{
	struct image im;
	open_image(&im, path);
	uint64_t lo, total = image_span(&im, &lo);
	uint64_t bias = im.eh.e_type == ET_DYN ? dyn_base - lo : 0;
	int first = 1;
	for (int i = 0; i < im.nph; i++) {
		const Elf64_Phdr *p = &im.ph[i];
		if (p->p_type != PT_LOAD)
			continue;
		uint64_t addr = bias + p->p_vaddr, pgoff_in = p->p_vaddr & (PAGE - 1);
		size_t size = PAGE_UP(p->p_filesz + pgoff_in);
		off_t off = (off_t)(p->p_offset - pgoff_in);
		int prot = prot_of(p->p_flags);
		if (first && im.eh.e_type == ET_DYN) {
			/* the whole image, so the later segments fit; the tail is unmapped again */
			map_at(PAGE_DOWN(addr), total, prot, MAP_PRIVATE | MAP_FIXED_NOREPLACE, im.fd, off, path);
			if (total > size)
				munmap((void *)(PAGE_DOWN(addr) + size), total - size);
		} else {
			map_at(PAGE_DOWN(addr), size, prot, MAP_PRIVATE | (first ? MAP_FIXED_NOREPLACE : MAP_FIXED), im.fd,
			       off, path);
		}
		fill_bss(addr + p->p_filesz, addr + p->p_memsz, prot, path);
		first = 0;
	}
	close(im.fd);
}

/* As glibc's ld.so maps a shared library (_dl_map_segments). */
static void map_like_ldso(const char *path, uint64_t base)
{
	struct image im;
	open_image(&im, path);
	uint64_t lo, total = image_span(&im, &lo);
	uint64_t bias = base - lo;
	int first = 1;
	uint64_t first_mapend = 0, last_mapstart = 0;
	for (int i = 0; i < im.nph; i++)
		if (im.ph[i].p_type == PT_LOAD)
			last_mapstart = PAGE_DOWN(im.ph[i].p_vaddr);
	for (int i = 0; i < im.nph; i++) {
		const Elf64_Phdr *p = &im.ph[i];
		if (p->p_type != PT_LOAD)
			continue;
		uint64_t mapstart = PAGE_DOWN(p->p_vaddr), mapend = PAGE_UP(p->p_vaddr + p->p_filesz);
		off_t mapoff = (off_t)PAGE_DOWN(p->p_offset);
		int prot = prot_of(p->p_flags);
		if (first) {
			map_at(bias + mapstart, total, prot, MAP_PRIVATE | MAP_FIXED_NOREPLACE, im.fd, mapoff, path);
			first_mapend = mapend;
			/* the hole between the first segment and the last one: no access */
			if (last_mapstart > first_mapend)
				mprotect((void *)(bias + first_mapend), last_mapstart - first_mapend, PROT_NONE);
		} else if (mapend > mapstart) {
			map_at(bias + mapstart, mapend - mapstart, prot, MAP_PRIVATE | MAP_FIXED, im.fd, mapoff, path);
		}
		fill_bss(bias + p->p_vaddr + p->p_filesz, bias + p->p_vaddr + p->p_memsz, prot, path);
		first = 0;
	}
	close(im.fd);
}

/* The aarch64 program /usr/bin/NAME with its interpreter and libraries. */
static void load_program(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "/usr/bin/%s", name);
	struct image im;
	open_image(&im, path);
	close(im.fd);
	map_like_kernel(path, PIE_BASE);
	if (im.interp[0])
		map_like_kernel(im.interp, INTERP_BASE);
	for (int i = 0; i < im.nneeded; i++) {
		char lib[256];
		snprintf(lib, sizeof lib, LIBDIR "%s", im.needed[i]);
		map_like_ldso(lib, LIB_BASE + (uint64_t)i * 0x1000000ul);
	}
}

static void exec_program(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, STANDIN_DIR "%s", name);
	execl(path, name, (char *)NULL);
	die(70, "cannot exec", path);
}

static void wait_all(void)
{
	while (wait(NULL) > 0)
		;
}

/* ---- the programs' shapes (each mirrors main() of its .c file) ---- */

static void play_simple(void)
{
	spin_ms(40);
}

static void play_workers(void)
{
	for (int i = 0; i < 3; i++)
		if (fork() == 0) {
			spin_ms(30); /* worker_main(i), in the parent's image */
			_exit(0);
		}
	wait_all();
	spin_ms(5); /* summarize() */
}

static void play_launcher(void)
{
	if (fork() == 0) {
		spin_ms(10); /* prepare() */
		exec_program("loop-pie");
	}
	spin_ms(20); /* wait_loop() */
	wait_all();
}

static void *thread_body(void *arg)
{
	if (arg == NULL)
		prctl(PR_SET_NAME, "mixer");
	spin_ms(30);
	return NULL;
}

static void play_threads(void)
{
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, thread_body, (void *)i) != 0)
			die(70, "pthread_create", NULL);
	spin_ms(15); /* main_body() */
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

static void play_respawn(void)
{
	pid_t first = fork();
	if (first == 0)
		exec_program("loop-nopie");
	waitpid(first, NULL, 0);
	for (int attempt = 0; attempt < 50; attempt++) {
		FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
		if (!f || fprintf(f, "%d", (int)first - 1) <= 0 || fclose(f) != 0)
			die(70, "cannot write", "/proc/sys/kernel/ns_last_pid");
		pid_t again = fork();
		if (again == 0) {
			if (getpid() != first)
				_exit(3);
			spin_ms(30); /* second_life() */
			_exit(0);
		}
		waitpid(again, NULL, 0);
		if (again == first)
			return;
	}
	errno = EAGAIN;
	die(70, "pid not reused after 50 forks", NULL);
}

static void play_jit(void)
{
	/* the same two functions at the same offsets as jit.c writes them */
	map_at(JIT_BASE, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0,
	       "the JIT region");
	char path[64];
	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
	FILE *f = fopen(path, "w");
	if (!f)
		die(70, "cannot write", path);
	fprintf(f, "%lx %x jit_add(long, long)\n", JIT_BASE, 8);
	fprintf(f, "%lx %x jit_mul\n", JIT_BASE + 0x40, 8);
	if (fclose(f) != 0)
		die(70, "cannot write", path);
	spin_ms(40);
}

static void play_multi(void)
{
	static const char *const progs[] = {"loop-pie", "workers", "plt16-pie"};
	for (int i = 0; i < 3; i++)
		if (fork() == 0)
			exec_program(progs[i]);
	wait_all();
}

static const struct {
	const char *name;
	void (*play)(void);
} programs[] = {
	{"loop-pie", play_simple},   {"loop-nopie", play_simple}, {"loop-stripped", play_simple},
	{"rebuilt", play_simple},    {"plt16-pie", play_simple},  {"plt24-bti", play_simple},
	{"plt24-pac", play_simple},  {"workers", play_workers},   {"launcher", play_launcher},
	{"threads", play_threads},   {"respawn", play_respawn},   {"jit", play_jit},
	{"multi", play_multi},
};

int main(int argc, char **argv)
{
	(void)argc;
	self = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++)
		if (strcmp(self, programs[i].name) == 0) {
			load_program(self);
			programs[i].play();
			return 0;
		}
	fprintf(stderr, "stand-in: no program named '%s'\n", self);
	return 64;
}
