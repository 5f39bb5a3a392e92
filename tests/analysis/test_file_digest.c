/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A capture's digest (ana/file_digest.h): "xxh3-SIZE-HASH" with HASH as
 * xxHash's own command, xxhsum -H2, prints the file's XXH3-128; the first
 * digest of a file is what spekit stored before (the values below are the
 * ones commit 94fdf36's spe-load wrote into source.digest for the same
 * bytes: 3 MiB + 7 generated here, crossing the 1 MiB reads and a 16-byte
 * step, and a fixture of 979 bytes); and a database holding first digests
 * still recognises a file loaded then: an append of it is refused, and
 * --replace loads it in the first one's place.
 *
 * usage: analysis_file_digest FIXTURES_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "ana/file_digest.h"
#include "check.h"
#include "spe/analysis.h"

static const char *fixtures;
static char dir[] = "/tmp/spe-test-digest-XXXXXX";
static char content[300], db_path[300];

/* 3 MiB + 7 bytes of ((i * 31 + 7) mod 251). */
static void write_content(void)
{
	snprintf(content, sizeof content, "%s/content.bin", dir);
	FILE *f = fopen(content, "wb");
	CHECK(f != NULL);
	for (size_t i = 0; f && i < 3 * 1024 * 1024 + 7; i++)
		fputc((int)((i * 31 + 7) % 251), f);
	if (f)
		fclose(f);
}

TEST(digest_is_xxh3_128_as_xxhsum_prints_it)
{
	char digest[SPE_FILE_DIGEST_SIZE], err[256], cmd[400], line[256] = "";
	CHECK_INT_EQ(ana_file_digest(content, digest, sizeof digest, err, sizeof err), 0);
	snprintf(cmd, sizeof cmd, "xxhsum -H2 %s 2>/dev/null", content);
	FILE *p = popen(cmd, "r");
	if (!p || !fgets(line, sizeof line, p) || !*line) {
		if (p)
			pclose(p);
		printf("SKIP: no xxhsum (Debian package xxhash, scripts/deps.sh) to compare with\n");
		return;
	}
	pclose(p);
	char want[SPE_FILE_DIGEST_SIZE];
	snprintf(want, sizeof want, "xxh3-%d-%.32s", 3 * 1024 * 1024 + 7, line);
	CHECK_STR_EQ(digest, want);
	CHECK(!ana_file_digest_is_first(digest));
}

TEST(first_digest_as_spekit_wrote_it)
{
	char digest[SPE_FILE_DIGEST_SIZE], err[256], path[400];
	CHECK_INT_EQ(ana_file_digest_first(content, digest, sizeof digest, err, sizeof err), 0);
	CHECK_STR_EQ(digest, "3145735-4bf7954e6d76dbc8587f3fb263824029");
	CHECK(ana_file_digest_is_first(digest));
	snprintf(path, sizeof path, "%s/workloads/traces/datawork-after.replay", fixtures);
	CHECK_INT_EQ(ana_file_digest_first(path, digest, sizeof digest, err, sizeof err), 0);
	CHECK_STR_EQ(digest, "979-395a2d3daab6ac89f4feab4ae32bafc6");
	CHECK_INT_EQ(ana_file_digest(dir, digest, sizeof digest, err, sizeof err), -spe_io); /* a directory: no read */
	CHECK(strstr(err, dir) != NULL);
}

static long query_int(const char *sql)
{
	sqlite3 *s;
	long v = -1;
	if (sqlite3_open(db_path, &s) == SQLITE_OK) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(s, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
			v = (long)sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(s);
	return v;
}

/* Load the content as raw records into the database (@p mode), replacing a loaded copy if @p replace. */
static int load(enum spe_db_mode mode, int replace, char *err, size_t errlen)
{
	struct spe_db *db;
	int rc = spe_db_open(db_path, mode, &db, err, errlen);
	if (rc < 0)
		return rc;
	spe_db_set_replace(db, replace);
	struct spe_load_opts opts = { 0 };
	struct spe_load_counts k;
	rc = spe_load_raw_file(db, content, 0x410fd0c0, 0, &opts, &k, err, errlen);
	if (rc == 0)
		rc = spe_db_commit(db, err, errlen);
	spe_db_close(db);
	return rc;
}

TEST(database_of_first_digests_recognises_its_captures)
{
	char err[512] = "", first[SPE_FILE_DIGEST_SIZE], sql[300];
	snprintf(db_path, sizeof db_path, "%s/first.db", dir);
	CHECK_INT_EQ(load(SPE_DB_CREATE, 0, err, sizeof err), 0);
	/* as a database written before: its source holds the first digest */
	CHECK_INT_EQ(ana_file_digest_first(content, first, sizeof first, err, sizeof err), 0);
	sqlite3 *s;
	CHECK_INT_EQ(sqlite3_open(db_path, &s), SQLITE_OK);
	snprintf(sql, sizeof sql, "UPDATE source SET digest = '%s'", first);
	CHECK_INT_EQ(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	CHECK_INT_EQ(load(SPE_DB_APPEND, 0, err, sizeof err), -spe_bad_file);
	CHECK(strstr(err, "is already loaded as source 1") != NULL);
	CHECK_INT_EQ(query_int("SELECT count(*) FROM source"), 1);
	CHECK_INT_EQ(load(SPE_DB_APPEND, 1, err, sizeof err), 0);
	CHECK_INT_EQ(query_int("SELECT count(*) FROM source"), 1);
	CHECK_INT_EQ(query_int("SELECT id FROM source"), 2);
	CHECK_INT_EQ(query_int("SELECT count(*) FROM source WHERE digest LIKE 'xxh3-%'"), 1);
	/* and once it holds XXH3 digests only, the first one is not needed */
	CHECK_INT_EQ(load(SPE_DB_APPEND, 0, err, sizeof err), -spe_bad_file);
	unlink(db_path);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: analysis_file_digest FIXTURES_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	if (!mkdtemp(dir))
		return 1;
	write_content();
	RUN(digest_is_xxh3_128_as_xxhsum_prints_it);
	RUN(first_digest_as_spekit_wrote_it);
	RUN(database_of_first_digests_recognises_its_captures);
	unlink(content);
	rmdir(dir);
	return check_summary();
}
