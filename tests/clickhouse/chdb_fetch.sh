#!/bin/sh
# chdb_fetch.sh DIR VERSION SHA512: DIR/libchdb.so, the ClickHouse engine as a
# library from the npm package @chdb/lib-linux-x64-gnu@VERSION, fetched with
# `npm pack` once and kept in DIR (the build tree's cache: the plain and
# sanitizer builds of one checkout share it; SPE_CHDB_CACHE names another).
# The package's tarball must have the SHA-512 given (the registry's integrity
# of that version).  Exit 0 when DIR/libchdb.so is there; 77 with the reason
# when the npm registry cannot be reached or npm is missing; 1 on any other
# failure (a tarball of other bytes, no libchdb.so in it).
set -u
dir=$1 version=$2 sha512=$3
pkg=@chdb/lib-linux-x64-gnu
[ -s "$dir/libchdb.so" ] && [ "$(cat "$dir/version" 2>/dev/null)" = "$version" ] && exit 0
if ! command -v npm >/dev/null 2>&1; then
	echo "SKIP: npm is not installed (scripts/deps.sh installs it): no $pkg@$version" >&2
	exit 77
fi
mkdir -p "$dir" || exit 1
# one fetch at a time (the plain and the sanitizer suites may run side by side)
exec 9>"$dir/.lock"
flock 9
[ -s "$dir/libchdb.so" ] && [ "$(cat "$dir/version" 2>/dev/null)" = "$version" ] && exit 0
rm -rf "$dir/pack" && mkdir -p "$dir/pack" || exit 1
echo "fetching $pkg@$version (npm pack) into $dir" >&2
if ! (cd "$dir/pack" && npm pack --silent "$pkg@$version" >npm.out 2>npm.err); then
	if grep -qiE 'ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|network|proxy' "$dir/pack/npm.err"; then
		echo "SKIP: the npm registry cannot be reached: $(tail -n 3 "$dir/pack/npm.err" | tr '\n' ' ')" >&2
		exit 77
	fi
	echo "FAIL: npm pack $pkg@$version:" >&2
	cat "$dir/pack/npm.err" >&2
	exit 1
fi
tgz=$(ls "$dir"/pack/*.tgz 2>/dev/null | head -n 1)
got=$(sha512sum "$tgz" | cut -d' ' -f1)
if [ "$got" != "$sha512" ]; then
	echo "FAIL: $tgz has SHA-512 $got, not the $sha512 of $pkg@$version" >&2
	exit 1
fi
tar -xzf "$tgz" -C "$dir/pack" package/libchdb.so || { echo "FAIL: no package/libchdb.so in $tgz" >&2; exit 1; }
mv "$dir/pack/package/libchdb.so" "$dir/libchdb.so" && echo "$version" >"$dir/version" && rm -rf "$dir/pack"
