#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-report --format=json carries the findings the text report and the page open with
# (query/findings.c, one list): on datawork (huge pages, false sharing and remote NUMA memory
# all found), memwork (two found, NUMA checked) and fixtures/perfdata/random-seed101.data
# (nothing found, huge pages and NUMA unanswerable: no data address), read with python3's json:
#   - the text report's Findings block, rebuilt from the JSON, is the text report's own;
#   - the page's findings (their ids and section links) are the JSON's;
#   - each finding's numbers are the views' through spe-query, and the evidence states them.
#   cli_findings_json.sh RECORD LOAD QUERY REPORT FIXTURES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 fx=$5
command -v python3 >/dev/null || { echo "skipped: python3 (reads the JSON) is not installed"; exit 77; }
scratch_dir cli-findings-json
run() { ${SPE_RUN:-} "$@"; }
for w in datawork memwork; do
	run "$record" --replay="$fx/workloads/traces/$w.replay" -o "$tmp/$w.data" >/dev/null 2>&1 || { echo "FAIL replay $w"; exit 1; }
	run "$load" "$tmp/$w.data" -o "$tmp/$w.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load $w"; exit 1; }
done
# partial data (exit 1): its damage is the point of the file, the records loaded are what the report reads
run "$load" "$fx/perfdata/random-seed101.data" -o "$tmp/random.db" 2>/dev/null
[ $? -le 1 ] || { echo "FAIL load random-seed101.data"; exit 1; }
q() { run "$query" -d "$tmp/datawork.db" --format=csv "$1" | tr -d '\r"' | tail -n +2; }

# The Findings block as the text report words it, from the JSON (findings_text.c's layout).
as_text() {
	python3 -c '
import json, sys
f = json.load(sys.stdin)["findings"]
print("Findings")
for i, it in enumerate(f["items"], 1):
    print("  %d. %s: %s" % (i, it["title"], it["evidence"]))
    print("     Fix: %s" % it["fix"])
    print("     (below: %s)" % it["text_section"])
if not f["items"]:
    print("  No issue found by the checks below.")
if f["clean"]:
    print("  Checked, nothing found: %s." % ", ".join(f["clean"]))
if f["not_known"]:
    print("  Not known from this capture: %s (the Memory section says why)." % ", ".join(f["not_known"]))
'
}
text_block() { run "$report" -d "$tmp/$1.db" | sed -n '/^Findings$/,/^$/p' | sed '$d'; }
for w in datawork memwork random; do
	run "$report" -d "$tmp/$w.db" --format=json >"$tmp/$w.json" || { echo "FAIL report --format=json $w"; fail=1; }
	block=$(text_block "$w")
	has "$w: text has findings" "$block" "Findings"
	expect "$w: JSON findings = text findings" "$(as_text <"$tmp/$w.json")" "$block"
done
kinds() { python3 -c 'import json, sys; print(" ".join(i["kind"] for i in json.load(sys.stdin)["findings"]["items"]))' <"$tmp/$1.json"; }
expect "datawork: the three findings" "$(kinds datawork)" "huge_pages false_sharing numa"
checks() { python3 -c 'import json, sys; f = json.load(sys.stdin)["findings"]; print(f["clean"], f["not_known"])' <"$tmp/$1.json"; }
expect "datawork: every check found" "$(checks datawork)" "[] []"
expect "memwork: two" "$(kinds memwork)" "huge_pages false_sharing"
expect "memwork: NUMA checked" "$(checks memwork)" "['NUMA'] []"
expect "random: none" "$(kinds random)" ""
expect "random: checks it cannot answer" "$(checks random)" "['false sharing'] ['huge pages', 'NUMA']"

