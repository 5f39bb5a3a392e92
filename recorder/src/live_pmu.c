/* SPDX-License-Identifier: Apache-2.0 */
/* Finding the arm_spe PMU in sysfs, and CPU lists. */
#include "spe/live.h"
#include "spe/spe.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEVICES_DIR "/sys/bus/event_source/devices"

/* Read one line of a small sysfs file into @p buf without the newline; 0 or -1. */
static int read_line(const char *dir, const char *name, char *buf, size_t size)
{
	char path[1024];
	int n = snprintf(path, sizeof path, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof path)
		return -1;
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int spe_live_find_pmu(const char *devices_dir, struct spe_live_pmu *pmu)
{
	const char *root = devices_dir ? devices_dir : DEVICES_DIR;
	DIR *d = opendir(root);
	if (!d)
		return -spe_unsupported;
	char best[64] = "";
	struct dirent *e;
	while ((e = readdir(d))) {
		/* arm_spe_0, arm_spe_1 ...: take the lowest name for a stable choice. */
		if (strncmp(e->d_name, "arm_spe", 7) || strlen(e->d_name) >= sizeof best)
			continue;
		if (!best[0] || strcmp(e->d_name, best) < 0)
			strcpy(best, e->d_name);
	}
	closedir(d);
	if (!best[0])
		return -spe_unsupported;

	char dir[1024], line[256];
	memset(pmu, 0, sizeof *pmu);
	snprintf(pmu->name, sizeof pmu->name, "%s", best);
	snprintf(dir, sizeof dir, "%s/%s", root, best);
	if (read_line(dir, "type", line, sizeof line) || !isdigit((unsigned char)line[0]))
		return -spe_unsupported;
	pmu->type = (uint32_t)strtoul(line, NULL, 10);
	if (!read_line(dir, "caps/min_interval", line, sizeof line))
		pmu->min_interval = strtoull(line, NULL, 0);
	if (read_line(dir, "cpumask", pmu->cpumask, sizeof pmu->cpumask))
		pmu->cpumask[0] = 0;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

int spe_live_parse_cpu_list(const char *list, uint32_t *cpus, int max)
{
	int n = 0;
	const char *s = list;
	if (!s || !*s)
		return -spe_invalid;
	while (*s) {
		char *end;
		if (!isdigit((unsigned char)*s))
			return -spe_invalid;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;
		s = end;
		if (*s == '-') {
			s++;
			if (!isdigit((unsigned char)*s))
				return -spe_invalid;
			hi = strtoul(s, &end, 10);
			s = end;
		}
		if (hi < lo || hi >= SPE_LIVE_MAX_CPUS)
			return -spe_invalid;
		for (unsigned long c = lo; c <= hi; c++) {
			if (n >= max)
				return -spe_invalid;
			cpus[n++] = (uint32_t)c;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -spe_invalid;
		else if (*s == '\n')
			break;
	}
	qsort(cpus, (size_t)n, sizeof *cpus, cmp_u32);
	int u = 0;
	for (int i = 0; i < n; i++)
		if (!u || cpus[u - 1] != cpus[i])
			cpus[u++] = cpus[i];
	return u;
}
