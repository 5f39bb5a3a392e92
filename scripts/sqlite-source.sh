#!/usr/bin/env bash
# scripts/sqlite-source.sh DIR: SQLite's amalgamation (DIR/sqlite3.c and
# DIR/sqlite3.h) made from Debian's source package of sqlite3, for the build
# option SPE_SQLITE_LINK=source (cmake/spe_sqlite.cmake runs this at configure
# time; README.md, "Build by hand").
#
# - The version is the installed libsqlite3-dev's (the library the build would
#   link otherwise, with the same Debian patches), or the newest of the
#   release's suites when that one is gone from the mirror or none is installed.
# - The source package comes the Debian way without touching the system's apt
#   configuration: `apt-get source` with a private sources list (deb-src lines
#   for this release and its security and updates suites), package lists and
#   cache under DIR/apt.  apt checks every file against the hashes of the
#   Sources index, whose Release file must be signed by a key of
#   debian-archive-keyring; dpkg-source applies Debian's patches.
# - The full source tree is turned into the amalgamation by SQLite's own
#   configure and `make sqlite3.c`, which needs tclsh (package tcl).
# Nothing is copied into the repository: DIR is in the build tree or a cache
# (SPE_SQLITE_CACHE).  A second run with the same version does nothing.
# Environment: SPE_DEBIAN_MIRROR (default http://deb.debian.org/debian),
# SPE_DEBIAN_SECURITY_MIRROR (default http://deb.debian.org/debian-security).
# Exit 0 with DIR/sqlite3.c ready, else non-zero and the reason on stderr
# (the build then links the system library).
set -euo pipefail
dir=${1:?usage: scripts/sqlite-source.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

fail() { echo "sqlite-source: $*" >&2; exit 1; }

for tool in apt-get dpkg-source tclsh make cc; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (scripts/deps.sh installs it)"
done
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || fail "$keyring is missing (package debian-archive-keyring)"
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || fail "no VERSION_CODENAME in /etc/os-release: not a Debian release"

# Several builds may share DIR (scripts/build.sh points them at one cache).
exec 9>"$dir/.lock"
flock 9

want=$(dpkg-query -W -f='${Version}\n' libsqlite3-dev 2>/dev/null | head -n 1 || true)
if [ -f "$dir/sqlite3.c" ] && { [ -z "$want" ] || [ "$(cat "$dir/debian-version" 2>/dev/null)" = "$want" ]; }; then
  exit 0
fi

log=$dir/sqlite-source.log
: >"$log"
apt_dir=$dir/apt
rm -rf "$apt_dir"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/sources.list.d"
mirror=${SPE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${SPE_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
cat >"$apt_dir/sources.list" <<EOF
deb-src [signed-by=$keyring] $mirror $codename main
deb-src [signed-by=$keyring] $mirror $codename-updates main
deb-src [signed-by=$keyring] $security $codename-security main
EOF
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o Debug::NoLocking=1
          -o Acquire::Retries=2 -o Acquire::http::Timeout=30 -o APT::Sandbox::User=root -q)

echo "sqlite-source: fetching Debian's sqlite3 source package ($codename) into $dir" >&2
apt-get "${apt_opts[@]}" update >>"$log" 2>&1 || fail "apt-get update failed (log: $log)"
# apt-get update exits 0 when a suite could not be fetched or verified.
ls "$apt_dir/lists/"*"_dists_${codename}_main_source_Sources"* >/dev/null 2>&1 ||
  fail "no verified Sources index for $codename from $mirror (log: $log)"

src=$dir/src
rm -rf "$src"
mkdir -p "$src"
fetched=""
for spec in ${want:+"sqlite3=$want"} sqlite3; do
  if (cd "$src" && apt-get "${apt_opts[@]}" source --download-only "$spec") >>"$log" 2>&1; then
    fetched=$spec
    break
  fi
  echo "sqlite-source: $spec is not on the mirror; trying the newest" >>"$log"
done
[ -n "$fetched" ] || fail "apt-get source sqlite3 failed (log: $log)"
dsc=$(ls "$src"/sqlite3_*.dsc)
version=$(sed -n 's/^Version: //p' "$dsc")
# The files' hashes were checked by apt against the signed index; without
# debian-keyring installed dpkg-source cannot check the maintainer's own
# signature of the .dsc too, and says so in the log.
(cd "$src" && dpkg-source -x "$dsc" tree) >>"$log" 2>&1 || fail "dpkg-source -x $dsc failed (log: $log)"

# The amalgamation, from a host build of SQLite's own tools (never the cross compiler).
bld=$src/build
mkdir -p "$bld"
(cd "$bld" && env -u CFLAGS -u CPPFLAGS -u LDFLAGS CC=cc "$src/tree/configure" --disable-tcl \
  --disable-readline --disable-load-extension >>"$log" 2>&1 &&
  make -j"$(nproc)" sqlite3.c >>"$log" 2>&1) || fail "making the amalgamation failed (log: $log)"
cp "$bld/sqlite3.c" "$dir/sqlite3.c.tmp"
cp "$bld/sqlite3.h" "$dir/sqlite3.h"
mv "$dir/sqlite3.c.tmp" "$dir/sqlite3.c"
echo "$version" >"$dir/debian-version"
# Keep the source package (14 MB) beside the result, drop the 150 MB tree.
rm -rf "$bld" "$src/tree" "$apt_dir"
echo "sqlite-source: sqlite3 $version: $dir/sqlite3.c" >&2
