/* SPDX-License-Identifier: Apache-2.0 */
/* Safe output files: a temporary beside the target, renamed into place when complete.  See spe/outfile.h. */
#include "spe/outfile.h"

#include "file_kind.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct spe_outfile {
	int fd;
	bool stream;
	unsigned flags;
	char *target;      /* resolved target path */
	char *tmp;         /* our temporary, or NULL for a stream */
	const char *tag;
	unsigned stale_removed;
	int slot;          /* in live[], or -1 */
};

/*
 * The temporaries this process has open, for spe_outfile_remove_temporaries()
 * in a signal handler: a slot is filled before `used` is set and emptied
 * before its path is freed.  The inode guards against unlinking a file that
 * replaced ours; the owner against a forked child (before exec) doing it.
 */
#define MAX_LIVE 16
static struct {
	const char *volatile path;
	dev_t dev;
	ino_t ino;
	pid_t owner;
	volatile sig_atomic_t used;
} live[MAX_LIVE];

static int live_add(const char *path, int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -1;
	for (int i = 0; i < MAX_LIVE; i++) {
		if (live[i].used)
			continue;
		live[i].path = path;
		live[i].dev = st.st_dev;
		live[i].ino = st.st_ino;
		live[i].owner = getpid();
		live[i].used = 1;
		return i;
	}
	return -1; /* more than MAX_LIVE at once: still removed by abort, or by the next run */
}

static void live_remove(int slot)
{
	if (slot >= 0)
		live[slot].used = 0;
}

void spe_outfile_remove_temporaries(void)
{
	pid_t self = getpid();
	for (int i = 0; i < MAX_LIVE; i++) {
		struct stat st;
		if (!live[i].used || live[i].owner != self)
			continue;
		const char *p = live[i].path;
		if (lstat(p, &st) == 0 && st.st_dev == live[i].dev && st.st_ino == live[i].ino)
			unlink(p);
		live[i].used = 0;
	}
}

static void on_fatal_signal(int sig)
{
	int saved = errno;
	spe_outfile_remove_temporaries();
	errno = saved;
	raise(sig); /* SA_RESETHAND restored the default action: it is taken when this returns */
}

int spe_outfile_cleanup_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old, sa;
		if (sigaction(sigs[i], NULL, &old) != 0)
			return -spe_io;
		/* Keep a handler the command installed, and a signal ignored on purpose (nohup). */
		if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_fatal_signal;
		sa.sa_flags = SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		if (sigaction(sigs[i], &sa, NULL) != 0)
			return -spe_io;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* What the target is                                                  */
/* ------------------------------------------------------------------ */

enum target_kind { TARGET_NEW, TARGET_REGULAR, TARGET_STREAM, TARGET_STDOUT };

struct target {
	enum target_kind kind;
	bool append;   /* a stream that is a regular file (shell redirection through /dev/stdout) */
	char *path;    /* resolved (malloc'd) */
	char *dir;     /* its directory (malloc'd) */
};

static void target_fini(struct target *t)
{
	free(t->path);
	free(t->dir);
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static bool under_dev_or_proc(const char *path)
{
	return !strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6);
}

#define NOMEM(err, errlen, path) (snprintf(err, errlen, "%s: out of memory", path), -spe_nomem)

