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

# big_recording RECORD FIXTURES OUT: a large perf.data, the datawork trace 300 times over (606,000
# records, 39 MB) replayed by spe-record (RECORD), for tests that need a command busy for a while
# (signals, races).  Returns spe-record's status.
big_recording() {
	traces=$2/workloads/traces
	for c in 0 1 2; do
		i=0
		while [ $i -lt 300 ]; do cat "$traces/datawork-cpu$c.bin"; i=$((i + 1)); done >"$tmp/cpu$c.bin"
	done
	sed 's|aux datawork-cpu\([0-9]\).bin|aux cpu\1.bin|' "$traces/datawork.replay" >"$tmp/big.replay"
	${SPE_RUN:-} "$1" --replay="$tmp/big.replay" -o "$3" >/dev/null 2>&1
}
