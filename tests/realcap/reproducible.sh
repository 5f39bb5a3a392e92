#!/bin/sh
# The committed aarch64 programs of the kit are what their build script makes:
#   reproducible.sh FIXTURES_DIR WORKDIR
# rebuilds fixtures/workloads/realcap into WORKDIR and compares every program,
# rebuilt-v1 and the build-id debug files with the committed ones, byte for
# byte.  Exit 77 without Debian's aarch64 cross compiler.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
fx=$1 work=$2
command -v "${CC:-aarch64-linux-gnu-gcc}" >/dev/null || { echo "SKIP: no aarch64-linux-gnu-gcc"; exit 77; }
rm -rf "$work" && mkdir -p "$work/sysroot"
if ! sh "$fx/workloads/realcap/build.sh" "$work/sysroot" >"$work/build.log" 2>&1; then
	cat "$work/build.log"
	exit 1
fi
built=$(cd "$work/sysroot" && find usr/bin usr/lib/debug -type f | sort)
committed=$(cd "$fx/realcap/sysroot" && find usr/bin usr/lib/debug -type f | sort)
expect "the same files" "$built" "$committed"
for f in $built; do
	cmp -s "$work/sysroot/$f" "$fx/realcap/sysroot/$f" || { echo "FAIL $f differs from the committed one"; fail=1; }
done
cmp -s "$work/rebuilt-v1" "$fx/realcap/rebuilt-v1" || { echo "FAIL rebuilt-v1 differs from the committed one"; fail=1; }
[ "$fail" = 0 ] && echo "$(echo "$built" | wc -l) files and rebuilt-v1 rebuilt identically"
exit $fail
