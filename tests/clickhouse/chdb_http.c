/* SPDX-License-Identifier: Apache-2.0 */
/*
 * chdb_http LIBCHDB DATA_DIR PORT_FILE: the part of ClickHouse's HTTP
 * interface spekit uses, served by a current ClickHouse engine loaded as a
 * library -- libchdb.so of the npm package @chdb/lib-linux-x64-gnu (chDB,
 * https://github.com/chdb-io/chdb, programs/local/chdb.h) -- so the tests
 * run spekit's SQL on a current release where no clickhouse-server of one
 * can be installed.  For tests only: it listens on 127.0.0.1 at a port the
 * kernel picks, written to PORT_FILE once it accepts, serves one request at
 * a time and stops on SIGTERM or SIGINT.
 *
 * What it takes, as clickhouse-server does:
 *   - the statement in the body, or in the URL's `query` parameter with the
 *     body as its data (INSERT ... FORMAT F: a streaming insert of the
 *     body in format F);
 *   - a gzip body (Content-Encoding: gzip); a gzip answer when the URL says
 *     enable_http_compression=1 and the client accepts gzip;
 *   - `database` (the statement runs there: USE), and every other
 *     parameter as a setting of the statement (readonly=1 ...): one engine,
 *     one connection per distinct set of settings (chDB applies settings
 *     given at connect to that connection only);
 *   - an error as the server's: status 500 and "Code: N. DB::Exception: ...".
 * Not served: credentials (any are accepted), sessions, query parameters,
 * chunked bodies, keep-alive (each answer closes its connection).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <zlib.h>

/* chDB's C API (chdb.h of chDB 3.x and later): opaque handles. */
typedef struct chdb_conn_handle {
	void *internal_data;
} *chdb_connection;
typedef struct chdb_result_handle {
	void *internal_data;
} chdb_result;
typedef struct chdb_insert_handle {
	void *internal_data;
} *chdb_insert_stream;

static struct {
	chdb_connection *(*connect)(int argc, char **argv);
	void (*close_conn)(chdb_connection *conn);
	chdb_result *(*query_n)(chdb_connection conn, const char *query, size_t query_len, const char *format,
				size_t format_len);
	char *(*result_buffer)(chdb_result *r);
	size_t (*result_length)(chdb_result *r);
	const char *(*result_error)(chdb_result *r);
	void (*destroy_result)(chdb_result *r);
	chdb_insert_stream (*stream_insert_n)(chdb_connection conn, const char *query, size_t query_len,
					      const char *format, size_t format_len);
	int (*stream_append)(chdb_insert_stream s, const void *data, size_t len);
	chdb_result *(*stream_done)(chdb_insert_stream s);
	const char *(*stream_insert_error)(chdb_insert_stream s);
	void (*destroy_insert_stream)(chdb_insert_stream s);
} api;

#define MAX_HEAD (64 << 10)
#define MAX_BODY ((size_t)1 << 30)
#define MAX_CONNS 16

static const char *data_dir;
static volatile sig_atomic_t stopping;

/* One connection per set of settings: "k1=v1&k2=v2" (sorted), and the database it is in. */
static struct conn {
	char *settings;
	chdb_connection *c;
	char *database;
} conns[MAX_CONNS];

struct buf {
	char *p;
	size_t len, cap;
};

static int buf_add(struct buf *b, const void *data, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = 0;
	return 0;
}

/* An answer: status, body (gzip when @p gzip), then the connection closes. */
static void reply(int fd, int status, const char *body, size_t len, int gzip)
{
	struct buf out = { 0 };
	if (gzip) {
		z_stream z = { 0 };
		unsigned char chunk[65536];
		int rc = deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
		z.next_in = (unsigned char *)body;
		z.avail_in = (uInt)len;
		do {
			z.next_out = chunk;
			z.avail_out = sizeof chunk;
			rc = deflate(&z, Z_FINISH);
			if (rc == Z_STREAM_ERROR || buf_add(&out, chunk, sizeof chunk - z.avail_out) < 0)
				break;
		} while (rc != Z_STREAM_END);
		deflateEnd(&z);
		if (rc != Z_STREAM_END) {
			gzip = 0;
			out.len = 0;
		} else {
			body = out.p;
			len = out.len;
		}
	}
	char head[256];
	int n = snprintf(head, sizeof head,
			 "HTTP/1.1 %d %s\r\nContent-Type: text/tab-separated-values; charset=UTF-8\r\n%s"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n",
			 status, status == 200 ? "OK" : "Error", gzip ? "Content-Encoding: gzip\r\n" : "", len);
	struct part {
		const char *p;
		size_t n;
	} parts[2] = { { head, (size_t)n }, { body ? body : "", len } };
	for (int i = 0; i < 2; i++)
		for (size_t done = 0; done < parts[i].n;) {
			ssize_t w = send(fd, parts[i].p + done, parts[i].n - done, MSG_NOSIGNAL);
			if (w <= 0) {
				free(out.p);
				return;
			}
			done += (size_t)w;
		}
	free(out.p);
}

