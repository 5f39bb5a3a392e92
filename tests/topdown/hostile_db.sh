#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# A database someone sends, with topdown runs in it: a real load of the memwork
# fixture trace with a Neoverse N2 and a Sapphire Rapids perf stat imported
# (spe-topdown import), copies of it edited, and what spe-report (--cross-isa
# text and JSON, the page), spe-query and spe-topdown import give
# (docs/security.md; analysis/topdown/src/store.c td_store_own):
#  - topdown_l1 rewritten to lie (other numbers), topdown_l2 defined by itself
#    (circular): spe-query reads this build's views, the untouched database's rows
#    byte for byte; the reports are the untouched database's; the lie stays in the
#    file; spe-topdown import into it works and makes the views anew;
#  - topdown_value (lying) or topdown_run replaced by a view: every reader and
#    spe-topdown import refuse the file, 65, naming the object;
#  - a trigger on topdown_run: spe-topdown import into the file runs none of it.
# Each copy is d.db in a directory of its own, so the page's title is the same.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 td=$4 report=$5 fx=$6
scratch_dir td-hostile-db
run() { ${SPE_RUN:-} "$@"; }
mkdir "$tmp/plain"
run "$record" --replay="$fx/workloads/traces/memwork.replay" -o "$tmp/memwork.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
run "$load" "$tmp/memwork.data" -o "$tmp/plain/d.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }
run "$td" import "$fx/topdown/raw_neoverse-n2_perf.txt" -d "$tmp/plain/d.db" --run n2 --workload memwork \
	--spe-source=memwork.data >/dev/null || echo "FAIL import n2"
run "$td" import "$fx/topdown/perf-6.5_spr-csv.txt" -d "$tmp/plain/d.db" --run spr --workload memwork >/dev/null ||
	echo "FAIL import spr"

# a copy of the untouched database made wrong by SQL (one spe-query --write on the copy as it came)
craft() { mkdir "$tmp/$1" && cp "$tmp/plain/d.db" "$tmp/$1/d.db" &&
	run "$query" -d "$tmp/$1/d.db" --write "$2" >/dev/null || echo "FAIL crafting $1"; }
# every reader of one copy: each output in DIR/NAME.out, the exit statuses on one line
readers() {
	d=$tmp/$1
	run "$report" -d "$d/d.db" --cross-isa >"$d/text.out" 2>"$d/text.err"; s1=$?
	run "$report" -d "$d/d.db" --cross-isa --format=json >"$d/json.out" 2>"$d/json.err"; s2=$?
	run "$report" -d "$d/d.db" --html="$d/page.html" 2>"$d/html.err"; s3=$?
	# the page's topdown section (the rest holds the queries' times)
	[ -f "$d/page.html" ] && awk '/<section id="topdown">/,/<\/section>/' "$d/page.html" >"$d/section.out"
	run "$query" -d "$d/d.db" --format=csv "SELECT * FROM topdown_l1 ORDER BY interval_id" >"$d/l1.out" \
		2>"$d/l1.err"; s4=$?
	run "$query" -d "$d/d.db" --format=csv "SELECT * FROM topdown_l2 ORDER BY interval_id" >"$d/l2.out" \
		2>"$d/l2.err"; s5=$?
	echo "$s1 $s2 $s3 $s4 $s5"
}
same() { cmp "$tmp/plain/$2" "$tmp/$1/$2" >/dev/null && echo same; }
expect plain_readers "$(readers plain)" "0 0 0 0 0"
has plain_l1 "$(cat "$tmp/plain/l1.out")" "n2,memwork,aarch64,neoverse-n2,arm_topdown,0"
has plain_section "$(cat "$tmp/plain/section.out")" "<h3>Workload memwork: 2 columns</h3>"

# topdown_l1 lies (backend bound 99%), topdown_l2 is defined by itself: this build's views are read
craft lie "DROP VIEW topdown_l1; CREATE VIEW topdown_l1 AS SELECT r.run_id, r.name AS run, r.workload, r.isa,
	r.cpu, r.method, r.approx, i.interval_id, i.scope, i.t0, i.t1, 0 AS retiring, 0 AS bad_speculation,
	0.01 AS frontend_bound, 0.99 AS backend_bound FROM topdown_interval i JOIN topdown_run r USING (run_id);
	DROP VIEW topdown_l2; CREATE VIEW topdown_l2 AS SELECT * FROM topdown_l2"
expect lie_readers "$(readers lie)" "0 0 0 0 0"
for out in l1.out l2.out text.out json.out section.out; do
	expect "lie_same_$out" "$(same lie "$out")" same
done
has lie_kept "$(run "$query" -d "$tmp/lie/d.db" --format=csv "SELECT sql FROM sqlite_schema WHERE name = 'topdown_l1'")" \
	"0.99 AS backend_bound"
# an import into it is a write of this run: it works beside the TEMP views, and makes the file's views anew
out=$(run "$td" import "$fx/topdown/perf-arm_neoverse-v2-TopdownL1-std.txt" -d "$tmp/lie/d.db" --run v2 \
	--workload other 2>&1)
expect lie_import "$?" 0
has lie_import_msg "$out" "run 3: v2 from"
has lie_remade "$(run "$query" -d "$tmp/lie/d.db" --format=csv \
	"SELECT count(*) FROM sqlite_schema WHERE name IN ('topdown_l1', 'topdown_l2') AND sql NOT LIKE '%0.99%'
	 AND sql NOT LIKE '%FROM topdown_l2'")" 2

# a table replaced by a view (topdown_value lying, topdown_run its own rows): refused, naming it
craft value "CREATE TABLE v0 AS SELECT * FROM topdown_value; DROP TABLE topdown_value;
	CREATE VIEW topdown_value AS SELECT interval_id, node, 0.5 AS frac, basis, derived FROM v0"
craft run "CREATE TABLE r0 AS SELECT * FROM topdown_run; DROP TABLE topdown_run;
	CREATE VIEW topdown_run AS SELECT * FROM r0"
for t in value run; do
	expect "${t}_readers" "$(readers $t)" "65 65 65 65 65"
	for err in text.err json.err html.err l1.err; do
		has "${t}_named_$err" "$(cat "$tmp/$t/$err")" "topdown_$t is a view, not the table spekit defines"
	done
	expect "${t}_no_page" "$(ls "$tmp/$t" | grep -c 'page.html')" 0
	out=$(run "$td" import "$fx/topdown/perf-6.5_spr-csv.txt" -d "$tmp/$t/d.db" --run spr2 2>&1)
	expect "${t}_import" "$?" 65
	has "${t}_import_msg" "$out" "$tmp/$t/d.db: topdown_$t is a view, not the table spekit defines"
done

# a trigger on a topdown table: the import (a write into the received file) runs none of it
craft trigger "CREATE TRIGGER wipe AFTER INSERT ON topdown_run BEGIN
	DELETE FROM topdown_value; UPDATE topdown_run SET workload = 'fake'; END"
run "$td" import "$fx/topdown/perf-arm_neoverse-v2-TopdownL1-std.txt" -d "$tmp/trigger/d.db" --run v2 \
	--workload other >/dev/null
expect trigger_import "$?" 0
expect trigger_none "$(run "$query" -d "$tmp/trigger/d.db" --format=csv \
	"SELECT group_concat(workload), (SELECT count(DISTINCT interval_id) FROM topdown_value) FROM topdown_run" |
	tail -1 | tr -d '\r')" '"memwork,memwork,other",3'
exit $fail
