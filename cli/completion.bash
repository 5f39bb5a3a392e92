# bash completion for spe and every spe-<command>.  Installed as
# share/bash-completion/completions/spe, with a link of that name for each
# command, so bash-completion loads it on demand; or source it from ~/.bashrc.
#
# Nothing here lists an option: they are read from the command's own --help,
# which prints its option table (cli/common/cli_options.c), once per shell,
# so completion always matches the installed programs.  From the help text:
#   "  -x, --name=PLACEHOLDER  help"   an option, one per line; the short
#                                      name takes the same value as the next word;
#   PLACEHOLDER a|b|c                  its values;
#   PLACEHOLDER FILE, DB, PATH, DIR    paths (directories for DIR);
#   "NAME is one of: a, b, ..."        the values of placeholder NAME (CPU parts);
#   "Old spellings" section            not offered;
#   "PROG word ..." usage lines        "word" is a subcommand (spe-topdown decode|import|stat),
#                                      whose options are in "PROG word --help";
# and `spe --help` lists the commands `spe <command>` takes.

declare -gA _spe_help_cache

# The options of command CMD... (a program, maybe followed by its spe
# command name and a subcommand), one per line:   NAME <tab> ARG <tab> VALUES
# ARG is "=" (--name=VALUE), " " (next word) or "" (a flag); VALUES is "file",
# "dir", a space-separated list, or "" (free text).
#   _spe_options CMD...
_spe_options() {
	local key="$*"
	if [[ -z ${_spe_help_cache[$key]+set} ]]; then
		_spe_help_cache[$key]=$("$@" --help 2>&1 | _spe_parse_help)
	fi
	printf '%s\n' "${_spe_help_cache[$key]}"
}

# Help text on stdin -> options (see _spe_options).
_spe_parse_help() {
	awk '
	function words(s) { gsub(/,/, " ", s); gsub(/^[ \t]+|[ \t]+$/, "", s); gsub(/[ \t]+/, " ", s); return s }
	function add(out, w) { return out == "" ? w : out " " w }
	function kind_of(ph,   n, part, i, out) {
		if (ph ~ /DIR/) return "dir"
		if (ph ~ /(FILE|DB|PATH)/) return "file"
		n = split(ph, part, "|")
		out = ""
		for (i = 1; i <= n; i++) {
			if (part[i] ~ /^[a-z0-9][a-z0-9._,-]*$/) out = add(out, part[i])
			else if (part[i] in listed) out = add(out, listed[part[i]])
		}
		return out
	}
	function note(name, arg, ph) {
		if (name in seen) return
		seen[name] = 1; order[++n] = name; argk[name] = arg; phs[name] = ph
	}
	/^[A-Z][A-Z0-9_]* is one of:/ { list = $1; v = $0; sub(/^[^:]*:/, "", v); listed[list] = words(v); next }
	list != "" && /^    [^ ]/ { listed[list] = add(listed[list], words($0)); next }
	{ list = "" }
	/^Old spellings/ { old = 1; next }
	/^[^ ]/ { old = 0 }
	!old && /^  (-[a-zA-Z], |    )?--[a-z]/ {
		line = $0
		sub(/^ +/, "", line)
		short = ""
		if (line ~ /^-[a-zA-Z], /) { short = substr(line, 1, 2); line = substr(line, 5) }
		match(line, /^--[a-z][a-z0-9-]*(=[^ \t]*)?/)
		tok = substr(line, 1, RLENGTH)
		name = tok; arg = ""; ph = ""
		if (index(tok, "=")) { name = substr(tok, 1, index(tok, "=") - 1); arg = "="; ph = substr(tok, index(tok, "=") + 1) }
		note(name, arg, ph)
		if (short != "") note(short, arg == "=" ? " " : "", ph)
	}
	END { for (i = 1; i <= n; i++) printf "%s\t%s\t%s\n", order[i], argk[order[i]], kind_of(phs[order[i]]) }'
}

