/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The session with a ClickHouse server: its URL taken apart (credentials
 * kept out of every URL libcurl sees, so no message can carry them), and the
 * three kinds of request the rest needs -- a statement, a SELECT whose
 * output is read, an INSERT whose rows are the gzip-compressed body.
 * ClickHouse's HTTP interface: the statement is the POST body, or the
 * `query` parameter when the body holds the rows; settings are parameters.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_internal.h"
#include "util/grow.h"

int ch_buf_reserve(struct ch_buf *b, size_t more)
{
	char *p = util_grow(b->p, &b->cap, b->len + more, 1);
	if (!p)
		return -spe_nomem;
	b->p = p;
	return 0;
}

int ch_buf_add(struct ch_buf *b, const void *data, size_t n)
{
	if (ch_buf_reserve(b, n + 1) < 0)
		return -spe_nomem;
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = 0; /* responses are read as text */
	return 0;
}

void ch_buf_fini(struct ch_buf *b)
{
	free(b->p);
	*b = (struct ch_buf){ 0 };
}

int ch_fail(struct spe_ch *ch, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ch->err, sizeof ch->err, fmt, ap);
	va_end(ap);
	return code;
}

const char *spe_ch_errmsg(const struct spe_ch *ch)
{
	return ch ? ch->err : "";
}

const char *spe_ch_name(const struct spe_ch *ch)
{
	return ch ? ch->name : "";
}

static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

/*
 * Settings a URL may not pass, by their decoded name (the server decodes
 * them: "qu%65ry" is query): what the session decides itself, and what would
 * cut or change an answer without an error -- an overflow mode of break or
 * any (a LIMIT no one asked for), shards skipped, rows added to the answer or
 * its text written another way than the one spekit reads.  The reason, or
 * NULL for a setting passed on.
 */
static const char *refused_setting(const char *key)
{
	static const struct {
		const char *key, *why;
		int prefix;
	} refused[] = {
		{ "query", "it would replace every statement", 0 },
		{ "readonly", "spekit sets it: readonly=1 for spe-query and spe-report", 0 },
		{ "default_format", "spekit names the format of each answer", 0 },
		{ "session_id", "spekit keeps no server session", 0 },
		{ "extremes", "it adds rows to the answer", 0 },
		{ "skip_unavailable_shards", "it answers without the shards that are down, without an error", 0 },
		{ "_overflow_mode", "break or any cuts an answer short without an error", 1 },
		{ "output_format_", "spekit reads the answer's text as the server writes it by default", 2 },
		{ "format_tsv_", "spekit reads the answer's text as the server writes it by default", 2 },
	};
	size_t n = strlen(key);
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		size_t k = strlen(refused[i].key);
		if (refused[i].prefix == 0 ? !strcmp(key, refused[i].key)
		    : refused[i].prefix == 1 ? n >= k && !strcmp(key + n - k, refused[i].key)
					     : !strncmp(key, refused[i].key, k))
			return refused[i].why;
	}
	return NULL;
}

/*
 * The URL's parameters, decoded: database= is the database, user= and
 * password= credentials, the rest settings, passed on encoded again from
 * the decoded names and values checked here (so the server reads what was
 * checked).  -spe_invalid for a setting refused_setting() names.
 */
static int take_params(struct spe_ch *ch, const char *query)
{
	struct ch_buf settings = { 0 };
	char *copy = strdup(query ? query : "");
	size_t copy_len = copy ? strlen(copy) : 0;
	if (!copy)
		return ch_fail(ch, -spe_nomem, "out of memory");
	int rc = 0;
	for (char *save = NULL, *p = strtok_r(copy, "&", &save); p && rc == 0; p = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(p, '=');
		if (eq)
			*eq = 0;
		char *key = curl_easy_unescape(ch->curl, p, 0, NULL);
		char *value = curl_easy_unescape(ch->curl, eq ? eq + 1 : "", 0, NULL);
		char *ekey = key ? curl_easy_escape(ch->curl, key, 0) : NULL;
		char *evalue = value ? curl_easy_escape(ch->curl, value, 0) : NULL;
		const char *why = key ? refused_setting(key) : NULL;
		char **dst = !key ? NULL : !strcmp(key, "database") ? &ch->database : !strcmp(key, "user") ? &ch->user
						   : !strcmp(key, "password") ? &ch->password : NULL;
		if (!key || !value || !ekey || !evalue) {
			rc = ch_fail(ch, -spe_nomem, "out of memory");
		} else if (dst) {
			free(*dst);
			*dst = dup_or_null(value);
		} else if (why) {
			rc = ch_fail(ch, -spe_invalid, "the ClickHouse URL's parameter '%s' is not passed to the server: %s", key,
				     why);
		} else if ((settings.len && ch_buf_add(&settings, "&", 1) < 0) || ch_buf_add(&settings, ekey, strlen(ekey)) < 0 ||
			   ch_buf_add(&settings, "=", 1) < 0 || ch_buf_add(&settings, evalue, strlen(evalue)) < 0) {
			rc = ch_fail(ch, -spe_nomem, "out of memory");
		}
		if (value && evalue && dst) /* a password is not left in freed memory */
			memset(value, 0, strlen(value)), memset(evalue, 0, strlen(evalue));
		curl_free(key);
		curl_free(value);
		curl_free(ekey);
		curl_free(evalue);
	}
	memset(copy, 0, copy_len);
	free(copy);
	ch->settings = settings.p; /* NULL when there were none */
	return rc;
}

