/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Finding and reading the source files DWARF names, only from where the
 * user pointed: under --symfs (the name as the build had it, below the
 * symfs root), then under each --source-dir (the whole relative name, then
 * with its leading directories dropped one at a time, down to the base
 * name: a build's "../src/a/b.c" is found as DIR/src/a/b.c, DIR/a/b.c or
 * DIR/b.c).  A candidate counts only if its real path (links followed)
 * stays under that root and it is a regular file; nothing else is opened,
 * so neither a database row nor a program's line table (`#line 1
 * "/etc/passwd"`) can put another file of this machine into a report
 * (docs/security.md).
 */
#ifndef SPE_REPORT_SOURCE_FILE_H
#define SPE_REPORT_SOURCE_FILE_H

struct source_file {
	char *path;   /* the file read */
	char *text;   /* its bytes, lines split in place */
	char **lines; /* lines[0] is line 1 */
	int nlines;
};

enum source_result {
	SOURCE_READ = 0,
	SOURCE_NOT_FOUND = -1,   /* under no root given */
	SOURCE_NO_ROOT = -2,     /* no --symfs and no --source-dir: nothing is read */
	SOURCE_REFUSED = -3,     /* a candidate that leads outside its root, or is no regular file */
};

/* SOURCE_READ and @p out filled, or why not. */
enum source_result report_source_file_open(const char *name, const char *symfs, const char *const *dirs,
					   struct source_file *out);
/* Why a file was not read, for the report's note ("not under --source-dir or --symfs ..."). */
const char *report_source_result_text(enum source_result r);
/* Line @p n (1-based), or NULL past the end. */
const char *report_source_file_line(const struct source_file *f, int n);
void report_source_file_close(struct source_file *f);

#endif
