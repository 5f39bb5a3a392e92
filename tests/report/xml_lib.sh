# The report tests' readers of a page's tables (POSIX sh; source after
# testlib.sh and scratch_dir, with xmllint installed):
#   col FILE ID COL [XPATH]   the text of every cell of column COL (td[@data-col])
#                             in table ID, one a line; XPATH below the cell
#                             (/@title, /span) reads a part of it instead
#   table FILE ID COL...      those columns joined as CSV rows
col() {
	rows=$(xmllint --xpath "count(//table[@id='$2']/tbody/tr)" "$1")
	i=1
	while [ "$i" -le "$rows" ]; do
		# (xmllint ends a string result with a newline)
		xmllint --xpath "string(//table[@id='$2']/tbody/tr[$i]/td[@data-col='$3']${4:-})" "$1"
		i=$((i + 1))
	done
}

table() {
	f=$1 id=$2
	shift 2
	files=""
	for c in "$@"; do
		col "$f" "$id" "$c" >"$tmp/col.$c"
		files="$files $tmp/col.$c"
	done
	# shellcheck disable=SC2086
	paste -d, $files
}