static int resolve(const char *path, unsigned flags, struct target *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	if (!path || !*path) {
		snprintf(err, errlen, "no output file name");
		return -spe_invalid;
	}
	if (!strcmp(path, "-")) {
		if (!(flags & SPE_OUTFILE_STREAM)) {
			snprintf(err, errlen, "-: this output is a file written in place and renamed; give a file name");
			return -spe_invalid;
		}
		t->kind = TARGET_STDOUT;
		return (t->path = strdup("-")) ? 0 : NOMEM(err, errlen, path);
	}
	struct stat st, lst;
	if (stat(path, &st) != 0) {
		if (errno != ENOENT) {
			snprintf(err, errlen, "%s: cannot use as output: %s", path, strerror(errno));
			return -spe_io;
		}
		if (lstat(path, &lst) == 0) {
			snprintf(err, errlen, "%s: is a symbolic link to a missing file; give the file name itself", path);
			return -spe_invalid;
		}
		t->kind = TARGET_NEW;
		t->path = strdup(path);
	} else if (S_ISREG(st.st_mode)) {
		if ((flags & SPE_OUTFILE_STREAM) && under_dev_or_proc(path)) {
			t->kind = TARGET_STREAM;
			t->append = true;
			return (t->path = strdup(path)) ? 0 : NOMEM(err, errlen, path);
		}
		if (flags & SPE_OUTFILE_NO_REPLACE) {
			snprintf(err, errlen, "%s: exists", path);
			return -spe_invalid;
		}
		t->kind = TARGET_REGULAR;
		/* Through a symbolic link: replace the file it names, keep the link. */
		t->path = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : strdup(path);
	} else if ((S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) && (flags & SPE_OUTFILE_STREAM)) {
		t->kind = TARGET_STREAM;
		return (t->path = strdup(path)) ? 0 : NOMEM(err, errlen, path);
	} else {
		snprintf(err, errlen, "%s: is %s; give the name of a regular file to write", path,
			 safeio_kind_name(st.st_mode));
		return -spe_invalid;
	}
	if (!t->path || !(t->dir = dir_of(t->path))) {
		target_fini(t);
		return NOMEM(err, errlen, path);
	}
	struct stat dst;
	int why = stat(t->dir, &dst) != 0 ? errno : !S_ISDIR(dst.st_mode) ? ENOTDIR
		  : access(t->dir, W_OK | X_OK) != 0 ? errno : 0;
	if (why) {
		snprintf(err, errlen, "%s: cannot create files in %s: %s", path, t->dir, strerror(why));
		target_fini(t);
		return -spe_io;
	}
	if (flags & SPE_OUTFILE_KEEP_OLD) {
		size_t n = strlen(t->path) + 5;
		char *old = malloc(n);
		if (!old) {
			target_fini(t);
			return NOMEM(err, errlen, path);
		}
		snprintf(old, n, "%s.old", t->path);
		int bad = lstat(old, &lst) == 0 && !S_ISREG(lst.st_mode);
		if (bad)
			snprintf(err, errlen, "%s: is %s; it would receive the previous %s", old,
				 safeio_kind_name(lst.st_mode), base_of(t->path));
		free(old);
		if (bad) {
			target_fini(t);
			return -spe_invalid;
		}
	}
	return 0;
}

int spe_outfile_check(const char *path, unsigned flags, char *err, size_t errlen)
{
	struct target t;
	int r = resolve(path, flags, &t, err, errlen);
	if (r == 0)
		target_fini(&t);
	return r;
}

/* ------------------------------------------------------------------ */
/* Temporaries                                                         */
/* ------------------------------------------------------------------ */

/* "PID.N.tmp" after the prefix: the owner's pid, or 0 if @p rest is not of that form. */
static long owner_of(const char *rest)
{
	char *end;
	if (*rest < '1' || *rest > '9')
		return 0;
	errno = 0;
	long pid = strtol(rest, &end, 10);
	if (errno || *end != '.' || pid <= 0)
		return 0;
	const char *n = end + 1;
	if (*n < '0' || *n > '9')
		return 0;
	while (*n >= '0' && *n <= '9')
		n++;
	return strcmp(n, ".tmp") ? 0 : pid;
}

/* Remove TARGET.TAG.PID.N.tmp files of ours whose PID is gone; returns how many. */
static unsigned remove_stale(const char *dir, const char *base, const char *tag)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t plen = strlen(base) + strlen(tag) + 2;
	char *prefix = malloc(plen + 1);
	unsigned removed = 0;
	if (prefix) {
		snprintf(prefix, plen + 1, "%s.%s.", base, tag);
		struct dirent *e;
		while ((e = readdir(d))) {
			if (strncmp(e->d_name, prefix, plen))
				continue;
			long pid = owner_of(e->d_name + plen);
			if (!pid || pid == (long)getpid())
				continue;
			if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
				continue; /* alive, or another user's process */
			struct stat st;
			if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
			    st.st_uid != geteuid())
				continue;
			if (unlinkat(dirfd(d), e->d_name, 0) == 0)
				removed++;
		}
	}
	free(prefix);
	closedir(d);
	return removed;
}

