#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-report --html on the memwork fixture (fixtures/workloads: DRAM chases,
# false sharing, streaming loads, mispredicted branches), read back with an
# XML parser (xmllint):
#   - the page is well-formed, has every section with its how-to-read
#     sentence, and refers to nothing outside itself;
#   - every number table equals the same query run through spe-query (the
#     views, or an independent formulation for the page's own SQL);
#   - the memory section's sentences (huge pages, NUMA, what the CPU parts
#     can show) are the text report's, word for word (one library function
#     words each); every part of it has its how-to-read sentence;
#   - each behaviour of the fixture is there to see: DRAM is the widest
#     segment, the shared line is marked false sharing, the heap's 2 MiB
#     regions are the huge-page hint's, branchy mispredicts 25 %;
#   - annotations: disassembly with --symfs, source with --source-dir, the
#     sampled instruction's numbers equal hot_pc's; without --symfs a note;
#   - the topdown section draws spe-report --cross-isa's numbers;
#   - the output file: written whole or not at all (65 on an empty database,
#     64 for a directory or a device, a mistyped option leaves it alone), a
#     symbolic link keeps pointing at the replaced file, no temporary left;
#     SIGTERM while the page is being written (a 100,000-record capture from
#     gen_bench, slow enough to catch) leaves the old file and no temporary.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 report=$4 td=$5 fx=$6 gen=$7
scratch_dir cli-html
run() { ${SPE_RUN:-} "$@"; }
query() {
	run "$query" -d "$db" --format=csv "$1" | tr -d '\r' | tail -n +2
}
. "$(dirname "$0")/xml_lib.sh"

run "$record" --replay="$fx/workloads/traces/memwork.replay" -o "$tmp/memwork.data" >/dev/null 2>&1 ||
	{ echo "FAIL replay"; exit 1; }
run "$load" "$tmp/memwork.data" -o "$tmp/memwork.db" --symfs="$fx/elf" 2>/dev/null || { echo "FAIL load"; exit 1; }
db=$tmp/memwork.db
page=$tmp/report.html

err=$(run "$report" -d "$db" --html="$page" --symfs="$fx/elf" --source-dir="$fx/workloads" 2>&1)
expect html_rc $? 0
expect html_msg "$err" "spe-report: wrote $page"
xmllint --noout "$page" 2>"$tmp/xml.err"
expect well_formed "$?,$(head -3 "$tmp/xml.err")" "0,"

# ---- every section, each with its sentence on how to read it
for s in summary latency hot-code annotations time memory branches topdown queries; do
	n=$(xmllint --xpath "count(//section[@id='$s']/h2) + count(//section[@id='$s']/p[@class='how'])" "$page")
	expect "section_$s" "$n" 2
done
# nothing fetched: no external script, style, image, font or link
ext=$(grep -Eoi '(src|href)="[^#"][^"]*"|url\(|@import|<link' "$page" | head -3)
expect self_contained "$ext" ""

# ---- numbers equal the views through spe-query
expect hot_symbol "$(table "$page" hot-symbol symbol samples total_latency mean_latency p50 p90 p99 latency_share)" \
	"$(query "SELECT symbol, samples, total_latency, mean_latency, p50, p90, p99, latency_share FROM hot_symbol LIMIT 10")"
expect hot_pc "$(table "$page" hot-pc pc samples total_latency mean_latency p50 p90 p99 latency_share)" \
	"$(query "SELECT pc, samples, total_latency, mean_latency, p50, p90, p99, latency_share FROM hot_pc LIMIT 10")"
# the page orders levels as the facts table does; compare as sets
expect mem_levels "$(table "$page" mem-levels mem_level loads total_latency mean_latency latency_share | sort)" \
	"$(query "SELECT mem_level, loads, total_latency, mean_latency, latency_share FROM mem_level_summary" | sort)"
expect mem_levels_order "$(col "$page" mem-levels mem_level | tr '\n' ' ')" "L1D L2 peer-core SLC DRAM "
expect tlb_hotspot "$(table "$page" tlb-hotspot page accesses tlb_walks translation_latency)" \
	"$(query "SELECT page, accesses, tlb_walks, translation_latency FROM tlb_hotspot WHERE tlb_walks > 0
	          ORDER BY tlb_walks DESC, translation_latency DESC, accesses DESC, page_value, pid LIMIT 10")" # ties by page
