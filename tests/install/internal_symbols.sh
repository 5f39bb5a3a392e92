#!/bin/sh
# The internal static libraries name every global symbol with their prefix
# (docs/architecture.md, "Names"): a function another file of the library needs
# is hidden and prefixed, anything else static.
#   internal_symbols.sh LIBSPE.a ARCHIVE=PREFIX[,PREFIX...]...
#  - each ARCHIVE defines no global symbol outside its PREFIXes;
#  - no global symbol is defined by two archives, nor by an archive and
#    libspe.a (whose own exports install_libspe_exports checks).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
libspe=$1
shift
scratch_dir internal-symbols
nm -g --defined-only "$libspe" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/all"
[ -s "$tmp/all" ] || { echo "FAIL no global symbol in $libspe"; exit 1; }
for arg in "$@"; do
	a=${arg%%=*}
	prefixes=${arg#*=}
	name=$(basename "$a")
	re="^($(echo "$prefixes" | sed 's/,/|/g'))"
	# under ASan each instrumented global has an ODR indicator named after it
	nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' | sed -E 's/^__odr_asan(_gen_|\.)//' | sort -u >"$tmp/$name"
	[ -s "$tmp/$name" ] || { echo "FAIL no global symbol in $a"; fail=1; continue; }
	expect "$name: every global named $prefixes" "$(grep -Ev "$re" "$tmp/$name")" ""
	expect "$name: no global also defined elsewhere" "$(sort "$tmp/all" "$tmp/$name" | uniq -d)" ""
	sort -u "$tmp/all" "$tmp/$name" -o "$tmp/all"
done
exit $fail
