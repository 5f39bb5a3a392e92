/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where spe-load reaches each server of a cluster over HTTP, to create its
 * tables there (docs/scaling-out.md, "Pointing at an existing cluster").
 * The servers are the cluster's in system.clusters (host_name and
 * host_address); system.clusters gives their TCP port only, so each
 * server's HTTP port is the one spe_ch_opts.cluster_http gives for it --
 * "HOST:PORT" for one server (by name or address), ":PORT" for every other
 * -- or else the URL's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch_internal.h"

/* One entry of cluster_http: "host:port", "[v6]:port" or ":port" (host ""). 0, or -spe_invalid. */
static int parse_entry(const char *e, size_t n, char *host, size_t hostlen, char *port)
{
	const char *colon = NULL;
	if (n && e[0] == '[') {
		const char *close = memchr(e, ']', n);
		colon = close && close + 1 < e + n && close[1] == ':' ? close + 1 : NULL;
		if (colon && (size_t)(close - e - 1) < hostlen)
			snprintf(host, hostlen, "%.*s", (int)(close - e - 1), e + 1);
		else
			colon = NULL;
	} else {
		for (const char *p = e; p < e + n; p++)
			if (*p == ':')
				colon = p;
		if (colon && (size_t)(colon - e) < hostlen)
			snprintf(host, hostlen, "%.*s", (int)(colon - e), e);
		else
			colon = NULL;
	}
	size_t plen = colon ? (size_t)(e + n - colon - 1) : 0;
	if (!colon || plen < 1 || plen > 5 || strspn(colon + 1, "0123456789") < plen)
		return -spe_invalid;
	snprintf(port, 6, "%.*s", (int)plen, colon + 1);
	long v = atol(port);
	return v >= 1 && v <= 65535 ? 0 : -spe_invalid;
}

/*
 * The HTTP port cluster_http gives server (@p name, @p address): its own
 * entry, else the ":PORT" entry, else NULL.  Entries matched are marked in
 * @p used.
 */
static int port_for(const char *list, const char *name, const char *address, char *port, char *used)
{
	int found = 0, k = 0;
	char deflt[6] = "";
	for (const char *e = list; e && *e; k++) {
		size_t n = strcspn(e, ",");
		char host[256], p[6];
		if (parse_entry(e, n, host, sizeof host, p) == 0) {
			if (!*host) {
				snprintf(deflt, sizeof deflt, "%s", p);
			} else if (!strcmp(host, name) || !strcmp(host, address)) {
				snprintf(port, 6, "%s", p);
				used[k] = 1;
				found = 1;
			}
		}
		e += n + (e[n] == ',');
	}
	if (!found && *deflt) {
		snprintf(port, 6, "%s", deflt);
		found = 1;
	}
	return found;
}

static int check_list(struct spe_ch *ch, size_t *entries)
{
	*entries = 0;
	for (const char *e = ch->cluster_http; e && *e; ++*entries) {
		size_t n = strcspn(e, ",");
		char host[256], port[6];
		if (parse_entry(e, n, host, sizeof host, port) < 0)
			return ch_fail(ch, -spe_invalid,
				       "--cluster-http: '%.*s' is not HOST:PORT, [IPV6]:PORT or :PORT (every other server)",
				       (int)n, e);
		e += n + (e[n] == ',');
	}
	return 0;
}

void ch_endpoints_free(struct ch_endpoint *e, size_t n)
{
	for (size_t i = 0; e && i < n; i++) {
		free(e[i].name);
		free(e[i].address);
		free(e[i].port);
	}
	free(e);
}

int ch_cluster_endpoints(struct spe_ch *ch, struct ch_endpoint **out, size_t *count)
{
	*out = NULL;
	*count = 0;
	size_t entries;
	int rc = check_list(ch, &entries);
	if (rc < 0)
		return rc;
	char sql[256];
	snprintf(sql, sizeof sql,
		 "SELECT DISTINCT host_name, host_address FROM system.clusters WHERE cluster = '%s' FORMAT TabSeparated",
		 ch->cluster);
	if ((rc = ch_select_server(ch, sql)) < 0)
		return rc;
	size_t n = 0;
	for (const char *p = ch->resp.p; p && *p; p++)
		n += *p == '\n';
	if (n == 0)
		return ch_fail(ch, -spe_invalid,
			       "%s has no cluster '%s' in its <remote_servers> (SELECT cluster FROM system.clusters lists them)",
			       ch->name, ch->cluster);
	struct ch_endpoint *e = calloc(n, sizeof *e);
	char *used = calloc(entries + 1, 1);
	if (!e || !used) {
		free(e);
		free(used);
		return ch_fail(ch, -spe_nomem, "out of memory");
	}
	size_t k = 0;
	for (char *save = NULL, *line = strtok_r(ch->resp.p, "\n", &save); line && k < n && rc == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = 0;
		char port[6];
		e[k].given = port_for(ch->cluster_http, line, tab + 1, port, used);
		e[k].name = strdup(line);
		e[k].address = strdup(tab + 1);
		e[k].port = strdup(e[k].given ? port : ch->port);
		if (!e[k].name || !e[k].address || !e[k].port)
			rc = ch_fail(ch, -spe_nomem, "out of memory");
		k++;
	}
	/* an entry naming no server of the cluster is a mistake to say, not to ignore */
	size_t i = 0;
	for (const char *s = ch->cluster_http; rc == 0 && s && *s; i++) {
		size_t len = strcspn(s, ",");
		if (s[0] != ':' && !used[i])
			rc = ch_fail(ch, -spe_invalid,
				     "--cluster-http: '%.*s' names no server of cluster '%s' (SELECT host_name, host_address "
				     "FROM system.clusters WHERE cluster = '%s' lists them)",
				     (int)len, s, ch->cluster, ch->cluster);
		s += len + (s[len] == ',');
	}
	free(used);
	if (rc < 0) {
		ch_endpoints_free(e, k);
		return rc;
	}
	*out = e;
	*count = k;
	return 0;
}
