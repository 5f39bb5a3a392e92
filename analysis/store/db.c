/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Opening a spekit database, and the all-or-nothing rule for loads.
 *
 * A new database (CREATE, FORCE, or APPEND to a missing file) is built in a
 * temporary file beside the target (spe/outfile.h: DB.spe-db.PID.N.tmp),
 * with durability off because nobody else can see it, and renamed into place
 * only on commit: a failed or interrupted load leaves the old file (or no
 * file) untouched, and a temporary left by a killed load is removed by the
 * next open of that database.  APPEND to an existing database runs in one
 * IMMEDIATE transaction with the rollback journal on, so a failure, Ctrl-C
 * or crash rolls back to the previous bytes.
 *
 * Read-only opens are read-only for every file: a hot journal left by a
 * killed writer is rolled back first (or the message says how), and an
 * authorizer refuses ATTACH of writable URIs; spe_result_print() refuses
 * statements that are not read-only (VACUUM INTO) on such a connection.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db_internal.h"
#include "latency_rollup.h"
#include "rollup_feed.h"
#include "spe/analysis.h"
#include "spe/outfile.h"

struct spe_db {
	sqlite3 *sql;
	char *path;               /* the database the user named */
	struct spe_outfile *file; /* the temporary renamed over path on commit, or NULL */
	enum spe_db_mode mode;
	int in_txn;
	int replace; /* a file already loaded replaces its source (spe_db_set_replace) */
	int threads; /* the commit's rollup may use this many (spe_db_set_threads; 0 or 1: one) */
	/* on a new database, the pc_histogram rows the transaction stored, for the rollup (rollup_feed.h) */
	struct rollup_feed *feed;
};

void spe_db_set_threads(struct spe_db *db, int threads)
{
	if (db)
		db->threads = threads;
}

struct rollup_feed *spe_db_rollup_feed(struct spe_db *db)
{
	return db && db->in_txn ? db->feed : NULL;
}

static void drop_feed(struct spe_db *db)
{
	if (db->feed)
		ana_rollup_feed_fini(db->feed);
	free(db->feed);
	db->feed = NULL;
}

/* A new database's transaction: every pc_histogram row will pass through the sink. */
static int start_feed(struct spe_db *db, char *err, size_t errlen)
{
	if (!(db->feed = calloc(1, sizeof *db->feed))) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	return 0;
}


int spe_db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		char why[512];
		snprintf(err, errlen, "%s", ana_sqlite_why(db, msg, why, sizeof why));
		sqlite3_free(msg);
		return -spe_io;
	}
	return 0;
}

sqlite3 *spe_db_sqlite(struct spe_db *db)
{
	return db ? db->sql : NULL;
}

int spe_db_is_append(const struct spe_db *db)
{
	return db && db->mode == SPE_DB_APPEND && !db->file;
}

void spe_db_set_replace(struct spe_db *db, int replace)
{
	if (db)
		db->replace = replace;
}

int spe_db_replaces(const struct spe_db *db)
{
	return db && db->replace;
}

/* Open @p path, or @p uri (with SQLITE_OPEN_URI) when given; messages name @p path. */
static int open_sqlite_as(const char *path, const char *uri, int flags, sqlite3 **out, char *err, size_t errlen)
{
	int rc = sqlite3_open_v2(uri ? uri : path, out, flags | SQLITE_OPEN_NOMUTEX | (uri ? SQLITE_OPEN_URI : 0), NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, *out ? sqlite3_errmsg(*out) : sqlite3_errstr(rc));
		sqlite3_close(*out);
		*out = NULL;
		return rc == SQLITE_CANTOPEN ? -spe_io : -spe_bad_file;
	}
	sqlite3_busy_timeout(*out, 5000);
	return 0;
}

static int open_sqlite(const char *path, int flags, sqlite3 **out, char *err, size_t errlen)
{
	return open_sqlite_as(path, NULL, flags, out, err, errlen);
}

