/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A database this run did not create is untrusted input: a colleague may
 * have sent it, or anyone who could write the file (docs/security.md).
 *
 *  - Each connection to one runs with SQLite's defensive settings
 *    (https://www.sqlite.org/c3ref/c_dbconfig_defensive.html): DEFENSIVE (no
 *    writable_schema, no shadow-table writes), TRUSTED_SCHEMA off (the
 *    file's views and indexes may call no function with side effects), no
 *    extension loading and no triggers: a trigger the file carries never
 *    runs, whatever an --append or spe-query --write does.
 *  - The views spekit reads are its own definitions.  Each view this build
 *    creates is compared with the file's object of that name; where they
 *    differ (an edited view, a table in its place, a view written by another
 *    build) this build's definition is made a TEMP view for the connection,
 *    which SQLite resolves before the file's.  An attached database (--diff's
 *    second) cannot be shadowed that way: a view of it that differs is
 *    refused, naming it.
 *  - Each table this build creates must be a table where the file has that
 *    name: a view in its place (a recursive one named symbol) would feed
 *    spekit's own views, so the file is refused, naming it.  A table the
 *    file lacks is left to the query that reads it ("no such table"),
 *    but a view of this build reading a table added within the schema
 *    version (data_page: page_region_stat) has, in a file made before the
 *    table, its definition without it (views_without_table).
 *  - The same holds for the objects of a library spe_analysis cannot call
 *    (spe_topdown's tables and views): its caller hands this file the
 *    function that creates them (spe_db_own_schema), one description of
 *    each object, run here in a private in-memory database.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "ana/memory_schema.h"
#include "db_internal.h"
#include "spe/analysis.h"
#include "util/text.h"

int spe_db_distrust(sqlite3 *db, char *err, size_t errlen)
{
	static const struct {
		int op, value;
		const char *name;
	} settings[] = {
		{ SQLITE_DBCONFIG_DEFENSIVE, 1, "DEFENSIVE" },
		{ SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, "TRUSTED_SCHEMA" },
		{ SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, "ENABLE_TRIGGER" },
		{ SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, "ENABLE_LOAD_EXTENSION" },
	};
	for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
		int now = -1;
		if (sqlite3_db_config(db, settings[i].op, settings[i].value, &now) != SQLITE_OK ||
		    now != settings[i].value) {
			snprintf(err, errlen, "SQLite refused SQLITE_DBCONFIG_%s = %d", settings[i].name,
				 settings[i].value);
			return -spe_unsupported;
		}
	}
	return 0;
}

/*
 * This build's tables and views of one schema maker (spe_schema_create, or
 * a caller's such as spe_topdown's td_store_init), made once per process: a
 * maker run in a private in-memory database (spe_schema_create costs about
 * 6 ms of SQL parsing), paid once however many databases a process opens
 * (--diff opens two).
 */
struct own_object {
	char *kind, *name, *sql;
	char *columns; /* a table's, each ending in '\n' */
};
struct own_set {
	spe_schema_maker make;
	struct own_object *obj;
	size_t n;
	int rc;
	char err[256];
};
static struct own_set own_sets[4]; /* spekit's, and the few a caller adds */
static size_t n_own_sets;
static pthread_mutex_t own_sets_lock = PTHREAD_MUTEX_INITIALIZER;

static char *copy(const unsigned char *text)
{
	return text ? strdup((const char *)text) : NULL;
}

