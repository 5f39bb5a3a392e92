/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe/outfile.h: a target is replaced only by a complete file, refused when
 * it is not a regular file, kept as .old on request; temporaries are created
 * with O_EXCL beside it and removed on abort, on a signal and, after SIGKILL,
 * by the next run, and nothing else is ever unlinked.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "spe/outfile.h"

static char dir[] = "/tmp/spe-outfile-XXXXXX";
static char err[1024];

static const char *at(const char *name)
{
	static char buf[4][512];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		CHECK_FAIL_("cannot write %s", path);
}

/* The file's text, or "(missing)". */
static const char *text_of(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	if (!f)
		return "(missing)";
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void write_all(int fd, const char *text)
{
	CHECK_INT_EQ(write(fd, text, strlen(text)), (long)strlen(text));
}

/* Entries of the scratch directory whose name contains ".tmp". */
static int count_temporaries(void)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "ls -a %s | grep -c '\\.tmp$'", dir);
	FILE *p = popen(cmd, "r");
	int n = -1;
	if (!p || fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void clean_dir(void)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s/* %s/.[!.]*", dir, dir);
	if (system(cmd) != 0)
		CHECK_FAIL_("%s failed", cmd);
}

/* A process id no process can have: above the kernel's pid_max. */
static pid_t dead_pid(void)
{
	long max = 4194304; /* PID_MAX_LIMIT on 64-bit */
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 4194304;
		fclose(f);
	}
	return (pid_t)(max + 1);
}

TEST(new_target_appears_only_on_commit)
{
	clean_dir();
	struct spe_outfile *o;
	CHECK_INT_EQ(spe_outfile_open(at("out.txt"), "spe-test", 0, &o, err, sizeof err), 0);
	if (!o)
		return;
	const char *tmp = spe_outfile_tmp_path(o);
	char want[512];
	snprintf(want, sizeof want, "%s/out.txt.spe-test.%ld.0.tmp", dir, (long)getpid());
	CHECK_STR_EQ(tmp, want);
	write_all(spe_outfile_fd(o), "new\n");
	CHECK_STR_EQ(text_of(at("out.txt")), "(missing)");
	struct stat st;
	CHECK(stat(tmp, &st) == 0);
	mode_t um = umask(0);
	umask(um);
	CHECK_INT_EQ(st.st_mode & 0777, 0666 & ~um);
	CHECK_INT_EQ(spe_outfile_commit(o, err, sizeof err), 0);
	CHECK_STR_EQ(text_of(at("out.txt")), "new\n");
	CHECK_INT_EQ(count_temporaries(), 0);
}

TEST(abort_leaves_the_target_byte_identical)
{
	clean_dir();
	put(at("keep.db"), "precious\n");
	struct spe_outfile *o;
	CHECK_INT_EQ(spe_outfile_open(at("keep.db"), "spe-test", 0, &o, err, sizeof err), 0);
	if (!o)
		return;
	write_all(spe_outfile_fd(o), "half-written");
	CHECK_STR_EQ(text_of(at("keep.db")), "precious\n");
	spe_outfile_abort(o);
	CHECK_STR_EQ(text_of(at("keep.db")), "precious\n");
	CHECK_INT_EQ(count_temporaries(), 0);
}

TEST(keep_old_links_the_previous_target)
{
	clean_dir();
	put(at("perf.data"), "first\n");
	put(at("perf.data.old"), "older\n");
	struct spe_outfile *o;
	CHECK_INT_EQ(spe_outfile_open(at("perf.data"), "spe-test", SPE_OUTFILE_KEEP_OLD, &o, err, sizeof err), 0);
	if (!o)
		return;
	write_all(spe_outfile_fd(o), "second\n");
	CHECK_INT_EQ(spe_outfile_commit(o, err, sizeof err), 0);
	CHECK_STR_EQ(text_of(at("perf.data")), "second\n");
	CHECK_STR_EQ(text_of(at("perf.data.old")), "first\n");
	CHECK_INT_EQ(count_temporaries(), 0);
	/* No previous target: no .old is made up. */
	CHECK_INT_EQ(spe_outfile_open(at("fresh.data"), "spe-test", SPE_OUTFILE_KEEP_OLD, &o, err, sizeof err), 0);
	CHECK_INT_EQ(spe_outfile_commit(o, err, sizeof err), 0);
	CHECK_STR_EQ(text_of(at("fresh.data.old")), "(missing)");
}

