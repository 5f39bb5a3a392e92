#!/bin/sh
# spe-export --format=pprof read by go tool pprof (the real consumer), whose
# numbers must be the database's: samples and the three latencies per function
# and per source line, per label value (-tagfocus on mem_level, op_class,
# event), the inlined frame with its call site, the mapping and build-id, the
# --by=data profile (data objects on the datawork pair; lines and pages where
# no object is known, on memwork), and the row filters.
#   cli_export_pprof.sh RECORD LOAD QUERY EXPORT FIXTURES
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 query=$3 export=$4 fixtures=$5
. "$(dirname "$0")/export_lib.sh"
command -v go >/dev/null || { echo "SKIP: go (golang-go) is not installed"; exit 77; }
scratch_dir export-pprof
db=$tmp/memwork.db
demo_db "$db"
export_ -d "$db" --format=pprof -o "$tmp/p.pb.gz" --symfs="$fixtures/elf" 2>"$tmp/err"
expect export_rc $? 0
has export_summary "$(cat "$tmp/err")" "1200 records, 1200 exported as 5 locations"
[ "$(head -c 2 "$tmp/p.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] || { echo "FAIL not gzip"; fail=1; }

# "name value" per node with a non-zero flat value, from pprof -top (names may
# hold spaces; " (inline)" is dropped); NAME_FIELDS 2 is for -lines, where the
# last word is file:line ("chase memwork.c:35" -> "chase 35").
pprof_flat() { # FILE NAME_FIELDS ARGS...
	f=$1 nf=$2
	shift 2
	go_pprof -top -nodecount=100000 -nodefraction=0 -symbolize=none "$@" "$f" 2>&1 |
		awk -v nf="$nf" 'seen && NF >= 6 { v = $1; sub(/cycles$/, "", v); if (v == 0) next
				name = $6; for (i = 7; i <= NF; i++) name = name " " $i
				sub(/ \(inline\)$/, "", name)
				if (nf == 2) { k = split(name, w, " "); n = split(w[k], p, ":"); sub(/ [^ ]*$/, "", name); name = name " " p[n] }
				print name, v }
			/ flat%/ { seen = 1 }' | sort
}
sql_flat() { # DB SELECT-name-value...
	query "$1" "$2" | awk -F, '$2 != "" && $2 != 0 { print $1, $2 }' | sort
}

func='coalesce(inline_function, symbol)'
i=0
for value in samples total_latency issue_latency translation_latency; do
	agg="sum($value)"
	[ $value = samples ] && agg='count(*)'
	expect "per_function_$value" "$(pprof_flat "$tmp/p.pb.gz" 1 -sample_index=$value)" \
		"$(sql_flat "$db" "SELECT $func, $agg FROM spe_sample GROUP BY 1")"
	expect "per_line_$value" "$(pprof_flat "$tmp/p.pb.gz" 2 -lines -sample_index=$value)" \
		"$(sql_flat "$db" "SELECT $func || ' ' || src_line, $agg FROM spe_sample GROUP BY 1")"
	i=$((i + 1))
done
# the fixture has what the comparisons need: five PCs in four functions, one inlined
expect fixture_functions "$(pprof_flat "$tmp/p.pb.gz" 1 -sample_index=samples | wc -l)" 4

# labels: every value of each, through -tagfocus, against a WHERE on the same column
for level in $(query "$db" "SELECT DISTINCT mem_level FROM spe_sample WHERE mem_level IS NOT NULL"); do
	expect "tagfocus_mem_level_$level" \
		"$(pprof_flat "$tmp/p.pb.gz" 1 -sample_index=total_latency -tagfocus="mem_level=^$level\$")" \
		"$(sql_flat "$db" "SELECT $func, sum(total_latency) FROM spe_sample WHERE mem_level = '$level' GROUP BY 1")"
done
for class in load store branch; do
	expect "tagfocus_op_class_$class" "$(pprof_flat "$tmp/p.pb.gz" 1 -sample_index=samples -tagfocus="op_class=^$class\$")" \
		"$(sql_flat "$db" "SELECT $func, count(*) FROM spe_sample WHERE op_class = '$class' GROUP BY 1")"
