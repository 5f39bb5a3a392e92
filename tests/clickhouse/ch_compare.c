/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ch_compare SPE_QUERY DB URL VIEW...: every row of each view from the
 * SQLite database DB and from the ClickHouse database at URL, both through
 * `spe-query --format=csv` (what a user reads), compared as multisets of
 * rows after the normalisations the two stores are allowed to differ by:
 *  - ids: ClickHouse's are random per capture, SQLite's count from 1, so
 *    id, mapping_id, insn_id, symbol_id and data_object_id columns (and the
 *    id lists symbol_ids, data_object_ids of the summaries) are dropped and
 *    source_id is replaced by the capture's host and file; loaded_at (the
 *    time of each load) is dropped too;
 *  - the order of names in a list (symbols, data_objects: group_concat's
 *    order is SQLite's scan order): sorted;
 *  - the order of rows (ties in ORDER BY): sorted.
 * Every other cell must be the same text.  Prints each view's row count and,
 * for a difference, the rows only one side has.  Exit 0 when all match.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table {
	int ncols;
	char **head;
	size_t nrows;
	char ***rows;
};

static char *run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (cap - len < 2) {
			char *more = realloc(buf, cap *= 2);
			if (!more) {
				free(buf);
				buf = NULL;
			}
			buf = more;
		}
	}
	int st = pclose(p);
	if (!buf || st != 0) {
		fprintf(stderr, "FAIL: %s (status %d)\n", cmd, st);
		free(buf);
		return NULL;
	}
	buf[len] = 0;
	return buf;
}

/* One RFC 4180 field at *p; advances past its separator.  *end set at the end of a record. */
static char *field(char **p, int *end)
{
	char *s = *p;
	size_t room = 1; /* an upper bound of the field's length: to the end of the line, or of a quoted field */
	if (*s == '"') {
		for (const char *q = s + 1; *q && !(q[0] == '"' && q[1] != '"'); q += q[0] == '"' ? 2 : 1)
			room += 1;
	} else {
		room += strcspn(s, ",\r\n");
	}
	char *out = malloc(room + 1), *o = out;
	if (*s == '"') {
		for (s++; *s; s++) {
			if (*s == '"' && s[1] == '"')
				*o++ = *s++;
			else if (*s == '"') {
				s++;
				break;
			} else
				*o++ = *s;
		}
	} else {
		while (*s && *s != ',' && *s != '\r' && *s != '\n')
			*o++ = *s++;
	}
	*o = 0;
	*end = *s != ',';
	if (*s == ',')
		s++;
	else if (*s == '\r')
		s += s[1] == '\n' ? 2 : 1;
	else if (*s == '\n')
		s++;
	*p = s;
	return out;
}

static int parse(char *csv, struct table *t)
{
	memset(t, 0, sizeof *t);
	char *p = csv;
	int end = 0;
	size_t cap = 0;
	while (*p) {
		char **row = NULL;
		int n = 0;
		do {
			row = realloc(row, (size_t)(n + 1) * sizeof *row);
			row[n++] = field(&p, &end);
		} while (!end);
		if (!t->head) {
			t->head = row;
			t->ncols = n;
			continue;
		}
		if (n != t->ncols)
			return -1;
		if (t->nrows == cap)
			t->rows = realloc(t->rows, (cap = cap ? 2 * cap : 64) * sizeof *t->rows);
		t->rows[t->nrows++] = row;
	}
	return t->head ? 0 : -1;
}

static void free_table(struct table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++)
			free(t->rows[r][c]);
		free(t->rows[r]);
	}
	for (int c = 0; t->head && c < t->ncols; c++)
		free(t->head[c]);
	free(t->head);
	free(t->rows);
	memset(t, 0, sizeof *t);
}

static void free_lines(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "b,a,c" -> "a,b,c" */
static char *sorted_list(const char *s)
{
	char *copy = strdup(s), *items[512];
	int n = 0;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && n < 512; tok = strtok_r(NULL, ",", &save))
		items[n++] = tok;
	qsort(items, (size_t)n, sizeof *items, cmp_str);
	char *out = calloc(1, strlen(s) + 2);
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(out, ",");
		strcat(out, items[i]);
	}
	free(copy);
	return out;
}

/* source id -> "host:file" of one store */
struct sources {
	size_t n;
	char **id, **name;
};

static const char *source_name(const struct sources *s, const char *id)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->id[i], id))
			return s->name[i];
	return id[0] ? "?unknown source" : "";
}

