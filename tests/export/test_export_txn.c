/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spe_export reads in one transaction: SQLite takes its shared lock once for
 * the whole export, not once per statement (the exporters run a query per
 * sampled PC), and a caller's own transaction is left open.  The locks are
 * counted by a VFS that forwards to the default one.
 *
 * usage: test_export_txn REPLAY_TOOL SPE_LOAD MANIFEST ELF_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "run.h"
#include "spe/export.h"

/* ---- a VFS that counts shared-lock acquisitions ---------------------------- */

static sqlite3_vfs *real_vfs;
static int shared_locks;

struct counted_file {
	sqlite3_file base;
	sqlite3_file *real; /* the default VFS's file, allocated right after this struct */
};

#define REAL(f) (((struct counted_file *)(f))->real)

static int c_close(sqlite3_file *f)
{
	int rc = REAL(f)->pMethods ? REAL(f)->pMethods->xClose(REAL(f)) : SQLITE_OK;
	return rc;
}
static int c_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xRead(REAL(f), b, n, o); }
static int c_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o)
{
	return REAL(f)->pMethods->xWrite(REAL(f), b, n, o);
}
static int c_truncate(sqlite3_file *f, sqlite3_int64 n) { return REAL(f)->pMethods->xTruncate(REAL(f), n); }
static int c_sync(sqlite3_file *f, int fl) { return REAL(f)->pMethods->xSync(REAL(f), fl); }
static int c_size(sqlite3_file *f, sqlite3_int64 *n) { return REAL(f)->pMethods->xFileSize(REAL(f), n); }
static int c_lock(sqlite3_file *f, int level)
{
	if (level == SQLITE_LOCK_SHARED)
		shared_locks++;
	return REAL(f)->pMethods->xLock(REAL(f), level);
}
static int c_unlock(sqlite3_file *f, int level) { return REAL(f)->pMethods->xUnlock(REAL(f), level); }
static int c_reserved(sqlite3_file *f, int *out) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out); }
static int c_control(sqlite3_file *f, int op, void *arg) { return REAL(f)->pMethods->xFileControl(REAL(f), op, arg); }
static int c_sector(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int c_device(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }

/* Version 1 methods only: no shared memory (rollback journal) and no mmap. */
static const sqlite3_io_methods counted_methods = {
	1, c_close, c_read, c_write, c_truncate, c_sync, c_size, c_lock, c_unlock, c_reserved, c_control, c_sector,
	c_device, NULL, NULL, NULL, NULL, NULL, NULL,
};

static int c_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags)
{
	(void)vfs;
	struct counted_file *cf = (struct counted_file *)f;
	cf->real = (sqlite3_file *)(cf + 1);
	memset(cf->real, 0, (size_t)real_vfs->szOsFile);
	int rc = real_vfs->xOpen(real_vfs, name, cf->real, flags, out_flags);
	cf->base.pMethods = rc == SQLITE_OK ? &counted_methods : NULL;
	return rc;
}

static sqlite3_vfs counted_vfs;

static void register_counted_vfs(void)
{
	real_vfs = sqlite3_vfs_find(NULL);
	counted_vfs = *real_vfs;
	counted_vfs.iVersion = 1;
	counted_vfs.zName = "spe-count-locks";
	counted_vfs.szOsFile = (int)sizeof(struct counted_file) + real_vfs->szOsFile;
	counted_vfs.xOpen = c_open;
	counted_vfs.pNext = NULL;
	sqlite3_vfs_register(&counted_vfs, 0);
}

/* ---- the test ------------------------------------------------------------- */

static const char *replay_tool, *spe_load, *manifest, *elf_dir;
static char dir[] = "/tmp/spe-export-txn-XXXXXX";
static char db_path[256];

static int run(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Export folded stacks; returns spe_export's result, the output's length in *len. */
static int export_folded(sqlite3 *db, long *len)
{
	struct spe_export_opts o = { .source_id = SPE_EXPORT_ANY, .pid = SPE_EXPORT_ANY,
				     .cpu = SPE_EXPORT_ANY, .weight = SPE_EXPORT_WEIGHT_LATENCY };
	struct spe_export_stats st;
	char err[512];
	FILE *out = tmpfile();
	if (!out)
		return -1;
	int rc = spe_export(db, SPE_EXPORT_FOLDED, &o, out, &st, err, sizeof err);
	if (rc < 0)
		printf("  spe_export: %s\n", err);
	*len = ftell(out);
	fclose(out);
	return rc;
}

TEST(load_fixture)
{
	char data[300], cmd[2048];
	snprintf(data, sizeof data, "%s/memwork.data", dir);
	snprintf(cmd, sizeof cmd, "%s%s --replay=%s -o %s >/dev/null 2>&1", spe_run_prefix(), replay_tool, manifest, data);
	CHECK_INT_EQ(run(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s%s %s -o %s --symfs=%s 2>/dev/null", spe_run_prefix(), spe_load, data, db_path,
		 elf_dir);
	CHECK_INT_EQ(run(cmd), 0);
}

TEST(one_shared_lock_for_the_whole_export)
{
	sqlite3 *db;
	CHECK_INT_EQ(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, "spe-count-locks"), SQLITE_OK);
	/* what one statement costs in autocommit: a lock of its own (the schema read first) */
	CHECK_INT_EQ(sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL), SQLITE_OK);
	shared_locks = 0;
	CHECK_INT_EQ(sqlite3_exec(db, "SELECT count(*) FROM insn; SELECT count(*) FROM symbol;", NULL, NULL, NULL),
		     SQLITE_OK);
	CHECK_INT_EQ(shared_locks, 2);
	shared_locks = 0;
	long len = 0;
	CHECK_INT_EQ(export_folded(db, &len), 0);
	CHECK(len > 0);
	CHECK_INT_EQ(shared_locks, 1);
	CHECK_INT_EQ(sqlite3_get_autocommit(db), 1); /* its read transaction ended */
	sqlite3_close(db);
}

TEST(callers_transaction_is_left_open)
{
	sqlite3 *db;
	CHECK_INT_EQ(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, "spe-count-locks"), SQLITE_OK);
	CHECK_INT_EQ(sqlite3_exec(db, "BEGIN; SELECT count(*) FROM insn;", NULL, NULL, NULL), SQLITE_OK);
	shared_locks = 0;
	long len = 0;
	CHECK_INT_EQ(export_folded(db, &len), 0);
	CHECK(len > 0);
	CHECK_INT_EQ(shared_locks, 0); /* the caller's lock served */
	CHECK_INT_EQ(sqlite3_get_autocommit(db), 0);
	CHECK_INT_EQ(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s REPLAY_TOOL SPE_LOAD MANIFEST ELF_DIR\n", argv[0]);
		return 2;
	}
	replay_tool = argv[1];
	spe_load = argv[2];
	manifest = argv[3];
	elf_dir = argv[4];
	if (!mkdtemp(dir))
		return 1;
	snprintf(db_path, sizeof db_path, "%s/memwork.db", dir);
	register_counted_vfs();
	RUN(load_fixture);
	RUN(one_shared_lock_for_the_whole_export);
	RUN(callers_transaction_is_left_open);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	run(cmd);
	return check_summary();
}
