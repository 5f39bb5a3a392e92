#!/bin/sh
# The Debian packages (debian/, docs/libraries.md):
#   debian_package.sh SRC_DIR
# Builds spekit, libspe0 and libspe-dev with dpkg-buildpackage from a copy of
# the tree (the files git knows, or the tree without build/ and .git/), with
# DEB_BUILD_OPTIONS="nocheck noautodbgsym": the suite that would run there
# is the one this test belongs to, and the -dbgsym packages only cost time.
# About 15 s on an idle 2-core machine, lintian 8 s more.  Then:
#  - lintian reports no error and no warning (overrides: debian/*.lintian-overrides);
#  - each package holds what it should and depends on what it should;
#  - dpkg --dry-run -i accepts the three on this machine;
#  - unpacked together into an empty root, the commands run the demo, every
#    command has its man page and completion, and an example program builds
#    against the unpacked libspe-dev through pkg-config.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
src=$(cd "$1" && pwd)
scratch_dir debian-package
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
tree=$tmp/spekit-$version
mkdir -p "$tree"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$tree"
else
	(cd "$src" && tar -cf - --exclude=./build --exclude=./.git .) | tar -xf - -C "$tree"
fi

start=$(date +%s)
(cd "$tree" && DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=$(nproc)" dpkg-buildpackage -b -us -uc) >"$tmp/build.log" 2>&1 ||
	{ tail -40 "$tmp/build.log"; echo "FAIL dpkg-buildpackage"; exit 1; }
built=$(date +%s)
changes=$tmp/spekit_${version}_$arch.changes
lintian --fail-on error,warning --info "$changes" >"$tmp/lintian.log" 2>&1
rc=$?
expect "lintian: no error or warning" $rc 0
[ $rc -eq 0 ] || grep -v '^N:' "$tmp/lintian.log"
linted=$(date +%s)
echo "dpkg-buildpackage $((built - start)) s, lintian $((linted - built)) s"

deb() { echo "$tmp/${1}_${version}_$arch.deb"; }
for p in spekit libspe0 libspe-dev; do
	[ -f "$(deb $p)" ] || { echo "FAIL no $p package"; fail=1; }
done
[ $fail -eq 0 ] || exit 1

# dependencies: the commands need the library of the same release, the
# headers the exact library (and libzstd's headers: libspe.pc requires libzstd
# for static links), the library only libc and libzstd (perf record -z data)
has "spekit Depends" "$(dpkg-deb -f "$(deb spekit)" Depends)" "libspe0 (>= $version)"
for lib in libsqlite3-0 libdw1 libelf1 libcapstone4; do
	has "spekit Depends $lib" "$(dpkg-deb -f "$(deb spekit)" Depends)" "$lib"
done
expect "libspe-dev Depends" "$(dpkg-deb -f "$(deb libspe-dev)" Depends)" "libspe0 (= $version), libzstd-dev"
expect "libspe0 Depends" "$(dpkg-deb -f "$(deb libspe0)" Depends | sed 's/ ([^)]*)//g')" "libc6, libzstd1"

# contents
contents() { dpkg-deb -c "$(deb "$1")" | awk '{ print $6 }' | sed 's|^\./|/|'; }
spekit_files=$(contents spekit)
for f in /usr/bin/spe /usr/share/man/man1/spe-record.1.gz /usr/share/man/man5/spe-schema.5.gz \
	/usr/share/bash-completion/completions/spe /usr/share/spekit/demo/demo.sh; do
	has "spekit holds $f" "$spekit_files" "$f"
done
lib_files=$(contents libspe0)
has "libspe0 holds the shared library" "$lib_files" "/usr/lib/$multiarch/libspe.so.0"
expect "libspe0 holds no headers or man pages" "$(echo "$lib_files" | grep -c -e /include/ -e /man/)" 0
dev_files=$(contents libspe-dev)
for f in /usr/include/spe/spe.h "/usr/lib/$multiarch/libspe.a" "/usr/lib/$multiarch/pkgconfig/libspe.pc" \
	"/usr/lib/$multiarch/cmake/spekit/spekitConfig.cmake" /usr/share/man/man3/libspe.3.gz \
	/usr/share/doc/libspe-dev/examples/decode_records.c; do
	has "libspe-dev holds $f" "$dev_files" "$f"
done
dpkg-deb -x "$(deb libspe0)" "$tmp/libspe0"
expect "the symbols file lists every export of libspe.so.0" \
	"$(dpkg-deb --ctrl-tarfile "$(deb libspe0)" | tar -xOf - ./symbols | sed -n 's/^ \(spe_[a-z0-9_]*@LIBSPE_0\) .*/\1/p' | sort)" \
	"$(nm -D --defined-only "$tmp/libspe0/usr/lib/$multiarch/libspe.so.0" | awk '$2 == "T" { sub(/@@/, "@", $3); print $3 }' | sort)"

# (dpkg wants root even to pretend; elsewhere the unpacked root below stands in)
if [ "$(id -u)" -eq 0 ]; then
	dpkg --dry-run -i "$(deb spekit)" "$(deb libspe0)" "$(deb libspe-dev)" >"$tmp/dry-run.log" 2>&1
	rc=$?
	expect "dpkg --dry-run -i" $rc 0
	[ $rc -eq 0 ] || cat "$tmp/dry-run.log"
fi

# the three packages unpacked into an empty root, used from there
root=$tmp/root
for p in spekit libspe0 libspe-dev; do dpkg-deb -x "$(deb $p)" "$root"; done
export LD_LIBRARY_PATH="$root/usr/lib/$multiarch"
sh "$root/usr/share/spekit/demo/demo.sh" "$tmp/demo" >"$tmp/demo.out" 2>&1
rc=$?
expect "demo from the package" $rc 0
[ $rc -eq 0 ] || cat "$tmp/demo.out"
has "demo report" "$(cat "$tmp/demo.out")" "SPE records: 1200"
for exe in "$root"/usr/bin/*; do
	cmd=$(basename "$exe")
	man -M "$root/usr/share/man" -w "$cmd" >/dev/null 2>&1 || { echo "FAIL $cmd: no man page in the package"; fail=1; }
	[ -e "$root/usr/share/bash-completion/completions/$cmd" ] || { echo "FAIL $cmd: no completion in the package"; fail=1; }
done
# the release the package says is the one its programs say (CMake's project version)
expect "spe --version is the package's" "$("$root/usr/bin/spe" --version)" "spe (spekit) ${version%%-*}"
has "man spe-load from the package" "$(MANWIDTH=80 man -M "$root/usr/share/man" spe-load 2>&1)" "spe-load - load Arm SPE traces"
# libzstd.pc (libspe.pc's Requires.private) is the system's: libspe-dev depends on libzstd-dev
export PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root/usr/lib/$multiarch/pkgconfig:/usr/lib/$multiarch/pkgconfig"
expect "libspe.pc has plain /usr paths" "$(sed -n 's/^prefix=//p' "$root/usr/lib/$multiarch/pkgconfig/libspe.pc")" /usr
ex=$root/usr/share/doc/libspe-dev/examples/decode_records.c
[ -f "$ex" ] || ex=$ex.gz
zcat -f "$ex" >"$tmp/decode_records.c"
cc $(pkg-config --cflags libspe) "$tmp/decode_records.c" $(pkg-config --libs libspe) -o "$tmp/decode_records" ||
	{ echo "FAIL example against libspe-dev"; fail=1; }
expect "example against the packaged libspe" \
	"$("$tmp/decode_records" "$root/usr/share/spekit/demo/memwork-cpu0.bin" | wc -l)" 1050
exit $fail
