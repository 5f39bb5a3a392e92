#!/bin/sh
# installed_tree_checks.sh PREFIX WORK SRC_DIR BUILD_DIR: the checks of
# installed_tree.sh on an installed (and moved) prefix, run from a copy
# beside it while SRC_DIR and BUILD_DIR are hidden.  WORK is scratch space.
set -u
. "$(dirname "$0")/testlib.sh"
p=$1 work=$2 src=$3 build=$4
mkdir -p "$work"
cd "$work" || exit 1

# --- nothing points into the source or build tree -------------------------
# Text files must not name them; ELF files only in their debug information.
leaks=$(grep -rlI -e "$src" -e "$build" "$p" 2>/dev/null)
for f in $(find "$p" -type f \( -name '*.so*' -o -name '*.a' -o -path '*/bin/*' \)); do
	strip --strip-debug -o "$work/stripped" "$f" 2>/dev/null || continue
	grep -q -e "$src" -e "$build" "$work/stripped" && leaks="$leaks $f"
done
expect "no installed file names the source or build tree" "$leaks" ""

# --- every installed command: runs, has a man page and completion ----------
ncmd=0
for exe in "$p"/bin/*; do
	cmd=$(basename "$exe")
	ncmd=$((ncmd + 1))
	"$exe" --help >/dev/null 2>&1
	expect "$cmd --help exits 0" $? 0
	man -M "$p/share/man" -w "$cmd" >/dev/null 2>&1 || { echo "FAIL $cmd: no man page under $p/share/man"; fail=1; }
	comp="$p/share/bash-completion/completions/$cmd"
	reg=$(bash -c ". '$comp' && complete -p '$cmd'" 2>&1)
	has "$cmd: completion file registers it" "$reg" "-F _spe $cmd"
done
[ "$ncmd" -ge 8 ] || { echo "FAIL only $ncmd commands in $p/bin"; fail=1; }
expect "spe-dump finds libspe in the prefix" \
	"$(readlink -f "$(ldd "$p/bin/spe-dump" | awk '$1 ~ /^libspe\.so/ { print $3 }')")" \
	"$(readlink -f "$p/lib/libspe.so.0")"

# --- the README's main job, from the installed commands -------------------
sh "$p/share/spekit/demo/demo.sh" "$work/demo" >"$work/demo.out" 2>&1
rc=$?
expect "demo.sh exit" $rc 0
[ $rc -eq 0 ] || cat "$work/demo.out"
demo=$(cat "$work/demo.out")
has "demo: report counts every record" "$demo" "SPE records: 1200"
has "demo: the hottest symbol, with its source line" "$demo" "chase                                   400          77775    85.2%  ./memwork.c:34"
has "demo: false sharing found" "$demo" "bump_shared        2     150   100        100"
has "demo: datawork's huge-page hint" "$demo" "Huge pages: 7 regions of 2 MiB take 97.0% of translation latency"
has "demo: datawork's heap_scan got faster" "$demo" "88209 -> 21758  -66451 [-76944, -55958]        398 -> 388       faster"
for page in memwork datawork datawork-diff; do
	xmllint --noout "$work/demo/$page.html" 2>/dev/null || { echo "FAIL demo: $page.html is not a well-formed page"; fail=1; }
done
expect "demo: commands run from the prefix" \
	"$(sed -n 's/.*try: \(.*\)\/spe-query .*/\1/p' "$work/demo.out")" "$p/bin"