/* Take @p url apart into ch's fields; the message never repeats the URL (it may hold a password). */
static int parse_url(struct spe_ch *ch, const char *url)
{
	CURLU *u = curl_url();
	if (!u)
		return ch_fail(ch, -spe_nomem, "out of memory");
	int rc = 0;
	if (curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK) {
		rc = ch_fail(ch, -spe_invalid, "the ClickHouse URL does not parse (expected http://host:8123/?database=NAME)");
		goto out;
	}
	char *scheme = NULL, *host = NULL, *user = NULL, *password = NULL, *query = NULL;
	curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
	curl_url_get(u, CURLUPART_HOST, &host, 0);
	curl_url_get(u, CURLUPART_USER, &user, CURLU_URLDECODE);
	curl_url_get(u, CURLUPART_PASSWORD, &password, CURLU_URLDECODE);
	curl_url_get(u, CURLUPART_QUERY, &query, 0);
	if (!scheme || (strcmp(scheme, "http") && strcmp(scheme, "https")) || !host || !*host) {
		rc = ch_fail(ch, -spe_invalid, "the ClickHouse URL must be http:// or https:// with a host");
	} else {
		/* ClickHouse's HTTP port unless the URL names one (libcurl would default to 80/443) */
		char *given = NULL;
		int has_port = curl_url_get(u, CURLUPART_PORT, &given, 0) == CURLUE_OK;
		ch->scheme = strdup(scheme);
		ch->host = strdup(host);
		ch->port = strdup(has_port ? given : !strcmp(scheme, "https") ? "8443" : "8123");
		ch->user = dup_or_null(user);
		ch->password = dup_or_null(password);
		curl_free(given);
		if (!ch->scheme || !ch->host || !ch->port || (user && *user && !ch->user))
			rc = ch_fail(ch, -spe_nomem, "out of memory");
		else
			rc = take_params(ch, query);
	}
	curl_free(scheme);
	curl_free(host);
	curl_free(user);
	curl_free(password);
	curl_free(query);
out:
	curl_url_cleanup(u);
	return rc;
}

/* The answer, held whole; past ch->max_answer bytes (decompressed) the transfer stops. */
static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
	struct spe_ch *ch = arg;
	if (ch->resp.len + size * n > ch->max_answer) {
		ch->too_big = 1;
		return 0;
	}
	return ch_buf_add(&ch->resp, data, size * n) < 0 ? 0 : size * n;
}

/* libcurl's progress callback: a non-zero return aborts the transfer (Ctrl-C). */
static int on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
	(void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	const struct spe_ch *ch = arg;
	return ch->cancel && *ch->cancel;
}

static int setup(struct spe_ch *ch)
{
	static int global_done;
	if (!global_done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		global_done = 1;
	}
	ch->curl = curl_easy_init();
	return ch->curl ? 0 : ch_fail(ch, -spe_nomem, "out of memory");
}

static void set_name(struct spe_ch *ch)
{
	int v6 = strchr(ch->host, ':') != NULL;
	snprintf(ch->name, sizeof ch->name, "%s://%s%s%s:%s database %s", ch->scheme, v6 ? "[" : "", ch->host,
		 v6 ? "]" : "", ch->port, ch->database);
}

