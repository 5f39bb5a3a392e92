/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Finding and reading the source files DWARF names.  An absolute name is
 * tried as it is, then under --symfs; then under each --source-dir: the
 * whole relative name, then with its leading directories dropped one at a
 * time, down to the base name (a build's "../src/a/b.c" is found as
 * DIR/src/a/b.c, DIR/a/b.c or DIR/b.c); last, a relative name from the
 * current directory.
 */
#ifndef SPE_REPORT_SOURCE_FILE_H
#define SPE_REPORT_SOURCE_FILE_H

struct source_file {
	char *path;   /* the file read */
	char *text;   /* its bytes, lines split in place */
	char **lines; /* lines[0] is line 1 */
	int nlines;
};

/* 0 and @p out filled, or -1 when no candidate could be read. */
int report_source_file_open(const char *name, const char *symfs, const char *const *dirs, struct source_file *out);
/* Line @p n (1-based), or NULL past the end. */
const char *report_source_file_line(const struct source_file *f, int n);
void report_source_file_close(struct source_file *f);

#endif
