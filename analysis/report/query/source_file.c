/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE /* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "source_file.h"

#define MAX_SOURCE_BYTES (64u << 20) /* a source file larger than this is not read */

static int read_file(const char *path, struct source_file *out)
{
	struct stat sb;
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || (unsigned long long)sb.st_size > MAX_SOURCE_BYTES)
		return -1;
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t size = (size_t)sb.st_size;
	char *text = malloc(size + 1);
	if (!text || fread(text, 1, size, f) != size) {
		free(text);
		fclose(f);
		return -1;
	}
	fclose(f);
	text[size] = '\0';
	int n = 1;
	for (size_t i = 0; i < size; i++)
		n += text[i] == '\n';
	char **lines = malloc((size_t)n * sizeof *lines);
	char *path_copy = strdup(path);
	if (!lines || !path_copy) {
		free(lines);
		free(path_copy);
		free(text);
		return -1;
	}
	int k = 0;
	for (char *p = text; p && k < n;) {
		lines[k++] = p;
		char *nl = strchr(p, '\n');
		if (nl) {
			*nl = '\0';
			if (nl > p && nl[-1] == '\r')
				nl[-1] = '\0';
			p = nl + 1;
		} else {
			p = NULL;
		}
	}
	/* a final newline does not start another line */
	if (k > 0 && size > 0 && text[size - 1] == '\n')
		k--;
	*out = (struct source_file){ .path = path_copy, .text = text, .lines = lines, .nlines = k };
	return 0;
}

static int try_joined(const char *dir, const char *rest, struct source_file *out)
{
	char *path;
	if (asprintf(&path, "%s/%s", dir, rest) < 0)
		return -1;
	int rc = read_file(path, out);
	free(path);
	return rc;
}

int report_source_file_open(const char *name, const char *symfs, const char *const *dirs, struct source_file *out)
{
	memset(out, 0, sizeof *out);
	if (!name || !*name)
		return -1;
	if (name[0] == '/' && read_file(name, out) == 0)
		return 0;
	if (name[0] == '/' && symfs && try_joined(symfs, name + 1, out) == 0)
		return 0;
	const char *rel = name;
	while (*rel == '/')
		rel++;
	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	for (size_t d = 0; dirs && dirs[d]; d++) {
		for (const char *tail = rel; tail && *tail;) {
			if (try_joined(dirs[d], tail, out) == 0)
				return 0;
			tail = strchr(tail, '/');
			if (tail)
				tail++;
		}
	}
	return name[0] != '/' ? read_file(name, out) : -1;
}

const char *report_source_file_line(const struct source_file *f, int n)
{
	return n >= 1 && n <= f->nlines ? f->lines[n - 1] : NULL;
}

void report_source_file_close(struct source_file *f)
{
	free(f->path);
	free(f->text);
	free(f->lines);
	memset(f, 0, sizeof *f);
}