done
for event in tlb_walk l1d_refill mispredicted not_taken cache_data_modified; do
	expect "tagfocus_event_$event" "$(pprof_flat "$tmp/p.pb.gz" 1 -sample_index=samples -tagfocus="event=^$event\$")" \
		"$(sql_flat "$db" "SELECT $func, count(*) FROM spe_sample WHERE ' ' || event_names || ' ' LIKE '% $event %' GROUP BY 1")"
done

# the inlined frame: bump at its line, then bump_shared at the call site (memwork.c:58,
# which only DWARF knows), and the mapping with the file, range and build-id of the database
raw=$(go_pprof -raw -symbolize=none "$tmp/p.pb.gz" 2>&1)
has raw_inline "$raw" "M=1 bump ./memwork.c:51 s=49
             bump_shared ./memwork.c:58 s=55"
has raw_mapping "$raw" "1: 0xaaaaab000000/0xaaaaab001000/0x0 /memwork-pie $(query "$db" "SELECT build_id FROM mapping") [FN][FL][LN][IN]"
traces=$(go_pprof -traces -symbolize=none "$tmp/p.pb.gz" 2>&1)
has traces_inline "$traces" "bump (inline)
             bump_shared"

# without the binary, the inlined frame keeps its name from the database, call line unknown (0)
export_ -d "$db" --format=pprof -o "$tmp/nosym.pb.gz" 2>"$tmp/err"
has nodwarf_warning "$(cat "$tmp/err")" "warning: 2 locations lack DWARF"
has nodwarf_inline "$(go_pprof -raw -symbolize=none "$tmp/nosym.pb.gz" 2>&1)" "M=1 bump ./memwork.c:51 s=0
             bump_shared ./memwork.c:0 s=55"

# --by=data: the accessed lines called from the PCs; `shared` by its ELF symbol,
# the heap and the array by page
export_ -d "$db" --format=pprof --by=data -o "$tmp/d.pb.gz" --symfs="$fixtures/elf" 2>"$tmp/err"
expect data_rc $? 0
has data_summary "$(cat "$tmp/err")" "1200 records, $(query "$db" "SELECT count(*) FROM spe_record WHERE data_va IS NOT NULL") exported"
data=$(pprof_flat "$tmp/d.pb.gz" 1 -sample_index=samples)
expect data_shared "$(echo "$data" | grep '^shared ')" \
	"shared $(query "$db" "SELECT count(*) FROM spe_sample WHERE symbol = 'bump_shared' AND data_va IS NOT NULL")"
expect data_pages "$(echo "$data" | grep -c '^\[page 0x[0-9a-f]*000\] [0-9]*$')" \
	"$(query "$db" "SELECT count(DISTINCT data_va_value >> 12) FROM spe_sample WHERE symbol != 'bump_shared' AND data_va IS NOT NULL")"
expect data_total "$(echo "$data" | awk '{ s += $NF } END { print s }')" \
	"$(query "$db" "SELECT count(*) FROM spe_record WHERE data_va IS NOT NULL")"
# each data location is called from the PC that touched it
expect data_callers "$(pprof_flat "$tmp/d.pb.gz" 1 -sample_index=samples -focus='^shared$' -cum | wc -l)" 1

# --by=data on the datawork pair (fixtures/workloads/gen_datatraces.c), where spe-load attributed every
# data address to a data object: each location is the object, as hot_data_object names and counts it
# (anonymous regions by size and address), called from the PCs that touched it
dw=$tmp/datawork.db
for side in datawork datawork-after; do
	${SPE_RUN:-} "$record" --replay="$fixtures/workloads/traces/$side.replay" -o "$tmp/$side.data" >/dev/null 2>&1 ||
		{ echo "FAIL replay $side"; exit 1; }
done
${SPE_RUN:-} "$load" "$tmp/datawork.data" "$tmp/datawork-after.data" -o "$dw" --symfs="$fixtures/elf" 2>/dev/null ||
	{ echo "FAIL load datawork"; exit 1; }
export_ -d "$dw" --format=pprof --by=data -o "$tmp/dw.pb.gz" --symfs="$fixtures/elf" 2>"$tmp/err"
expect objects_rc $? 0
has objects_summary "$(cat "$tmp/err")" "4040 records, 4040 exported"
object_name="CASE WHEN kind IN ('anon', 'shared') THEN printf('%s %d %s at %s', name,
	CASE WHEN size >= 1048576 THEN size >> 20 ELSE size >> 10 END, CASE WHEN size >= 1048576 THEN 'MiB' ELSE 'KiB' END, start)
	ELSE name END AS object"
