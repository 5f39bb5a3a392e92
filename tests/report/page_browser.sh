#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# page_browser.sh RECORD LOAD REPORT GEN_BENCH FIXTURES NPM_CACHE: the page used as
# a reader would, in Debian's chromium driven by puppeteer-core (page_browser.js):
# on a 20,000-function capture (gen_bench) the functions table is sorted by a
# column, searched for a function far outside the first page and paged through,
# against the database's own numbers (sqlite3); the page is ready in under 3 s and
# holds the first 10,000 instructions of 200,000, saying so.  On the memwork
# capture the flame graph is zoomed, searched and switched to data objects, a
# function is followed to its annotation, a small table sorted in place.  Any function's annotation drawn on
# demand (one outside the five the page draws, its instructions' count and latency against hot_pc), an
# instruction's data pages, lines, addresses and data objects and a shared cache line's functions and threads (against
# spe_sample, and perf script's samples of the same perf.data); the big page stays under 3 MiB; on a page
# whose names and source lines are markup, every drill-down opened draws them as text.  The page of a
# selection (-C 0) says it in its header and draws the functions of CPU 0's records with
# their samples (from the whole database).  No console message on any page (a CSP
# violation logs one).
# puppeteer-core is fetched with npm once into NPM_CACHE (the build tree's
# npm-cache); skips (77) without chromium, node, sqlite3, or when the npm
# registry cannot be reached the first time.
# PAGE_SHOT=FILE also writes a screenshot of the memwork page (docs/images/).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 report=$3 gen=$4 fx=$5 cache=$6
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "SKIP: $chromium not installed (scripts/deps.sh installs it)"; exit 77; }
command -v node >/dev/null || { echo "SKIP: node not installed"; exit 77; }
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 not installed"; exit 77; }
scratch_dir page-browser
run() { ${SPE_RUN:-} "$@"; }

# puppeteer-core 23 (node >= 18; later majors want node 22): installed once, under a lock
pp_version=23.11.1
pp=$cache/puppeteer-core-$pp_version
mkdir -p "$cache"
(
	flock 9
	[ -f "$pp/ok" ] && exit 0
	rm -rf "$pp" && mkdir -p "$pp"
	if ! npm install --silent --no-audit --no-fund --prefix "$pp" --cache "$cache/npm" \
		"puppeteer-core@$pp_version" >"$pp/npm.out" 2>"$pp/npm.err"; then
		if grep -qiE 'ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|network|proxy' "$pp/npm.err"; then
			echo "SKIP: the npm registry cannot be reached: $(tail -n 3 "$pp/npm.err" | tr '\n' ' ')"
			exit 77
		fi
		cat "$pp/npm.err"
		exit 1
	fi
	touch "$pp/ok"
) 9>"$cache/.puppeteer.lock"
st=$?
[ $st = 0 ] || exit $st

# the 20,000-function capture and the memwork one, and their pages
mkdir "$tmp/bench"
run "$gen" "$tmp/bench" 1000000 200000 20000 >/dev/null || { echo "FAIL gen_bench"; exit 1; }
run "$record" --replay="$tmp/bench/bench.replay" -o "$tmp/bench.data" >/dev/null 2>&1 || { echo "FAIL replay bench"; exit 1; }
run "$load" "$tmp/bench.data" -o "$tmp/bench.db" --symfs="$tmp/bench" 2>/dev/null || { echo "FAIL load bench"; exit 1; }
run "$report" -d "$tmp/bench.db" --html="$tmp/bench.html" 2>/dev/null || { echo "FAIL report bench"; exit 1; }
run "$record" --replay="$fx/workloads/traces/memwork.replay" -o "$tmp/memwork.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay memwork"; exit 1; }
run "$load" "$tmp/memwork.data" -o "$tmp/memwork.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load memwork"; exit 1; }
run "$report" -d "$tmp/memwork.db" --html="$tmp/memwork.html" --symfs="$fx/elf" --source-dir="$fx/workloads" \
	2>/dev/null || { echo "FAIL report memwork"; exit 1; }
