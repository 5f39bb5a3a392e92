#!/bin/sh
# westmere_table.sh DATA_DIR GENERATED_H: analysis/topdown/data/westmere_events.tsv
# replaced the copy of FreeBSD's pmc.westmere(3) the build used to parse
# (data/PROVENANCE.md).  The event table it generates must be the one the man
# page gave: the same rows, byte for byte, as the build produced from the page
# at commit c902517 (272 events; sha256 of the header after its first line).
# An intended change to the table changes this checksum with it.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
data=$1 generated=$2
scratch_dir westmere-table
awk -f "$data/gen_event_table.awk" "$data/westmere_events.tsv" >"$tmp/westmere_events.h" ||
	{ echo "FAIL gen_event_table.awk"; exit 1; }
expect "the build's header is what the table generates" "$(cat "$generated")" "$(cat "$tmp/westmere_events.h")"
expect "rows generated from pmc.westmere(3) at c902517" \
	"$(tail -n +2 "$tmp/westmere_events.h" | sha256sum | cut -d' ' -f1)" \
	91d6c8a5db5ea5d665ddd11aff0da45391e70e08ffa8cabca429a11865d4ae37
expect "events" "$(grep -c '^	X(' "$tmp/westmere_events.h")" 272
# a malformed line stops the build, naming it
printf 'BAD.EVENT\t0E\n' >"$tmp/bad.tsv"
awk -f "$data/gen_event_table.awk" "$tmp/bad.tsv" >/dev/null 2>"$tmp/err"
expect "malformed line: exit" $? 1
has "malformed line: message" "$(cat "$tmp/err")" "bad.tsv:1: not NAME"
exit $fail
