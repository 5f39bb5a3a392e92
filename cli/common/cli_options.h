/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The commands' options as data.  Each command declares one struct
 * cli_command holding a table of struct cli_option, a row per option: long
 * and short name, the argument's placeholder, the values it takes (a list
 * of choices, an integer range, a list the facts table gives), help text,
 * group, and the old spellings still accepted.  From that table come:
 *  - the parsing (cli_args_next): --name=V, --name V, -x V, -xV, clustered
 *    flags (-qa), a unique prefix of a long name, "--" ending the options, and
 *    operands anywhere among the options (as getopt_long permutes them);
 *  - the checks every option gets the same way, each a usage error (exit 64)
 *    naming the option: an integer within its range, a value among its
 *    choices, a missing or extra value, an unknown option with the nearest
 *    names ("did you mean '--format'?");
 *  - --help (cli_print_help) and --version, on every command;
 *  - the bash completion (cli/completion.bash), which reads --help: each
 *    option on a line of its own, "  -x, --name=PLACEHOLDER  help", and the
 *    values of a placeholder on a line "PLACEHOLDER is one of: a, b, ...";
 *  - the check that the man page's OPTIONS section lists exactly these
 *    options (tests/cli/test_options.c).
 */
#ifndef SPE_CLI_OPTIONS_H
#define SPE_CLI_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

/* The id of an option without a short letter: CLI_ID(0), CLI_ID(1), ... (above every letter). */
#define CLI_ID(n) (256 + (n))
/* What cli_args_next returns for --help and --version rows (never seen by a command). */
#define CLI_ID_HELP 'h'
#define CLI_ID_VERSION 255
/* An unknown --name[=V] of a command with pass_unknown (spe-record's filter terms). */
#define CLI_ID_UNKNOWN 1

enum cli_value {
	CLI_FLAG,   /* takes no value */
	CLI_TEXT,   /* any text: the command checks it */
	CLI_FILE,   /* a path (completion offers files) */
	CLI_DIR,    /* a directory (completion offers directories) */
	CLI_INT,    /* an integer from min to max, decimal or 0x hex: in cli_args.number */
	CLI_CHOICE, /* one of choices[]: its index in cli_args.number */
	CLI_INPUT,  /* an input file (-i FILE, as perf's): never returned, it becomes the first operands */
};

struct cli_option {
	int id;           /* what cli_args_next returns: the short letter, or CLI_ID(n) */
	const char *name; /* long name, without "--"; NULL ends the table */
	char short_name;  /* 0: none */
	enum cli_value type;
	const char *arg;  /* placeholder in --help ("DB", "N"); NULL for CLI_CHOICE: the choices joined by '|' */
	const char *const *choices;         /* CLI_CHOICE: the values, NULL-terminated */
	const char *(*values)(unsigned i);  /* the i-th value completion and --help offer (CPU parts), NULL after the last */
	int64_t min, max;                   /* CLI_INT */
	const char *help;
	const char *group; /* this option starts a group of --help under this heading */
	/*
	 * An old spelling: the option of long name alias_of, which this row
	 * names only (id, type and values are that option's).  --help lists it
	 * under "Old spellings" with @p note.  A row whose name is also a
	 * current option's (spe-record's --cpu=MODEL) only documents a
	 * meaning the command keeps for some values: parsing never finds it.
	 */
	const char *alias_of;
	const char *note;
};

/* Where a command's operands may be. */
enum cli_operands {
	CLI_OPERANDS_ANYWHERE, /* before, between and after the options (getopt_long's permutation) */
	CLI_OPERANDS_LAST,     /* the first operand ends the options: it is a command to run (spe-topdown stat) */
	CLI_OPERANDS_AFTER_DASHDASH, /* only after "--" (spe-record -- COMMAND); one before is a usage error */
};

struct cli_command {
	const char *name;    /* "load"; a subcommand's own name ("import") */
	const char *prog;    /* in messages and --help: "spe-load", "spe-topdown import" */
	const char *summary; /* one line for `spe help` */
	const char *const *usage; /* the usage lines (with the program name), NULL-terminated */
	const char *about;   /* a paragraph after the usage lines, or NULL */
	const struct cli_option *options;
	const char *footer;  /* text after the options (exit statuses), or NULL */
	enum cli_operands operands;
	const char *operand_hint; /* CLI_OPERANDS_AFTER_DASHDASH: said after "unexpected argument 'X'" */
	int pass_unknown;    /* an unknown --name[=V] is returned as CLI_ID_UNKNOWN, for the command to take */
	const char *(*more_names)(unsigned i); /* long names beyond the table, for "did you mean" */
	void (*epilogue)(FILE *out); /* more --help after the options (spe-record's filter terms) */
	const struct cli_command *const *subcommands; /* NULL-terminated, or NULL */
};

