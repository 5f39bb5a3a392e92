# Helpers for the shell tests (POSIX sh).  Source after `set -u`:
#   . "$(dirname "$0")/../lib/testlib.sh"
#   scratch_dir NAME      # $tmp: a fresh directory, removed on exit
#   expect CHECK GOT WANT # GOT must equal WANT
#   has CHECK TEXT PART   # TEXT must contain PART
# A failed check prints FAIL and sets fail=1; end the script with `exit $fail`.
fail=0

scratch_dir() {
	tmp=${TMPDIR:-/tmp}/spe-$1.$$
	mkdir -p "$tmp"
	trap 'rm -rf "$tmp"' EXIT
}

# Long outputs are cut at 60 lines in the report.
expect() {
	if [ "$2" != "$3" ]; then
		printf 'FAIL %s\n--- got\n%s\n--- expected\n%s\n' "$1" "$(printf '%s\n' "$2" | head -60)" \
			"$(printf '%s\n' "$3" | head -60)"
		fail=1
	fi
}

has() {
	case "$2" in
	*"$3"*) ;;
	*)
		printf 'FAIL %s: output lacks "%s"\n%s\n' "$1" "$3" "$(printf '%s\n' "$2" | head -60)"
		fail=1
		;;
	esac
}
