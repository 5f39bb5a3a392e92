#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# Kernel code without a function in ClickHouse as in SQLite (latency_rollup.c, ch_functions.c): one
# symbol_summary / hot_symbol row per kernel map path (mapping_id, the smallest id of a map of
# that path), apart from the user records without one, across captures too.  Two captures of
# fixtures/kernel (tests/analysis/cli_kernel.sh), one named by the kallsyms file of its boot, one
# by another boot's (its modules unnamed), in both stores of a current ClickHouse (chdb.sh);
# the views compared row by row (ch_compare), and spe-report --clickhouse's JSON.
#   kernel_unknowns.sh KERNEL_PERFDATA LOAD QUERY REPORT COMPARE FIXTURES CHDB_HTTP CHDB_DIR VERSION SHA512
# Skips (77) only when the npm registry cannot be reached to fetch the package.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/testlib.sh"
gen=$1 load=$2 query=$3 report=$4 compare=$5 fx=$6 chdb_http=$7 chdb_dir=${SPE_CHDB_CACHE:-$8} version=$9
shift 9
sha512=$1
ch_conf_dir=$here
. "$here/cluster.sh"
. "$here/chdb.sh"
sh "$here/chdb_fetch.sh" "$chdb_dir" "$version" "$sha512"
rc=$?
[ $rc = 0 ] || exit $rc
scratch_dir clickhouse-kernel
ch_chdb_start "$tmp/chdb" "$chdb_http" "$chdb_dir/libchdb.so" || exit 1
trap 'ch_chdb_stop "$tmp/chdb"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
url="http://127.0.0.1:$CH_PORT/?database=spe"
run() { ${SPE_RUN:-} "$@"; }

mode=""
for b in boot other; do
	{ echo "osrelease 6.1.0-spekit-test"
	  echo "kernel 0xffffc9a2d5400000 0x16000 0xffffc9a2d5400000 [kernel.kallsyms]_text"
	  cat "$fx/kernel/machine.spec"; } >"$tmp/$b.spec"
	run "$gen" "$tmp/$b.spec" "$tmp/$b.data" || { echo "FAIL kernel_perfdata $b"; exit 1; }
	# the same records twice would be refused: the second capture on another host
	[ $b = other ] && sed -i 's/^comm 4242 work$/comm 4243 work/' "$tmp/$b.spec" && run "$gen" "$tmp/$b.spec" "$tmp/$b.data"
	run "$load" "$tmp/$b.data" --kallsyms="$fx/kernel/kallsyms.$b" -o "$tmp/all.db" $mode 2>/dev/null ||
		{ echo "FAIL sqlite load $b"; exit 1; }
	mode=--append
	run "$load" "$tmp/$b.data" --kallsyms="$fx/kernel/kallsyms.$b" --clickhouse="$url" 2>"$tmp/err"
	expect "load_${b}_rc" $? 0
done
expect sqlite_rows "$(run "$query" -d "$tmp/all.db" --format=csv \
	"SELECT coalesce(mapping, 'user') AS mapping, samples FROM hot_symbol WHERE symbol IS NULL ORDER BY 1" | tr -d '\r')" \
"mapping,samples
/lib/modules/6.1.0-spekit-test/extra/lastmod.ko.xz,2
/lib/modules/6.1.0-spekit-test/kernel/drivers/himod.ko,4
/lib/modules/6.1.0-spekit-test/kernel/drivers/my-mod.ko,3
[kernel.kallsyms],4
user,2"
views="symbol_summary hot_symbol pc_summary hot_pc mapping symbol insn pc_latency"
# shellcheck disable=SC2086 # the views are words
out=$(run "$compare" "$query" "$tmp/all.db" "$url" $views)
st=$?
printf '%s\n' "$out"
expect views_identical $st 0
expect views_compared "$(printf '%s\n' "$out" | grep -c '^ok ')" "$(echo $views | wc -w)"
rep=$(run "$report" --clickhouse="$url" --format=json 2>"$tmp/err")
expect report_rc $? 0
has report_kernel "$rep" '{"symbol": null, "mapping": "[kernel.kallsyms]", "samples": 4'
has report_user "$rep" '{"symbol": null, "mapping": null, "samples": 2'
exit $fail