/*
 * Read-only connections: no ATTACH of a URI that could write (mode=rw,
 * mode=rwc); a plain path is opened read-only like the main database.
 */
static int readonly_authorizer(void *ctx, int action, const char *a, const char *b, const char *c, const char *d)
{
	(void)ctx, (void)b, (void)c, (void)d;
	if (action == SQLITE_ATTACH && a && !strncmp(a, "file:", 5) && !strstr(a, "mode=ro"))
		return SQLITE_DENY;
	return SQLITE_OK;
}

static int reopen_readonly(struct spe_db *db, const char *path, char *err, size_t errlen)
{
	sqlite3_close(db->sql);
	db->sql = NULL;
	char *uri = spe_db_readonly_uri(path); /* creates nothing beside a WAL database (db_uri.c) */
	if (!uri) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	int rc = open_sqlite_as(path, uri, SQLITE_OPEN_READONLY, &db->sql, err, errlen);
	free(uri);
	if (rc < 0)
		return rc;
	char why[256];
	if ((rc = spe_db_distrust(db->sql, why, sizeof why)) < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		return rc;
	}
	/* a query that looks rows up by id across tables (hot_pc: insn, symbol) re-read pages
	   from the kernel with SQLite's 2 MB default: 30% of its time at 200,000 rows */
	sqlite3_exec(db->sql, "PRAGMA cache_size = -65536;", NULL, NULL, NULL);
	sqlite3_set_authorizer(db->sql, readonly_authorizer, NULL);
	return 0;
}

/* Create a fresh database in a temporary file next to db->path. */
static int open_new(struct spe_db *db, char *err, size_t errlen)
{
	/* CREATE, and APPEND to a missing file: never replace one another process made meanwhile. */
	unsigned flags = db->mode == SPE_DB_FORCE || db->mode == SPE_DB_SCRATCH ? 0 : SPE_OUTFILE_NO_REPLACE;
	int rc = spe_outfile_open(db->path, "spe-db", flags, &db->file, err, errlen);
	if (rc < 0)
		return rc;
	rc = open_sqlite(spe_outfile_tmp_path(db->file), SQLITE_OPEN_READWRITE, &db->sql, err, errlen);
	if (rc < 0)
		return rc;
	rc = spe_db_exec(db->sql,
			 /* a small page cache: fewer page faults, and a new file spills cheaply */
			 "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192;"
			 "PRAGMA cache_size = -8192; PRAGMA temp_store = FILE; PRAGMA locking_mode = EXCLUSIVE; BEGIN;",
			 err, errlen);
	if (rc < 0)
		return rc;
	db->in_txn = 1;
	rc = start_feed(db, err, errlen);
	return rc < 0 ? rc : spe_schema_create(db->sql, err, errlen);
}

/*
 * A read-only open found a hot journal (a writer was killed mid-transaction):
 * roll it back through a read-write connection, as the next writer would.
 */
static int roll_back_hot_journal(struct spe_db *db, char *err, size_t errlen)
{
	sqlite3 *rw = NULL;
	char ignored[256];
	int rc = open_sqlite(db->path, SQLITE_OPEN_READWRITE, &rw, ignored, sizeof ignored);
	if (rc == 0)
		rc = spe_db_distrust(rw, ignored, sizeof ignored);
	if (rc == 0 && sqlite3_exec(rw, "SELECT count(*) FROM sqlite_schema;", NULL, NULL, NULL) != SQLITE_OK)
		rc = -spe_io;
	sqlite3_close(rw);
	if (rc < 0) {
		snprintf(err, errlen,
			 "%s: an interrupted write left %s-journal, which only a writer can roll back; run "
			 "spe-query --write -d %s 'SELECT 1' as a user who can write %s and its directory",
			 db->path, db->path, db->path, db->path);
		return -spe_io;
	}
	return 0;
}

