/* SPDX-License-Identifier: Apache-2.0 */
/* Option tables into parsing, checks and --help: see cli_options.h. */
#include "cli_options.h"
#include "cli_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef SPEKIT_VERSION
#error "SPEKIT_VERSION (CMake's PROJECT_VERSION) is defined by cli/CMakeLists.txt"
#endif

#define HELP_COLUMN 28 /* where the help text of an option starts */
#define HELP_WIDTH 79  /* where --help wraps */

const struct cli_option cli_standard_options[] = {
	{ .id = CLI_ID_HELP, .name = "help", .short_name = 'h', .help = "print the usage and the options, and exit" },
	{ .id = CLI_ID_VERSION, .name = "version", .help = "print the release of spekit, and exit" },
	{ 0 },
};

const char *cli_version(void)
{
	return SPEKIT_VERSION;
}

int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", cmd->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s --help)\n", cmd->prog);
	return CLI_USAGE;
}

/* ---- names ---------------------------------------------------------------- */

static int same_char(char a, char b)
{
	if (a == '_')
		a = '-';
	if (b == '_')
		b = '-';
	return a == b;
}

unsigned cli_edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
	/* optimal string alignment: three rows of the Damerau-Levenshtein table */
	enum { MAX = 64 };
	if (na > MAX || nb > MAX)
		return (unsigned)(na > nb ? na : nb);
	unsigned r0[MAX + 1], r1[MAX + 1], r2[MAX + 1];
	unsigned *prev2 = r0, *prev = r1, *cur = r2;
	for (size_t j = 0; j <= nb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= na; i++) {
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= nb; j++) {
			unsigned cost = same_char(a[i - 1], b[j - 1]) ? 0 : 1;
			unsigned v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 && same_char(a[i - 1], b[j - 2]) && same_char(a[i - 2], b[j - 1]) &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		unsigned *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[nb];
}

/* How many edits a mistyped name of @p len characters may be from the one meant. */
static unsigned typo_limit(size_t len)
{
	return len < 4 ? 1 : len < 12 ? 2 : 3;
}

const char *cli_nearest(const char *word, size_t len, const char *const *names, size_t n)
{
	const char *best = NULL;
	unsigned best_d = typo_limit(len) + 1;
	for (size_t i = 0; i < n; i++) {
		unsigned d = cli_edit_distance(word, len, names[i], strlen(names[i]));
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	return best;
}

/* Every row of the command's table, then the standard ones: row @p i, or NULL past the end. */
static const struct cli_option *row(const struct cli_command *cmd, size_t i)
{
	size_t n = 0;
	while (cmd->options && cmd->options[n].name)
		n++;
	if (i < n)
		return &cmd->options[i];
	i -= n;
	return cli_standard_options[i].name ? &cli_standard_options[i] : NULL;
}

static const struct cli_option *current(const struct cli_command *cmd, const char *name)
{
	const struct cli_option *o;
	for (size_t i = 0; (o = row(cmd, i)); i++)
		if (!o->alias_of && !strcmp(o->name, name))
			return o;
	return NULL;
}

/* The option an old spelling names (itself for a current one). */
static const struct cli_option *resolve(const struct cli_command *cmd, const struct cli_option *o)
{
	return o && o->alias_of ? current(cmd, o->alias_of) : o;
}

/*
 * The option --@p name (@p len characters) names: exactly, as an old
 * spelling, or as the unique prefix of long names of one option (not for
 * a command that takes unknown names itself).  NULL when none; *@p
 * ambiguous when the prefix starts several.
 */
static const struct cli_option *find_long(const struct cli_command *cmd, const char *name, size_t len, int *ambiguous)
{
	const struct cli_option *o, *found = NULL;
	*ambiguous = 0;
	for (int alias = 0; alias < 2; alias++)
		for (size_t i = 0; (o = row(cmd, i)); i++)
			if (!o->alias_of == !alias && strlen(o->name) == len && !strncmp(o->name, name, len))
				return resolve(cmd, o);
	if (cmd->pass_unknown)
		return NULL;
	for (size_t i = 0; (o = row(cmd, i)); i++) {
		if (strncmp(o->name, name, len))
			continue;
		const struct cli_option *r = resolve(cmd, o);
		if (found && r != found)
			*ambiguous = 1;
		found = r;
	}
	return *ambiguous ? NULL : found;
}

static const struct cli_option *find_short(const struct cli_command *cmd, char c)
{
	const struct cli_option *o;
	for (size_t i = 0; (o = row(cmd, i)); i++)
		if (!o->alias_of && o->short_name == c)
			return o;
	return NULL;
}

static int takes_value(const struct cli_option *o)
{
	return o->type != CLI_FLAG;
}

/* The placeholder --help shows: arg, or the choices joined by '|'. */
static const char *placeholder(const struct cli_option *o, char *buf, size_t size)
{
	if (o->arg || o->type != CLI_CHOICE)
		return o->arg ? o->arg : "VALUE";
	size_t n = 0;
	buf[0] = 0;
	for (const char *const *c = o->choices; c && *c; c++)
		n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s", c == o->choices ? "" : "|", *c);
	return buf;
}

/* ---- parsing ----------------------------------------------------------------- */

void cli_args_init(struct cli_args *a, const struct cli_command *cmd, int argc, char **argv)
{
	memset(a, 0, sizeof *a);
	a->cmd = cmd;
	a->argc = argc;
	a->argv = argv;
	a->next = 1;
	a->operands_at = 1;
}

/* Move argv[@p from] before the operands seen so far (getopt_long's permutation). */
static void move_before_operands(struct cli_args *a, int from)
{
	char *t = a->argv[from];
	for (int i = from; i > a->operands_at; i--)
		a->argv[i] = a->argv[i - 1];
	a->argv[a->operands_at++] = t;
}

static int fail(struct cli_args *a)
{
	a->status = CLI_USAGE;
	return -1;
}

/* A usage error of the parse (printed as cli_usage_error prints it): -1, the status 64. */
__attribute__((format(printf, 2, 3))) static int refuse(struct cli_args *a, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", a->cmd->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s --help)\n", a->cmd->prog);
	return fail(a);
}