/* A table's column names in @p mem, each ending in '\n'; malloc'd, NULL without memory. */
static char *column_list(sqlite3 *mem, const char *table)
{
	sqlite3_stmt *st;
	char *list = NULL;
	if (sqlite3_prepare_v2(mem, "SELECT coalesce(group_concat(name || char(10), ''), '') FROM pragma_table_info(?)",
			       -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		list = copy(sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return list;
}

static void make_owned(struct own_set *set)
{
	sqlite3 *mem = NULL;
	sqlite3_stmt *list = NULL;
	int rc = 0, step = SQLITE_DONE;
	if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) != SQLITE_OK) {
		snprintf(set->err, sizeof set->err, "out of memory");
		rc = -spe_nomem;
	}
	if (rc == 0)
		rc = set->make(mem, set->err, sizeof set->err);
	if (rc == 0 && sqlite3_prepare_v2(mem,
					  "SELECT type, name, sql FROM sqlite_schema WHERE type IN ('table', 'view')"
					  " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
					  -1, &list, NULL) != SQLITE_OK) {
		snprintf(set->err, sizeof set->err, "listing spekit's schema: %s", sqlite3_errmsg(mem));
		rc = -spe_io;
	}
	while (rc == 0 && (step = sqlite3_step(list)) == SQLITE_ROW) {
		struct own_object *grown = realloc(set->obj, (set->n + 1) * sizeof *set->obj);
		if (!grown) {
			rc = -spe_nomem;
			break;
		}
		set->obj = grown;
		struct own_object *o = &set->obj[set->n];
		o->kind = copy(sqlite3_column_text(list, 0));
		o->name = copy(sqlite3_column_text(list, 1));
		o->sql = copy(sqlite3_column_text(list, 2));
		o->columns = o->name && o->kind && !strcmp(o->kind, "table") ? column_list(mem, o->name) : strdup("");
		set->n++;
		if (!o->kind || !o->name || !o->sql || !o->columns)
			rc = -spe_nomem;
	}
	if (rc == -spe_nomem)
		snprintf(set->err, sizeof set->err, "listing spekit's schema: out of memory");
	else if (rc == 0 && step != SQLITE_DONE) {
		snprintf(set->err, sizeof set->err, "listing spekit's schema: %s", sqlite3_errmsg(mem));
		rc = -spe_io;
	}
	sqlite3_finalize(list);
	sqlite3_close(mem);
	set->rc = rc;
}

/* The objects @p make creates, made on first use; NULL when there is no room for another maker. */
static const struct own_set *own_set_of(spe_schema_maker make)
{
	struct own_set *set = NULL;
	pthread_mutex_lock(&own_sets_lock);
	for (size_t i = 0; i < n_own_sets && !set; i++)
		if (own_sets[i].make == make)
			set = &own_sets[i];
	if (!set && n_own_sets < sizeof own_sets / sizeof own_sets[0]) {
		set = &own_sets[n_own_sets++];
		set->make = make;
		make_owned(set);
	}
	pthread_mutex_unlock(&own_sets_lock);
	return set;
}

/*
 * A table of a database written before a column was added within the
 * schema version (schema.c, spe_schema_add_columns) lacks it, and this
 * build's views name it.  A writable connection adds it (ALTER TABLE); on a
 * read-only one, a TEMP view of the table with the missing columns NULL (what
 * ALTER TABLE ADD COLUMN gives the rows already there) shadows it, so this
 * build's views read an older file.
 */
static int add_missing_columns(sqlite3 *db, const struct own_object *o, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?, 'main')", -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "reading the columns of %s: %s", o->name, sqlite3_errmsg(db));
		return -spe_io;
	}
	sqlite3_bind_text(st, 1, o->name, -1, SQLITE_STATIC);
	char *have = sqlite3_mprintf("\n");
	int step = SQLITE_DONE;
	while (have && (step = sqlite3_step(st)) == SQLITE_ROW) {
		char *more = sqlite3_mprintf("%s%s\n", have, (const char *)sqlite3_column_text(st, 0));
		sqlite3_free(have);
		have = more;
	}
	if (have && step != SQLITE_DONE) {
		snprintf(err, errlen, "reading the columns of %s: %s", o->name, sqlite3_errmsg(db));
		sqlite3_finalize(st);
		sqlite3_free(have);
		return -spe_io;
	}
	sqlite3_finalize(st);
	if (!have) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	char *view = sqlite3_mprintf("CREATE TEMP VIEW \"%w\" AS SELECT *", o->name);
	int missing = 0;
	for (const char *c = o->columns; view && *c; c = strchr(c, '\n') + 1) {
		size_t len = (size_t)(strchr(c, '\n') - c);
		char *name = sqlite3_mprintf("%.*s", (int)len, c);
		char *key = sqlite3_mprintf("\n%s\n", name);
		if (name && key && !strstr(have, key)) {
			char *more = sqlite3_mprintf("%s, NULL AS \"%w\"", view, name);
			sqlite3_free(view);
			view = more;
			missing++;
		} else if (!name || !key) {
			sqlite3_free(view);
			view = NULL;
		}
		sqlite3_free(name);
		sqlite3_free(key);
	}
	sqlite3_free(have);
	char *sql = view ? sqlite3_mprintf("%s FROM main.\"%w\"", view, o->name) : NULL;
	sqlite3_free(view);
	if (!sql) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	int rc = missing ? spe_db_exec(db, sql, err, errlen) : 0;
	sqlite3_free(sql);
	return rc;
}