# --- the library from a program of its own --------------------------------
trace=$p/share/spekit/demo/memwork-cpu0.bin
export PKG_CONFIG_PATH="$p/lib/pkgconfig"
cflags=$(pkg-config --cflags libspe) libs=$(pkg-config --libs libspe)
expect "pkg-config --modversion libspe" "$(pkg-config --modversion libspe)" "$(sed -n 's/^Version: //p' "$p/lib/pkgconfig/libspe.pc")"
mkdir -p "$work/cmake"
cat >"$work/cmake/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.18)
project(spekit_user C)
find_package(spekit REQUIRED)
EOF
nex=0
for c in "$p"/share/doc/spekit/examples/*.c; do
	ex=$(basename "$c" .c)
	nex=$((nex + 1))
	cc -Wall -Wextra -Werror $cflags "$c" $libs -o "$work/$ex-shared" ||
		{ echo "FAIL $ex: cc with pkg-config --cflags --libs libspe"; fail=1; continue; }
	cc -Wall -Wextra -Werror $(pkg-config --static --cflags libspe) "$c" \
		-Wl,-Bstatic $(pkg-config --static --libs libspe) -Wl,-Bdynamic -o "$work/$ex-static" ||
		{ echo "FAIL $ex: cc with pkg-config --static (libspe.a)"; fail=1; continue; }
	expect "$ex-static has no libspe.so dependency" "$(ldd "$work/$ex-static" | grep -c libspe)" 0
	cp "$c" "$work/cmake/"
	printf 'add_executable(%s %s.c)\ntarget_link_libraries(%s PRIVATE spekit::spe)\n' "$ex" "$ex" "$ex" >>"$work/cmake/CMakeLists.txt"
	printf 'add_executable(%s_static %s.c)\ntarget_link_libraries(%s_static PRIVATE spekit::spe_static)\n' "$ex" "$ex" "$ex" >>"$work/cmake/CMakeLists.txt"
done
[ "$nex" -ge 2 ] || { echo "FAIL only $nex examples in $p/share/doc/spekit/examples"; fail=1; }
{ cmake -S "$work/cmake" -B "$work/cmake/build" -DCMAKE_PREFIX_PATH="$p" &&
	cmake --build "$work/cmake/build"; } >"$work/cmake.log" 2>&1 ||
	{ cat "$work/cmake.log"; echo "FAIL find_package(spekit) project"; fail=1; }

for c in "$p"/share/doc/spekit/examples/*.c; do
	ex=$(basename "$c" .c)
	LD_LIBRARY_PATH="$p/lib" "$work/$ex-shared" "$trace" >"$work/$ex.shared.out"
	expect "$ex (pkg-config) exit" $? 0
	"$work/$ex-static" "$trace" >"$work/$ex.static.out"
	expect "$ex (libspe.a) exit" $? 0
	"$work/cmake/build/$ex" "$trace" >"$work/$ex.cmake.out"
	expect "$ex (spekit::spe) exit" $? 0
	"$work/cmake/build/${ex}_static" "$trace" >"$work/$ex.cmake-static.out"
	expect "$ex (spekit::spe_static) exit" $? 0
	for v in static cmake cmake-static; do
		cmp -s "$work/$ex.shared.out" "$work/$ex.$v.out" || { echo "FAIL $ex: $v output differs from pkg-config's"; fail=1; }
	done
done
# memwork-cpu0.bin: 1050 64-byte records of CPU 0 (fixtures/workloads/gen_traces.c)
expect "decode_records: one line per record" "$(wc -l <"$work/decode_records.shared.out")" 1050
expect "dump_buffer: the same packets as spe-dump --raw" \
	"$(grep -c . "$work/dump_buffer.shared.out")" \
	"$("$p/bin/spe-dump" --raw --perf-compat=6.1 -q "$trace" | grep -c '^\.  ')"

# the public header alone, as C and C++
printf '#include "spe/spe.h"\nint main(void) { return spe_errstr(-spe_eos) == 0; }\n' >"$work/h.c"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror $cflags "$work/h.c" $libs -o "$work/h" ||
	{ echo "FAIL spe/spe.h as C11"; fail=1; }
cp "$work/h.c" "$work/h.cc"
c++ -std=c++11 -Wall -Wextra -Werror $cflags "$work/h.cc" $libs -o "$work/hxx" ||
	{ echo "FAIL spe/spe.h as C++11"; fail=1; }

# --- man pages from the prefix ---------------------------------------------
page=$(MANWIDTH=80 man -M "$p/share/man" spe-record 2>&1)
has "man -M PREFIX/share/man spe-record" "$page" "spe-record - compile Arm SPE filters"
has "man spe-record: OPTIONS" "$page" "--replay=FILE"
page=$(MANWIDTH=80 man -M "$p/share/man" spe_rec_next 2>&1)
has "man spe_rec_next opens libspe(3)" "$page" "libspe - the Arm SPE decoder library"
page=$(MANWIDTH=80 man -M "$p/share/man" 5 spe-schema 2>&1)
has "man 5 spe-schema" "$page" "spe-schema - the spekit SQLite database schema"
exit $fail
