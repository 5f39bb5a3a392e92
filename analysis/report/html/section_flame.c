/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The flame graphs (icicles) of the latency: by code (binary, function,
 * source line, instruction, memory level) and by data object (object,
 * function, instruction, memory level).  Each is a tree written once as
 * JSON in a data block ({"n": name, "v": latency, "c": children}, the
 * compact form d3-flame-graph reads); the page's script draws it with
 * d3-flame-graph (html/page/page.js).
 *
 * The rows come sorted by their path, so the tree is built as they stream:
 * a node is complete when the path moves past it, and a complete node under
 * FLAME_MIN of the total is dropped with its subtree at once (its latency
 * stays in its parent's, which then shows wider than its children).  So
 * the tree in memory and in the page is at most a few FLAME_MIN-ths of
 * nodes per level, whatever the capture.
 */
#include <stdlib.h>
#include <string.h>

#include "sections.h"

#define FLAME_MIN (1.0 / 2000) /* a node narrower than this share of the total is not drawn */
#define FLAME_DEPTH 5

struct fnode {
	char *name;
	double v;
	size_t parent, first, last, prev, next; /* indexes; 0: none (0 is the root) */
	int level;                              /* memory level index + 1 for the leaves, else 0 */
};

struct ftree {
	struct fnode *n;
	size_t len, cap;
	size_t path[FLAME_DEPTH + 1]; /* the open node at each depth; path[0] = 0, the root */
	int depth;                    /* depth of the deepest open node */
	double min;                   /* nodes under this are dropped */
	int full;                     /* the query's depth: a row that deep ends in a memory level */
};

static void free_from(struct ftree *t, size_t from)
{
	for (size_t i = from; i < t->len; i++)
		free(t->n[i].name);
	t->len = from;
}

/* Close the open nodes deeper than @p d: each final now; a narrow one goes with its subtree. */
static void close_to(struct ftree *t, int d)
{
	for (; t->depth > d; t->depth--) {
		size_t x = t->path[t->depth];
		if (t->n[x].v >= t->min)
			continue;
		struct fnode *p = &t->n[t->n[x].parent];
		if (t->n[x].prev)
			t->n[t->n[x].prev].next = 0;
		else
			p->first = 0;
		p->last = t->n[x].prev;
		free_from(t, x); /* x and its subtree were the last nodes made */
	}
}

static int add_child(struct ftree *t, size_t parent, const char *name)
{
	if (t->len == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		struct fnode *n = realloc(t->n, cap * sizeof *n);
		if (!n)
			return -1;
		t->n = n;
		t->cap = cap;
	}
	size_t x = t->len;
	t->n[x] = (struct fnode){ .name = strdup(name ? name : "?"), .parent = parent, .prev = t->n[parent].last };
	if (!t->n[x].name)
		return -1;
	t->len++;
	if (t->n[parent].last)
		t->n[t->n[parent].last].next = x;
	else
		t->n[parent].first = x;
	t->n[parent].last = x;
	return 0;
}

/* One row: the path of @p depth names and its latency. */
static int add_row(struct ftree *t, const char *const *names, int depth, double v)
{
	int same = 0; /* the open path shares this many names with the row */
	while (same < t->depth && same < depth && !strcmp(t->n[t->path[same + 1]].name, names[same] ? names[same] : "?"))
		same++;
	close_to(t, same);
	for (int d = same; d < depth; d++) {
		if (add_child(t, t->path[d], names[d]) < 0)
			return -1;
		t->path[d + 1] = t->len - 1;
		t->depth = d + 1;
	}
	t->n[0].v += v;
	for (int d = 1; d <= depth; d++)
		t->n[t->path[d]].v += v;
	t->n[t->path[depth]].level = depth == t->full ? report_mem_level_index(names[depth - 1]) + 1 : 0;
	return 0;
}

/* The name as drawn: paths of binaries and source files by their base name. */
static const char *shown_name(const char *name, int base)
{
	const char *s = base && name && name[0] != '(' ? strrchr(name, '/') : NULL;
	return s && s[1] ? s + 1 : name;
}

static void write_node(struct html *h, const struct ftree *t, size_t x, unsigned base_depths, int d)
{
	char v[32];
	report_html_raw(h, "{\"n\":");
	report_rows_str(h, 1, x ? shown_name(t->n[x].name, base_depths >> d & 1) : "all");
	snprintf(v, sizeof v, ",\"v\":%.0f", t->n[x].v);
	report_html_raw(h, v);
	if (!t->n[x].first && t->n[x].level > 0 && t->n[x].level <= MEM_LEVELS) {
		snprintf(v, sizeof v, ",\"m\":%d", t->n[x].level - 1);
		report_html_raw(h, v);
	}
	if (t->n[x].first) {
		report_html_raw(h, ",\"c\":[");
		for (size_t k = t->n[x].first; k; k = t->n[k].next) {
			write_node(h, t, k, base_depths, d + 1);
			if (t->n[k].next)
				report_html_raw(h, ",");
		}
		report_html_raw(h, "]");
	}
	report_html_raw(h, "}");
}

/*
 * The tree of query @p id (@p depth name columns, then the latency and the
 * total) as a data block with @p id_attr; names at the depths in the bit set
 * @p base_depths (1 << depth) drawn by base name.  Returns the root's
 * latency (0: no row), or negative.
 */
static int flame_tree(struct report_ctx *c, enum report_query id, int depth, const char *block_id,
		      unsigned base_depths, double *root)
{
	struct ftree t = { 0 };
	struct rq q;
	*root = 0;
	int rc = report_rq_begin(c, &q, id);
	if (rc == 0 && !(t.n = calloc(1024, sizeof *t.n)))
		rc = report_fail(c, -spe_nomem, "out of memory");
	t.cap = 1024;
	t.len = 1;
	t.full = depth;
	while (rc == 0 && (rc = report_rq_next(&q)) == 1) {
		rc = 0;
		if (t.min == 0)
			t.min = report_rq_double(&q, depth + 1) * FLAME_MIN;
		const char *names[FLAME_DEPTH];
		int n = 0; /* a row of a function's small instructions stops at the function: NULL below */
		while (n < depth && (names[n] = report_rq_text(&q, n)))
			n++;
		if (n && add_row(&t, names, n, report_rq_double(&q, depth)) < 0)
			rc = report_fail(c, -spe_nomem, "out of memory");
	}
	report_rq_end(&q);
	if (rc == 0) {
		close_to(&t, 0);
		*root = t.n[0].v;
		report_html_printf(&c->h, "<script type=\"application/json\" id=\"%s\">", block_id);
		write_node(&c->h, &t, 0, base_depths, 0);
		report_html_raw(&c->h, "</script>\n");
	}
	if (t.n)
		free_from(&t, 1);
	free(t.n);
	return rc < 0 ? rc : 0;
}

int report_section_flame(struct report_ctx *c)
{
	struct html *h = &c->h;
	report_html_section(h, "flame", "Flame graph",
			    "The latency of every sample as an icicle: each bar is as wide as the latency under it, "
			    "from the binary at the top through the function, the source line and the instruction to "
			    "the memory level that served the access (for stores, branches and other operations, "
			    "their class).  Click a bar to zoom to it, the top bar to zoom out; the search box "
			    "highlights every bar whose name holds the text and sums their share.  Bars narrower "
			    "than 1/2000 of the total, and the lines and levels of instructions that narrow, are left "
			    "out (their latency stays in the bar above).");
	if (c->ch) {
		report_html_raw(h, "<p class=\"none\">The flame graph is drawn from SQLite databases only (spe-export "
				   "the data or report from the database file).</p></section>\n");
		return 0;
	}
	report_html_raw(h, "<div class=\"fg-bar\"><label>view <select id=\"fg-view\"><option value=\"fg-code\">by code"
			   "</option><option value=\"fg-data\">by data object</option></select></label> "
			   "<input type=\"search\" id=\"fg-search\" placeholder=\"highlight: name, address, level\"/> "
			   "<button type=\"button\" id=\"fg-reset\">zoom out</button> <span id=\"fg-details\" class=\"none\">"
			   "</span></div>\n<div id=\"fg-chart\" class=\"fg\"></div>\n");
	double code = 0, data = 0;
	int rc = flame_tree(c, RQ_FLAME_CODE, 5, "fg-code", 1u << 1 | 1u << 3, &code);
	if (rc == 0)
		rc = flame_tree(c, RQ_FLAME_DATA, 4, "fg-data", 0, &data);
	if (rc < 0)
		return rc;
	if (code == 0)
		report_html_raw(h, "<p class=\"none\">No sample has a total latency: nothing to draw.</p>");
	if (data == 0)
		report_html_raw(h, "<p class=\"none\" id=\"fg-no-data\">No sample with a latency has a data object "
				   "(the view by data object is empty).</p>");
	/* the memory levels' colours, for the leaves ("m": the level's index) */
	report_html_raw(h, "<script type=\"application/json\" id=\"fg-colors\">[");
	for (int i = 0; i < MEM_LEVELS; i++)
		report_html_printf(h, "%s\"#%06x\"", i ? "," : "", report_mem_level_rgb(i) & 0xffffff);
	report_html_raw(h, "]</script>\n</section>\n");
	return 0;
}