/*
 * The views of this build that read a table added within the schema
 * version, and their definition for a file without it: what they read
 * before the table (a view naming a missing table fails at its first read).
 */
static const struct {
	const char *view, *table;
	void (*define)(struct util_text *t);
} views_without_table[] = {
	{ "data_page", "page_region_stat", ana_data_page_of_pages },
};

/*
 * View @p o's definition in @p st's schema of @p db (@p st: type and sql by
 * name, left reset): this build's, or without a table the file lacks
 * (views_without_table: malloc'd, in @p *own too, else *own is NULL).
 */
static int view_sql(sqlite3 *db, sqlite3_stmt *st, const struct own_object *o, const char **sql, char **own,
		    char *err, size_t errlen)
{
	*own = NULL;
	*sql = o->sql;
	for (size_t i = 0; i < sizeof views_without_table / sizeof views_without_table[0]; i++) {
		if (strcmp(o->name, views_without_table[i].view))
			continue;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, views_without_table[i].table, -1, SQLITE_STATIC);
		int step = sqlite3_step(st);
		int table = step == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(st, 0), "table");
		sqlite3_reset(st);
		if (step != SQLITE_ROW && step != SQLITE_DONE) {
			snprintf(err, errlen, "reading the schema: %s", sqlite3_errmsg(db));
			return -spe_io;
		}
		if (table)
			return 0;
		struct util_text t = { 0 };
		views_without_table[i].define(&t);
		if (!util_text_ok(&t)) {
			util_text_fini(&t);
			snprintf(err, errlen, "out of memory");
			return -spe_nomem;
		}
		/* the text as sqlite_schema keeps it: no ';' and no trailing newline */
		size_t n = strlen(t.buf);
		while (n && (t.buf[n - 1] == '\n' || t.buf[n - 1] == ';'))
			t.buf[--n] = 0;
		*own = strdup(t.buf);
		util_text_fini(&t);
		if (!*own) {
			snprintf(err, errlen, "out of memory");
			return -spe_nomem;
		}
		*sql = *own;
		return 0;
	}
	return 0;
}

/* The file's view @p name differs from @p sql (this build's): shadowed on "main", refused elsewhere. */
static int shadow_view(sqlite3 *db, const char *schema, const char *name, const char *sql, int *shadowed, char *err,
		       size_t errlen)
{
	const char *prefix = "CREATE VIEW ";
	if (strncmp(sql, prefix, strlen(prefix))) {
		snprintf(err, errlen, "spekit's view %s: unexpected definition", name);
		return -spe_io;
	}
	if (strcmp(schema, "main")) {
		snprintf(err, errlen, "view %s is not the one spekit defines (edited, or made by another build)",
			 name);
		return -spe_bad_file;
	}
	char *temp = sqlite3_mprintf("CREATE TEMP VIEW %s", sql + strlen(prefix));
	if (!temp) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	int rc = spe_db_exec(db, temp, err, errlen);
	sqlite3_free(temp);
	(*shadowed)++;
	return rc;
}