# the page: the same findings, each linking to its section
if run "$report" -d "$tmp/datawork.db" --html="$tmp/datawork.html" 2>"$tmp/err"; then
	page=$(grep -o '<li id="finding-[a-z-]*"><b>[^<]*</b>.*<a href="#[a-z-]*">' "$tmp/datawork.html" |
		sed 's/<li id="\([^"]*\)"><b>\([^<]*\)<\/b>.*<a href="#\([^"]*\)">/\1 \3 \2/')
	json=$(python3 -c 'import json, sys
for i in json.load(sys.stdin)["findings"]["items"]: print(i["id"], i["section_id"], i["title"])' <"$tmp/datawork.json")
	expect "datawork: page findings = JSON findings" "$page" "$json"
else
	echo "FAIL report --html: $(cat "$tmp/err")"
	fail=1
fi

# the numbers: the views' (docs/schema.md), and in the evidence's words
number() { python3 -c 'import json, sys
for i in json.load(sys.stdin)["findings"]["items"]:
    if i["kind"] == sys.argv[1]: print(i["numbers"][sys.argv[2]])' "$1" "$2" <"$tmp/datawork.json"; }
evidence() { python3 -c 'import json, sys
for i in json.load(sys.stdin)["findings"]["items"]:
    if i["kind"] == sys.argv[1]: print(i["evidence"])' "$1" <"$tmp/datawork.json"; }
expect "shared lines" "$(number false_sharing shared_lines)" "$(q "SELECT count(*) FROM cacheline_sharing WHERE threads >= 2")"
expect "false sharing lines" "$(number false_sharing false_sharing_lines)" \
	"$(q "SELECT count(*) FROM cacheline_sharing WHERE threads >= 2 AND offsets >= 2")"
has "false sharing evidence" "$(evidence false_sharing)" \
	"$(number false_sharing false_sharing_lines) of $(number false_sharing shared_lines) cache lines"
expect "NUMA loads" "$(number numa loads)" "$(q "SELECT sum(loads) FROM numa_traffic")"
expect "NUMA load latency" "$(number numa load_latency)" "$(q "SELECT sum(total_latency) FROM numa_traffic")"
expect "NUMA remote latency" "$(number numa remote_latency_by_physical_address)" \
	"$(q "SELECT sum(total_latency) FROM numa_traffic WHERE basis = 'physical address' AND remote = 1")"
has "NUMA evidence" "$(evidence numa)" \
	"$(python3 -c "print('%.1f' % (100 * $(number numa remote_latency_by_physical_address) / $(number numa load_latency)))")% of load latency"
expect "translation latency" "$(number huge_pages translation_latency)" "$(q "SELECT sum(translation_latency) FROM page_stat")"
expect "data-access latency" "$(number huge_pages data_access_latency)" "$(q "SELECT sum(total_latency) FROM page_stat")"
has "huge-page evidence" "$(evidence huge_pages)" \
	"$(number huge_pages regions) regions of 2 MiB take $(python3 -c "print('%.1f' % (100 * $(number huge_pages region_translation_latency) / $(number huge_pages translation_latency)))")% of translation latency"
has "huge-page evidence: pages" "$(evidence huge_pages)" "fall on $(number huge_pages region_pages_4k) distinct 4 KiB pages"

# a database whose latencies sum to infinity (a REAL 1e999 where an integer belongs): still JSON, the
# number null (JSON has no infinity; python's parser is told to refuse its extensions)
cp "$tmp/datawork.db" "$tmp/inf.db"
run "$query" -d "$tmp/inf.db" --write "UPDATE numa_stat SET total_latency = 1e999" >/dev/null
run "$report" -d "$tmp/inf.db" --format=json >"$tmp/inf.json" 2>/dev/null
strict=$(python3 -c '
import json, sys
def refuse(c): raise ValueError(c)
f = json.load(open(sys.argv[1]), parse_constant=refuse)["findings"]
print("numa nulls:", sorted(k for it in f["items"] if it["kind"] == "numa" for k, v in it["numbers"].items() if v is None))
' "$tmp/inf.json" 2>&1)
expect "infinite numbers: strict JSON, null" "$strict" "numa nulls: ['load_latency', 'remote_latency_by_physical_address']"
exit $fail