static int load_sources(const char *cmd, struct sources *s)
{
	char *csv = run(cmd);
	struct table t;
	if (!csv || parse(csv, &t) < 0 || t.ncols != 3)
		return -1;
	s->n = t.nrows;
	s->id = calloc(t.nrows, sizeof *s->id);
	s->name = calloc(t.nrows, sizeof *s->name);
	for (size_t i = 0; i < t.nrows; i++) {
		s->id[i] = strdup(t.rows[i][0]);
		s->name[i] = malloc(strlen(t.rows[i][1]) + strlen(t.rows[i][2]) + 2);
		sprintf(s->name[i], "%s:%s", t.rows[i][1], t.rows[i][2]);
	}
	free_table(&t);
	free(csv);
	return 0;
}

static void free_sources(struct sources *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->id[i]);
		free(s->name[i]);
	}
	free(s->id);
	free(s->name);
}

static int dropped(const char *col)
{
	return !strcmp(col, "id") || !strcmp(col, "loaded_at") || !strcmp(col, "mapping_id") || !strcmp(col, "insn_id") || !strcmp(col, "symbol_id") ||
	       !strcmp(col, "data_object_id") || !strcmp(col, "symbol_ids") || !strcmp(col, "data_object_ids");
}

/* Each row as one normalised line, sorted. */
static char **lines(const struct table *t, const struct sources *src)
{
	char **out = calloc(t->nrows + 1, sizeof *out);
	for (size_t r = 0; r < t->nrows; r++) {
		size_t cap = 256, len = 0;
		char *line = calloc(1, cap);
		for (int c = 0; c < t->ncols; c++) {
			const char *col = t->head[c], *v = t->rows[r][c];
			if (dropped(col))
				continue;
			char *owned = NULL;
			if (!strcmp(col, "source_id"))
				v = source_name(src, v);
			else if (!strcmp(col, "symbols") || !strcmp(col, "data_objects"))
				v = owned = sorted_list(v);
			size_t need = len + strlen(v) + 4;
			if (need > cap)
				line = realloc(line, cap = 2 * need);
			len += (size_t)sprintf(line + len, "%s%s", len ? "|" : "", v);
			free(owned);
		}
		out[r] = line;
	}
	qsort(out, t->nrows, sizeof *out, cmp_str);
	return out;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: ch_compare SPE_QUERY DB URL VIEW...\n");
		return 2;
	}
	const char *query = argv[1], *db = argv[2], *url = argv[3];
	char cmd[4096];
	struct sources s_sqlite, s_ch;
	snprintf(cmd, sizeof cmd, "%s -d '%s' --format=csv \"SELECT id, host, file FROM source\"", query, db);
	if (load_sources(cmd, &s_sqlite) < 0)
		return 1;
	snprintf(cmd, sizeof cmd, "%s --clickhouse='%s' --format=csv \"SELECT id, host, file FROM source\"", query, url);
	if (load_sources(cmd, &s_ch) < 0)
		return 1;
	int fail = 0;
	for (int v = 4; v < argc; v++) {
		struct table a, b;
		snprintf(cmd, sizeof cmd, "%s -d '%s' --format=csv \"SELECT * FROM %s\"", query, db, argv[v]);
		char *ca = run(cmd);
		snprintf(cmd, sizeof cmd, "%s --clickhouse='%s' --format=csv \"SELECT * FROM %s\"", query, url, argv[v]);
		char *cb = run(cmd);
		if (!ca || !cb || parse(ca, &a) < 0 || parse(cb, &b) < 0) {
			printf("FAIL %s: no result\n", argv[v]);
			fail = 1;
			continue;
		}
		int same_head = a.ncols == b.ncols;
		for (int c = 0; same_head && c < a.ncols; c++)
			same_head = !strcmp(a.head[c], b.head[c]);
		if (!same_head) {
			printf("FAIL %s: columns differ\n", argv[v]);
			fail = 1;
			continue;
		}
		char **la = lines(&a, &s_sqlite), **lb = lines(&b, &s_ch);
		size_t i = 0, j = 0, only_a = 0, only_b = 0;
		while (i < a.nrows || j < b.nrows) {
			int d = i == a.nrows ? 1 : j == b.nrows ? -1 : strcmp(la[i], lb[j]);
			if (d == 0) {
				i++, j++;
				continue;
			}
			if (only_a + only_b < 8)
				printf("  %s only in %s: %s\n", argv[v], d < 0 ? "SQLite" : "ClickHouse", d < 0 ? la[i] : lb[j]);
			if (d < 0)
				i++, only_a++;
			else
				j++, only_b++;
		}
		int ok = !only_a && !only_b;
		printf("%s %s: %zu rows in SQLite, %zu in ClickHouse%s\n", ok ? "ok" : "FAIL", argv[v], a.nrows, b.nrows,
		       ok ? ", the same" : "");
		fail |= !ok;
		free_lines(la, a.nrows);
		free_lines(lb, b.nrows);
		free_table(&a);
		free_table(&b);
		free(ca);
		free(cb);
	}
	free_sources(&s_sqlite);
	free_sources(&s_ch);
	return fail;
}