TEST(keep_old_refuses_an_old_that_is_not_a_file)
{
	clean_dir();
	put(at("perf.data"), "first\n");
	mkdir(at("perf.data.old"), 0755);
	struct spe_outfile *o = NULL;
	CHECK_INT_EQ(spe_outfile_check(at("perf.data"), SPE_OUTFILE_KEEP_OLD, err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "perf.data.old: is a directory") != NULL);
	CHECK_INT_EQ(spe_outfile_open(at("perf.data"), "spe-test", SPE_OUTFILE_KEEP_OLD, &o, err, sizeof err),
		     -spe_invalid);
	CHECK(o == NULL);
	CHECK_INT_EQ(count_temporaries(), 0);
	CHECK_STR_EQ(text_of(at("perf.data")), "first\n");
}

TEST(non_regular_targets_are_refused_and_untouched)
{
	clean_dir();
	mkdir(at("adir"), 0755);
	CHECK_INT_EQ(mkfifo(at("fifo"), 0600), 0);
	struct spe_outfile *o = NULL;
	CHECK_INT_EQ(spe_outfile_open(at("adir"), "spe-test", 0, &o, err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "is a directory") != NULL);
	CHECK_INT_EQ(spe_outfile_open(at("fifo"), "spe-test", 0, &o, err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "is a FIFO") != NULL);
	CHECK_INT_EQ(spe_outfile_open("/dev/null", "spe-test", 0, &o, err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "/dev/null: is a character device") != NULL);
	CHECK(o == NULL);
	struct stat st;
	CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
	CHECK(stat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode));
	CHECK_INT_EQ(count_temporaries(), 0);
	/* "-" is standard output, only for stream outputs. */
	CHECK_INT_EQ(spe_outfile_check("-", 0, err, sizeof err), -spe_invalid);
	CHECK_INT_EQ(spe_outfile_check("", 0, err, sizeof err), -spe_invalid);
}