/*
 * One object of this build's schema against the file's (@p st: its type
 * and sql by name): a table must be a table when present (a view in its
 * place would feed spekit's own views); a view differing is shadowed on
 * "main" and refused elsewhere.
 */
static int check_object(sqlite3 *db, sqlite3_stmt *st, const char *schema, const struct own_object *o,
			int *shadowed, char *err, size_t errlen)
{
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, o->name, -1, SQLITE_STATIC);
	int step = sqlite3_step(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		snprintf(err, errlen, "reading the schema: %s", sqlite3_errmsg(db));
		return -spe_io;
	}
	const char *type = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	const char *text = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 1) : NULL;
	if (!strcmp(o->kind, "table")) {
		if (type && strcmp(type, "table")) {
			snprintf(err, errlen, "%s is a %s, not the table spekit defines", o->name, type);
			return -spe_bad_file;
		}
		if (type && !strcmp(schema, "main") && sqlite3_db_readonly(db, "main") == 1) {
			sqlite3_reset(st);
			return add_missing_columns(db, o, err, errlen);
		}
		return 0;
	}
	char *own_text = type && text && !strcmp(type, "view") ? strdup(text) : NULL, *variant = NULL;
	if (type && text && !strcmp(type, "view") && !own_text) {
		snprintf(err, errlen, "out of memory");
		return -spe_nomem;
	}
	sqlite3_reset(st); /* no read of the schema open while the TEMP view is made */
	const char *sql;
	int rc = view_sql(db, st, o, &sql, &variant, err, errlen);
	if (rc == 0 && !(own_text && !strcmp(own_text, sql)))
		rc = shadow_view(db, schema, o->name, sql, shadowed, err, errlen);
	free(own_text);
	free(variant);
	return rc;
}

/* Whether @p name is among @p views (NULL-terminated; NULL: every view). */
static int view_read(const char *const *views, const char *name)
{
	if (!views)
		return 1;
	for (; *views; views++)
		if (!strcmp(*views, name))
			return 1;
	return 0;
}

/* spe_db_own_schema, checking of the views only those in @p views (NULL: all). */
static int own_objects(sqlite3 *db, const char *schema, spe_schema_maker make, const char *const *views,
		       int *shadowed, char *err, size_t errlen)
{
	int n = 0;
	if (shadowed)
		*shadowed = 0;
	const struct own_set *set = own_set_of(make);
	if (!set) {
		snprintf(err, errlen, "more schema makers than db_trust.c keeps");
		return -spe_invalid;
	}
	if (set->rc < 0) {
		snprintf(err, errlen, "%s", set->err);
		return set->rc;
	}
	char q[128];
	snprintf(q, sizeof q, "SELECT type, sql FROM \"%s\".sqlite_schema WHERE name = ?", schema);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "reading the schema: %s", sqlite3_errmsg(db));
		return -spe_io;
	}
	int rc = 0;
	for (size_t i = 0; i < set->n && rc == 0; i++)
		if (strcmp(set->obj[i].kind, "view") || view_read(views, set->obj[i].name))
			rc = check_object(db, st, schema, &set->obj[i], &n, err, errlen);
	sqlite3_finalize(st);
	if (shadowed)
		*shadowed = n;
	return rc;
}

int spe_db_own_schema(sqlite3 *db, const char *schema, spe_schema_maker make, int *shadowed, char *err,
		      size_t errlen)
{
	return own_objects(db, schema, make, NULL, shadowed, err, errlen);
}

int spe_db_own_views(sqlite3 *db, const char *schema, int *shadowed, char *err, size_t errlen)
{
	return spe_db_own_schema(db, schema, spe_schema_create, shadowed, err, errlen);
}

int spe_db_own_views_read(sqlite3 *db, const char *schema, const char *const *views, char *err, size_t errlen)
{
	return own_objects(db, schema, spe_schema_create, views, NULL, err, errlen);
}
