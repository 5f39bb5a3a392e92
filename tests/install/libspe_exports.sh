#!/bin/sh
# libspe exports exactly its documented API (docs/libraries.md):
#   libspe_exports.sh LIBSPE.so LIBSPE.a SRC_DIR
#  - nm -D of the shared library lists the SPE_API functions of the public
#    headers (decoder/include/spe/*.h), all in the version node LIBSPE_0, and
#    nothing else;
#  - the static library defines the same global symbols and no other (its
#    internal names are local), so no unprefixed global reaches a user;
#  - each export is named in an API page (the man3 sources), and each
#    function those pages declare in their SYNOPSIS is exported;
#  - the SONAME is libspe.so.N with N the Debian package's libspeN.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
so=$1 a=$2 src=$3
scratch_dir libspe-exports
api_docs="$src/docs/decoder-api.md $src/docs/perfdata-api.md"

# SPE_API declarations: the preprocessed headers (comments gone, SPE_API
# expanded to its visibility attribute), one statement per line; the name
# before the first "(" after the attribute of each such statement.
for h in "$src"/decoder/include/spe/*.h; do
	echo "#include \"spe/$(basename "$h")\""
done | ${CC:-cc} -E -P -I"$src/decoder/include" -x c - | tr '\n' ' ' | tr ';{}' '\n\n\n' |
	sed -n 's/.*visibility *( *"default" *) *) *)[^(]*[^a-z0-9_]\(spe_[a-z0-9_]*\) *(.*/\1/p' |
	sort -u >"$tmp/headers"
[ -s "$tmp/headers" ] || { echo "FAIL no SPE_API declaration found in $src/decoder/include/spe"; exit 1; }

nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' >"$tmp/dynsyms"
sed 's/@.*//' "$tmp/dynsyms" | sort -u >"$tmp/exports"
expect "exports = SPE_API declarations" "$(comm -3 "$tmp/exports" "$tmp/headers")" ""
expect "every export in LIBSPE_0" "$(grep -v '@@LIBSPE_0$' "$tmp/dynsyms")" ""
expect "only spe_ names exported" "$(grep -v '^spe_' "$tmp/exports")" ""
expect "version node LIBSPE_0 defined" "$(nm -D --defined-only "$so" | awk '$2 == "A" { print $3 }')" "LIBSPE_0"

nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/static"
expect "libspe.a globals = exports" "$(comm -3 "$tmp/static" "$tmp/exports")" ""

# documented: the name as a word in an API page
undocumented=""
for f in $(cat "$tmp/exports"); do
	# shellcheck disable=SC2086
	grep -qw "$f" $api_docs || undocumented="$undocumented $f"
done
expect "every export documented in docs/decoder-api.md or docs/perfdata-api.md" "$undocumented" ""

# declared in a SYNOPSIS block (name followed by "(") but not exported
for d in $api_docs; do
	awk '/^#+ SYNOPSIS/ { on = 1; next } on && /^#+ / { on = 0 } on' "$d"
done | grep -o 'spe_[a-z0-9_]*(' | tr -d '(' | sort -u >"$tmp/synopsis"
expect "every SYNOPSIS function exported" "$(comm -23 "$tmp/synopsis" "$tmp/exports")" ""

soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
pkg=$(sed -n 's/^Package: \(libspe[0-9][0-9]*\)$/\1/p' "$src/debian/control")
expect "SONAME matches the Debian package" "$soname" "$(echo "$pkg" | sed 's/^libspe\([0-9]*\)$/libspe.so.\1/')"
exit $fail
