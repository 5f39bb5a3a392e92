#!/bin/sh
# Every long option a command accepts (the getopt_long table of cli/cmd_NAME.c)
# is described in its man page docs/spe-NAME.1.md: an option that works but
# is documented nowhere is one a user cannot find (--help was missing from
# five pages).  spe-record's options are a table of
# its own that its --help prints whole: install_completion checks those.
#   options_documented.sh SRC_DIR
set -u
. "$(dirname "$0")/../lib/testlib.sh"
src=$1
checked=0
for f in "$src"/cli/cmd_*.c; do
	name=$(basename "$f" .c)
	name=${name#cmd_}
	page=$src/docs/spe-$name.1.md
	for opt in $(sed -n 's/^[[:space:]]*{ "\([a-z0-9-]*\)", [a-z_]*_argument.*/\1/p' "$f" | sort -u); do
		checked=$((checked + 1))
		grep -q -e "--$opt\\b" "$page" || { echo "FAIL spe-$name: --$opt is accepted but not in docs/spe-$name.1.md"; fail=1; }
	done
done
# the table format changing would make this test check nothing
[ "$checked" -ge 40 ] || { echo "FAIL only $checked options found in cli/cmd_*.c"; fail=1; }
echo "$checked options checked"
exit $fail
