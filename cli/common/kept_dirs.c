/* SPDX-License-Identifier: Apache-2.0 */
/* Kept --symfs and --source-dir values, sealed for the user who gave them.  See kept_dirs.h. */
#include "kept_dirs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/hmac.h>
#include <nettle/memops.h>

#include "spe/infile.h"
#include "spe/settings.h"
#include "spe/spe.h"

enum { KEY_BYTES = 32 };

/* The key file's directory and path ($XDG_CONFIG_HOME/spekit, else ~/.config/spekit); -1 when neither is set. */
static int key_path(char *dir, char *path, size_t size)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n = xdg && xdg[0] == '/' ? snprintf(dir, size, "%s/spekit", xdg)
	      : home && home[0] ? snprintf(dir, size, "%s/.config/spekit", home)
				: -1;
	if (n < 0 || (size_t)n >= size)
		return -1;
	n = snprintf(path, size, "%s/local.key", dir);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/*
 * Read the key; 0, or -1 when there is none usable: missing, short, not a
 * regular file, or not this user's secret (another owner, or readable by
 * others: anyone who can read it can seal).
 */
static int read_key(const char *path, unsigned char *key)
{
	char err[256];
	struct stat st;
	int fd = spe_infile_open(path, err, sizeof err);
	if (fd < 0)
		return -1;
	ssize_t n = fstat(fd, &st) == 0 && st.st_uid == geteuid() && !(st.st_mode & 077) ? read(fd, key, KEY_BYTES) : -1;
	close(fd);
	return n == KEY_BYTES ? 0 : -1;
}

/* mkdir -p of the two levels below $HOME (or $XDG_CONFIG_HOME) that the key needs, private. */
static void make_dirs(const char *dir)
{
	char parent[4096];
	snprintf(parent, sizeof parent, "%s", dir);
	char *slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = 0;
		mkdir(parent, 0700); /* ~/.config: exists on most systems */
	}
	mkdir(dir, 0700);
}

/*
 * This user's key, made when @p create and there is none: written to a
 * temporary and linked into place, so two commands making it at once agree
 * on the one that was linked first.  0, or -1 with @p err.
 */
static int user_key(unsigned char *key, int create, char *err, size_t errlen)
{
	char dir[4096], path[4096], tmp[4200];
	if (key_path(dir, path, sizeof path) < 0) {
		snprintf(err, errlen, "neither XDG_CONFIG_HOME nor HOME is set");
		return -1;
	}
	if (read_key(path, key) == 0)
		return 0;
	if (!create) {
		snprintf(err, errlen, "%.200s: no key", path);
		return -1;
	}
	make_dirs(dir);
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "%.200s: %s", tmp, strerror(errno));
		return -1;
	}
	unsigned char fresh[KEY_BYTES];
	int ok = getrandom(fresh, sizeof fresh, 0) == (ssize_t)sizeof fresh &&
		 write(fd, fresh, sizeof fresh) == (ssize_t)sizeof fresh && fsync(fd) == 0;
	int saved = errno;
	close(fd);
	if (ok && link(tmp, path) != 0 && errno != EEXIST) {
		saved = errno;
		ok = 0;
	}
	unlink(tmp);
	if (!ok || read_key(path, key) < 0) {
		snprintf(err, errlen, "%.200s: %s", path,
			 ok ? "not a private key of this user (32 bytes, owned by the user, mode 0600)" : strerror(saved));
		return -1;
	}
	return 0;
}

/* The seal of @p value under @p key for setting @p name, as hex. */
static void seal(const unsigned char *key, const char *name, const char *value, char *hex)
{
	struct hmac_sha256_ctx ctx;
	uint8_t mac[SHA256_DIGEST_SIZE];
	hmac_sha256_set_key(&ctx, KEY_BYTES, key);
	hmac_sha256_update(&ctx, strlen(name) + 1, (const uint8_t *)name); /* the name and its NUL: no value can pose as another's */
	hmac_sha256_update(&ctx, strlen(value), (const uint8_t *)value);
	hmac_sha256_digest(&ctx, sizeof mac, mac);
	for (size_t i = 0; i < sizeof mac; i++)
		snprintf(hex + 2 * i, 3, "%02x", mac[i]);
}

static void seal_key(const char *key, char *out, size_t size)
{
	snprintf(out, size, "%s.seal", key);
}

int cli_kept_dir_set(sqlite3 *db, const char *key, const char *value, char *err, size_t errlen)
{
	char seal_name[128], hex[2 * SHA256_DIGEST_SIZE + 1];
	unsigned char k[KEY_BYTES];
	seal_key(key, seal_name, sizeof seal_name);
	int rc = spe_setting_set(db, key, value, err, errlen);
	if (rc < 0)
		return rc;
	char why[300];
	int sealed = value && user_key(k, 1, why, sizeof why) == 0;
	if (sealed)
		seal(k, key, value, hex);
	if ((rc = spe_setting_set(db, seal_name, sealed ? hex : NULL, err, errlen)) < 0)
		return rc;
	if (value && !sealed) {
		snprintf(err, errlen, "%s kept without a seal (this user's key: %s): spe-report will not use it", key, why);
		return 1;
	}
	return 0;
}

int cli_kept_dir_get(sqlite3 *db, const char *key, char **value, char **unsealed, char *err, size_t errlen)
{
	char seal_name[128], hex[2 * SHA256_DIGEST_SIZE + 1], why[300];
	unsigned char k[KEY_BYTES];
	char *kept = NULL, *stored = NULL;
	*value = NULL;
	if (unsealed)
		*unsealed = NULL;
	seal_key(key, seal_name, sizeof seal_name);
	int rc = spe_setting_get(db, key, &kept, err, errlen);
	if (rc == 0 && kept)
		rc = spe_setting_get(db, seal_name, &stored, err, errlen);
	if (rc < 0 || !kept) {
		free(kept);
		return rc;
	}
	int ok = stored && strlen(stored) == 2 * SHA256_DIGEST_SIZE && user_key(k, 0, why, sizeof why) == 0;
	if (ok) {
		seal(k, key, kept, hex);
		ok = memeql_sec(hex, stored, sizeof hex - 1);
	}
	free(stored);
	if (ok)
		*value = kept;
	else if (unsealed)
		*unsealed = kept;
	else
		free(kept);
	return 0;
}
