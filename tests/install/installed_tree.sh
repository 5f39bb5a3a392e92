#!/bin/sh
# The installed tree works on its own:
#   installed_tree.sh SRC_DIR BUILD_DIR
# `cmake --install BUILD --prefix STAGE`, then STAGE is moved to another
# directory P (so nothing may point back at STAGE), and, where a mount
# namespace is available (unshare), the source and build trees are hidden
# under empty tmpfs mounts while installed_tree_checks.sh runs on P:
# the README's main job from the installed commands, docs/examples/*.c built
# with pkg-config (shared and static) and with find_package(spekit) and run,
# man -M P/share/man for every command and API page, bash completion for
# every installed command, and no file under P naming the source or build
# tree outside debug information.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
scratch_dir installed-tree
case $tmp in
"$src"/* | "$build"/*) echo "FAIL TMPDIR ($tmp) is inside the trees this test hides"; exit 1 ;;
esac

cmake --install "$build" --prefix "$tmp/stage" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; echo "FAIL cmake --install"; exit 1; }
mv "$tmp/stage" "$tmp/prefix"
cp "$here/installed_tree_checks.sh" "$here/../lib/testlib.sh" "$tmp/"

run_checks="sh $tmp/installed_tree_checks.sh $tmp/prefix $tmp/work $src $build"
# Hide both trees where we may: a private mount namespace, as root or in a
# user namespace.  Elsewhere the checks still run on the moved prefix, and
# the scan for paths into the trees stands in for hiding them.
# (the build tree first: it is often inside the source tree)
hide="mount -t tmpfs spe-hidden '$build' && mount -t tmpfs spe-hidden '$src' && test ! -e '$src/CMakeLists.txt'"
if unshare -m sh -c "$hide" 2>/dev/null; then
	unshare -m sh -c "$hide && $run_checks"
elif unshare -rm sh -c "$hide" 2>/dev/null; then
	unshare -rm sh -c "$hide && $run_checks"
else
	echo "note: no mount namespace here; the source and build trees stay visible"
	$run_checks
fi
