/* SPDX-License-Identifier: Apache-2.0 */
/*
 * COMM and MMAP2 records from /proc for processes already running (see
 * spe/proc_synth.h); MMAP2 carries the file's build-id when it has one (so
 * the writer's BUILD_ID feature lists it), else its maj/min/ino.
 */
#include "spe/proc_synth.h"
#include "build_id.h"
#include "spe/kernel_records.h"
#include "spe/spe.h"
#include "util/grow.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_comm(const char *path, char *comm, size_t size)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(comm, (int)size, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	comm[strcspn(comm, "\n")] = 0;
	return 0;
}

/*
 * One line of /proc/PID/maps; 1 for a mapping to write to @p m: executable
 * and data, file-backed, anonymous ("//anon", the kernel's name in MMAP2)
 * or named by the kernel ([heap], [stack], [vdso]).  [vvar] and [vsyscall]
 * hold no program data and are left out, as perf leaves them out.
 */
static int parse_maps_line(char *line, struct spe_krec_mmap2 *m, char *name, size_t name_size)
{
	unsigned long long start, end, pgoff, ino;
	unsigned maj, min;
	char perms[8];
	int consumed = 0;
	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj, &min, &ino,
		   &consumed) < 7)
		return 0;
	char *path = line + consumed;
	path[strcspn(path, "\n")] = 0;
	if (!path[0])
		path = "//anon";
	else if (path[0] != '/' && strcmp(path, "[vdso]") && strcmp(path, "[heap]") && strncmp(path, "[stack", 6))
		return 0;
	snprintf(name, name_size, "%s", path);
	m->start = start;
	m->len = end - start;
	m->pgoff = pgoff;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	m->build_id = NULL;
	m->build_id_size = 0;
	/* The mapped inode as the kernel's own MMAP2 names it (stat() of an overlayfs path may differ). */
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->filename = name;
	return 1;
}

/* Build-ids already read, by the mapped inode: libc is mapped by every process. */
struct bid_cache {
	size_t n, cap;
	struct bid_entry {
		uint32_t maj, min;
		uint64_t ino;
		uint8_t size, id[SPE_BUILD_ID_MAX];
	} *e;
};

/*
 * The build-id of the file behind @p m, read through the process's root
 * (its mount namespace) or else the path itself, and only from a file whose
 * inode is the mapped one: a file replaced since it was mapped keeps the
 * maj/min/ino form.  Sets m->build_id/size; a failure leaves them unset.
 */
static void mapping_build_id(const char *root, pid_t pid, struct spe_krec_mmap2 *m, struct bid_cache *c)
{
	if (m->filename[0] != '/' || strstr(m->filename, " (deleted)"))
		return;
	struct bid_entry *e = NULL;
	for (size_t i = 0; i < c->n && !e; i++)
		if (c->e[i].ino == m->ino && c->e[i].maj == m->maj && c->e[i].min == m->min)
			e = &c->e[i];
	if (!e) {
		struct bid_entry *ne = util_grow(c->e, &c->cap, c->n + 1, sizeof *ne);
		if (!ne)
			return;
		c->e = ne;
		e = &c->e[c->n++];
		*e = (struct bid_entry){ .maj = m->maj, .min = m->min, .ino = m->ino };
		char path[4200];
		snprintf(path, sizeof path, "%s/%d/root%s", root, (int)pid, m->filename);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fd = open(m->filename, O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd >= 0 && fstat(fd, &st) == 0 && (uint64_t)st.st_ino == m->ino)
			e->size = (uint8_t)spe_elf_build_id(fd, e->id);
		if (fd >= 0)
			close(fd);
	}
	if (e->size) {
		m->build_id = e->id;
		m->build_id_size = e->size;
	}
}

static int64_t one_process(const char *root, pid_t pid, uint64_t st, uint64_t id, uint32_t cpu,
			   const struct spe_session_sink *sink, uint8_t *rec, struct bid_cache *bids)
{
	char path[512], comm[64];
	int64_t n = 0;
	int r;
	struct spe_sid sid = { .pid = (uint32_t)pid, .tid = (uint32_t)pid, .id = id, .cpu = cpu };

	/* COMM for every thread (perf attributes samples by tid). */
	snprintf(path, sizeof path, "%s/%d/task", root, (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0; /* gone */
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		uint32_t tid = (uint32_t)strtoul(e->d_name, NULL, 10);
		snprintf(path, sizeof path, "%s/%d/task/%u/comm", root, (int)pid, tid);
		if (read_comm(path, comm, sizeof comm))
			continue;
		sid.tid = tid;
		size_t len = spe_krec_comm(rec, (uint32_t)pid, tid, comm, 0, st, &sid);
		if ((r = sink->kernel_event(sink->ctx, (const struct perf_event_header *)rec)) < 0) {
			closedir(d);
			return r;
		}
		(void)len;
		n++;
	}
	closedir(d);

	snprintf(path, sizeof path, "%s/%d/maps", root, (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return n;
	char line[4096 + 128], name[4096];
	sid.tid = (uint32_t)pid;
	while (fgets(line, sizeof line, f)) {
		struct spe_krec_mmap2 m = { .pid = (uint32_t)pid, .tid = (uint32_t)pid };
		if (!parse_maps_line(line, &m, name, sizeof name))
			continue;
		if (m.prot & PROT_EXEC)
			mapping_build_id(root, pid, &m, bids);
		spe_krec_mmap2(rec, &m, st, &sid);
		if ((r = sink->kernel_event(sink->ctx, (const struct perf_event_header *)rec)) < 0) {
			fclose(f);
			return r;
		}
		n++;
	}
	fclose(f);
	return n;
}

int64_t spe_proc_synthesize(const char *root, pid_t pid, uint64_t st, uint64_t id, uint32_t cpu,
			    const struct spe_session_sink *sink)
{
	uint8_t *rec = malloc(SPE_KREC_MAX);
	if (!rec)
		return -spe_nomem;
	int64_t total = 0;
	struct bid_cache bids = { 0 };
	if (pid > 0) {
		total = one_process(root, pid, st, id, cpu, sink, rec, &bids);
	} else {
		DIR *d = opendir(root);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (!isdigit((unsigned char)e->d_name[0]))
				continue;
			int64_t n = one_process(root, (pid_t)strtol(e->d_name, NULL, 10), st, id, cpu, sink, rec, &bids);
			if (n < 0) {
				total = n;
				break;
			}
			total += n;
		}
		if (d)
			closedir(d);
	}
	free(bids.e);
	free(rec);
	return total;
}
