#!/usr/bin/env bash
# bash completion (cli/completion.bash) against the commands' --help and
# man pages:
#   completion.sh COMPLETION_FILE BINDIR DOCS_DIR COMMAND...
# For every command of the build:
#  - the completion file registers _spe for it (so a new command gets its
#    completion with no edit, and one that is not installed fails here);
#  - "COMMAND --<TAB>" offers exactly the long options its --help prints
#    (for a command with subcommands, "COMMAND <TAB>" offers those and
#    "COMMAND SUB --<TAB>" that subcommand's options, together all of them);
#  - every one of those options is in its man page, docs/COMMAND.1.md;
#  - "spe <TAB>" offers every command, and "spe CMD --<TAB>" = "spe-CMD --<TAB>".
# Then a few values: --format=<TAB>, a FILE argument, the word after "--".
set -u
completion=$1 bin=$(cd "$2" && pwd) docs=$3
shift 3
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect() {
	if [ "$2" != "$3" ]; then
		printf 'FAIL %s\n--- got\n%s\n--- expected\n%s\n' "$1" "$2" "$3"
		fail=1
	fi
}

# shellcheck disable=SC1090
. "$completion"

# complete WORD...: the sorted candidates for the last word, as bash would
# offer them for the command line "WORD...".
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_spe
	printf '%s\n' "${COMPREPLY[@]}" | sort -u | sed '/^$/d'
}

# The long options a help text names anywhere (independent of the completion's parser),
# but for its old spellings, which are accepted and not offered.
help_options() {
	"$@" --help 2>&1 | awk '/^Old spellings/ { old = 1; next } /^[^ ]/ { old = 0 } !old' |
		grep -oE '(^|[][[:space:](,|])--[a-z][a-z0-9-]*' | sed 's/^.*--/--/' | sort -u
}

for cmd in "$@"; do
	reg=$(complete -p "$cmd" 2>/dev/null)
	case $reg in
	*"-F _spe "*) ;;
	*) echo "FAIL $cmd: no completion registered (${reg:-none})"; fail=1 ;;
	esac
	[ "$cmd" = spe ] && continue

	want=$(help_options "$bin/$cmd")
	subs=$(_spe_subcommands "$cmd" "$bin/$cmd")
	if [ -n "$subs" ]; then
		expect "$cmd <TAB>" "$(complete_words "$bin/$cmd" "")" "$(sort <<<"$subs")"
		got=$(for s in $subs; do complete_words "$bin/$cmd" "$s" "--"; done | sed 's/=$//' | sort -u)
	else
		got=$(complete_words "$bin/$cmd" "--" | sed 's/=$//' | sort -u)
	fi
	[ -n "$want" ] || { echo "FAIL $cmd --help names no --option"; fail=1; }
	expect "$cmd --<TAB> = the options of --help" "$got" "$want"
	undocumented=$(for o in $want; do grep -q -- "$o\\b" "$docs/$cmd.1.md" || echo "$o"; done)
	expect "$cmd: every option of --help in docs/$cmd.1.md" "$undocumented" ""

	# spe CMD is the same command
	short=${cmd#spe-}
	expect "spe $short --<TAB>" "$(complete_words "$bin/spe" "$short" "--")" \
		"$(complete_words "$bin/$cmd" "--")"
done

expect "spe <TAB>" "$(complete_words "$bin/spe" "")" \
	"$(printf '%s\n' "$@" | sed -n 's/^spe-//p' | sort)"

# values
expect "spe-query --format=<TAB>" "$(complete_words "$bin/spe-query" "--format=")" "csv
json
table"
expect "spe-record --format=j<TAB>" "$(complete_words "$bin/spe-record" "--format=j")" "json"
touch "$tmp/trace.data" "$tmp/trace.db"
expect "spe-report -d FILE<TAB>" "$(complete_words "$bin/spe-report" "-d" "$tmp/trace.d")" "$tmp/trace.data
$tmp/trace.db"
expect "spe-load --symfs=DIR<TAB> (directories)" "$(cd "$tmp" && mkdir -p root && complete_words "$bin/spe-load" "--symfs=r")" "root"
expect "spe-record -- COMMAND<TAB>" "$(complete_words "$bin/spe-record" "--" "true")" "true"
# values from the option tables: choices, CPU parts and models (the facts table's, topdown's), a short option's
expect "spe-export --format=<TAB>" "$(complete_words "$bin/spe-export" "--format=")" "autofdo
bolt
folded
pprof"
expect "spe-export -f <TAB>" "$(complete_words "$bin/spe-export" "-f" "")" "autofdo
bolt
folded
pprof"
expect "spe-report --color=<TAB>" "$(complete_words "$bin/spe-report" "--color=")" "always
auto
never"
expect "spe-dump --midr=neoverse-n<TAB>" "$(complete_words "$bin/spe-dump" "--midr=neoverse-n")" "neoverse-n1
neoverse-n2
neoverse-n3"
expect "spe-record --cpu-model=cortex-x<TAB>" "$(complete_words "$bin/spe-record" "--cpu-model=cortex-x")" "cortex-x1c
cortex-x3
cortex-x925"
expect "spe-record -t <TAB>" "$(complete_words "$bin/spe-record" "-t" "")" "load
store"
expect "spe-topdown import --cpu-model=sky<TAB>" "$(complete_words "$bin/spe-topdown" import "--cpu-model=sky")" "skylake"
expect "spe topdown stat --level=<TAB>" "$(complete_words "$bin/spe" topdown stat "--level=")" "1
2"
# an old spelling is accepted, not offered
expect "spe-load --cp<TAB>" "$(complete_words "$bin/spe-load" "--cp")" ""
# "--name", "=", "value" as bash splits them at COMP_WORDBREAKS
expect "spe-query --format = j<TAB> (split words)" "$(complete_words "$bin/spe-query" "--format" "=" "j")" "json"
exit $fail