# the memwork page again from a database whose names and source lines are markup: the drill-downs draw them as text
tag='<img src=x onerror="document.title=`PWNED`">'
cp "$tmp/memwork.db" "$tmp/hostile.db"
sqlite3 "$tmp/hostile.db" "
	UPDATE symbol SET name = '$tag' || name;
	UPDATE insn SET mnemonic = '$tag', operands = '</script>$tag';
	UPDATE mapping SET path = '$tag' || path;
	UPDATE thread SET comm = '$tag';
	UPDATE data_object SET name = '$tag' || name, type = '$tag';" || { echo "FAIL sqlite3 hostile"; exit 1; }
mkdir -p "$tmp/hsrc"
sed 's|$| /* </script><img src=x onerror="document.title=`PWNED`"> */|' "$fx/workloads/memwork.c" >"$tmp/hsrc/memwork.c"
run "$report" -d "$tmp/hostile.db" --html="$tmp/hostile.html" --source-dir="$tmp/hsrc" 2>/dev/null ||
	{ echo "FAIL report hostile"; exit 1; }
echo "bench page: $(wc -c <"$tmp/bench.html") bytes"
# a page of a selection (CPU 0): the capture's records of CPU 0 loaded by themselves
run "$report" "$tmp/memwork.data" --html="$tmp/selected.html" -C 0 --symfs="$fx/elf" 2>/dev/null ||
	{ echo "FAIL report memwork -C 0"; exit 1; }

# what the page must show, from the databases
b() { sqlite3 "$tmp/bench.db" "$1"; }
s() { sqlite3 "$tmp/memwork.db" "$1"; }
order="ORDER BY total_latency DESC, samples DESC, symbol NULLS FIRST, mapping NULLS FIRST"
thousands() { printf '%s' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
nfun=$(b "SELECT count(*) FROM hot_symbol")
npc=$(b "SELECT count(*) FROM hot_pc")
left=$(b "SELECT printf('%.1f', 100.0 * (SELECT sum(total_latency) FROM (SELECT total_latency FROM hot_symbol $order
	LIMIT -1 OFFSET 10)) / sum(total_latency)) FROM hot_symbol")