static bool tag_ok(const char *tag)
{
	if (!tag || !*tag)
		return false;
	for (const char *p = tag; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return false;
	return true;
}

/* Create TARGET.TAG.PID.N.tmp with O_EXCL for the first free N; fd or -1 (errno set). */
static int create_temporary(const char *target, const char *tag, char **out)
{
	size_t n = strlen(target) + strlen(tag) + 48;
	char *name = malloc(n);
	if (!name) {
		errno = ENOMEM;
		return -1;
	}
	for (unsigned i = 0; i < 1000; i++) {
		snprintf(name, n, "%s.%s.%ld.%u.tmp", target, tag, (long)getpid(), i);
		int fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
		if (fd >= 0) {
			*out = name;
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	int saved = errno;
	free(name);
	errno = saved;
	return -1;
}

static int open_stream(struct spe_outfile *o, const struct target *t, char *err, size_t errlen)
{
	o->stream = true;
	if (t->kind == TARGET_STDOUT) {
		o->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (o->fd < 0) {
			snprintf(err, errlen, "standard output: %s", strerror(errno));
			return -spe_io;
		}
		return 0;
	}
	/* Not blocking in open(): a FIFO without a reader fails with ENXIO instead of hanging. */
	o->fd = open(o->target, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (t->append ? O_APPEND : 0));
	if (o->fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", o->target,
			 errno == ENXIO ? "a FIFO with no reader" : strerror(errno));
		return -spe_io;
	}
	int fl = fcntl(o->fd, F_GETFL);
	if (fl >= 0)
		fcntl(o->fd, F_SETFL, fl & ~O_NONBLOCK);
	return 0;
}

int spe_outfile_open(const char *path, const char *tag, unsigned flags, struct spe_outfile **out, char *err,
		     size_t errlen)
{
	*out = NULL;
	if (!tag_ok(tag)) {
		snprintf(err, errlen, "%s: bad temporary tag", path ? path : "(null)");
		return -spe_invalid;
	}
	struct target t;
	int r = resolve(path, flags, &t, err, errlen);
	if (r)
		return r;
	struct spe_outfile *o = calloc(1, sizeof *o);
	if (!o) {
		target_fini(&t);
		return NOMEM(err, errlen, path);
	}
	o->fd = -1;
	o->slot = -1;
	o->flags = flags;
	o->tag = tag;
	o->target = t.path;
	t.path = NULL;
	if (t.kind == TARGET_STDOUT || t.kind == TARGET_STREAM) {
		r = open_stream(o, &t, err, errlen);
	} else {
		o->stale_removed = remove_stale(t.dir, base_of(o->target), tag);
		o->fd = create_temporary(o->target, tag, &o->tmp);
		if (o->fd < 0) {
			snprintf(err, errlen, "%s: cannot create a temporary file in %s: %s", path, t.dir,
				 strerror(errno));
			r = -spe_io;
		} else {
			o->slot = live_add(o->tmp, o->fd);
		}
	}
	target_fini(&t);
	if (r) {
		spe_outfile_abort(o);
		return r;
	}
	*out = o;
	return 0;
}

int spe_outfile_fd(const struct spe_outfile *o)
{
	return o ? o->fd : -1;
}

const char *spe_outfile_tmp_path(const struct spe_outfile *o)
{
	return o ? o->tmp : NULL;
}

const char *spe_outfile_path(const struct spe_outfile *o)
{
	return o ? o->target : NULL;
}

unsigned spe_outfile_stale_removed(const struct spe_outfile *o)
{
	return o ? o->stale_removed : 0;
}

void spe_outfile_abort(struct spe_outfile *o)
{
	if (!o)
		return;
	if (o->tmp) {
		struct stat mine, now;
		bool ours = o->fd >= 0 ? fstat(o->fd, &mine) == 0 : false;
		/* Without our descriptor the slot still knows the inode. */
		if (!ours && o->slot >= 0) {
			mine.st_dev = live[o->slot].dev;
			mine.st_ino = live[o->slot].ino;
			ours = true;
		}
		if (ours && lstat(o->tmp, &now) == 0 && now.st_dev == mine.st_dev && now.st_ino == mine.st_ino)
			unlink(o->tmp);
	}
	live_remove(o->slot);
	if (o->fd >= 0)
		close(o->fd);
	free(o->tmp);
	free(o->target);
	free(o);
}

/* Best effort: make the renames durable. */
static void sync_dir(const char *file)
{
	char *dir = dir_of(file);
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/* Link the current target to TARGET.old (atomically where the file system has hard links). */
static int keep_old(struct spe_outfile *o, char *err, size_t errlen)
{
	struct stat st;
	if (lstat(o->target, &st) != 0 || !S_ISREG(st.st_mode))
		return 0; /* nothing to keep */
	size_t n = strlen(o->target) + 5;
	char *old = malloc(n), *link_tmp = NULL;
	if (!old)
		return NOMEM(err, errlen, o->target);
	snprintf(old, n, "%s.old", o->target);
	int r = 0;
	int fd = create_temporary(o->target, o->tag, &link_tmp);
	if (fd >= 0) {
		/* A name of our own pattern for the link, so a crash here leaves nothing the next run keeps. */
		close(fd);
		unlink(link_tmp);
		if (link(o->target, link_tmp) == 0) {
			if (rename(link_tmp, old) != 0) {
				snprintf(err, errlen, "%s: cannot keep the previous file as %s: %s", o->target, old,
					 strerror(errno));
				unlink(link_tmp);
				r = -spe_io;
			}
			goto out;
		}
	}
	/* No hard links here (or no room for the name): move it; the target is briefly absent. */
	if (rename(o->target, old) != 0) {
		snprintf(err, errlen, "%s: cannot keep the previous file as %s: %s", o->target, old, strerror(errno));
		r = -spe_io;
	}
out:
	free(link_tmp);
	free(old);
	return r;
}

static int rename_noreplace(const char *from, const char *to)
{
#ifdef RENAME_NOREPLACE
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
		return -1;
#endif
	/* link() never replaces; then drop the temporary's name. */
	if (link(from, to) != 0)
		return -1;
	unlink(from);
	return 0;
}

int spe_outfile_commit(struct spe_outfile *o, char *err, size_t errlen)
{
	if (!o) {
		snprintf(err, errlen, "no output to commit");
		return -spe_invalid;
	}
	int r = 0;
	if (o->stream) {
		if (close(o->fd) != 0) {
			snprintf(err, errlen, "%s: %s", o->target, strerror(errno));
			r = -spe_io;
		}
		o->fd = -1;
		spe_outfile_abort(o);
		return r;
	}
	/* Delayed allocation may report a full disk only now. */
	if (fsync(o->fd) != 0 || close(o->fd) != 0) {
		snprintf(err, errlen, "%s: cannot write: %s", o->target, strerror(errno));
		r = -spe_io;
	}
	o->fd = -1;
	if (!r && (o->flags & SPE_OUTFILE_KEEP_OLD))
		r = keep_old(o, err, errlen);
	if (!r && (o->flags & SPE_OUTFILE_NO_REPLACE)) {
		if (rename_noreplace(o->tmp, o->target) != 0) {
			int e = errno;
			snprintf(err, errlen, "%s: %s", o->target,
				 e == EEXIST ? "created by another process meanwhile; it was left as it is" : strerror(e));
			r = e == EEXIST ? -spe_invalid : -spe_io;
		}
	} else if (!r && rename(o->tmp, o->target) != 0) {
		snprintf(err, errlen, "%s: cannot rename %s into place: %s", o->target, o->tmp, strerror(errno));
		r = -spe_io;
	}
	if (!r) {
		sync_dir(o->target);
		live_remove(o->slot);
		o->slot = -1;
		free(o->tmp);
		o->tmp = NULL; /* renamed: nothing left to remove */
	}
	spe_outfile_abort(o);
	return r;
}
