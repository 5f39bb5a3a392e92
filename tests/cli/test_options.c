/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The option tables (cli/common/cli_options.h) and what comes from them:
 *  - every command's table is consistent (names, ids, values, old spellings)
 *    and its usage lines name only its options;
 *  - each command's man page lists in its OPTIONS section exactly the
 *    options of its table, old spellings and --help/--version included, and
 *    names no option the command lacks (the check of docs/spe-NAME.1.md);
 *  - the parser on a table of its own: every form of option and value, the
 *    operands in order, each usage error and its message (the integer range
 *    parser: out of range, garbage, overflow; "did you mean");
 *  - --help: one line per option, the ranges, the values lists, the old
 *    spellings (what cli/completion.bash reads).
 *   test_options DOCS_DIR
 */
#include "check.h"
#include "text_file.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli_options.h"
#include "common/cli_util.h"

#define SPE_COMMAND(name) extern const struct cli_command cli_command_##name;
#include "commands.h"
#undef SPE_COMMAND

static const struct cli_command *const commands[] = {
#define SPE_COMMAND(name) &cli_command_##name,
#include "commands.h"
#undef SPE_COMMAND
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const char *docs = ".";

/* ---- helpers ---------------------------------------------------------------- */

static const struct cli_option *find_current(const struct cli_command *cmd, const char *name, size_t len)
{
	for (const struct cli_option *o = cmd->options; o && o->name; o++)
		if (!o->alias_of && strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	for (const struct cli_option *o = cli_standard_options; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

/* Does @p cmd (or one of its subcommands) have the long name (current or old) @p name / the short @p c? */
static int has_long(const struct cli_command *cmd, const char *name, size_t len)
{
	if (cmd->subcommands) {
		for (const struct cli_command *const *s = cmd->subcommands; *s; s++)
			if (has_long(*s, name, len))
				return 1;
		return find_current(cmd, name, len) != NULL;
	}
	for (const struct cli_option *o = cmd->options; o && o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return 1;
	return find_current(cmd, name, len) != NULL;
}

static int has_short(const struct cli_command *cmd, char c)
{
	for (const struct cli_command *const *s = cmd->subcommands; s && *s; s++)
		if (has_short(*s, c))
			return 1;
	for (const struct cli_option *o = cmd->options; o && o->name; o++)
		if (!o->alias_of && o->short_name == c)
			return 1;
	return c == 'h';
}

/*
 * Call @p fn for each option token of @p text: "--name" (len without the
 * dashes) or "-x" (len 1), a token being a dash after start, space or one
 * of "[(`,|".
 */
static void each_token(const char *text, void (*fn)(void *, const char *, size_t, int), void *ctx)
{
	for (const char *p = text; *p; p++) {
		if (*p != '-' || (p > text && !strchr(" \t\n[(`,|/", p[-1])))
			continue;
		if (p[1] == '-' && islower((unsigned char)p[2])) {
			size_t n = 2;
			while (islower((unsigned char)p[n]) || isdigit((unsigned char)p[n]) || p[n] == '-')
				n++;
			fn(ctx, p + 2, n - 2, 1);
			p += n - 1;
		} else if (isalpha((unsigned char)p[1]) && !isalnum((unsigned char)p[2]) && p[2] != '-') {
			fn(ctx, p + 1, 1, 0);
			p++;
		}
	}
}

struct token_check {
	const struct cli_command *cmd;
	const char *where;
	int bad;
};

static void token_is_option(void *ctx, const char *name, size_t len, int is_long)
{
	struct token_check *t = ctx;
	if (is_long ? has_long(t->cmd, name, len) : has_short(t->cmd, name[0]))
		return;
	printf("  %s: %s names %s%.*s, which is no option of it\n", t->cmd->prog, t->where, is_long ? "--" : "-",
	       (int)len, name);
	t->bad++;
}

/* ---- the tables ------------------------------------------------------------- */

static void check_table(const struct cli_command *cmd)
{
	CHECK(cmd->prog && cmd->name);
	int n = 0;
	for (const struct cli_option *o = cmd->options; o && o->name; o++, n++) {
		if (o->alias_of) {
			/* an old spelling: of a current option; a shadowed one says when it applies */
			const struct cli_option *to = find_current(cmd, o->alias_of, strlen(o->alias_of));
			if (!to)
				printf("  %s: --%s is the old spelling of --%s, which it lacks\n", cmd->prog, o->name, o->alias_of);
			CHECK(to != NULL);
			if (find_current(cmd, o->name, strlen(o->name)) && !o->note)
				printf("  %s: --%s is a current option and an old spelling without a note\n", cmd->prog, o->name);
			CHECK(!find_current(cmd, o->name, strlen(o->name)) || o->note);
			CHECK(o->short_name == 0);
			continue;
		}
		if (!o->help || !*o->help)
			printf("  %s: --%s has no help\n", cmd->prog, o->name);
		CHECK(o->help && *o->help);
		CHECK(o->id > 0 && o->id != CLI_ID_HELP && o->id != CLI_ID_VERSION && o->id != CLI_ID_UNKNOWN);
		CHECK(o->short_name != 'h');
		CHECK(strcmp(o->name, "help") && strcmp(o->name, "version"));
		CHECK(o->type != CLI_CHOICE || (o->choices && o->choices[0]));
		CHECK(o->type != CLI_INT || o->min <= o->max);
		CHECK(o->type == CLI_FLAG || o->type == CLI_CHOICE || o->arg);
		CHECK(o->type != CLI_INPUT || cmd->operands == CLI_OPERANDS_ANYWHERE);
		for (const struct cli_option *p = cmd->options; p != o; p++) {
			if (p->alias_of)
				continue;
			if (!strcmp(p->name, o->name) || p->id == o->id || (o->short_name && p->short_name == o->short_name))
				printf("  %s: --%s and --%s share a name, an id or a short name\n", cmd->prog, p->name,
				       o->name);
			CHECK(strcmp(p->name, o->name) && p->id != o->id && (!o->short_name || p->short_name != o->short_name));
		}
		if (o->short_name)
			CHECK(o->id == o->short_name); /* one id per option: the letter, as getopt's */
	}
	CHECK(n > 0 || cmd->subcommands);
	struct token_check t = { cmd, "a usage line", 0 };
	for (const char *const *u = cmd->usage; u && *u; u++)
		each_token(*u, token_is_option, &t);
	t.where = "its description";
	if (cmd->about)
		each_token(cmd->about, token_is_option, &t);
	CHECK_INT_EQ(t.bad, 0);
	for (const struct cli_command *const *s = cmd->subcommands; s && *s; s++)
		check_table(*s);
}

TEST(tables_are_consistent)
{
	CHECK(N_COMMANDS >= 5);
	for (size_t i = 0; i < N_COMMANDS; i++) {
		check_table(commands[i]);
		CHECK(commands[i]->summary && *commands[i]->summary);
		CHECK(strchr(commands[i]->summary, '\n') == NULL);
	}
}

/* ---- the man pages ---------------------------------------------------------- */

/*
 * The definition terms of the OPTIONS section of @p page (lines that start
 * with '`' and are followed by a ": " definition line), joined by newlines
 * into @p out; with @p whole, every line of the section.  0 when the page
 * has no OPTIONS section.
 */
static int options_section(const char *page, int whole, char *out, size_t size)
{
	const char *p = page, *start = NULL;
	int level = 0;
	for (; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (*p != '#')
			continue;
		int l = (int)strspn(p, "#");
		if (start && l <= level)
			break;
		if (!start && !strncmp(p + l, " OPTIONS", 8) && (p[l + 8] == '\n' || !p[l + 8])) {
			start = p;
			level = l;
		}
	}
	if (!start)
		return 0;
	size_t n = 0;
	out[0] = 0;
	for (const char *q = start; q < p;) {
		const char *eol = strchr(q, '\n');
		if (!eol || eol >= p)
			break;
		const char *next = eol + 1;
		while (*next == '\n')
			next++;
		if (whole || (*q == '`' && *next == ':'))
			n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%.*s\n", (int)(eol - q), q);
		q = eol + 1;
	}
	return 1;
}

/* Is --@p name (-@p name when not @p is_long) a whole token of @p terms? */
static int term_names(const char *terms, const char *name, int is_long)
{
	size_t len = strlen(name);
	for (const char *p = terms; (p = strstr(p, name)); p++) {
		const char *dash = p - (is_long ? 2 : 1);
		if (dash < terms || strncmp(dash, is_long ? "--" : "-", is_long ? 2 : 1))
			continue;
		if (dash > terms && !strchr(" `,[(|", dash[-1]))
			continue;
		char after = p[len];
		if (islower((unsigned char)after) || isdigit((unsigned char)after) || after == '-' || after == '_')
			continue;
		return 1;
	}
	return 0;
}

/* Every row of @p cmd in the terms of OPTIONS; an old spelling may be in a definition (@p section). */
static void check_rows_listed(const struct cli_command *cmd, const char *terms, const char *section, const char *page,
			      int *bad)
{
	for (const struct cli_option *o = cmd->options; o && o->name; o++) {
		if (!term_names(o->alias_of ? section : terms, o->name, 1)) {
			printf("  %s: --%s is %s of the command but not in the OPTIONS of %s\n", cmd->prog, o->name,
			       o->alias_of ? "an old spelling" : "an option", page);
			(*bad)++;
		}
		char s[2] = { o->short_name, 0 };
		if (o->short_name && !term_names(terms, s, 0)) {
			printf("  %s: -%c is an option of the command but not in the OPTIONS of %s\n", cmd->prog,
			       o->short_name, page);
			(*bad)++;
		}
	}
}

struct page_check {
	const struct cli_command *cmd;
	const char *page;
	int bad;
};

static void option_of_command(void *ctx, const char *name, size_t len, int is_long)
{
	struct page_check *c = ctx;
	if (is_long ? has_long(c->cmd, name, len) : has_short(c->cmd, name[0]))
		return;
	printf("  %s: the OPTIONS of %s list %s%.*s, which is no option of the command\n", c->cmd->prog, c->page,
	       is_long ? "--" : "-", (int)len, name);
	c->bad++;
}

TEST(man_pages_list_the_options)
{
	static char terms[1 << 16], section[1 << 17];
	int pages = 0;
	for (size_t i = 0; i < N_COMMANDS; i++) {
		const struct cli_command *cmd = commands[i];
		char page[128];
		snprintf(page, sizeof page, "%s.1.md", cmd->prog);
		char *text = test_read_text(docs, page, NULL);
		CHECK(text != NULL);
		if (!text)
			continue;
		pages++;
		int has = options_section(text, 0, terms, sizeof terms) && options_section(text, 1, section, sizeof section);
		if (!has)
			printf("  %s has no OPTIONS section\n", page);
		CHECK(has);
		struct page_check c = { cmd, page, 0 };
		/* the table's options in the page, then the page's in the table */
		check_rows_listed(cmd, terms, section, page, &c.bad);
		for (const struct cli_command *const *s = cmd->subcommands; s && *s; s++)
			check_rows_listed(*s, terms, section, page, &c.bad);
		for (const struct cli_option *o = cli_standard_options; o->name; o++)
			if (!term_names(terms, o->name, 1)) {
				printf("  %s: --%s is not in the OPTIONS of %s\n", cmd->prog, o->name, page);
				c.bad++;
			}
		each_token(terms, option_of_command, &c);
		CHECK_INT_EQ(c.bad, 0);
		free(text);
	}
	CHECK_INT_EQ(pages, (int)N_COMMANDS);
	/* the front end: its two options */
	char *text = test_read_text(docs, "spe.1.md", NULL);
	CHECK(text && options_section(text, 0, terms, sizeof terms));
	CHECK(text && term_names(terms, "help", 1) && term_names(terms, "version", 1));
	free(text);

	/* the matcher itself: a name is a whole token of a term line */
	CHECK(options_section("# X\n## OPTIONS\n\n`-o`, `--out=F`\n:   the\n\n`--in`\n: x\n## EXIT\n`--no`\n: y\n", 0,
			      terms, sizeof terms));
	CHECK_STR_EQ(terms, "`-o`, `--out=F`\n`--in`\n");
	CHECK(term_names(terms, "out", 1) && term_names(terms, "o", 0) && term_names(terms, "in", 1));
	CHECK(!term_names(terms, "ou", 1) && !term_names(terms, "no", 1) && !term_names(terms, "i", 0));
}

/* ---- the parser --------------------------------------------------------------- */

enum { T_COLOR = CLI_ID(0), T_FORMAT, T_FORCE, T_FORMS };
static const char *const colors[] = { "red", "green", NULL };
static const char *values(unsigned i)
{
	static const char *const v[] = { "alpha", "beta", NULL };
	return i < 2 ? v[i] : NULL;
}
static const struct cli_option test_options[] = {
	{ 'o', "output", 'o', CLI_FILE, "FILE", .help = "where", .group = "Output" },
	{ 'q', "quiet", 'q', CLI_FLAG, .help = "hush" },
	{ 'n', "number", 'n', CLI_INT, "N", .min = -5, .max = 100, .help = "how many" },
	{ T_COLOR, "color", 0, CLI_CHOICE, .choices = colors, .help = "which" },
	{ 'i', "input", 'i', CLI_INPUT, "FILE", .help = "read", .group = "Input" },
	{ T_FORMAT, "format", 0, CLI_TEXT, "NAME|GREEK", .values = values, .help = "how (default plain)" },
	{ T_FORCE, "force", 0, CLI_FLAG, .help = "anyway" },
	{ T_FORMS, "forms", 0, CLI_FLAG, .help = "in forms" },
	{ .name = "colour", .alias_of = "color" },
	{ 0 },
};
static const char *const test_usage[] = { "t [-q] [-n N] [--color=red|green] FILE...", NULL };
static const struct cli_command test_cmd = {
	.name = "t", .prog = "t", .usage = test_usage, .options = test_options, .footer = "exit: 0",
};

static const char *term(unsigned i)
{
	static const char *const t[] = { "load_filter", "min_latency", NULL };
	return i < 2 ? t[i] : NULL;
}
static const struct cli_command strict_cmd = {
	.name = "s", .prog = "s", .options = test_options, .operands = CLI_OPERANDS_AFTER_DASHDASH,
	.operand_hint = "(a command goes after --)", .pass_unknown = 1, .more_names = term,
};
static const struct cli_command last_cmd = { .name = "l", .prog = "l", .options = test_options + 1,
					     .operands = CLI_OPERANDS_LAST };

static char err[4096];

/* Parse the words of @p line (space-separated) with @p cmd into @p got ("id=value;..." then "| operands"). */
static int parse(const struct cli_command *cmd, const char *line, char *got, size_t size)
{
	static char words[1024];
	char *argv[64] = { "t" };
	int argc = 1;
	snprintf(words, sizeof words, "%s", line);
	for (char *w = strtok(words, " "); w && argc < 63; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	/* stderr into err[] */
	char path[] = "/tmp/spe-test-options-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	fflush(stderr);
	dup2(fd, 2);
	struct cli_args a;
	cli_args_init(&a, cmd, argc, argv);
	size_t n = 0;
	int id;
	got[0] = 0;
	while ((id = cli_args_next(&a)) > 0) {
		if (id == CLI_ID_UNKNOWN) { /* as spe-record takes a filter term, or refuses it */
			int known = 0;
			for (unsigned i = 0; term(i); i++)
				known |= cli_edit_distance(a.spelling + 2, strlen(a.spelling + 2), term(i), strlen(term(i))) == 0;
			if (!known) {
				id = -1;
				a.status = cli_args_unknown(&a);
				break;
			}
			n += (size_t)snprintf(got + n, size - n, "?%s%s%s;", a.spelling, a.value ? "=" : "",
					      a.value ? a.value : "");
			continue;
		}
		n += (size_t)snprintf(got + n, size - n, "%s", a.opt->name);
		if (a.opt->type == CLI_INT || a.opt->type == CLI_CHOICE)
			n += (size_t)snprintf(got + n, size - n, "=%lld", (long long)a.number);
		else if (a.value)
			n += (size_t)snprintf(got + n, size - n, "=%s", a.value);
		n += (size_t)snprintf(got + n, size - n, "(%s);", a.spelling);
	}
	if (id == 0) {
		n += (size_t)snprintf(got + n, size - n, "|");
		for (int i = a.optind; i < argc; i++)
			n += (size_t)snprintf(got + n, size - n, " %s%s", argv[i],
					      i - a.optind + 1 == a.before_dashdash && a.dashdash ? " --" : "");
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t len = pread(fd, err, sizeof err - 1, 0);
	err[len > 0 ? len : 0] = 0;
	close(fd);
	unlink(path);
	return id < 0 ? a.status : 0;
}

#define PARSES(cmd, line, want)                               \
	do {                                                  \
		char got_[1024];                              \
		CHECK_INT_EQ(parse(cmd, line, got_, sizeof got_), 0); \
		CHECK_STR_EQ(got_, want);                     \
		CHECK_STR_EQ(err, "");                        \
	} while (0)

#define REFUSES(cmd, line, message)                                         \
	do {                                                                \
		char got_[1024];                                            \
		CHECK_INT_EQ(parse(cmd, line, got_, sizeof got_), CLI_USAGE); \
		CHECK_STR_EQ(err, message);                                 \
	} while (0)

TEST(option_forms)
{
	/* = and the next word; -xV and -x V; a cluster; operands anywhere, kept in order */
	PARSES(&test_cmd, "a --output=x b --output y -oz -o w c", "output=x(--output);output=y(--output);output=z(-o);output=w(-o);| a b c");
	PARSES(&test_cmd, "-qn7 -qq -n -5 --number=0x10 --number +3", "quiet(-q);number=7(-n);quiet(-q);quiet(-q);number=-5(-n);number=16(--number);number=3(--number);|");
	PARSES(&test_cmd, "--color green --colour=red --col=red", "color=1(--color);color=0(--colour);color=0(--col);|");
	/* a unique prefix; an old spelling is the option it spells */
	PARSES(&test_cmd, "--out x --qu --forc", "output=x(--out);quiet(--qu);force(--forc);|");
	/* "--" ends the options; "-" is an operand; a value may start with '-' */
	PARSES(&test_cmd, "- -o -q -- -q --output x", "output=-q(-o);| - -- -q --output x");
	/* -i FILE: the first operands, in their order, whatever their place */
	PARSES(&test_cmd, "SQL -i f1 x --input=f2 -qif3", "quiet(-q);| f1 f2 f3 SQL x");
	/* the first operand ends the options of a command that runs one */
	PARSES(&last_cmd, "-q cmd -q --force", "quiet(-q);| cmd -q --force");
	/* operands only after "--"; unknown names to the command */
	PARSES(&strict_cmd, "-q --load-filter --min_latency=10 -- ls -l", "quiet(-q);?--load-filter;?--min_latency=10;| ls -l");
}

TEST(usage_errors)
{
	REFUSES(&test_cmd, "--number=101", "t: --number=101: out of range (-5 to 100) (see t --help)\n");
	REFUSES(&test_cmd, "-n -6", "t: -n -6: out of range (-5 to 100) (see t --help)\n");
	REFUSES(&test_cmd, "--number=12x", "t: --number=12x: not an integer (-5 to 100) (see t --help)\n");
	REFUSES(&test_cmd, "-n x", "t: -n x: not an integer (-5 to 100) (see t --help)\n");
	REFUSES(&test_cmd, "--number=", "t: --number=: not an integer (-5 to 100) (see t --help)\n");
	REFUSES(&test_cmd, "--number=1e3", "t: --number=1e3: not an integer (-5 to 100) (see t --help)\n");
	REFUSES(&test_cmd, "--number=0x", "t: --number=0x: not an integer (-5 to 100) (see t --help)\n");
	REFUSES(&test_cmd, "--number=99999999999999999999",
		"t: --number=99999999999999999999: out of range (-5 to 100) (see t --help)\n");
	REFUSES(&test_cmd, "--number=-9223372036854775809",
		"t: --number=-9223372036854775809: out of range (-5 to 100) (see t --help)\n");
	REFUSES(&test_cmd, "--color=blue", "t: --color=blue: use red or green (see t --help)\n");
	REFUSES(&test_cmd, "-o", "t: -o needs a value (FILE) (see t --help)\n");
	REFUSES(&test_cmd, "--output", "t: --output needs a value (FILE) (see t --help)\n");
	REFUSES(&test_cmd, "-i", "t: -i needs a value (FILE) (see t --help)\n");
	REFUSES(&test_cmd, "--quiet=1", "t: --quiet takes no value (see t --help)\n");
	REFUSES(&test_cmd, "--f", "t: option '--f' is ambiguous: --format --force --forms (see t --help)\n");
	REFUSES(&test_cmd, "-z", "t: unrecognized option '-z' (see t --help)\n");
	REFUSES(&test_cmd, "-qz", "t: unrecognized option '-z' (see t --help)\n");
	/* did you mean: a typo, a transposition, '_' for '-', several as near; nothing near */
	REFUSES(&test_cmd, "--outptu=x", "t: unrecognized option '--outptu=x'; did you mean '--output'? (see t --help)\n");
	REFUSES(&test_cmd, "--colr", "t: unrecognized option '--colr'; did you mean '--color'? (see t --help)\n");
	REFUSES(&test_cmd, "--forse", "t: unrecognized option '--forse'; did you mean '--force'? (see t --help)\n");
	REFUSES(&test_cmd, "--forme", "t: unrecognized option '--forme'; did you mean '--force' or '--forms'? (see t --help)\n");
	REFUSES(&test_cmd, "--bogus", "t: unrecognized option '--bogus' (see t --help)\n");
	REFUSES(&strict_cmd, "--lod-filter", "s: unrecognized option '--lod-filter'; did you mean '--load-filter'? (see s --help)\n");
	REFUSES(&strict_cmd, "--min-latncy=3", "s: unrecognized option '--min-latncy=3'; did you mean '--min-latency'? (see s --help)\n");
	REFUSES(&strict_cmd, "-q ls", "s: unexpected argument 'ls' (a command goes after --) (see s --help)\n");
	/* a prefix is no abbreviation where the command takes unknown names */
	REFUSES(&strict_cmd, "--outp=x", "s: unrecognized option '--outp=x'; did you mean '--output'? (see s --help)\n");
}

TEST(integers)
{
	int64_t v = 0;
	CHECK_INT_EQ(cli_int_value("-9223372036854775808", INT64_MIN, INT64_MAX, &v), 0);
	CHECK(v == INT64_MIN);
	CHECK_INT_EQ(cli_int_value("9223372036854775807", INT64_MIN, INT64_MAX, &v), 0);
	CHECK(v == INT64_MAX);
	CHECK_INT_EQ(cli_int_value("9223372036854775808", INT64_MIN, INT64_MAX, &v), -2);
	CHECK_INT_EQ(cli_int_value("0xffffffffffffffffff", 0, INT64_MAX, &v), -2);
	CHECK_INT_EQ(cli_int_value("0x7fffffffffffffff", 0, INT64_MAX, &v), 0);
	CHECK_INT_EQ(cli_int_value("010", 0, 100, &v), 0); /* decimal, not octal */
	CHECK_INT_EQ(v, 10);
	CHECK_INT_EQ(cli_int_value(" 1", 0, 100, &v), -1);
	CHECK_INT_EQ(cli_int_value("1 ", 0, 100, &v), -1);
	CHECK_INT_EQ(cli_int_value("--1", -5, 100, &v), -1);
	CHECK_INT_EQ(cli_int_value("0x-1", -5, 100, &v), -1);
	CHECK_INT_EQ(cli_int_value("-0", 0, 0, &v), 0);
}

TEST(names_near)
{
	CHECK_INT_EQ(cli_edit_distance("formt", 5, "format", 6), 1);
	CHECK_INT_EQ(cli_edit_distance("outptu", 6, "output", 6), 1); /* neighbours swapped */
	CHECK_INT_EQ(cli_edit_distance("no_symbols", 10, "no-symbols", 10), 0);
	CHECK_INT_EQ(cli_edit_distance("abc", 3, "", 0), 3);
	CHECK_INT_EQ(cli_edit_distance("", 0, "", 0), 0);
	CHECK_INT_EQ(cli_edit_distance("kitten", 6, "sitting", 7), 3);
	const char *names[] = { "load", "query", "report", "record" };
	CHECK_STR_EQ(cli_nearest("lod", 3, names, 4), "load");
	CHECK_STR_EQ(cli_nearest("reocrd", 6, names, 4), "record");
	CHECK(cli_nearest("bogus", 5, names, 4) == NULL);
	CHECK(cli_nearest("x", 1, names, 4) == NULL);
}

TEST(help_text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	cli_print_help(&test_cmd, f);
	fclose(f);
	static const char *const want[] = {
		"usage: t [-q] [-n N] [--color=red|green] FILE...\n",
		"\nOutput:\n  -o, --output=FILE         where\n",
		"  -q, --quiet               hush\n",
		"  -n, --number=N            how many (-5 to 100)\n", /* the range, from the table */
		"      --color=red|green     which\n",
		"\nInput:\n  -i, --input=FILE          read\n",
		"      --format=NAME|GREEK   how (default plain)\n",
		"  -h, --help                print the usage and the options, and exit\n",
		"      --version             print the release of spekit, and exit\n",
		"\nGREEK is one of: alpha, beta\n",
		"\nOld spellings, still accepted:\n      --colour=red|green    the old spelling of --color\n",
		"\nexit: 0\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		if (!strstr(buf, want[i]))
			printf("  --help lacks \"%s\":\n%s\n", want[i], buf);
		CHECK(strstr(buf, want[i]) != NULL);
	}
	free(buf);

	/* the man page's OPTIONS, from the same table */
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	cli_print_markdown_options(&test_cmd, f);
	fclose(f);
	CHECK(strstr(buf, "`-o`, `--output=FILE`\n: Where.\n\n") != NULL);
	CHECK(strstr(buf, "`--version`\n: Print the release of spekit, and exit.\n\n") != NULL);
	CHECK(strstr(buf, "`--colour=red|green`\n: The old spelling of `--color`.\n\n") != NULL);
	free(buf);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		docs = argv[1];
	RUN(tables_are_consistent);
	RUN(man_pages_list_the_options);
	RUN(option_forms);
	RUN(usage_errors);
	RUN(integers);
	RUN(names_near);
	RUN(help_text);
	return check_summary();
}