/* The parser over one argument vector. */
struct cli_args {
	const struct cli_command *cmd;
	int argc;
	char **argv;
	FILE *help_out; /* where --help and --version print; NULL (cli_args_init): stdout, closed after */
	/* the option cli_args_next returned */
	const struct cli_option *opt; /* its row (the current option, never an old spelling's row) */
	const char *value;            /* its value, or NULL */
	int64_t number;               /* CLI_INT: the value; CLI_CHOICE: the index of the choice */
	char spelling[64];            /* the name as given: "--cpus", "-C" */
	/* after the end (cli_args_next returned 0): the operands are argv[optind .. argc) */
	int optind;
	int before_dashdash; /* how many operands came before "--" (all of them without one) */
	int status;          /* cli_args_next returned -1: the exit status */
	/* the parse */
	int next;            /* argv index of the next word */
	int cluster;         /* inside a word of short options (-qa): the offset of the next letter, else 0 */
	int operands_at;     /* argv[operands_at .. next) are the operands seen so far */
	int dashdash;        /* "--" was seen */
	int inputs;          /* the first operands that are CLI_INPUT values */
};

void cli_args_init(struct cli_args *a, const struct cli_command *cmd, int argc, char **argv);

/*
 * The next option: its id (a->opt, a->value, a->number, a->spelling say
 * which and with what); 0 after the last, with the operands in argv[a->optind
 * .. argc); -1 when the command is to exit with a->status: after a usage
 * error (printed: 64), or --help or --version (printed to stdout: 0, or 74
 * when it could not be written).  For a command with pass_unknown, an
 * unknown --name[=V] is CLI_ID_UNKNOWN with its text in a->spelling (the
 * name) and a->value (after '=', or NULL); cli_args_unknown refuses it.
 */
int cli_args_next(struct cli_args *a);

/*
 * "PROG: unrecognized option '--NAME'; did you mean '--NEAR'?" for the
 * option a->spelling names; returns CLI_USAGE.
 */
int cli_args_unknown(const struct cli_args *a);

/*
 * "PROG: MESSAGE (see PROG --help)" on stderr, MESSAGE formatted as printf
 * does; returns CLI_USAGE (64).
 */
int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * An integer from @p min to @p max (decimal, or hex after 0x; an optional
 * sign) into *@p out: 0; else "PROG: OPTION=TEXT: not an integer (MIN to
 * MAX)" or "... out of range (MIN to MAX)" (an overflow too) after
 * "PROG: ", and CLI_USAGE.  @p option is the name as given ("--jobs", "-I").
 */
int cli_parse_int(const struct cli_command *cmd, const char *option, const char *text, int64_t min, int64_t max,
		  int64_t *out);

/* cli_parse_int without a message: 0, -1 when @p text is no integer, -2 when out of range (an overflow too). */
int cli_int_value(const char *text, int64_t min, int64_t max, int64_t *out);

/* The option text as given, for messages: "--cpu=0-3" or "-C 0-3". */
const char *cli_args_given(const struct cli_args *a, char *buf, size_t size);

/* --help: usage, options by group, the values lists, old spellings, epilogue, footer. */
void cli_print_help(const struct cli_command *cmd, FILE *out);

/* The usage lines only ("usage: ..."). */
void cli_print_usage(const struct cli_command *cmd, FILE *out);

/* The OPTIONS of a man page in Markdown (spe-facts prints its page). */
void cli_print_markdown_options(const struct cli_command *cmd, FILE *out);

/* The rows every command has after its own: -h/--help and --version. */
extern const struct cli_option cli_standard_options[];

/* "PROG (spekit) VERSION": the release of the build (CMake's project version). */
const char *cli_version(void);

/*
 * Edit distance (insertions, deletions, substitutions, transpositions of
 * neighbours) between @p a and @p b of lengths @p na and @p nb, counting
 * '-' and '_' as the same; at most the longer length.
 */
unsigned cli_edit_distance(const char *a, size_t na, const char *b, size_t nb);

/* The subcommand of @p cmd named @p name, or NULL. */
const struct cli_command *cli_subcommand(const struct cli_command *cmd, const char *name);

/* The nearest of @p n @p names to @p word when near enough to be a typo, or NULL. */
const char *cli_nearest(const char *word, size_t len, const char *const *names, size_t n);

#endif
