#!/bin/sh
# md2man.sh IN.md NAME SECTION VERSION DATE OUT: the man page NAME(SECTION)
# from one of docs/*.md, with Debian's lowdown.
#
# The pages are written in two layouts: NAME, SYNOPSIS... as level-1
# headings, or under a level-1 title line "# name(N)" with the sections as
# level-2 headings; the second is shifted up one level.  md2man.awk prepares
# the Markdown (title line, comments, wide tables).  The roff gets:
#  - "name \- summary" on NAME's line, the form whatis(1) and lexgrog(1) parse;
#  - left-adjusted text without hyphenation (.ad l, .nh), so narrow terminals
#    and table cells need no stretched lines;
#  - non-ASCII characters as groff's \[uXXXX] escapes, so the page renders
#    the same whatever the reader's locale or preprocessor.
set -eu
in=$1 name=$2 section=$3 version=$4 date=$5 out=$6
here=$(dirname "$0")

shift_by=0
if grep -q '^## NAME *$' "$in"; then
	shift_by=-1
fi

awk -f "$here/md2man.awk" "$in" |
	lowdown -s -Tman --parse-no-intraemph -M "title=$name" -M "section=$section" -M "date=$date" \
		-M "source=spekit $version" -M "volume=spekit manual" -M "shiftheadinglevelby=$shift_by" |
	awk '
		/^\.TH / { print; print ".ad l"; print ".nh"; next }
		prev_sh && $0 == "NAME" { in_name = 1 }
		in_name && $0 !~ /^\./ && $0 != "NAME" {
			if (!sub(/ +(—|\\\(em|\\\[em\]) +/, " \\- "))
				sub(/ +- +/, " \\- ")
			in_name = 0
		}
		{ prev_sh = ($0 == ".SH"); print }
	' |
	perl -CSD -pe 's/([^\x00-\x7f])/sprintf("\\[u%04X]", ord($1))/ge' >"$out.tmp"
mv "$out.tmp" "$out"
