/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE /* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "source_file.h"
#include "spe/infile.h"

#define MAX_SOURCE_BYTES (64u << 20) /* a source file larger than this is not read */

/* Split @p text (@p size bytes, NUL-terminated) into lines; the file read was @p path. */
static int split_lines(const char *path, char *text, size_t size, struct source_file *out)
{
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

/*
 * The file @p rest under the root @p given (as the user wrote it; @p root is
 * its real path), read if its real path stays under the root and it is a
 * regular file.  The name kept is the one under @p given.
 */
static enum source_result try_under(const char *given, const char *root, const char *rest, struct source_file *out)
{
	char *path;
	if (asprintf(&path, "%s/%s", given, rest) < 0)
		return SOURCE_NOT_FOUND;
	struct stat sb;
	if (lstat(path, &sb) != 0) {
		free(path);
		return SOURCE_NOT_FOUND;
	}
	char *real = realpath(path, NULL);
	size_t n = strlen(root);
	int inside = real && strncmp(real, root, n) == 0 && (real[n] == '/' || (n == 1 && root[0] == '/'));
	char *text = NULL;
	size_t len = 0;
	char err[256];
	/* regular files only (no FIFO to block on, no device), of a bounded size */
	int rc = inside ? spe_infile_read_text(real, MAX_SOURCE_BYTES, 0, &text, &len, err, sizeof err) : -1;
	enum source_result r = rc == 0 && split_lines(path, text, len, out) == 0 ? SOURCE_READ : SOURCE_REFUSED;
	if (!inside && !real)
		r = SOURCE_NOT_FOUND; /* a dangling link */
	free(real);
	free(path);
	return r;
}

enum source_result report_source_file_open(const char *name, const char *symfs, const char *const *dirs,
					   struct source_file *out)
{
	memset(out, 0, sizeof *out);
	if (!symfs && !(dirs && dirs[0]))
		return SOURCE_NO_ROOT;
	if (!name || !*name)
		return SOURCE_NOT_FOUND;
	enum source_result worst = SOURCE_NOT_FOUND;
	const char *rel = name;
	while (*rel == '/')
		rel++;
	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	if (symfs && name[0] == '/') {
		char *root = realpath(symfs, NULL);
		enum source_result r = root ? try_under(symfs, root, rel, out) : SOURCE_NOT_FOUND;
		free(root);
		if (r == SOURCE_READ)
			return r;
		if (r == SOURCE_REFUSED)
			worst = r;
	}
	for (size_t d = 0; dirs && dirs[d]; d++) {
		char *root = realpath(dirs[d], NULL);
		for (const char *tail = rel; root && tail && *tail;) {
			enum source_result r = try_under(dirs[d], root, tail, out);
			if (r == SOURCE_READ) {
				free(root);
				return r;
			}
			if (r == SOURCE_REFUSED)
				worst = r;
			tail = strchr(tail, '/');
			if (tail)
				tail++;
		}
		free(root);
	}
	return worst;
}

const char *report_source_result_text(enum source_result r)
{
	switch (r) {
	case SOURCE_READ: return "read";
	case SOURCE_NOT_FOUND: return "not found under --source-dir or --symfs";
	case SOURCE_NO_ROOT: return "not read: sources are read only under --source-dir or --symfs";
	case SOURCE_REFUSED: return "not read: it leads outside --source-dir and --symfs, or is no regular file";
	}
	return "not read";
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