/* The source ids of one host and/or one source, as an SQL subquery (host quoted as a string literal). */
static int make_scope(struct spe_ch *ch, const char *host, long long source_id)
{
	struct ch_buf b = { 0 };
	char num[64];
	int rc = ch_buf_add(&b, "(SELECT id FROM source WHERE 1", 30);
	if (rc == 0 && host) {
		rc = ch_buf_add(&b, " AND host = '", 13);
		for (const char *p = host; rc == 0 && *p; p++) {
			if (*p == '\\' || *p == '\'')
				rc = ch_buf_add(&b, "\\", 1);
			if (rc == 0)
				rc = ch_buf_add(&b, p, 1);
		}
		if (rc == 0)
			rc = ch_buf_add(&b, "'", 1);
	}
	if (rc == 0 && source_id) {
		snprintf(num, sizeof num, " AND id = %lld", source_id);
		rc = ch_buf_add(&b, num, strlen(num));
	}
	if (rc == 0)
		rc = ch_buf_add(&b, ")", 1);
	if (rc < 0) {
		ch_buf_fini(&b);
		return ch_fail(ch, -spe_nomem, "out of memory");
	}
	ch->scope = b.p;
	return 0;
}

int spe_ch_open(const struct spe_ch_opts *opts, struct spe_ch **out, char *err, size_t errlen)
{
	*out = NULL;
	struct spe_ch *ch = calloc(1, sizeof *ch);
	if (!ch) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	struct spe_ch_opts o = { 0 };
	if (opts)
		o = *opts;
	int rc = setup(ch);
	if (rc == 0 && !o.url)
		rc = ch_fail(ch, -spe_invalid, "no ClickHouse URL");
	if (rc == 0)
		rc = parse_url(ch, o.url);
	if (rc == 0) {
		const char *eu = getenv("SPE_CLICKHOUSE_USER"), *ep = getenv("SPE_CLICKHOUSE_PASSWORD");
		if (!ch->user && eu && *eu && !(ch->user = strdup(eu)))
			rc = -spe_nomem;
		if (!ch->password && ep && *ep && !(ch->password = strdup(ep)))
			rc = -spe_nomem;
		if (!ch->database && !(ch->database = strdup(SPE_CH_DEFAULT_DATABASE)))
			rc = -spe_nomem;
		if (o.cluster && !(ch->cluster = strdup(o.cluster)))
			rc = -spe_nomem;
		if (o.cluster_http && *o.cluster_http && !(ch->cluster_http = strdup(o.cluster_http)))
			rc = -spe_nomem;
		if (rc < 0)
			ch_fail(ch, rc, "out of memory");
	}
	if (rc == 0) {
		/* names are spliced into SQL: plain identifiers only */
		const char *names[] = { ch->database, ch->cluster };
		for (int i = 0; i < 2 && rc == 0; i++)
			if (names[i] && (!*names[i] || strspn(names[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
								       "0123456789_") != strlen(names[i])))
				rc = ch_fail(ch, -spe_invalid, "%s '%s': use letters, digits and _",
					     i ? "cluster" : "database", names[i]);
	}
	if (rc == 0 && (o.host || o.source_id))
		rc = make_scope(ch, o.host, o.source_id);
	if (rc < 0) {
		snprintf(err, errlen, "%s", ch->err);
		spe_ch_close(ch);
		return rc;
	}
	ch->readonly = o.readonly;
	ch->replace = o.replace;
	ch->timeout_s = o.timeout_s;
	ch->cancel = o.cancel;
	ch->max_answer = o.max_result_bytes ? o.max_result_bytes : SPE_CH_DEFAULT_MAX_RESULT;
	set_name(ch);
	*out = ch;
	return 0;
}

int ch_open_host(const struct spe_ch *proto, const char *host, const char *port, struct spe_ch **out)
{
	struct spe_ch *ch = calloc(1, sizeof *ch);
	if (!ch)
		return -spe_nomem;
	int rc = setup(ch);
	ch->scheme = strdup(proto->scheme);
	ch->host = strdup(host);
	ch->port = strdup(port);
	ch->user = proto->user ? strdup(proto->user) : NULL;
	ch->password = proto->password ? strdup(proto->password) : NULL;
	ch->database = strdup(proto->database);
	ch->settings = proto->settings ? strdup(proto->settings) : NULL;
	ch->cluster = proto->cluster ? strdup(proto->cluster) : NULL;
	if (rc < 0 || !ch->scheme || !ch->host || !ch->port || !ch->database || (proto->user && !ch->user) ||
	    (proto->password && !ch->password) || (proto->settings && !ch->settings) || (proto->cluster && !ch->cluster)) {
		spe_ch_close(ch);
		return -spe_nomem;
	}
	ch->readonly = proto->readonly;
	ch->timeout_s = proto->timeout_s;
	ch->cancel = proto->cancel;
	ch->max_answer = proto->max_answer;
	set_name(ch);
	*out = ch;
	return 0;
}

void spe_ch_close(struct spe_ch *ch)
{
	if (!ch)
		return;
	if (ch->curl)
		curl_easy_cleanup(ch->curl);
	if (ch->password) /* not left in freed memory */
		memset(ch->password, 0, strlen(ch->password));
	free(ch->scheme);
	free(ch->host);
	free(ch->port);
	free(ch->user);
	free(ch->password);
	free(ch->database);
	free(ch->settings);
	free(ch->cluster);
	free(ch->cluster_http);
	free(ch->scope);
	ch_buf_fini(&ch->resp);
	free(ch);
}

/*
 * The code of a refusal, from the server's error code ("Code: 164, ..."):
 * -spe_no_permission for a session that may not do it (readonly, unknown
 * user, wrong password, address or access not allowed), -spe_unavailable
 * when the server could not reach another server of the cluster (a shard
 * down, the network cut: the statement is fine, the cluster is not),
 * -spe_bad_input for any other statement the server refused.
 */
static int refusal_code(const char *m)
{
	static const int denied[] = { 164, 192, 193, 194, 195, 497, 516 }; /* ErrorCodes.cpp of ClickHouse */
	/* SOCKET_TIMEOUT, NETWORK_ERROR, ALL_CONNECTION_TRIES_FAILED, TOO_FEW_LIVE_REPLICAS */
	static const int unreachable[] = { 209, 210, 279, 285 };
	const char *c = strstr(m, "Code: ");
	int code = c ? atoi(c + 6) : 0;
	for (size_t i = 0; i < sizeof denied / sizeof *denied; i++)
		if (code == denied[i])
			return -spe_no_permission;
	for (size_t i = 0; i < sizeof unreachable / sizeof *unreachable; i++)
		if (code == unreachable[i])
			return -spe_unavailable;
	/* a connection to another server lost mid-answer: ATTEMPT_TO_READ_AFTER_EOF "while receiving packet from" it */
	if (code == 32 && strstr(m, "while receiving packet from"))
		return -spe_unavailable;
	return -spe_bad_input;
}

/* The server's message without its wrapping ("Code: 60, e.displayText() = DB::Exception: ..., e.what() = ..."). */
static int server_message(struct spe_ch *ch, long status)
{
	const char *m = ch->resp.len ? ch->resp.p : "";
	int rc = status == 401 || status == 403 ? -spe_no_permission : refusal_code(m);
	const char *d = strstr(m, "e.displayText() = ");
	if (d)
		m = d + strlen("e.displayText() = ");
	int len = (int)strcspn(m, "\n");
	const char *w = strstr(m, ", e.what() = ");
	if (w && w - m < len)
		len = (int)(w - m);
	if (len > 600)
		len = 600;
	ch_fail(ch, rc, "%s: %.*s%s", ch->name, len, m, len ? "" : "HTTP error");
	if (!len)
		snprintf(ch->err + strlen(ch->err), sizeof ch->err - strlen(ch->err), " %ld", status);
	return rc;
}

/*
 * POST @p body to the server with the statement @p query_param in the URL
 * (NULL: the body is the statement) and @p extra settings.  The response is
 * in ch->resp.
 */
static int request(struct spe_ch *ch, const char *query_param, const void *body, size_t len, int gzip,
		   const char *extra, int use_db)
{
	struct ch_buf url = { 0 };
	char *q = query_param ? curl_easy_escape(ch->curl, query_param, 0) : NULL;
	int v6 = strchr(ch->host, ':') != NULL;
	char head[512];
	snprintf(head, sizeof head, "%s://%s%s%s:%s/?database=%s", ch->scheme, v6 ? "[" : "", ch->host, v6 ? "]" : "",
		 ch->port, use_db ? ch->database : "system");
	int rc = ch_buf_add(&url, head, strlen(head));
	const char *parts[] = { ch->settings, ch->readonly ? "readonly=1" : NULL, extra };
	for (int i = 0; i < 3 && rc == 0; i++)
		if (parts[i] && *parts[i] && (rc = ch_buf_add(&url, "&", 1)) == 0)
			rc = ch_buf_add(&url, parts[i], strlen(parts[i]));
	if (rc == 0 && query_param && (!q || (rc = ch_buf_add(&url, "&query=", 7)) < 0 || ch_buf_add(&url, q, strlen(q)) < 0))
		rc = -spe_nomem;
	curl_free(q);
	if (rc < 0) {
		ch_buf_fini(&url);
		return ch_fail(ch, -spe_nomem, "out of memory");
	}

	CURL *c = ch->curl;
	curl_easy_reset(c);
	char curl_err[CURL_ERROR_SIZE] = "";
	struct curl_slist *headers = NULL;
	headers = curl_slist_append(headers, "Content-Type: application/octet-stream");
	if (gzip)
		headers = curl_slist_append(headers, "Content-Encoding: gzip");
	curl_easy_setopt(c, CURLOPT_URL, url.p);
	curl_easy_setopt(c, CURLOPT_POST, 1L);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_err);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, ch);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, ""); /* gzip responses, with enable_http_compression */
	if (ch->timeout_s > 0)
		curl_easy_setopt(c, CURLOPT_TIMEOUT, ch->timeout_s);
	if (ch->cancel) {
		curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
		curl_easy_setopt(c, CURLOPT_XFERINFODATA, ch);
		curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	}
	if (ch->user) {
		curl_easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		curl_easy_setopt(c, CURLOPT_USERNAME, ch->user);
		curl_easy_setopt(c, CURLOPT_PASSWORD, ch->password ? ch->password : "");
	}
	ch->resp.len = 0;
	if (ch->resp.p)
		ch->resp.p[0] = 0;
	ch->too_big = 0;
	CURLcode cc = curl_easy_perform(c);
	long status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(headers);
	ch_buf_fini(&url);
	if (cc == CURLE_ABORTED_BY_CALLBACK)
		return ch_fail(ch, -spe_cancelled, "%s: interrupted", ch->name);
	if (cc == CURLE_WRITE_ERROR && ch->too_big)
		return ch_fail(ch, -spe_unsupported,
			       "%s: the answer is larger than %zu bytes, the most spekit holds in memory "
			       "(SPE_CLICKHOUSE_MAX_RESULT raises it; a LIMIT or an aggregate makes the answer smaller)",
			       ch->name, ch->max_answer);
	if (cc == CURLE_OPERATION_TIMEDOUT && ch->timeout_s > 0)
		return ch_fail(ch, -spe_unavailable, "%s: no answer within %ld seconds", ch->name, ch->timeout_s);
	if (cc != CURLE_OK)
		return ch_fail(ch, -spe_unavailable, "%s: %s", ch->name, *curl_err ? curl_err : curl_easy_strerror(cc));
	if (status != 200)
		return server_message(ch, status);
	return 0;
}

