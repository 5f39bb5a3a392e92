#!/bin/sh
# Every command of the build is where a user looks for the list of commands:
#   command_lists.sh SRC COMMAND...   (COMMAND: spe and the spe-* programs)
#  - README.md's command table has a row "| `spe-NAME` |";
#  - spe(1) (docs/spe.1.md) has a row "| NAME |" in its table and names
#    spe-NAME(1) under SEE ALSO.
# A new cli/cmd_<name>.c without these lines fails here.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
src=$1
shift
see_also=$(awk '/^#+ SEE ALSO/ { s = 1; next } /^#/ { s = 0 } s' "$src/docs/spe.1.md")
n=0
for cmd in "$@"; do
	[ "$cmd" = spe ] && continue
	name=${cmd#spe-}
	n=$((n + 1))
	grep -q "^| \`$cmd\` |" "$src/README.md" || { echo "FAIL README.md's command table lacks $cmd"; fail=1; }
	grep -q "^| $name |" "$src/docs/spe.1.md" || { echo "FAIL spe(1)'s command table lacks $name"; fail=1; }
	has "spe(1) SEE ALSO" "$see_also" "$cmd(1)"
done
[ "$n" -ge 5 ] || { echo "FAIL only $n commands given"; fail=1; }
exit $fail
