/* SPDX-License-Identifier: Apache-2.0 */
#include "cli_args.h"
#include "cli_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spe/spe.h"

int cli_parse_midr(const char *s, uint32_t *midr)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (!errno && *s && *s != '-' && !*end && v <= 0xffffffffUL) {
		*midr = (uint32_t)v;
		return 0;
	}
	const struct spe_cpu_info *info = spe_cpu_by_name(s);
	if (!info)
		return -1;
	/* implementer, variant 0, architecture 0xf, part, revision 0 */
	*midr = info->implementer << 24 | 0xfu << 16 | info->part << 4;
	return 0;
}

const char *cli_cpu_part_name(unsigned i)
{
	static const char *const names[] = {
#define SPE_X(impl, part, name, version, map) name,
		SPE_CPU_LIST(SPE_X)
#undef SPE_X
	};
	return i < sizeof names / sizeof names[0] ? names[i] : NULL;
}

int cli_check_dir_option(const char *prog, const char *option, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "%s: %s=%s: %s\n", prog, option, path, strerror(errno));
		return CLI_NOINPUT;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: %s=%s: not a directory\n", prog, option, path);
		return CLI_NOINPUT;
	}
	return 0;
}

/* Does the regular file @p path start with the @p n bytes of @p magic?  Never blocks. */
static int starts_with(const char *path, const char *magic, size_t n)
{
	char head[16];
	struct stat st;
	/* without blocking: a FIFO or device is the reader's to refuse */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	int yes = n <= sizeof head && !fstat(fd, &st) && S_ISREG(st.st_mode) && read(fd, head, n) == (ssize_t)n &&
		  !memcmp(head, magic, n);
	close(fd);
	return yes;
}

int cli_refuse_database_input(const char *prog, const char *path, const char *advice)
{
	if (!starts_with(path, "SQLite format 3", 16))
		return 0;
	fprintf(stderr, "%s: %s is a database, not a recording: %s\n", prog, path, advice);
	return CLI_USAGE;
}

int cli_refuse_recording_as_db(const char *prog, const char *path, const char *advice)
{
	if (!starts_with(path, "PERFILE2", 8))
		return 0;
	fprintf(stderr, "%s: %s is a perf.data file, not a database: %s\n", prog, path, advice);
	return CLI_USAGE;
}

int cli_refuse_raw_input(const char *prog, const char *path, const char *advice)
{
	char query[4200];
	snprintf(query, sizeof query, "query it with spe-query -d %s", path);
	int rc = cli_refuse_database_input(prog, path, query);
	if (rc || !starts_with(path, "PERFILE2", 8))
		return rc;
	fprintf(stderr, "%s: %s is a perf.data file, not raw SPE bytes: %s\n", prog, path, advice);
	return CLI_USAGE;
}

struct file_id {
	dev_t dev;
	ino_t ino;
	int index;
};

static int by_file_id(const void *a, const void *b)
{
	const struct file_id *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->index - y->index;
}

int cli_refuse_repeated_input(const char *prog, char *const *paths, int n)
{
	struct file_id *ids = calloc(n > 0 ? (size_t)n : 1, sizeof *ids);
	if (!ids) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return CLI_IOERR;
	}
	int m = 0;
	for (int i = 0; i < n; i++) {
		struct stat st;
		if (stat(paths[i], &st) == 0) /* one that cannot be read: the reader says why */
			ids[m++] = (struct file_id){ st.st_dev, st.st_ino, i };
	}
	qsort(ids, (size_t)m, sizeof *ids, by_file_id);
	int rc = 0;
	for (int i = 1; i < m && !rc; i++)
		if (ids[i].dev == ids[i - 1].dev && ids[i].ino == ids[i - 1].ino) {
			fprintf(stderr, "%s: %s and %s are the same file: each would be loaded, its records counted twice\n",
				prog, paths[ids[i - 1].index], paths[ids[i].index]);
			rc = CLI_USAGE;
		}
	free(ids);
	return rc;
}

int cli_refuse_output_is_input(const char *prog, const char *option, const char *output, const char *input)
{
	struct stat o, i;
	if (!output || !input || !strcmp(output, "-") || stat(output, &o) != 0 || stat(input, &i) != 0 ||
	    o.st_dev != i.st_dev || o.st_ino != i.st_ino || !S_ISREG(o.st_mode))
		return 0;
	fprintf(stderr, "%s: %s %s: is the input %s; give another output file\n", prog, option, output, input);
	return CLI_USAGE;
}

int cli_default_db(const char *prog, const char **path)
{
	if (*path)
		return 0;
	*path = CLI_DEFAULT_DB;
	if (access(CLI_DEFAULT_DB, F_OK) == 0 || errno != ENOENT)
		return 0; /* the open says what else is wrong */
	fprintf(stderr, "%s: ./%s: no such database (the default without -d DB; spe-load FILE writes it)\n", prog,
		CLI_DEFAULT_DB);
	return CLI_NOINPUT;
}

int cli_refuse_stdin_input(const char *prog, const char *path)
{
	if (strcmp(path, "-") || access(path, F_OK) == 0)
		return 0;
	fprintf(stderr, "%s: -: standard input is not read here; save it to a file first (spe-dump reads a pipe-mode "
			"perf.data from -)\n", prog);
	return CLI_USAGE;
}
