/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Opening a spekit database, and the all-or-nothing rule for loads.
 *
 * A new database (CREATE, FORCE, or APPEND to a missing file) is built in a
 * temporary file beside the target, with durability off because nobody else
 * can see it, and renamed into place only on commit: a failed or
 * interrupted load leaves the old file (or no file) untouched.  APPEND to an
 * existing database runs in one IMMEDIATE transaction with the rollback
 * journal on, so a failure, Ctrl-C or crash rolls back to the previous bytes.
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
#include "spe/analysis.h"

struct spe_db {
	sqlite3 *sql;
	char *path;     /* the database the user named */
	char *tmp_path; /* temporary file renamed over path on commit, or NULL */
	enum spe_db_mode mode;
	int in_txn;
};

int spe_db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
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
	return db && db->mode == SPE_DB_APPEND && !db->tmp_path;
}

static int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static int open_sqlite(const char *path, int flags, sqlite3 **out, char *err, size_t errlen)
{
	int rc = sqlite3_open_v2(path, out, flags | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, *out ? sqlite3_errmsg(*out) : sqlite3_errstr(rc));
		sqlite3_close(*out);
		*out = NULL;
		return rc == SQLITE_CANTOPEN ? -spe_io : -spe_bad_file;
	}
	sqlite3_busy_timeout(*out, 5000);
	return 0;
}

/* Create a fresh database in a temporary file next to db->path. */
static int open_new(struct spe_db *db, char *err, size_t errlen)
{
	size_t n = strlen(db->path) + 16;
	db->tmp_path = malloc(n);
	if (!db->tmp_path)
		return -spe_nomem;
	snprintf(db->tmp_path, n, "%s.tmp-XXXXXX", db->path);
	int fd = mkstemp(db->tmp_path);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create a temporary file: %s", db->tmp_path, strerror(errno));
		free(db->tmp_path);
		db->tmp_path = NULL;
		return -spe_io;
	}
	close(fd);
	int rc = open_sqlite(db->tmp_path, SQLITE_OPEN_READWRITE, &db->sql, err, errlen);
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
	return spe_schema_create(db->sql, err, errlen);
}

static int open_existing(struct spe_db *db, char *err, size_t errlen)
{
	int writable = db->mode != SPE_DB_READONLY;
	int rc = open_sqlite(db->path, writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, &db->sql, err,
			     errlen);
	if (rc < 0)
		return rc;
	char msg[512];
	rc = spe_schema_check(db->sql, msg, sizeof msg);
	if (rc == 0) {
		snprintf(err, errlen, "%s: not a spekit database (it is empty)", db->path);
		return -spe_bad_file;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", db->path, msg);
		return rc;
	}
	if (db->mode != SPE_DB_APPEND)
		return 0;
	rc = spe_db_exec(db->sql,
			 "PRAGMA journal_mode = DELETE; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536;"
			 "BEGIN IMMEDIATE;",
			 err, errlen);
	if (rc < 0)
		return rc;
	db->in_txn = 1;
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
	int exists = file_exists(path);
	int rc;
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
		rc = spe_schema_create(db->sql, err, errlen);
	}
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
	int rc = spe_latency_rollup(db->sql, err, errlen);
	if (rc == 0)
		rc = spe_schema_create_indexes(db->sql, err, errlen);
	if (rc == 0)
		rc = spe_db_exec(db->sql, "COMMIT;", err, errlen);
	if (rc < 0) {
		spe_db_rollback(db);
		return rc;
	}
	db->in_txn = 0;
	if (db->tmp_path) {
		if (sqlite3_close(db->sql) != SQLITE_OK) {
			snprintf(err, errlen, "%s: close failed: %s", db->tmp_path, sqlite3_errmsg(db->sql));
			spe_db_rollback(db);
			return -spe_io;
		}
		db->sql = NULL;
		if (rename(db->tmp_path, db->path) != 0) {
			snprintf(err, errlen, "%s: cannot rename into place: %s", db->path, strerror(errno));
			spe_db_rollback(db);
			return -spe_io;
		}
		free(db->tmp_path);
		db->tmp_path = NULL;
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
	if (db->tmp_path) {
		sqlite3_close(db->sql);
		db->sql = NULL;
		unlink(db->tmp_path);
		free(db->tmp_path);
		db->tmp_path = NULL;
	} else if (db->in_txn && db->sql) {
		sqlite3_exec(db->sql, "ROLLBACK;", NULL, NULL, NULL);
		/*
		 * After an I/O error (disk full) the pager is in its error state and
		 * rolls the journal back only when the database is next read: read
		 * now, so the file is restored before we return, not by the next user.
		 */
		sqlite3_exec(db->sql, "SELECT count(*) FROM sqlite_schema;", NULL, NULL, NULL);
	}
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