far=$(b "SELECT symbol, total_latency FROM hot_symbol $order LIMIT 1 OFFSET 5000")
all=$(s "SELECT sum(total_latency) FROM spe_record WHERE total_latency > 0")
# the drill-down: the first data object's functions, the first function's data objects, from spe_sample
s_json() { r=$(sqlite3 -json "$tmp/memwork.db" "$1"); printf '%s' "${r:-[]}"; }
obj_order="ORDER BY total_latency DESC, samples DESC, name, start NULLS FIRST, pid"
top_object_id="SELECT data_object_id FROM hot_data_object $obj_order LIMIT 1"
first_fn=$(s "SELECT symbol FROM hot_symbol $order LIMIT 1")
drill_fn=$(s "SELECT symbol FROM spe_sample WHERE data_object IS NOT NULL GROUP BY symbol
	ORDER BY sum(total_latency) DESC LIMIT 1")
# a function outside the five annotated ones, to its annotation drawn on demand: the instructions of it among the
# first 10,000 of hot_pc (the rows the page holds), their count and latency; one far down, with none of them
pc_order="ORDER BY total_latency DESC, samples DESC, pc_value, symbol NULLS FIRST"
ann_fn=$(b "SELECT symbol FROM hot_symbol $order LIMIT 1 OFFSET 6")
ann_held="FROM (SELECT * FROM hot_pc $pc_order LIMIT 10000) WHERE symbol = '$ann_fn'"
# an instruction to its data, a shared cache line to its functions and threads, from spe_sample (every row: the
# test ranks them as the page does)
pc_first="SELECT pc_value FROM hot_pc $pc_order LIMIT 1"
pc_fn="SELECT symbol FROM hot_pc $pc_order LIMIT 1"
pc_data() { s_json "SELECT printf('0x%x', data_va_value & $1) AS name, count(*) AS samples, sum(total_latency) AS latency
	FROM spe_sample WHERE pc_value = ($pc_first) AND symbol = ($pc_fn) AND data_va_value IS NOT NULL GROUP BY 1"; }
# the instruction among the instructions table's first ten rows whose data objects took the most latency
pc_ranked="SELECT pc_value, symbol, row_number() OVER ($pc_order) - 1 AS i FROM hot_pc"
obj_pc="SELECT h.pc_value, h.symbol, h.i FROM ($pc_ranked) h JOIN spe_sample r ON r.pc_value = h.pc_value
	AND r.symbol IS h.symbol WHERE h.i < 10 AND r.data_object IS NOT NULL GROUP BY h.i
	ORDER BY sum(r.total_latency) DESC, h.i LIMIT 1"
obj_row=$(s "SELECT i FROM ($obj_pc)")
line_of="FROM (SELECT source_id, pid, line_value FROM cacheline_sharing
	ORDER BY hitm + peer_hits + coalesce(snooped, 0) DESC, accesses DESC, line, pid LIMIT 1) l
	JOIN spe_sample r ON r.source_id = l.source_id AND r.pid IS l.pid AND r.data_va_value >> 6 = l.line_value >> 6"
# and the same from perf script (perf 6.1, its SPE samples: --itrace=i1i, weight the total latency): the seventh
# function's PCs, samples and latency in bench.data; memwork.data's records with a data address as
# [tid, "address", weight, "pc", "function"] (one process), for the page's lists to be checked against
perf_fn=null perf_mem=null
if command -v perf >/dev/null; then
	perf_fn=$(PAGER=cat perf script -i "$tmp/bench.data" --itrace=i1i --symfs="$tmp/bench" -F ip,sym,weight 2>/dev/null |
		awk -v f="$ann_fn" '$3 == f { n[$2]++; w += $1; s++ } END { printf "{\"instructions\": %d, \"samples\": %d, \"latency\": %d}", length(n), s, w }')
	perf_mem=$(PAGER=cat perf script -i "$tmp/memwork.data" --itrace=i1i --symfs="$fx/elf" -F tid,ip,sym,addr,weight 2>/dev/null |
		awk 'NF == 5 && $2 != "0" { printf "%s[%s,\"0x%s\",%s,\"0x%s\",\"%s\"]", n++ ? "," : "[", $1, $2, $3, $4, $5 } END { print n ? "]" : "null" }')
else
	echo "perf not installed: the checks against perf script are left out"
fi
# the console check, tried first on a page made to fail it: a script its CSP refuses
printf '%s\n' '<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="script-src '"'none'"'"/></head>' \
	'<body data-ready="1"><script>document.title="ran"</script></body></html>' >"$tmp/refused.html"
cat >"$tmp/facts.json" <<EOF
{"selftest": "$tmp/refused.html", "hostile": "$tmp/hostile.html",
 "big": {"page": "$tmp/bench.html", "functions_text": "$(thousands "$nfun")",
  "more_text": "$(thousands $((nfun - 10))) more functions, $left % of the latency",
  "functions_less_10_text": "$(thousands $((nfun - 10)))",
  "min_samples": $(b "SELECT min(samples) FROM hot_symbol"), "max_samples": $(b "SELECT max(samples) FROM hot_symbol"),
  "far": {"symbol": "${far%|*}", "total_latency": ${far#*|}, "rank": 5001},
  "eleventh": "$(b "SELECT symbol FROM hot_symbol $order LIMIT 1 OFFSET 10")",
  "pcs_absent_text": "$(thousands $((npc - 10000)))",
  "size": $(wc -c <"$tmp/bench.html"),
  "ann": {"symbol": "$ann_fn", "rank": 7, "instructions": $(b "SELECT count(*) $ann_held"),
   "latency": $(b "SELECT sum(total_latency) $ann_held"), "samples": $(b "SELECT sum(samples) $ann_held"),
   "all_samples": $(b "SELECT samples FROM hot_symbol WHERE symbol = '$ann_fn'"), "perf": $perf_fn},
  "far_held": $(b "SELECT count(*) FROM (SELECT * FROM hot_pc $pc_order LIMIT 10000) WHERE symbol = '${far%|*}'")},
 "selected": {"page": "$tmp/selected.html", "selection": "cpu 0",
  "functions": $(s_json "SELECT symbol AS name, count(*) AS samples FROM spe_sample WHERE cpu = 0 AND symbol IS NOT NULL
	GROUP BY symbol")},
 "small": {"page": "$tmp/memwork.html",
  "first_function": "$(s "SELECT symbol FROM hot_symbol $order LIMIT 1")",
  "second_function": "$(s "SELECT symbol FROM hot_symbol $order LIMIT 1 OFFSET 1")",
  "second_share": $(s "SELECT 1.0 * total_latency / $all FROM hot_symbol $order LIMIT 1 OFFSET 1"),
  "dram_share_text": "$(s "SELECT printf('%.1f', 100.0 * sum(total_latency) / $all) FROM spe_record
	WHERE mem_level = 'DRAM' AND total_latency > 0")",
  "data_object": "$(s "SELECT name || coalesce(' (' || type || ')', '') FROM hot_data_object
	ORDER BY total_latency DESC LIMIT 1")",
  "top_object": "$(s "SELECT name FROM hot_data_object $obj_order LIMIT 1")",
  "top_object_functions": $(s_json "SELECT coalesce(symbol, '(no symbol)') AS name, sum(total_latency) AS latency,
	count(*) AS samples FROM spe_sample WHERE data_object_id = ($top_object_id) GROUP BY symbol"),
  "first_function_objects": $(s_json "SELECT data_object AS name, sum(total_latency) AS latency, count(*) AS samples
	FROM spe_sample WHERE symbol = '$first_fn' AND data_object IS NOT NULL GROUP BY data_object"),
  "drill_function": "$drill_fn",
  "perf_records": $perf_mem,
  "pc_first": "$(s "SELECT printf('0x%x', ($pc_first))")", "pc_function": "$(s "$pc_fn")",
  "line_address": "$(s "SELECT printf('0x%x', line_value) FROM cacheline_sharing
	ORDER BY hitm + peer_hits + coalesce(snooped, 0) DESC, accesses DESC, line, pid LIMIT 1")",
  "pc_pages": $(pc_data '~4095'), "pc_lines": $(pc_data '~63'), "pc_addresses": $(pc_data '-1'),
  "pc_object_row": $obj_row,
  "pc_objects": $(s_json "SELECT r.data_object AS name, count(*) AS samples, sum(r.total_latency) AS latency
	FROM ($obj_pc) h JOIN spe_sample r ON r.pc_value = h.pc_value AND r.symbol IS h.symbol
	WHERE r.data_object IS NOT NULL GROUP BY 1"),
  "line_functions": $(s_json "SELECT coalesce(r.symbol, '(no symbol)') AS name, count(*) AS samples,
	sum(r.total_latency) AS latency $line_of GROUP BY r.symbol"),
  "line_threads": $(s_json "SELECT 'tid ' || r.tid AS name, count(*) AS samples, sum(r.total_latency) AS latency
	$line_of GROUP BY r.tid"),
  "drill_function_objects": $(s_json "SELECT data_object AS name, sum(total_latency) AS latency, count(*) AS samples
	FROM spe_sample WHERE symbol = '$drill_fn' AND data_object IS NOT NULL GROUP BY data_object")}}
EOF
expect bench_functions "$nfun" 20000
# the text report says the same of the functions --top leaves out
has text_more "$(run "$report" -d "$tmp/bench.db" 2>&1)" \
	"  $(thousands $((nfun - 10))) more functions, $left % of the latency"
[ "$npc" -gt 100000 ] || { echo "FAIL bench_pcs: $npc sampled PCs"; fail=1; }

NODE_PATH=$pp/node_modules node "$(dirname "$0")/page_browser.js" "$chromium" "$tmp/facts.json" ${PAGE_SHOT:-} ||
	fail=1
[ $fail = 0 ] && echo "report_page_browser: all passed"
exit $fail