static int open_existing(struct spe_db *db, char *err, size_t errlen)
{
	int writable = db->mode != SPE_DB_READONLY;
	int rc = writable ? open_sqlite(db->path, SQLITE_OPEN_READWRITE, &db->sql, err, errlen)
			  : reopen_readonly(db, db->path, err, errlen);
	if (rc < 0)
		return rc;
	char msg[512];
	if (writable && (rc = spe_db_distrust(db->sql, msg, sizeof msg)) < 0) { /* reopen_readonly did */
		snprintf(err, errlen, "%s: %s", db->path, msg);
		return rc;
	}
	if (!writable) {
		sqlite3_extended_result_codes(db->sql, 1);
		if (sqlite3_exec(db->sql, "SELECT count(*) FROM sqlite_schema;", NULL, NULL, NULL) ==
		    SQLITE_READONLY_ROLLBACK) {
			if ((rc = roll_back_hot_journal(db, err, errlen)) < 0 ||
			    (rc = reopen_readonly(db, db->path, err, errlen)) < 0)
				return rc;
		}
	}
	rc = spe_schema_check(db->sql, msg, sizeof msg);
	if (rc == 0) {
		snprintf(err, errlen, "%s: not a spekit database (it is empty)", db->path);
		return -spe_bad_file;
	}
	if (rc < 0 || (rc = spe_db_own_views(db->sql, "main", NULL, msg, sizeof msg)) < 0) {
		snprintf(err, errlen, "%s: %s", db->path, msg);
		return rc;
	}
	if (db->mode != SPE_DB_APPEND)
		return 0;
	rc = spe_db_exec(db->sql,
			 "PRAGMA journal_mode = DELETE; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536;"
			 "BEGIN IMMEDIATE;",
			 msg, sizeof msg);
	if (rc < 0) { /* "database is locked": another writer held it past the busy timeout */
		snprintf(err, errlen, "%s: %s", db->path, msg);
		return rc;
	}
	db->in_txn = 1;
	if ((rc = spe_schema_upgrade(db->sql, msg, sizeof msg)) < 0) {
		snprintf(err, errlen, "%s: %s", db->path, msg);
		return rc;
	}
	/* Indexes are rebuilt after the bulk insert, inside the same transaction. */
	return spe_schema_drop_record_indexes(db->sql, err, errlen);
}

int spe_db_open(const char *path, enum spe_db_mode mode, struct spe_db **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!path || !*path) {
		snprintf(err, errlen, "no database path");
		return -spe_invalid;
	}
	struct spe_db *db = calloc(1, sizeof *db);
	if (!db || !(db->path = strdup(path))) {
		free(db);
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	db->mode = mode;
	struct stat st;
	int exists = stat(path, &st) == 0;
	int rc;
	if (exists && !S_ISREG(st.st_mode) && mode != SPE_DB_SCRATCH) {
		/* Never handed to SQLite: a FIFO would block its open(), a device would be written. */
		snprintf(err, errlen, "%s: is %s, not a database", path,
			 S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
			 : S_ISCHR(st.st_mode) ? "a character device" : "not a regular file");
		spe_db_close(db);
		return -spe_invalid;
	}
	switch (mode) {
	case SPE_DB_READONLY:
	case SPE_DB_READWRITE:
		if (!exists) {
			snprintf(err, errlen, "%s: no such database", path);
			rc = -spe_io;
			break;
		}
		rc = open_existing(db, err, errlen);
		break;
	case SPE_DB_CREATE:
		if (exists) {
			snprintf(err, errlen, "%s: database exists; use --append to add to it or --force to replace it",
				 path);
			rc = -spe_invalid;
			break;
		}
		rc = open_new(db, err, errlen);
		break;
	case SPE_DB_FORCE:
	case SPE_DB_SCRATCH:
		rc = open_new(db, err, errlen);
		break;
	case SPE_DB_APPEND:
		rc = exists ? open_existing(db, err, errlen) : open_new(db, err, errlen);
		break;
	default:
		snprintf(err, errlen, "bad open mode");
		rc = -spe_invalid;
	}
	if (rc < 0) {
		spe_db_close(db);
		return rc;
	}
	*out = db;
	return 0;
}