# The subcommands of CMD...: the words after PROG on its usage lines
# ("usage: spe-topdown decode ...", "       spe-topdown import ...").
#   _spe_subcommands PROG CMD...
_spe_subcommands() {
	local prog=$1
	shift
	"$@" --help 2>&1 | awk -v prog="$prog" '
		match($0, /^(usage:)?[ \t]+[^ \t]+ [a-z][a-z0-9-]*( |$)/) {
			split(substr($0, RSTART, RLENGTH), w, /[ \t]+/)
			if (w[2] == prog && !(w[3] in seen)) { seen[w[3]] = 1; print w[3] }
		}'
}

# COMPREPLY for the value @2 of option @1 (its VALUES field).
_spe_complete_value() {
	local vals=$1 cur=$2
	case $vals in
	dir) mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	file) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	'') COMPREPLY=() ;;
	*) mapfile -t COMPREPLY < <(compgen -W "$vals" -- "$cur") ;;
	esac
}

# words[] and cword: COMP_WORDS with "--name", "=", "value" joined back
# into one word (bash splits at COMP_WORDBREAKS, which holds "=").
_spe_words() {
	local i w join=0
	words=()
	cword=0
	for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		if ((${#words[@]} > 0)) && [[ $w == "=" || $join == 1 ]]; then
			words[${#words[@]} - 1]+=$w
			[[ $w == "=" ]] && join=1 || join=0
		else
			words+=("$w")
			join=0
		fi
		((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
	done
}

_spe() {
	local -a words
	local cword
	_spe_words
	local cur=${words[cword]} prev=
	local -a cmd=("${words[0]}")
	local prog=${words[0]##*/} sub= first=1 i
	((cword > 0)) && prev=${words[cword - 1]}
	COMPREPLY=()

	# `spe <command> ...`: complete the command, then as that command.
	if [[ ${words[0]##*/} == spe ]]; then
		if ((cword == 1)); then
			mapfile -t COMPREPLY < <(compgen -W "$("${words[0]}" --help 2>&1 |
				awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')" -- "$cur")
			return
		fi
		cmd+=("${words[1]}")
		prog=spe-${words[1]}
		first=2
	fi
	# A subcommand (spe-topdown import): complete it, then take its options.
	local subs
	subs=$(_spe_subcommands "$prog" "${cmd[@]}")
	if [[ -n $subs ]]; then
		if ((cword == first)); then
			mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
			return
		fi
		sub=${words[first]}
		((first++))
	fi
	# After "--" comes another command (spe-record -- COMMAND).
	for ((i = first; i < cword; i++)); do
		if [[ ${words[i]} == -- ]]; then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			return
		fi
	done

	local opts name arg vals
	if [[ -n $sub ]]; then
		opts=$(_spe_options "${cmd[@]}" "$sub")
	else
		opts=$(_spe_options "${cmd[@]}")
	fi
	# The word after an option that takes the next word as its argument.
	if [[ $prev == -* && $cur != -* ]]; then
		while IFS=$'\t' read -r name arg vals; do
			if [[ $name == "$prev" && $arg == " " ]]; then
				_spe_complete_value "$vals" "$cur"
				return
			fi
		done <<<"$opts"
	fi
	# --name=VALUE: bash replaces only the part after "=" when "=" breaks words.
	if [[ $cur == --*=* ]]; then
		while IFS=$'\t' read -r name arg vals; do
			if [[ $name == "${cur%%=*}" ]]; then
				_spe_complete_value "$vals" "${cur#*=}"
				if [[ $COMP_WORDBREAKS != *=* ]]; then
					COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}")
				fi
				return
			fi
		done <<<"$opts"
		return
	fi
	if [[ $cur == -* ]]; then
		local -a names=()
		while IFS=$'\t' read -r name arg vals; do
			[[ -n $name ]] || continue
			if [[ $arg == "=" ]]; then names+=("$name="); else names+=("$name"); fi
		done <<<"$opts"
		mapfile -t COMPREPLY < <(compgen -W "${names[*]}" -- "$cur")
		# no space after "--name=": the value follows
		if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]]; then
			compopt -o nospace 2>/dev/null
		fi
		return
	fi
	mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}

# spe and every spe-<command> of the build (filled in by cmake/spe_install.cmake).
complete -o filenames -o bashdefault -F _spe @SPE_COMMAND_NAMES@
