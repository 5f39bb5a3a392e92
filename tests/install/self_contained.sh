#!/bin/sh
# self_contained.sh SRC_DIR: no file of the tree points a reader at something
# only its authors had.  Docs and comments cite files in this repository or
# public references (an Arm ARM section, a kernel or perf source path, an LKML
# thread); a path into the authors' machine (/work/...), the shared reference
# folder (../shared/..., shared/reference/...) or a document only kept there
# (spe-filters.md, perf-interop.md, topdown.md, seeds/) is refused.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
src=$(cd "$1" && pwd)
cd "$src" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files -co --exclude-standard)
else
	files=$(find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||')
fi
hits=$(echo "$files" | grep -v -e '^tests/install/self_contained\.sh$' |
	xargs grep -nIE -e '/work/|\.\./shared|shared/reference|spe-public-data|seeds/' \
		-e '(^|[^-/[:alnum:]_.])(spe-filters|perf-interop|topdown|peers|style|clickhouse)\.md' 2>/dev/null)
expect "citations outside the repository" "$hits" ""
exit $fail
