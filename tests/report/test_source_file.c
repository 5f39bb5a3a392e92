/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the report reads source files from (analysis/report/query/source_file.c):
 * only under --symfs and --source-dir, only regular files whose real path
 * stays there.  The names are what a line table may say (DWARF carries any
 * path: `#line 1 "/etc/passwd"`): absolute, climbing with ../, through a
 * link, a FIFO (which would block open() forever).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "source_file.h"

static char root[256], src[300], symfs[300], outside[300];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static enum source_result open_name(const char *name, const char *sym, const char *dir, char *first_line, size_t n)
{
	const char *dirs[] = { dir, NULL };
	struct source_file f;
	enum source_result r = report_source_file_open(name, sym, dir ? dirs : NULL, &f);
	if (r == SOURCE_READ) {
		snprintf(first_line, n, "%s", report_source_file_line(&f, 1) ? report_source_file_line(&f, 1) : "");
		report_source_file_close(&f);
	} else {
		first_line[0] = 0;
	}
	return r;
}

TEST(reads_under_the_roots_only)
{
	char line[128];
	CHECK_INT_EQ(open_name("/build/x/a.c", NULL, src, line, sizeof line), SOURCE_READ); /* DIR/a.c by its base name */
	CHECK_STR_EQ(line, "int a;");
	CHECK_INT_EQ(open_name("/usr/include/stdio.h", symfs, NULL, line, sizeof line), SOURCE_READ);
	CHECK_STR_EQ(line, "/* the symfs copy */");
	/* nothing pointed at: nothing read, even a file that exists */
	char secret[320];
	snprintf(secret, sizeof secret, "%s/secret.c", outside);
	CHECK_INT_EQ(open_name(secret, NULL, NULL, line, sizeof line), SOURCE_NO_ROOT);
	/* an absolute name outside the roots is looked for under them, not where it says */
	CHECK_INT_EQ(open_name(secret, NULL, src, line, sizeof line), SOURCE_NOT_FOUND);
	CHECK_INT_EQ(open_name("/etc/passwd", NULL, src, line, sizeof line), SOURCE_NOT_FOUND);
}

TEST(never_leaves_a_root)
{
	char line[128];
	/* ../ out of the source directory: the file is there, and refused */
	CHECK_INT_EQ(open_name("../outside/secret.c", NULL, src, line, sizeof line), SOURCE_REFUSED);
	CHECK_STR_EQ(line, "");
	CHECK_INT_EQ(open_name("../../outside/secret.c", NULL, src, line, sizeof line), SOURCE_REFUSED);
	/* a link in the source directory that points out of it */
	CHECK_INT_EQ(open_name("/build/link.c", NULL, src, line, sizeof line), SOURCE_REFUSED);
	CHECK_STR_EQ(line, "");
	/* the same under symfs: /etc/passwd there is a link to this machine's */
	CHECK_INT_EQ(open_name("/etc/passwd", symfs, NULL, line, sizeof line), SOURCE_REFUSED);
}

TEST(regular_files_only)
{
	char line[128];
	/* a FIFO: refused at once, not waited on */
	CHECK_INT_EQ(open_name("/build/fifo.c", NULL, src, line, sizeof line), SOURCE_REFUSED);
	CHECK_INT_EQ(open_name("/build/dir.c", NULL, src, line, sizeof line), SOURCE_REFUSED);
}

int main(void)
{
	snprintf(root, sizeof root, "%s/spe-srcfile.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		return 1;
	snprintf(src, sizeof src, "%s/src", root);
	snprintf(symfs, sizeof symfs, "%s/symfs", root);
	snprintf(outside, sizeof outside, "%s/outside", root);
	mkdir(src, 0755);
	mkdir(outside, 0755);
	mkdir(symfs, 0755);
	char p[400];
	snprintf(p, sizeof p, "%s/a.c", src);
	put(p, "int a;\n");
	snprintf(p, sizeof p, "%s/secret.c", outside);
	put(p, "secret\n");
	snprintf(p, sizeof p, "%s/link.c", src);
	char target[400];
	snprintf(target, sizeof target, "%s/secret.c", outside);
	CHECK(symlink(target, p) == 0);
	snprintf(p, sizeof p, "%s/fifo.c", src);
	CHECK(mkfifo(p, 0600) == 0);
	snprintf(p, sizeof p, "%s/dir.c", src);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/usr", symfs);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/usr/include", symfs);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/usr/include/stdio.h", symfs);
	put(p, "/* the symfs copy */\n");
	snprintf(p, sizeof p, "%s/etc", symfs);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/etc/passwd", symfs);
	CHECK(symlink("/etc/passwd", p) == 0);

	RUN(reads_under_the_roots_only);
	RUN(never_leaves_a_root);
	RUN(regular_files_only);
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return check_summary();
}