int spe_db_open_memory(struct spe_db **out, char *err, size_t errlen)
{
	*out = NULL;
	struct spe_db *db = calloc(1, sizeof *db);
	if (!db || !(db->path = strdup(":memory:"))) {
		free(db);
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	db->mode = SPE_DB_CREATE;
	int rc = open_sqlite(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, &db->sql, err, errlen);
	if (rc == 0)
		rc = spe_db_exec(db->sql, "BEGIN;", err, errlen);
	if (rc == 0) {
		db->in_txn = 1;
		rc = start_feed(db, err, errlen);
	}
	if (rc == 0)
		rc = spe_schema_create(db->sql, err, errlen);
	if (rc < 0) {
		spe_db_close(db);
		return rc;
	}
	*out = db;
	return 0;
}

int spe_db_commit(struct spe_db *db, char *err, size_t errlen)
{
	if (!db || !db->in_txn) {
		snprintf(err, errlen, "no load in progress");
		return -spe_invalid;
	}
	char why[512] = "";
	const char *step = NULL; /* the rollup's messages name their table themselves */
	int rc = spe_latency_rollup(db->sql, db->feed, db->threads, why, sizeof why);
	drop_feed(db);
	if (rc == 0 && (rc = spe_schema_create_indexes(db->sql, why, sizeof why)) < 0)
		step = "the indexes";
	if (rc == 0 && (rc = spe_db_exec(db->sql, "COMMIT;", why, sizeof why)) < 0)
		step = "committing";
	if (rc < 0) {
		/* the database, what was being written and why: "x.db: _hot_pc: disk I/O error (File too large)" */
		snprintf(err, errlen, "%s: %s%s%s", db->path, step ? step : "", step ? ": " : "", why);
		spe_db_rollback(db);
		return rc;
	}
	db->in_txn = 0;
	if (db->file && db->mode == SPE_DB_SCRATCH)
		/* Stays a temporary, removed by spe_db_close; queried read-only from here on. */
		return reopen_readonly(db, spe_outfile_tmp_path(db->file), err, errlen);
	if (db->file) {
		if (sqlite3_close(db->sql) != SQLITE_OK) {
			snprintf(err, errlen, "%s: close failed: %s", spe_outfile_tmp_path(db->file),
				 ana_sqlite_why(db->sql, NULL, why, sizeof why));
			spe_db_rollback(db);
			return -spe_io;
		}
		db->sql = NULL;
		rc = spe_outfile_commit(db->file, err, errlen);
		db->file = NULL;
		if (rc < 0)
			return rc;
		/* Reopen so the caller can keep querying; a failure here loses nothing. */
		char ignored[256];
		open_sqlite(db->path, SQLITE_OPEN_READWRITE, &db->sql, ignored, sizeof ignored);
	}
	return 0;
}

void spe_db_rollback(struct spe_db *db)
{
	if (!db)
		return;
	if (db->file) {
		sqlite3_close(db->sql);
		db->sql = NULL;
		spe_outfile_abort(db->file);
		db->file = NULL;
	} else if (db->in_txn && db->sql) {
		sqlite3_exec(db->sql, "ROLLBACK;", NULL, NULL, NULL);
		/*
		 * After an I/O error (disk full) the pager is in its error state and
		 * rolls the journal back only when the database is next read: read
		 * now, so the file is restored before we return, not by the next user.
		 */
		sqlite3_exec(db->sql, "SELECT count(*) FROM sqlite_schema;", NULL, NULL, NULL);
	}
	drop_feed(db);
	db->in_txn = 0;
}

void spe_db_close(struct spe_db *db)
{
	if (!db)
		return;
	spe_db_rollback(db);
	sqlite3_close(db->sql);
	free(db->path);
	free(db);
}