TEST(streams_are_written_directly)
{
	clean_dir();
	struct spe_outfile *o = NULL;
	CHECK_INT_EQ(spe_outfile_open("/dev/null", "spe-test", SPE_OUTFILE_STREAM, &o, err, sizeof err), 0);
	CHECK(o && spe_outfile_tmp_path(o) == NULL);
	if (o) {
		write_all(spe_outfile_fd(o), "discarded");
		CHECK_INT_EQ(spe_outfile_commit(o, err, sizeof err), 0);
	}
	struct stat st;
	CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
	/* A FIFO nobody reads: an error at once, not a hang in open(). */
	CHECK_INT_EQ(mkfifo(at("fifo"), 0600), 0);
	alarm(10);
	CHECK_INT_EQ(spe_outfile_open(at("fifo"), "spe-test", SPE_OUTFILE_STREAM, &o, err, sizeof err), -spe_io);
	alarm(0);
	CHECK(strstr(err, "no reader") != NULL);
	/* "-" writes to standard output (here: a file). */
	int saved = dup(1);
	int fd = open(at("stdout.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	int r = spe_outfile_open("-", "spe-test", SPE_OUTFILE_STREAM, &o, err, sizeof err);
	if (r == 0) {
		write_all(spe_outfile_fd(o), "to stdout\n");
		r = spe_outfile_commit(o, err, sizeof err);
	}
	dup2(saved, 1);
	close(saved);
	CHECK_INT_EQ(r, 0);
	CHECK_STR_EQ(text_of(at("stdout.txt")), "to stdout\n");
}

TEST(no_replace_never_replaces)
{
	clean_dir();
	put(at("db"), "theirs\n");
	struct spe_outfile *o = NULL;
	CHECK_INT_EQ(spe_outfile_check(at("db"), SPE_OUTFILE_NO_REPLACE, err, sizeof err), -spe_invalid);
	/* Another writer creates the target between our open and our commit. */
	CHECK_INT_EQ(spe_outfile_open(at("new.db"), "spe-test", SPE_OUTFILE_NO_REPLACE, &o, err, sizeof err), 0);
	if (!o)
		return;
	write_all(spe_outfile_fd(o), "ours\n");
	put(at("new.db"), "other writer\n");
	CHECK_INT_EQ(spe_outfile_commit(o, err, sizeof err), -spe_invalid);
	CHECK(strstr(err, "created by another process meanwhile") != NULL);
	CHECK_STR_EQ(text_of(at("new.db")), "other writer\n");
	CHECK_INT_EQ(count_temporaries(), 0);
}

TEST(a_symbolic_link_is_followed_and_kept)
{
	clean_dir();
	mkdir(at("real"), 0755);
	put(at("real/file"), "old\n");
	CHECK_INT_EQ(symlink("real/file", at("link")), 0);
	struct spe_outfile *o;
	CHECK_INT_EQ(spe_outfile_open(at("link"), "spe-test", 0, &o, err, sizeof err), 0);
	if (!o)
		return;
	CHECK(strstr(spe_outfile_tmp_path(o), "/real/file.spe-test.") != NULL);
	write_all(spe_outfile_fd(o), "new\n");
	CHECK_INT_EQ(spe_outfile_commit(o, err, sizeof err), 0);
	struct stat st;
	CHECK(lstat(at("link"), &st) == 0 && S_ISLNK(st.st_mode));
	CHECK_STR_EQ(text_of(at("real/file")), "new\n");
	/* A link to nothing: refused, nothing created at either end. */
	CHECK_INT_EQ(symlink("real/none", at("dangling")), 0);
	CHECK_INT_EQ(spe_outfile_open(at("dangling"), "spe-test", 0, &o, err, sizeof err), -spe_invalid);
	CHECK_STR_EQ(text_of(at("real/none")), "(missing)");
}

TEST(missing_or_unwritable_directory_is_an_io_error)
{
	clean_dir();
	struct spe_outfile *o = NULL;
	CHECK_INT_EQ(spe_outfile_open(at("nodir/out"), "spe-test", 0, &o, err, sizeof err), -spe_io);
	CHECK(strstr(err, "cannot create files in") != NULL);
	put(at("plain"), "x");
	CHECK_INT_EQ(spe_outfile_check(at("plain/out"), 0, err, sizeof err), -spe_io);
	CHECK_INT_EQ(spe_outfile_open(at("x"), "bad tag", 0, &o, err, sizeof err), -spe_invalid);
}

TEST(stale_temporaries_of_dead_owners_are_removed)
{
	clean_dir();
	char name[256];
	long dead = (long)dead_pid();
	snprintf(name, sizeof name, "out.spe-test.%ld.0.tmp", dead);
	put(at(name), "stale");
	snprintf(name, sizeof name, "out.spe-test.%ld.3.tmp", dead);
	put(at(name), "stale");
	/* Kept: a live owner (our parent), another tag, another target, not our pattern. */
	snprintf(name, sizeof name, "out.spe-test.%ld.0.tmp", (long)getppid());
	put(at(name), "live owner");
	snprintf(name, sizeof name, "out.spe-other.%ld.0.tmp", dead);
	put(at(name), "other tag");
	snprintf(name, sizeof name, "outer.spe-test.%ld.0.tmp", dead);
	put(at(name), "other target");
	snprintf(name, sizeof name, "out.spe-test.%ld.0.tmp.keep", dead);
	put(at(name), "not ours");
	snprintf(name, sizeof name, "out.spe-test.%ldx.0.tmp", dead);
	put(at(name), "not ours");
	struct spe_outfile *o;
	CHECK_INT_EQ(spe_outfile_open(at("out"), "spe-test", 0, &o, err, sizeof err), 0);
	if (!o)
		return;
	CHECK_INT_EQ(spe_outfile_stale_removed(o), 2);
	spe_outfile_abort(o);
	/* the live owner's, the other tag's, the other target's and the "PIDx" one */
	CHECK_INT_EQ(count_temporaries(), 4);
}

/* A child opens an output, reports its temporary, then dies of @p sig. */
static void child_dies(int sig, int with_cleanup, char *tmp, size_t len, int *status)
{
	int p[2];
	if (pipe(p) != 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		struct spe_outfile *o;
		if (spe_outfile_open(at("sig.out"), "spe-test", 0, &o, err, sizeof err))
			_exit(3);
		if (with_cleanup && spe_outfile_cleanup_on_signals())
			_exit(4);
		write_all(spe_outfile_fd(o), "partial");
		const char *t = spe_outfile_tmp_path(o);
		if (write(p[1], t, strlen(t) + 1) < 0)
			_exit(5);
		close(p[1]);
		pause(); /* the parent signals us */
		_exit(6);
	}
	close(p[1]);
	ssize_t n = read(p[0], tmp, len - 1);
	tmp[n > 0 ? n : 0] = 0;
	close(p[0]);
	kill(pid, sig);
	waitpid(pid, status, 0);
}

TEST(signals_remove_the_temporary)
{
	clean_dir();
	put(at("sig.out"), "before\n");
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		char tmp[512];
		int st = 0;
		child_dies(sigs[i], 1, tmp, sizeof tmp, &st);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i]);
		CHECK(tmp[0] != 0);
		CHECK(access(tmp, F_OK) != 0);
		CHECK_STR_EQ(text_of(at("sig.out")), "before\n");
	}
	CHECK_INT_EQ(count_temporaries(), 0);
}

