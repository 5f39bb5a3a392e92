#!/bin/sh
# The generated man pages (docs/CMakeLists.txt):
#   man_pages.sh MANDIR COMMAND...
#  - every command of the build has MANDIR/man1/COMMAND.1, so a new
#    cli/cmd_<name>.c without docs/spe-<name>.1.md fails here;
#  - every page has the sections of its kind: man1 NAME, SYNOPSIS,
#    DESCRIPTION, OPTIONS, EXIT STATUS, FILES, EXAMPLES, SEE ALSO; man3 NAME,
#    SYNOPSIS, DESCRIPTION, SEE ALSO; man5 NAME, DESCRIPTION, SEE ALSO;
#  - groff -ww (every warning) prints nothing for it, nor does man --warnings;
#  - no emphasis starts inside a word (Markdown's perf_event_paranoid must
#    not come out as perf\fIevent\fRparanoid) and no Markdown table row is
#    left as text ("| 74 | ..." when a paragraph split a table);
#  - lexgrog reads its NAME line as "page - summary" (what whatis shows);
#  - each man3 link page (.so) points to a page that exists.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
man=$1
shift
scratch_dir man-pages

for cmd in "$@"; do
	[ -f "$man/man1/$cmd.1" ] || { echo "FAIL $cmd has no man page (docs/$cmd.1.md)"; fail=1; }
done

pages=0
for page in "$man"/man[1-8]/*.[1-8]; do
	[ -f "$page" ] || continue
	name=$(basename "$page")
	section=${name##*.}
	if head -1 "$page" | grep -q '^\.so '; then
		target=$(sed -n 's/^\.so //p' "$page")
		[ -f "$man/$target" ] || { echo "FAIL $name: .so $target does not exist"; fail=1; }
		continue
	fi
	pages=$((pages + 1))
	case $section in
	1) want="NAME|SYNOPSIS|DESCRIPTION|OPTIONS|EXIT STATUS|FILES|EXAMPLES|SEE ALSO" ;;
	3) want="NAME|SYNOPSIS|DESCRIPTION|SEE ALSO" ;;
	*) want="NAME|DESCRIPTION|SEE ALSO" ;;
	esac
	# lowdown writes ".SH" and the heading on the next line
	awk 'prev == ".SH" { print } { prev = $0 }' "$page" >"$tmp/sections"
	missing=$(echo "$want" | tr '|' '\n' | while read -r s; do grep -qx "$s" "$tmp/sections" || printf '%s; ' "$s"; done)
	expect "$name: sections present" "$missing" ""

	expect "$name: groff -ww" "$(groff -t -ww -z -Tutf8 -man "$page" 2>&1)" ""
	expect "$name: man --warnings" "$(MANWIDTH=80 man --warnings=all -l "$page" 2>&1 >/dev/null)" ""
	expect "$name: emphasis inside a word" "$(grep -nE '[A-Za-z0-9]\\f[IB]' "$page")" ""
	# a "| cell | cell |" source line outside code (.EX/.nf) that lowdown did not make a table
	expect "$name: table row left as text" \
		"$(awk '/^\.(EX|nf)/ { code = 1 } /^\.(EE|fi)/ { code = 0 } !code && /^\|.*\|$/' "$page")" ""
	whatis=$(lexgrog "$page" 2>&1)
	base=${name%.*}
	has "$name: lexgrog" "$whatis" "\"$base - "
done
[ "$pages" -ge 3 ] || { echo "FAIL only $pages pages under $man"; fail=1; }
exit $fail
