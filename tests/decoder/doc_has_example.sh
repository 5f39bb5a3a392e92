#!/bin/sh
# doc_has_example.sh DOC.md EXAMPLE.c: the doc must hold EXAMPLE.c verbatim in
# the ```c block that follows the line "<!-- example: EXAMPLE.c -->".
doc=$1
example=$2
name=$(basename "$example")
awk -v marker="<!-- example: $name -->" '
	$0 == marker { found = 1; next }
	found == 1 && /^```c$/ { inside = 1; next }
	inside && /^```$/ { exit }
	inside { print }
' "$doc" | diff -u "$example" - || { echo "$doc: the copy of $name differs (or is missing)"; exit 1; }