TEST(sigkill_leaves_a_temporary_the_next_run_removes)
{
	clean_dir();
	put(at("sig.out"), "before\n");
	char tmp[512];
	int st = 0;
	child_dies(SIGKILL, 1, tmp, sizeof tmp, &st);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	CHECK(access(tmp, F_OK) == 0);
	CHECK_STR_EQ(text_of(at("sig.out")), "before\n");
	struct spe_outfile *o;
	CHECK_INT_EQ(spe_outfile_open(at("sig.out"), "spe-test", 0, &o, err, sizeof err), 0);
	CHECK_INT_EQ(spe_outfile_stale_removed(o), 1);
	CHECK(access(tmp, F_OK) != 0);
	spe_outfile_abort(o);
	CHECK_STR_EQ(text_of(at("sig.out")), "before\n");
}

TEST(a_forked_child_does_not_remove_its_parents_temporary)
{
	clean_dir();
	struct spe_outfile *o;
	CHECK_INT_EQ(spe_outfile_open(at("f.out"), "spe-test", 0, &o, err, sizeof err), 0);
	if (!o)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		spe_outfile_remove_temporaries(); /* as its inherited handler would, before exec */
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	CHECK(access(spe_outfile_tmp_path(o), F_OK) == 0);
	/* Ours: removed. */
	char tmp[512];
	snprintf(tmp, sizeof tmp, "%s", spe_outfile_tmp_path(o));
	spe_outfile_remove_temporaries();
	CHECK(access(tmp, F_OK) != 0);
	spe_outfile_abort(o);
}

TEST(a_replaced_temporary_is_not_removed)
{
	clean_dir();
	struct spe_outfile *o;
	CHECK_INT_EQ(spe_outfile_open(at("r.out"), "spe-test", 0, &o, err, sizeof err), 0);
	if (!o)
		return;
	char tmp[512];
	snprintf(tmp, sizeof tmp, "%s", spe_outfile_tmp_path(o));
	/* Someone renames their own file over our temporary's name: not ours to unlink. */
	put(at("theirs"), "theirs\n");
	CHECK_INT_EQ(rename(at("theirs"), tmp), 0);
	spe_outfile_abort(o);
	CHECK_STR_EQ(text_of(tmp), "theirs\n");
	unlink(tmp);
}

TEST(a_full_file_system_leaves_the_target)
{
	clean_dir();
	put(at("big.out"), "before\n");
	pid_t pid = fork();
	if (pid == 0) {
		/* ulimit -f 1: writes past 1 KiB fail with EFBIG, as on a full disk. */
		struct rlimit rl = { 1024, 1024 };
		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
		struct spe_outfile *o;
		if (spe_outfile_open(at("big.out"), "spe-test", 0, &o, err, sizeof err))
			_exit(3);
		char block[4096];
		memset(block, 'x', sizeof block);
		if (write(spe_outfile_fd(o), block, sizeof block) == (ssize_t)sizeof block)
			_exit(4);
		spe_outfile_abort(o);
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_STR_EQ(text_of(at("big.out")), "before\n");
	CHECK_INT_EQ(count_temporaries(), 0);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(new_target_appears_only_on_commit);
	RUN(abort_leaves_the_target_byte_identical);
	RUN(keep_old_links_the_previous_target);
	RUN(keep_old_refuses_an_old_that_is_not_a_file);
	RUN(non_regular_targets_are_refused_and_untouched);
	RUN(streams_are_written_directly);
	RUN(no_replace_never_replaces);
	RUN(a_symbolic_link_is_followed_and_kept);
	RUN(missing_or_unwritable_directory_is_an_io_error);
	RUN(stale_temporaries_of_dead_owners_are_removed);
	RUN(a_replaced_temporary_is_not_removed);
	/* These fork without exec (under qemu-user too: docs/architecture.md, "qemu-user"). */
	RUN(signals_remove_the_temporary);
	RUN(sigkill_leaves_a_temporary_the_next_run_removes);
	RUN(a_forked_child_does_not_remove_its_parents_temporary);
	RUN(a_full_file_system_leaves_the_target);
	clean_dir();
	rmdir(dir);
	return check_summary();
}