for value in samples total_latency; do
	expect "objects_$value" "$(pprof_flat "$tmp/dw.pb.gz" 1 -sample_index=$value | grep -v '^[a-z_0-9]* 0$')" \
		"$(sql_flat "$dw" "SELECT $object_name, sum($value) FROM hot_data_object GROUP BY 1")"
done
objects=$(pprof_flat "$tmp/dw.pb.gz" 1 -sample_index=samples)
for o in table weights histogram sum_table::calls shared_counter '\[heap\]' '\[stack\]' \
	'//anon 1024 MiB at 0xfffe00000000' '//anon 64 MiB at 0xffff80000000'; do
	has "object_$o" "$(echo "$objects" | grep -c "^$o [0-9]*$")" 1
done
# variables at their declaration line (DWARF), per line as hot_data_object's src_line
expect objects_lines "$(pprof_flat "$tmp/dw.pb.gz" 2 -lines -sample_index=samples | grep -E '^(table|weights|histogram|shared_counter) ')" \
	"$(sql_flat "$dw" "SELECT name || ' ' || src_line, sum(samples) FROM hot_data_object
	                   WHERE name IN ('table', 'weights', 'histogram', 'shared_counter') GROUP BY 1")"
# a variable's locations are its 64-byte lines, inside it; a data mapping is one location at its start
raw=$(go_pprof -raw -symbolize=none "$tmp/dw.pb.gz" 2>&1)
table_range=$(query "$dw" "SELECT DISTINCT start_value || ' ' || (start_value + size) FROM hot_data_object WHERE name = 'table'")
n=0 ok=0
for a in $(printf '%s\n' "$raw" | awk '$4 == "table" { print $2 }'); do
	n=$((n + 1))
	# shellcheck disable=SC2086
	set -- $table_range
	[ $((a % 64)) = 0 ] && [ $((a)) -ge $(($1 / 64 * 64)) ] && [ $((a)) -lt "$2" ] && ok=$((ok + 1))
done
expect table_lines "$n $ok" "$(query "$dw" "SELECT count(DISTINCT data_va_value >> 6) || ' ' || count(DISTINCT data_va_value >> 6)
	FROM spe_sample s JOIN data_object d ON d.id = (SELECT data_object_id FROM spe_record WHERE id = s.id) WHERE d.name = 'table'")"
expect heap_one_location "$(printf '%s\n' "$raw" | awk '$4 == "[heap]"' | wc -l | tr -d ' ')" 1
has heap_at_start "$(printf '%s\n' "$raw" | awk '$4 == "[heap]" { print $2 }')" \
	"$(query "$dw" "SELECT DISTINCT start FROM hot_data_object WHERE name = '[heap]'")"
# the callers: the objects each function touched, with the same counts as the database
expect objects_callers "$(go_pprof -top -cum -nodefraction=0 -symbolize=none -sample_index=samples -focus='^table$' \
		"$tmp/dw.pb.gz" 2>&1 | awk 'seen && NF == 6 && $6 != "table" { print $6, $4 } / flat%/ { seen = 1 }' | sort)" \
	"$(sql_flat "$dw" "SELECT s.name, count(*) FROM spe_record r JOIN symbol s ON s.id = r.symbol_id
	                   JOIN data_object d ON d.id = r.data_object_id WHERE d.name = 'table' GROUP BY 1")"

# filters: --where over spe_sample's columns, --pid, --cpu
export_ -d "$db" --format=pprof -o "$tmp/w.pb.gz" --where="mem_level = 'DRAM' AND symbol = 'chase'" 2>/dev/null
expect where "$(pprof_flat "$tmp/w.pb.gz" 1 -sample_index=samples)" \
	"$(sql_flat "$db" "SELECT symbol, count(*) FROM spe_sample WHERE mem_level = 'DRAM' AND symbol = 'chase' GROUP BY 1")"
export_ -d "$db" --format=pprof -o "$tmp/c.pb.gz" --cpu=1 --pid=4242 2>/dev/null
expect cpu_pid "$(pprof_flat "$tmp/c.pb.gz" 1 -sample_index=total_latency)" \
	"$(sql_flat "$db" "SELECT $func, sum(total_latency) FROM spe_sample WHERE cpu = 1 AND pid = 4242 GROUP BY 1")"
exit $fail