const char *cli_args_given(const struct cli_args *a, char *buf, size_t size)
{
	int is_long = a->spelling[1] == '-';
	snprintf(buf, size, "%s%s%s", a->spelling, a->value ? (is_long ? "=" : " ") : "", a->value ? a->value : "");
	return buf;
}

int cli_int_value(const char *text, int64_t min, int64_t max, int64_t *out)
{
	const char *p = text;
	int neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	if (hex)
		p += 2;
	if (!(hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(p, &end, hex ? 16 : 10);
	if (*end)
		return -1;
	if (errno || v > (neg ? (unsigned long long)INT64_MAX + 1 : (unsigned long long)INT64_MAX))
		return -2;
	int64_t n = neg ? (int64_t)(0 - v) : (int64_t)v;
	if (n < min || n > max)
		return -2;
	*out = n;
	return 0;
}

int cli_parse_int(const struct cli_command *cmd, const char *option, const char *text, int64_t min, int64_t max,
		  int64_t *out)
{
	int rc = cli_int_value(text, min, max, out);
	if (rc)
		return cli_usage_error(cmd, "%s%s%s: %s (%lld to %lld)", option, option[1] == '-' ? "=" : " ", text,
				       rc == -1 ? "not an integer" : "out of range", (long long)min, (long long)max);
	return 0;
}

struct near {
	const char *name[3];
	unsigned n, distance; /* the names found so far, at this distance (more: none yet) */
};

static void consider(struct near *nr, const char *cand, const char *name, size_t len)
{
	unsigned d = cli_edit_distance(name, len, cand, strlen(cand));
	if (d > typo_limit(len))
		return;
	if (d < nr->distance) {
		nr->distance = d;
		nr->n = 0;
	}
	if (d == nr->distance && nr->n < 3)
		nr->name[nr->n++] = cand;
}

/* "unrecognized option '--ARG'", with up to three current long names nearest to --@p name. */
static int unknown_long(const struct cli_command *cmd, const char *arg, const char *name, size_t len)
{
	struct near nr = { .distance = UINT32_MAX };
	const struct cli_option *o;
	const char *cand;
	for (size_t i = 0; (o = row(cmd, i)); i++)
		if (!o->alias_of)
			consider(&nr, o->name, name, len);
	for (unsigned i = 0; cmd->more_names && (cand = cmd->more_names(i)); i++)
		consider(&nr, cand, name, len);
	fprintf(stderr, "%s: unrecognized option '%s'", cmd->prog, arg);
	for (unsigned i = 0; i < nr.n; i++) {
		fprintf(stderr, "%s'--", i == 0 ? "; did you mean " : i + 1 == nr.n ? " or " : ", ");
		for (const char *c = nr.name[i]; *c; c++)
			fputc(*c == '_' ? '-' : *c, stderr); /* a filter term's snake_case name, as an option */
		fputc('\'', stderr);
	}
	fprintf(stderr, "%s (see %s --help)\n", nr.n ? "?" : "", cmd->prog);
	return CLI_USAGE;
}

int cli_args_unknown(const struct cli_args *a)
{
	char arg[256];
	snprintf(arg, sizeof arg, "%s%s%s", a->spelling, a->value ? "=" : "", a->value ? a->value : "");
	return unknown_long(a->cmd, arg, a->spelling + 2, strlen(a->spelling + 2));
}

/* The option found: --help and --version done here, values checked; its id, or -1. */
static int found(struct cli_args *a, const struct cli_option *o, const char *value)
{
	a->opt = o;
	a->value = value;
	a->number = 0;
	if (o->id == CLI_ID_HELP || o->id == CLI_ID_VERSION) {
		FILE *out = a->help_out ? a->help_out : stdout;
		if (o->id == CLI_ID_HELP)
			cli_print_help(a->cmd, out);
		else
			fprintf(out, "%s (spekit) %s\n", a->cmd->prog, cli_version());
		a->status = out == stdout ? cli_finish_stdout(a->cmd->prog, CLI_OK) : CLI_OK;
		return -1;
	}
	if (o->type == CLI_INT && cli_parse_int(a->cmd, a->spelling, value, o->min, o->max, &a->number))
		return fail(a);
	if (o->type == CLI_CHOICE) {
		for (const char *const *c = o->choices; *c; c++)
			if (!strcmp(value, *c)) {
				a->number = c - o->choices;
				return o->id;
			}
		char given[256];
		fprintf(stderr, "%s: %s: use", a->cmd->prog, cli_args_given(a, given, sizeof given));
		for (const char *const *c = o->choices; *c; c++)
			fprintf(stderr, "%s %s", c == o->choices ? "" : !c[1] ? " or" : ",", *c);
		fprintf(stderr, " (see %s --help)\n", a->cmd->prog);
		return fail(a);
	}
	return o->id;
}

/*
 * A CLI_INPUT value: the operand after those of the CLI_INPUT options before
 * it, so "-i FILE" reads as FILE given first.  @p word: the value is the next
 * word of argv (else @p value, the rest of the option's word, which is the
 * last word before the operands).
 */
static void add_input(struct cli_args *a, int next_word, const char *value)
{
	int at = a->operands_at + a->inputs;
	if (next_word) {
		char *t = a->argv[a->next];
		for (int i = a->next; i > at; i--)
			a->argv[i] = a->argv[i - 1];
		a->argv[at] = t;
		a->next++;
	} else {
		/* the option's word leaves the options for the operands, as its value */
		a->operands_at--;
		at--;
		for (int i = a->operands_at; i < at; i++)
			a->argv[i] = a->argv[i + 1];
		a->argv[at] = (char *)value;
	}
	a->inputs++;
}

/* The value of the option just read: the rest of its word, or the next word; NULL when there is none. */
static const char *next_word(struct cli_args *a)
{
	if (a->next >= a->argc)
		return NULL;
	char *word = a->argv[a->next];
	move_before_operands(a, a->next++);
	return word;
}

static int short_option(struct cli_args *a)
{
	const char *word = a->argv[a->operands_at - 1];
	char c = word[a->cluster];
	snprintf(a->spelling, sizeof a->spelling, "-%c", c);
	const struct cli_option *o = find_short(a->cmd, c);
	if (!o) {
		a->cluster = 0;
		return refuse(a, "unrecognized option '-%c'", c);
	}
	const char *value = NULL;
	if (o->type == CLI_INPUT) {
		value = word[a->cluster + 1] ? word + a->cluster + 1 : NULL;
		a->cluster = 0;
		if (!value && a->next >= a->argc) {
			char ph[256];
			return refuse(a, "-%c needs a value (%s)", c, placeholder(o, ph, sizeof ph));
		}
		add_input(a, !value, value);
		return cli_args_next(a);
	}
	if (takes_value(o)) {
		value = word[a->cluster + 1] ? word + a->cluster + 1 : NULL;
		a->cluster = 0;
		if (!value && !(value = next_word(a))) {
			char ph[256];
			return refuse(a, "-%c needs a value (%s)", c, placeholder(o, ph, sizeof ph));
		}
	} else if (!word[++a->cluster]) {
		a->cluster = 0;
	}
	return found(a, o, value);
}

static int long_option(struct cli_args *a, const char *word)
{
	const char *name = word + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	snprintf(a->spelling, sizeof a->spelling, "--%.*s", (int)(len < 60 ? len : 60), name);
	int ambiguous;
	const struct cli_option *o = find_long(a->cmd, name, len, &ambiguous);
	if (ambiguous) {
		fprintf(stderr, "%s: option '--%.*s' is ambiguous:", a->cmd->prog, (int)len, name);
		const struct cli_option *r;
		for (size_t i = 0; (r = row(a->cmd, i)); i++)
			if (!r->alias_of && !strncmp(r->name, name, len))
				fprintf(stderr, " --%s", r->name);
		fprintf(stderr, " (see %s --help)\n", a->cmd->prog);
		return fail(a);
	}
	if (!o && a->cmd->pass_unknown) {
		a->opt = NULL;
		a->value = eq ? eq + 1 : NULL;
		return CLI_ID_UNKNOWN;
	}
	if (!o) {
		unknown_long(a->cmd, word, name, len);
		return fail(a);
	}
	const char *value = eq ? eq + 1 : NULL;
	if (o->type == CLI_INPUT && (value || a->next < a->argc)) {
		add_input(a, !value, value);
		return cli_args_next(a);
	}
	if (takes_value(o) && !value && !(value = next_word(a))) {
		char ph[256];
		return refuse(a, "%s needs a value (%s)", a->spelling, placeholder(o, ph, sizeof ph));
	}
	if (!takes_value(o) && value)
		return refuse(a, "%s takes no value", a->spelling);
	return found(a, o, value);
}

int cli_args_next(struct cli_args *a)
{
	if (a->cluster)
		return short_option(a);
	while (a->next < a->argc) {
		const char *word = a->argv[a->next];
		if (!strcmp(word, "--")) {
			move_before_operands(a, a->next++);
			a->optind = a->operands_at;
			a->before_dashdash = a->next - a->operands_at;
			a->dashdash = 1;
			return 0;
		}
		if (word[0] != '-' || !word[1]) { /* an operand ("-" is one: standard input) */
			if (a->cmd->operands == CLI_OPERANDS_LAST)
				break;
			if (a->cmd->operands == CLI_OPERANDS_AFTER_DASHDASH)
				return refuse(a, "unexpected argument '%s'%s%s", word, a->cmd->operand_hint ? " " : "",
					      a->cmd->operand_hint ? a->cmd->operand_hint : "");
			a->next++;
			continue;
		}
		move_before_operands(a, a->next++);
		if (word[1] == '-')
			return long_option(a, word);
		a->cluster = 1;
		return short_option(a);
	}
	a->optind = a->operands_at;
	a->before_dashdash = a->argc - a->operands_at;
	return 0;
}

const struct cli_command *cli_subcommand(const struct cli_command *cmd, const char *name)
{
	for (const struct cli_command *const *s = cmd->subcommands; s && *s; s++)
		if (!strcmp((*s)->name, name))
			return *s;
	return NULL;
}

/* ---- --help ------------------------------------------------------------------ */

/* @p text from column @p col, wrapped at HELP_WIDTH with continuation lines indented to @p indent. */
static void wrap(FILE *out, const char *text, int col, int indent)
{
	const char *p = text;
	while (*p) {
		const char *w = p;
		while (*w == ' ')
			w++;
		const char *e = w;
		while (*e && *e != ' ')
			e++;
		int n = (int)(e - w);
		if (col > indent && col + 1 + n > HELP_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent || (p != text && w != p)) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", n, w);
		col += n;
		p = e;
	}
	fputc('\n', out);
}

/* "  -x, --name=ARG" and the help beside it (or below, when the left part is long). */
static void print_row(FILE *out, const struct cli_option *o, const char *help)
{
	char ph[256], left[128];
	const struct cli_option *shown = o;
	int n = snprintf(left, sizeof left, "  %s%c%s--%s%s%s", shown->short_name ? "-" : " ",
			 shown->short_name ? shown->short_name : ' ', shown->short_name ? ", " : "  ", o->name,
			 takes_value(o) ? "=" : "", takes_value(o) ? placeholder(o, ph, sizeof ph) : "");
	fputs(left, out);
	if (n + 2 > HELP_COLUMN) {
		fprintf(out, "\n%*s", HELP_COLUMN, "");
	} else {
		fprintf(out, "%*s", HELP_COLUMN - n, "");
	}
	wrap(out, help, HELP_COLUMN, HELP_COLUMN);
}

static void print_option(FILE *out, const struct cli_option *o)
{
	char help[1024];
	char ph[256];
	snprintf(help, sizeof help, "%s", o->help ? o->help : "");
	/* a range --help shows unless the placeholder lists the values already */
	if (o->type == CLI_INT && o->max < INT32_MAX && o->min > INT32_MIN && !strchr(placeholder(o, ph, sizeof ph), '|')) {
		size_t n = strlen(help);
		int in_parens = n && help[n - 1] == ')'; /* "(default 0)" becomes "(default 0; 0 to 4095)" */
		snprintf(help + n - in_parens, sizeof help - n + in_parens, "%s%lld to %lld)", in_parens ? "; " : " (",
			 (long long)o->min, (long long)o->max);
	}
	print_row(out, o, help);
}

static void print_options(FILE *out, const struct cli_command *cmd, int headings)
{
	if (headings && cmd->options && cmd->options[0].name && !cmd->options[0].group)
		fputc('\n', out);
	for (const struct cli_option *o = cmd->options; o && o->name; o++) {
		if (o->alias_of)
			continue;
		if (o->group && headings)
			fprintf(out, "\n%s:\n", o->group);
		print_option(out, o);
	}
}

/* The last '|'-separated word of @p ph: the name a values line gives its list. */
static const char *values_name(const char *ph)
{
	const char *bar = strrchr(ph, '|');
	return bar ? bar + 1 : ph;
}

static void print_values(FILE *out, const struct cli_command *cmd, const char **done, size_t *n_done)
{
	for (const struct cli_option *o = cmd->options; o && o->name; o++) {
		if (o->alias_of || !o->values)
			continue;
		char ph[256];
		const char *name = values_name(placeholder(o, ph, sizeof ph));
		int seen = 0;
		for (size_t i = 0; i < *n_done; i++)
			seen |= !strcmp(done[i], name);
		if (seen || *n_done == 16)
			continue;
		done[(*n_done)++] = name;
		char line[4096];
		size_t n = (size_t)snprintf(line, sizeof line, "%s is one of:", name);
		const char *v;
		for (unsigned i = 0; (v = o->values(i)) && n < sizeof line; i++)
			n += (size_t)snprintf(line + n, sizeof line - n, "%s %s", i ? "," : "", v);
		fputc('\n', out);
		wrap(out, line, 0, 4);
	}
}

/* An old spelling's row as --help shows it: the option it spells, under its name and placeholder. */
static struct cli_option old_spelling(const struct cli_command *cmd, const struct cli_option *o, char *ph, size_t size)
{
	const struct cli_option *to = current(cmd, o->alias_of);
	struct cli_option shown = *(to ? to : o);
	shown.name = o->name;
	shown.short_name = 0;
	shown.arg = o->arg ? o->arg : placeholder(to ? to : o, ph, size);
	return shown;
}

/* Is @p o a row of a subcommand of @p top listed before @p in (its old spelling listed already)? */
static int listed_before(const struct cli_command *top, const struct cli_command *in, const struct cli_option *o)
{
	for (const struct cli_command *const *s = top ? top->subcommands : NULL; s && *s && *s != in; s++)
		for (const struct cli_option *p = (*s)->options; p && p->name; p++)
			if (p->alias_of && !strcmp(p->name, o->name) && !strcmp(p->alias_of, o->alias_of))
				return 1;
	return 0;
}

static void print_old_spellings(FILE *out, const struct cli_command *top, const struct cli_command *cmd, int *heading)
{
	for (const struct cli_option *o = cmd->options; o && o->name; o++) {
		if (!o->alias_of || listed_before(top, cmd, o))
			continue;
		if (!*heading)
			fprintf(out, "\nOld spellings, still accepted:\n");
		*heading = 1;
		char help[512], ph[256];
		snprintf(help, sizeof help, "the old spelling of --%s%s%s", o->alias_of, o->note ? ": " : "",
			 o->note ? o->note : "");
		struct cli_option shown = old_spelling(cmd, o, ph, sizeof ph);
		print_row(out, &shown, help);
	}
}

void cli_print_usage(const struct cli_command *cmd, FILE *out)
{
	int first = 1;
	const struct cli_command *one[2] = { cmd, NULL };
	const struct cli_command *const *list = cmd->subcommands ? cmd->subcommands : one;
	for (; *list; list++)
		for (const char *const *u = (*list)->usage; u && *u; u++) {
			fprintf(out, "%s%s\n", first ? "usage: " : "       ", *u);
			first = 0;
		}
}

void cli_print_help(const struct cli_command *cmd, FILE *out)
{
	cli_print_usage(cmd, out);
	if (cmd->about)
		fprintf(out, "%s\n", cmd->about);
	const char *done[16];
	size_t n_done = 0;
	int old = 0;
	if (cmd->subcommands) {
		for (const struct cli_command *const *s = cmd->subcommands; *s; s++) {
			fprintf(out, "\n%s:\n", (*s)->prog);
			print_options(out, *s, 0);
		}
	} else {
		print_options(out, cmd, 1);
	}
	fputc('\n', out);
	for (const struct cli_option *o = cli_standard_options; o->name; o++)
		print_option(out, o);
	if (cmd->subcommands) {
		for (const struct cli_command *const *s = cmd->subcommands; *s; s++)
			print_values(out, *s, done, &n_done);
		for (const struct cli_command *const *s = cmd->subcommands; *s; s++)
			print_old_spellings(out, cmd, *s, &old);
	} else {
		print_values(out, cmd, done, &n_done);
		print_old_spellings(out, NULL, cmd, &old);
	}
	if (cmd->epilogue)
		cmd->epilogue(out);
	if (cmd->footer)
		fprintf(out, "\n%s\n", cmd->footer);
}

/* ---- the man page's OPTIONS ------------------------------------------------ */

static void markdown_row(FILE *out, const struct cli_option *o, const char *help)
{
	char ph[256];
	if (o->short_name)
		fprintf(out, "`-%c`, ", o->short_name);
	fprintf(out, "`--%s%s%s`\n: ", o->name, takes_value(o) ? "=" : "", takes_value(o) ? placeholder(o, ph, sizeof ph) : "");
	size_t n = strlen(help);
	fprintf(out, "%c%s%s\n\n", toupper((unsigned char)help[0]), help + (n ? 1 : 0),
		n && help[n - 1] == '.' ? "" : ".");
}

void cli_print_markdown_options(const struct cli_command *cmd, FILE *out)
{
	for (const struct cli_option *o = cmd->options; o && o->name; o++)
		if (!o->alias_of)
			markdown_row(out, o, o->help ? o->help : "");
	for (const struct cli_option *o = cli_standard_options; o->name; o++)
		markdown_row(out, o, o->help);
	for (const struct cli_option *o = cmd->options; o && o->name; o++)
		if (o->alias_of) {
			char help[512], ph[256];
			snprintf(help, sizeof help, "the old spelling of `--%s`%s%s", o->alias_of, o->note ? ": " : "",
				 o->note ? o->note : "");
			struct cli_option shown = old_spelling(cmd, o, ph, sizeof ph);
			markdown_row(out, &shown, help);
		}
}
