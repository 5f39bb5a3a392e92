#!/bin/sh
# doc_section.sh DOC MARKER PROGRAM: the lines of DOC between "<!-- MARKER -->"
# and "<!-- end MARKER -->" must be what PROGRAM prints.
doc=$1 marker=$2 program=$3
${SPE_RUN:-} "$program" >"${TMPDIR:-/tmp}/doc_section.$$" || exit 1
awk -v begin="<!-- $marker -->" -v end="<!-- end $marker -->" '
	$0 == end { inside = 0 }
	inside { print }
	$0 == begin { inside = 1 }
' "$doc" | diff -u "${TMPDIR:-/tmp}/doc_section.$$" - ||
	{ echo "$doc: the section \"$marker\" differs from the output of $program (+ is the doc): paste that output in"; rm -f "${TMPDIR:-/tmp}/doc_section.$$"; exit 1; }
rm -f "${TMPDIR:-/tmp}/doc_section.$$"