want=$(query "SELECT sum(tlb_walks) || ' of ' || sum(accesses) FROM tlb_hotspot")
has tlb_total "$(xmllint --xpath "string(//p[@id='tlb-total'])" "$page")" "$want sampled accesses"
expect cacheline "$(table "$page" cacheline-sharing line symbols threads cpus stores offsets hitm peer_hits)" \
	"$(query "SELECT line, symbols, threads, cpus, stores, offsets, hitm, peer_hits FROM cacheline_sharing LIMIT 10")"
expect mispredict_by_symbol "$(table "$page" mispredict-by-symbol symbol branches mispredicted mispredict_rate)" \
	"$(query "SELECT symbol, sum(branches), sum(mispredicted), round(1.0 * sum(mispredicted) / sum(branches), 3)
	          FROM branch_mispredict GROUP BY symbol ORDER BY 3 DESC")"
expect sources "$(table "$page" sources source_id records lost_aux partial_records bad_bytes no_mapping no_symbol)" \
	"$(query "SELECT source_id, records, lost_aux, partial_records, bad_bytes, no_mapping, no_symbol FROM load_stats")"
expect sources_load_counts "$(table "$page" sources source_id no_pid kernel_no_symbol out_of_order)" \
	"$(query "SELECT source_id, no_pid, kernel_no_symbol, out_of_order FROM load_stats")"
# a count is a tile when not zero, else named in the summary's one line of zeros (id zero-losses)
fact_of() {
	echo $(($(xmllint --xpath "count(//section[@id='summary']//div[span='$2'])" "$1") +
		$(xmllint --xpath "count(//p[@id='zero-losses'][contains(., '$2')])" "$1")))
}
expect fact_unknown_processes "$(fact_of "$page" 'records of unknown processes')" 1
expect fact_unknown_processes_zero "$(query "SELECT sum(no_pid) FROM load_stats"),$(xmllint --xpath "count(//p[@id='zero-losses'][contains(., 'records of unknown processes')])" "$page")" "0,1"
# a database written before load_stats had these counts: the page is made, the three unknown, no fact says 0
# the capture's records and span, stored by the load (load_stats): as perf script counts and times the samples
fact_text() { xmllint --xpath "string(//section[@id='summary']//div[span='$2'])" "$1"; }
if command -v perf >/dev/null && [ -z "${SPE_RUN:-}" ]; then
	PAGER=cat perf script -i "$tmp/memwork.data" --itrace=i1i --ns -F time 2>/dev/null | tr -d ' :.' >"$tmp/times"
	has span_records "$(fact_text "$page" 'SPE records')" "$(wc -l <"$tmp/times" | tr -d ' ')"
	has span_time "$(fact_text "$page" 'time span')" "$(sort -n "$tmp/times" | sed -n '1p;$p' | tr '\n' ' ' |
		awk '{ printf "%.3f ms", ($2 - $1) / 1e6 }')"
fi
# a database written before load_stats had these counts and the span (the columns dropped, last first)
cp "$db" "$tmp/before.db"
for c in last_ts first_ts last_time first_time timed_records out_of_order kernel_no_symbol no_pid; do
	run "$query" -d "$tmp/before.db" --write "ALTER TABLE load_stats DROP COLUMN $c" >/dev/null || echo "FAIL drop $c"
done
err=$(run "$report" -d "$tmp/before.db" --html="$tmp/before.html" 2>&1)
expect before_rc "$?,$err" "0,spe-report: wrote $tmp/before.html"
expect before_sources "$(table "$tmp/before.html" sources source_id records no_pid kernel_no_symbol out_of_order)" \
	"$(query "SELECT source_id, records, '–', '–', '–' FROM load_stats")" # the page's mark of NULL: not counted
expect before_no_fact "$(fact_of "$tmp/before.html" 'records of unknown processes')" 0
# its span from the records: the same as the one stored
expect before_span "$(fact_text "$tmp/before.html" 'SPE records') $(fact_text "$tmp/before.html" 'time span')" \
	"$(fact_text "$page" 'SPE records') $(fact_text "$page" 'time span')"
has before_span_query "$(cat "$tmp/before.html")" "<h3>span</h3>"
# pages and regions (data_page) against a formulation of their own over spe_record
expect pages_4k "$(table "$page" pages-4k page accesses total_latency)" \
	"$(query "SELECT printf('0x%x', data_va / 4096 * 4096), count(*), sum(total_latency) FROM spe_record
	          WHERE data_va IS NOT NULL GROUP BY data_va / 4096 ORDER BY 3 DESC, 2 DESC LIMIT 10")"
expect regions_2m "$(table "$page" regions-2m region accesses total_latency tlb_walks translation_latency pages walked_pages)" \
	"$(query "SELECT printf('0x%x', data_va / 2097152 * 2097152), count(*), sum(total_latency), sum(tlb_walk),
	                 sum(translation_latency), count(DISTINCT data_va / 4096),
	                 count(DISTINCT CASE WHEN tlb_walk = 1 THEN data_va / 4096 END) FROM spe_record
	          WHERE data_va IS NOT NULL GROUP BY data_va / 2097152 ORDER BY 5 DESC, 4 DESC, 2 DESC LIMIT 10")"
expect data_objects "$(table "$page" data-objects kind name samples loads stores total_latency p99 latency_share)" \
	"$(query "SELECT kind, name, samples, loads, stores, total_latency, p99, latency_share FROM hot_data_object LIMIT 10")"
expect data_object_levels "$(xmllint --xpath "string(//table[@id='data-objects']/tbody/tr[1]/td[@data-col='levels']/@title)" "$page")" \
	"$(query "SELECT levels FROM hot_data_object LIMIT 1" | tr -d '"')"
# the sentences are the library's, word for word as the text report prints them
text=$(run "$report" -d "$db")
expect hint_as_text "Huge pages: $(xmllint --xpath "string(//p[@id='huge-page-hint'])" "$page")" \
	"$(printf '%s\n' "$text" | grep '^Huge pages: ')"
expect numa_as_text "NUMA: $(xmllint --xpath "string(//p[@id='numa-summary'])" "$page")" \
	"$(printf '%s\n' "$text" | grep '^NUMA: ')"
expect parts_as_text "$(xmllint --xpath "//ul[@id='memory-parts']/li/text()" "$page")" \
	"$(printf '%s\n' "$text" | sed -n 's/^  \(neoverse-n1: \)/\1/p')"
# every part of the memory section, each with its sentence on how to read it
for s in mem-objects mem-pages mem-tlb mem-numa mem-sharing mem-prefetch mem-parts; do
	expect "memory_part_$s" "$(xmllint --xpath "count(//section[@id='memory']/h3[@id='$s']/following-sibling::*[1][self::p][@class='how sub'])" "$page")" 1
done
# memwork has no physical addresses: the fallback, no node matrix; and no prefetch event
has numa_fallback "$(xmllint --xpath "string(//p[@id='numa-summary'])" "$page")" "No physical addresses in the capture"
expect numa_no_matrix "$(xmllint --xpath "count(//table[@id='numa-matrix'])" "$page")" 0
expect numa_rows "$(table "$page" numa-traffic basis remote loads total_latency)" \
	"$(query "SELECT basis, remote, loads, total_latency FROM numa_traffic")"
has no_prefetch "$(xmllint --xpath "string(//section[@id='memory'])" "$page")" "No load carried a late-prefetch"

# ---- the fixture's behaviours, each visible
# DRAM the widest segment of the latency bar (its rect has the largest width)
widest=$(grep -o '<rect x="[0-9.]*" y="0" width="[0-9.]*" height="34" fill="#[0-9a-f]*"><title>[^:]*' "$page" |
	sed 's/.*width="\([0-9.]*\)".*<title>\(.*\)/\1 \2/' | sort -rn | head -1 | cut -d' ' -f2)
expect dram_widest "$widest" DRAM
expect false_sharing "$(xmllint --xpath "string(//table[@id='cacheline-sharing']/tbody/tr[1]/td[last()])" "$page")" \
	"false sharing"
# chase's heap: 8 regions of 2 MiB whose walks fall on many 4 KiB pages, the hint advises huge pages for them
expect huge_page_hints "$(xmllint --xpath "count(//table[@id='regions-2m']//td[@data-col='hint']/span[@class='tag hot'])" "$page")" 8
has huge_page_advice "$(xmllint --xpath "string(//p[@id='huge-page-hint'])" "$page")" "8 regions of 2 MiB take"
expect branchy_rate "$(col "$page" mispredict-by-symbol mispredict_rate)" 0.25
# a histogram per memory level with loads, on one axis
expect level_hists "$(xmllint --xpath "//figure[@class='level-hist']/@data-level" "$page" | tr -d ' ' | tr '\n' ' ')" \
	'data-level="L1D" data-level="L2" data-level="peer-core" data-level="SLC" data-level="DRAM" '
# the heatmap: all CPUs, then one per CPU behind the selector
expect heatmaps "$(xmllint --xpath "//figure[@class='hm']/@data-cpu" "$page" | tr -d ' ' | tr '\n' ' ')" \
	'data-cpu="all" data-cpu="0" data-cpu="1" '

# ---- annotations: four functions, disassembled, with their source
expect annotated "$(xmllint --xpath "count(//div[@class='ann'])" "$page")" 4
expect ann_link "$(xmllint --xpath "string(//table[@id='hot-symbol']/tbody/tr[1]/td[@data-col='symbol']/a/@href)" "$page")" \
	"#ann-1"
# chase: 12 instructions, the load on line 35 holds every sample, as hot_pc says
expect chase_insns "$(xmllint --xpath "count(//div[@id='ann-1']//table[@class='ann-asm']/tbody/tr[@data-pc])" "$page")" 12
row="//div[@id='ann-1']//table[@class='ann-asm']/tbody/tr[@data-pc='0xaaaaab0008c4']"
cell() { xmllint --xpath "string($row/td[$1])" "$page"; }
expect chase_load "$(cell "@data-col='samples'"),$(cell "@data-col='mean_latency'"),$(cell "@data-col='p99'")" \
	"$(query "SELECT samples, mean_latency, p99 FROM hot_pc WHERE pc = '0xaaaaab0008c4'")"
expect chase_load_insn "$(cell "@class='insn'")" "$(query "SELECT mnemonic || ' ' || operands FROM hot_pc WHERE pc = '0xaaaaab0008c4'" | tr -d '"')"
has chase_source "$(xmllint --xpath "string(//div[@id='ann-1']//tr[@data-line='35']/td[@class='src'])" "$page")" \
	"p = p->next;"
has bump_inlined "$(xmllint --xpath "string(//div[@id='ann-2']//tr[@data-line='51'])" "$page")" "inlined: bump"

# a source file in Latin-1 (an e-acute on line 35, the hottest): the page stays well-formed UTF-8
mkdir "$tmp/latin1"
sed '35s|$| /* caf\xe9 */|' "$fx/workloads/memwork.c" >"$tmp/latin1/memwork.c"
run "$report" -d "$db" --html="$tmp/latin1.html" --symfs="$fx/elf" --source-dir="$tmp/latin1" 2>/dev/null
xmllint --noout "$tmp/latin1.html" 2>"$tmp/xml.err"
expect latin1_well_formed "$?,$(head -3 "$tmp/xml.err")" "0,"
has latin1_replaced "$(xmllint --xpath "string(//div[@id='ann-1']//tr[@data-line='35']/td[@class='src'])" "$tmp/latin1.html")" \
	"caf$(printf '\357\277\275')"

# without --symfs and --source-dir: the sampled instructions only, and a note saying why
# (spe-load's --symfs kept in the database dropped: spe-report would use it)
run "$query" -d "$db" --write "DELETE FROM meta WHERE key LIKE 'load.%'" >/dev/null || fail=1
run "$report" -d "$db" --html="$tmp/nosym.html" 2>/dev/null
expect nosym_rc $? 0
xmllint --noout "$tmp/nosym.html" || fail=1
has nosym_note "$(xmllint --xpath "string(//div[@id='ann-1']/p[@class='note'])" "$tmp/nosym.html")" \
	"the binary was not found (give --symfs)"
expect nosym_insns "$(xmllint --xpath "count(//div[@id='ann-1']//tr[@data-pc])" "$tmp/nosym.html")" 1
# --annotations=0: no annotation, no links; --top 2: two rows; -o with --format=html is --html
run "$report" -d "$db" -o "$tmp/o.html" --format=html --annotations=0 --top 2 2>/dev/null
expect o_rc $? 0
expect o_annotated "$(xmllint --xpath "count(//div[@class='ann']) + count(//table[@id='hot-symbol']//a)" "$tmp/o.html")" 0
expect o_top "$(col "$tmp/o.html" hot-symbol symbol | tr '\n' ' ')" "chase bump_shared "

# ---- topdown: the cross-ISA numbers, drawn
cp "$db" "$tmp/td.db"
run "$td" import "$fx/topdown/raw_neoverse-n2_perf.txt" -d "$tmp/td.db" --run n2 --workload memwork \
	--spe-source=memwork.data >/dev/null || fail=1
run "$td" import "$fx/topdown/perf-6.5_spr-csv.txt" -d "$tmp/td.db" --run spr --workload memwork >/dev/null || fail=1
run "$report" -d "$tmp/td.db" --html="$tmp/td.html" 2>/dev/null
expect td_rc $? 0
xmllint --noout "$tmp/td.html" || fail=1
# backend_bound of both runs as spe-report --cross-isa --format=json prints them (0.3700, 0.7010)
expect td_backend "$(xmllint --xpath "string(//section[@id='topdown']//tr[@data-node='backend_bound'])" "$tmp/td.html" |
	tr -s ' ')" "L1 backend_bound37.0%70.1%"
has td_evidence "$(xmllint --xpath "string(//section[@id='topdown'])" "$tmp/td.html")" \
	"SPE evidence for run n21200 records of SPE source 1 $tmp/memwork.data, CPU neoverse-n1.  TLB walks: 134 of 1000"
# the cross-ISA warnings: the N2 run's capture is of an N1
has td_warning "$(xmllint --xpath "string(//section[@id='topdown']//p[@class='note warn'])" "$tmp/td.html")" \
	"n2 was measured on neoverse-n2 but its SPE capture (source 1) ran on neoverse-n1"
has td_note "$(xmllint --xpath "string(//section[@id='topdown']//tr[@data-node='memory_bound'])" "$tmp/td.html")" \
	"n2: no equivalent on aarch64 (no level 2 slot tree)"

# ---- the output file
printf 'precious\n' >"$tmp/keep.html"
cp "$db" "$tmp/empty.db"
run "$query" -d "$tmp/empty.db" --write "DELETE FROM _spe_record" >/dev/null || fail=1
err=$(run "$report" -d "$tmp/empty.db" --html="$tmp/keep.html" 2>&1)
expect empty_rc $? 65
has empty_msg "$err" "no SPE records in the database"
expect empty_kept "$(cat "$tmp/keep.html")" precious
err=$(run "$report" -d "$db" --hmtl="$tmp/keep.html" 2>&1)
expect mistyped_rc $? 64
expect mistyped_kept "$(cat "$tmp/keep.html")" precious
err=$(run "$report" -d "$db" --html="$tmp" 2>&1)
expect dir_rc $? 64
has dir_msg "$err" "is a directory"
err=$(run "$report" -d "$db" --html=/dev/null 2>&1)
expect device_rc $? 64
err=$(run "$report" -d "$db" --html="$tmp/keep.html" -o "$tmp/other.html" 2>&1)
expect two_outputs_rc $? 64
# replaced whole; through a symbolic link the link stays and its file is replaced
run "$report" -d "$db" --html="$tmp/keep.html" 2>/dev/null
expect replace_rc $? 0
xmllint --noout "$tmp/keep.html" || fail=1
ln -s keep.html "$tmp/link.html"
printf 'precious\n' >"$tmp/keep.html"
run "$report" -d "$db" --html="$tmp/link.html" 2>/dev/null
expect link_rc $? 0
expect link_kept "$(readlink "$tmp/link.html")" keep.html
expect link_target_replaced "$(head -c 15 "$tmp/keep.html")" "<!DOCTYPE html>"
expect no_temporaries "$(ls -A "$tmp" | grep '\.tmp$' | head -3)" ""

# SIGTERM in the middle of writing, once the temporary beside the target exists (SIGTERM, not
# SIGINT: a shell starts background jobs with SIGINT ignored, and the handlers keep it so)
mkdir "$tmp/bench"
run "$gen" "$tmp/bench" 100000 3000 300 >/dev/null || fail=1
run "$record" --replay="$tmp/bench/bench.replay" -o "$tmp/bench.data" >/dev/null 2>&1 || fail=1
run "$load" "$tmp/bench.data" -o "$tmp/bench.db" --symfs="$tmp/bench" 2>/dev/null || fail=1
printf 'precious\n' >"$tmp/sig.html"
# (not through run(): $! must be the report's own pid, not a subshell's)
${SPE_RUN:-} "$report" -d "$tmp/bench.db" --html="$tmp/sig.html" 2>/dev/null &
pid=$!
i=0
while [ $i -lt 400 ] && ! ls "$tmp"/sig.html.spe-report.*.tmp >/dev/null 2>&1 && kill -0 $pid 2>/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
if kill -TERM $pid 2>/dev/null; then
	wait $pid
	expect sigterm_rc $? 143
	expect sigterm_kept "$(cat "$tmp/sig.html")" precious
	expect sigterm_no_temporary "$(ls -A "$tmp" | grep '\.tmp$' | head -3)" ""
else
	wait $pid
	echo "note: the report finished before it could be interrupted; the SIGTERM check did not run"
fi

[ $fail = 0 ] && echo "cli_html: all passed"
exit $fail