int ch_exec(struct spe_ch *ch, const char *sql)
{
	return request(ch, NULL, sql, strlen(sql), 0, NULL, 1);
}

int ch_exec_server(struct spe_ch *ch, const char *sql)
{
	return request(ch, NULL, sql, strlen(sql), 0, NULL, 0);
}

int ch_select(struct spe_ch *ch, const char *sql)
{
	return request(ch, NULL, sql, strlen(sql), 0, "wait_end_of_query=1&enable_http_compression=1", 1);
}

int ch_select_server(struct spe_ch *ch, const char *sql)
{
	return request(ch, NULL, sql, strlen(sql), 0, "wait_end_of_query=1&enable_http_compression=1", 0);
}

static int select_int(struct spe_ch *ch, const char *sql, long long *value, int use_db)
{
	*value = 0;
	int rc = request(ch, NULL, sql, strlen(sql), 0, "wait_end_of_query=1", use_db);
	if (rc == 0 && ch->resp.len)
		*value = strtoll(ch->resp.p, NULL, 10);
	return rc;
}

int ch_select_int(struct spe_ch *ch, const char *sql, long long *value)
{
	return select_int(ch, sql, value, 1);
}

int ch_select_int_server(struct spe_ch *ch, const char *sql, long long *value)
{
	return select_int(ch, sql, value, 0);
}

int ch_insert(struct spe_ch *ch, const char *insert, const void *body, size_t len)
{
	const char *wait;
	int rc = ch_insert_wait_setting(ch, &wait);
	return rc < 0 ? rc : request(ch, insert, body, len, 1, wait, 1);
}