static void reply_error(int fd, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void reply_error(int fd, int status, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg - 1, fmt, ap);
	va_end(ap);
	strcat(msg, "\n");
	reply(fd, status, msg, strlen(msg), 0);
}

/* %XX and '+' of a URL's query, in place. */
static void url_decode(char *s)
{
	char *o = s;
	for (; *s; s++) {
		if (*s == '+') {
			*o++ = ' ';
		} else if (*s == '%' && s[1] && s[2]) {
			char hex[3] = { s[1], s[2], 0 };
			*o++ = (char)strtol(hex, NULL, 16);
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/* A header's value (after "Name:"), NULL when absent. */
static const char *header(const char *head, const char *name)
{
	size_t n = strlen(name);
	for (const char *l = strstr(head, "\r\n"); l; l = strstr(l + 2, "\r\n"))
		if (!strncasecmp(l + 2, name, n) && l[2 + n] == ':')
			return l + 3 + n + strspn(l + 3 + n, " \t");
	return NULL;
}

static int gunzip(const char *in, size_t len, struct buf *out)
{
	z_stream z = { 0 };
	unsigned char chunk[65536];
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	int rc;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof chunk;
		rc = inflate(&z, Z_NO_FLUSH);
		if ((rc != Z_OK && rc != Z_STREAM_END) || buf_add(out, chunk, sizeof chunk - z.avail_out) < 0 ||
		    out->len > MAX_BODY) {
			inflateEnd(&z);
			return -1;
		}
	} while (rc != Z_STREAM_END);
	inflateEnd(&z);
	return 0;
}

/* The HTTP interface's own parameters: not settings of the statement. */
static int http_only(const char *key)
{
	static const char *const keys[] = { "query",	     "database", "user",	  "password",
					    "wait_end_of_query", "enable_http_compression", "default_format",
					    "query_id",	     "session_id", "session_timeout", "compress",
					    "decompress",	     "buffer_size", "quota_key",	  NULL };
	for (int i = 0; keys[i]; i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The connection of settings @p kv (n "key=value" strings, sorted here); NULL with the reason in @p why. */
static struct conn *conn_for(char **kv, int n, char *why, size_t whylen)
{
	qsort(kv, (size_t)n, sizeof *kv, cmp_str);
	struct buf key = { 0 };
	for (int i = 0; i < n; i++)
		if ((i && buf_add(&key, "&", 1) < 0) || buf_add(&key, kv[i], strlen(kv[i])) < 0)
			goto nomem;
	const char *k = key.p ? key.p : "";
	int free_slot = -1;
	for (int i = 0; i < MAX_CONNS; i++) {
		if (conns[i].c && !strcmp(conns[i].settings, k)) {
			free(key.p);
			return &conns[i];
		}
		if (!conns[i].c && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0) {
		snprintf(why, whylen, "more than %d sets of settings", MAX_CONNS);
		free(key.p);
		return NULL;
	}
	char **argv = calloc((size_t)n + 3, sizeof *argv);
	char path[4096];
	snprintf(path, sizeof path, "--path=%s", data_dir);
	if (!argv)
		goto nomem;
	argv[0] = "chdb_http";
	argv[1] = path;
	for (int i = 0; i < n; i++)
		if (asprintf(&argv[i + 2], "--%s", kv[i]) < 0)
			argv[i + 2] = NULL;
	struct conn *c = &conns[free_slot];
	c->c = api.connect(n + 2, argv);
	for (int i = 0; i < n; i++)
		free(argv[i + 2]);
	free(argv);
	if (!c->c) {
		snprintf(why, whylen, "the engine refused the settings '%s'", k);
		free(key.p);
		return NULL;
	}
	c->settings = key.p ? key.p : strdup("");
	c->database = strdup("default");
	return c;
nomem:
	free(key.p);
	snprintf(why, whylen, "out of memory");
	return NULL;
}

/* Run @p sql (with @p data: an INSERT ... FORMAT F whose rows are @p data) on @p c; answers the client. */
static void run(int fd, struct conn *c, const char *database, char *sql, const struct buf *data, int gzip)
{
	char why[512];
	if (strcmp(c->database, database)) {
		char use[600];
		snprintf(use, sizeof use, "USE `%s`", database);
		chdb_result *r = api.query_n(*c->c, use, strlen(use), "TabSeparated", 12);
		const char *e = api.result_error(r);
		if (e) {
			reply_error(fd, 500, "%s", e);
			api.destroy_result(r);
			return;
		}
		api.destroy_result(r);
		free(c->database);
		c->database = strdup(database);
	}
	if (!data->len) {
		chdb_result *r = api.query_n(*c->c, sql, strlen(sql), "TabSeparated", 12);
		const char *e = api.result_error(r);
		if (e)
			reply_error(fd, 500, "%s", e);
		else
			reply(fd, 200, api.result_buffer(r), api.result_length(r), gzip);
		api.destroy_result(r);
		return;
	}
	/* the statement's last two words are FORMAT and the rows' format */
	size_t end = strlen(sql);
	while (end && strchr(" \t\r\n;", sql[end - 1]))
		end--;
	size_t f = end;
	while (f && !strchr(" \t\r\n", sql[f - 1]))
		f--;
	size_t kw = f;
	while (kw && strchr(" \t\r\n", sql[kw - 1]))
		kw--;
	if (kw < 6 || strncasecmp(sql + kw - 6, "FORMAT", 6) || f == end) {
		reply_error(fd, 400, "Code: 62. DB::Exception: a statement with rows in the body must end with FORMAT name");
		return;
	}
	char format[64];
	snprintf(format, sizeof format, "%.*s", (int)(end - f), sql + f);
	chdb_insert_stream s = api.stream_insert_n(*c->c, sql, kw - 6, format, strlen(format));
	const char *e = api.stream_insert_error(s);
	chdb_result *r = NULL;
	if (!e && api.stream_append(s, data->p, data->len) != 0)
		e = api.stream_insert_error(s);
	if (!e) {
		r = api.stream_done(s);
		e = api.result_error(r);
	}
	if (e) {
		snprintf(why, sizeof why, "%s", e);
		reply_error(fd, 500, "%s", why);
	} else {
		reply(fd, 200, "", 0, 0);
	}
	if (r)
		api.destroy_result(r);
	api.destroy_insert_stream(s);
}

static void serve(int fd)
{
	struct timeval tv = { .tv_sec = 60 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	struct buf in = { 0 }, plain = { 0 };
	char chunk[65536], *head_end = NULL;
	while (!head_end) {
		ssize_t n = recv(fd, chunk, sizeof chunk, 0);
		if (n <= 0 || buf_add(&in, chunk, (size_t)n) < 0 || in.len > MAX_HEAD + sizeof chunk)
			goto out;
		head_end = strstr(in.p, "\r\n\r\n");
	}
	*head_end = 0;
	size_t head_len = (size_t)(head_end - in.p) + 4;
	const char *cl = header(in.p, "Content-Length"), *ce = header(in.p, "Content-Encoding"),
		   *ae = header(in.p, "Accept-Encoding"), *ex = header(in.p, "Expect");
	if (header(in.p, "Transfer-Encoding")) {
		reply_error(fd, 411, "Code: 1001. a chunked body is not served here: give Content-Length");
		goto out;
	}
	size_t body_len = cl ? strtoull(cl, NULL, 10) : 0;
	if (body_len > MAX_BODY) {
		reply_error(fd, 413, "Code: 1001. a body of more than %zu bytes", MAX_BODY);
		goto out;
	}
	if (ex && !strncasecmp(ex, "100-continue", 12))
		send(fd, "HTTP/1.1 100 Continue\r\n\r\n", 25, MSG_NOSIGNAL);
	/* what the headers say, before reading the body moves them */
	int gzip_body = ce && !strncasecmp(ce, "gzip", 4), accepts_gzip = ae && strstr(ae, "gzip");
	while (in.len - head_len < body_len) {
		ssize_t n = recv(fd, chunk, sizeof chunk, 0);
		if (n <= 0 || buf_add(&in, chunk, (size_t)n) < 0)
			goto out;
	}
	char *body = in.p + head_len;
	size_t blen = body_len;
	if (gzip_body) {
		if (gunzip(body, blen, &plain) < 0) {
			reply_error(fd, 400, "Code: 354. DB::Exception: the gzip body does not inflate");
			goto out;
		}
		body = plain.p;
		blen = plain.len;
	}

	/* "POST /?a=1&b=2 HTTP/1.1" */
	char *target = strchr(in.p, ' ');
	char *q = target ? strchr(target + 1, '?') : NULL;
	char *sp = target ? strchr(target + 1, ' ') : NULL;
	if (!target || !sp) {
		reply_error(fd, 400, "Code: 1001. not an HTTP request");
		goto out;
	}
	*sp = 0;
	char *query = NULL, *database = "default", *kv[64];
	int nkv = 0, gzip_answer = 0;
	for (char *save = NULL, *p = q ? strtok_r(q + 1, "&", &save) : NULL; p; p = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(p, '=');
		if (eq)
			*eq = 0;
		url_decode(p);
		char *value = eq ? eq + 1 : "";
		url_decode(value);
		if (!strcmp(p, "query"))
			query = value;
		else if (!strcmp(p, "database"))
			database = value;
		else if (!strcmp(p, "enable_http_compression"))
			gzip_answer = !strcmp(value, "1");
		else if (!http_only(p) && nkv < 64) {
			if (eq)
				*eq = '=';
			kv[nkv++] = p; /* "key=value", decoded */
		}
	}
	gzip_answer = gzip_answer && accepts_gzip;
	char why[512];
	struct conn *c = conn_for(kv, nkv, why, sizeof why);
	if (!c) {
		reply_error(fd, 500, "Code: 115. DB::Exception: %s", why);
		goto out;
	}
	struct buf sql = { 0 }, data = { 0 };
	if (query) {
		buf_add(&sql, query, strlen(query));
		if (blen)
			buf_add(&data, body, blen);
	} else {
		buf_add(&sql, body, blen);
	}
	if (!sql.len)
		reply_error(fd, 400, "Code: 62. DB::Exception: Empty query. (SYNTAX_ERROR)");
	else
		run(fd, c, database, sql.p, &data, gzip_answer);
	free(sql.p);
	free(data.p);
out:
	free(in.p);
	free(plain.p);
}

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: chdb_http LIBCHDB DATA_DIR PORT_FILE\n");
		return 64;
	}
	data_dir = argv[2];
	void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "chdb_http: %s\n", dlerror());
		return 69;
	}
	struct {
		void **fn;
		const char *name;
	} syms[] = {
		{ (void **)&api.connect, "chdb_connect" },
		{ (void **)&api.close_conn, "chdb_close_conn" },
		{ (void **)&api.query_n, "chdb_query_n" },
		{ (void **)&api.result_buffer, "chdb_result_buffer" },
		{ (void **)&api.result_length, "chdb_result_length" },
		{ (void **)&api.result_error, "chdb_result_error" },
		{ (void **)&api.destroy_result, "chdb_destroy_query_result" },
		{ (void **)&api.stream_insert_n, "chdb_stream_insert_n" },
		{ (void **)&api.stream_append, "chdb_stream_append" },
		{ (void **)&api.stream_done, "chdb_stream_done" },
		{ (void **)&api.stream_insert_error, "chdb_stream_insert_error" },
		{ (void **)&api.destroy_insert_stream, "chdb_destroy_insert_stream" },
	};
	for (size_t i = 0; i < sizeof syms / sizeof *syms; i++)
		if (!(*syms[i].fn = dlsym(lib, syms[i].name))) {
			fprintf(stderr, "chdb_http: %s has no %s\n", argv[1], syms[i].name);
			return 69;
		}

	int ls = socket(AF_INET, SOCK_STREAM, 0);
	int one = 1;
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof a;
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 64) < 0 ||
	    getsockname(ls, (struct sockaddr *)&a, &alen) < 0) {
		fprintf(stderr, "chdb_http: listening on 127.0.0.1: %s\n", strerror(errno));
		return 69;
	}
	/* the first connection boots the engine: before the port is announced */
	char why[512];
	if (!conn_for(NULL, 0, why, sizeof why)) {
		fprintf(stderr, "chdb_http: %s: %s\n", data_dir, why);
		return 69;
	}
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[3]);
	FILE *pf = fopen(tmp, "w");
	if (!pf || fprintf(pf, "%d\n", ntohs(a.sin_port)) < 0 || fclose(pf) != 0 || rename(tmp, argv[3]) < 0) {
		fprintf(stderr, "chdb_http: %s: %s\n", argv[3], strerror(errno));
		return 74;
	}
	struct sigaction sa = { .sa_handler = on_signal }; /* no SA_RESTART: accept() returns on the signal */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	while (!stopping) {
		int fd = accept(ls, NULL, NULL);
		if (fd < 0)
			continue;
		serve(fd);
		close(fd);
	}
	close(ls);
	for (int i = 0; i < MAX_CONNS; i++)
		if (conns[i].c) {
			api.close_conn(conns[i].c);
			free(conns[i].settings);
			free(conns[i].database);
		}
	return 0;
}
