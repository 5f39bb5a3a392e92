#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-load's names and build-ids on real aarch64 binaries (fixtures/elf/symwork-*,
# built from fixtures/workloads/symwork.c), against oracles nobody here wrote:
#   - a trace with one record at every instruction of .plt and .text of each of
#     symwork-pie (16-byte PLT entries), symwork-bti and symwork-pac (24-byte),
#     replayed into a perf.data (MMAP2 in its build-id form and the BUILD_ID table);
#   - .plt: the function of every PC is objdump -d's `<func@plt>` label (binutils
#     knows each layout); the header (objdump's `<.plt>`) has none;
#   - .text, and symwork-pie's PLT entries but its first: perf script --itrace=i1i
#     names every PC the same (perf 6.1 assumes 16-byte entries: in BTI and PAC
#     PLTs its names drift, and it stretches the sizeless _init over PLT0 and the
#     first entry; perf 7.2 cuts it there);
#   - no name is ever a mapping symbol ($x, $d);
#   - the program rebuilt after the recording (symwork-rebuilt at the recorded
#     path): never used, every PC without a symbol (perf script: [unknown] too),
#     mapping.build_id_status 'mismatch', one warning naming both build-ids;
#   - build-ids only in the BUILD_ID table (no MMAP2 id; file and pipe layouts,
#     pid -1 as perf writes it or the process's as spe-record does): the same;
#     no build-id at all (perf record -z): the file at the path, said once;
#   - a build-id cache made by perf itself (perf buildid-cache -a) and packed by
#     perf archive, unpacked elsewhere: found through --buildid-dir, and through
#     ~/.debug.
#   cli_symbols.sh FIXTURE RECORD LOAD QUERY BID_PERFDATA FIXTURES_DIR
# Exit 77 (skip) without aarch64-linux-gnu-objdump/readelf (binutils-aarch64-linux-gnu).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
fixture=$1 record=$2 load=$3 query=$4 bidtool=$5 fx=$6
elf=$(cd "$fx/elf" && pwd)
objdump=aarch64-linux-gnu-objdump readelf=aarch64-linux-gnu-readelf
if ! command -v $objdump >/dev/null || ! command -v $readelf >/dev/null; then
	echo "SKIP: $objdump / $readelf not installed (binutils-aarch64-linux-gnu)"
	exit 77
fi
have_perf=1
if ! command -v perf >/dev/null || [ -n "${SPE_RUN:-}" ]; then
	have_perf=0
	echo "note: perf not compared (not installed, or cross-compiled)"
fi
scratch_dir cli-symbols
export HOME="$tmp/home" # no ~/.debug of the machine's answers for these files
mkdir -p "$HOME"
unset PERF_BUILDID_DIR DEBUGINFOD_URLS

bid() { $readelf -n "$1" | awk '/Build ID/ { print $3 }'; }
# "ADDR SIZE" of section $2 of file $1 (readelf -SW, the "[Nr]" column removed)
section() { $readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' | awk -v s="$2" '$1 == s { print "0x" $3, "0x" $5 }'; }
query() { ${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r' | tail -n +2; }
# "PC NAME" per sampled PC of a database, in PC order
names() { query "$1" "SELECT printf('%x', i.pc), coalesce(s.name, '[unknown]') FROM insn i LEFT JOIN symbol s ON s.id = i.symbol_id ORDER BY i.pc" | tr ',' ' '; }
perf_names() { PAGER=cat perf script -i "$1" --symfs="$2" --itrace=i1i -F ip,sym 2>/dev/null | awk '{ print $1, $2 }'; }

# One record per instruction of .plt and .text of ELF $1 mapped at $2: $tmp/$3.bin
sweep() {
	: >"$tmp/$3.spt"
	for s in .plt .text; do
		set -- "$1" "$2" "$3" $(section "$1" $s)
		a=$(($4)) end=$(($4 + $5))
		while [ $a -lt $end ]; do
			printf 'pc 0x%x el=0 ns=1\nctx el1 4242\nop other 0x00\nev retired\nlat total 5\nts %d\n' \
				$(($2 + a)) $((1000 + a)) >>"$tmp/$3.spt"
			a=$((a + 4))
		done
		set -- "$1" "$2" "$3"
	done
	${SPE_RUN:-} "$fixture" compile "$tmp/$3.spt" "$tmp/$3.bin" || echo "FAIL compile $3.spt"
}

# $1: name; $2 ELF; $3 base; $4 the path recorded: $tmp/$1.data (replayed, build-id in the MMAP2 and the table)
replay() {
	printf 'spekit-replay 1\nmidr 0x410fd0c0\ncomm 4242 4242 symwork\nmmap2 4242 4242 %s 0x1000 0x0 %s build_id=%s\ncpu 0\naux %s.bin\n' \
		"$3" "$4" "$(bid "$2")" "$1" >"$tmp/$1.replay"
	${SPE_RUN:-} "$record" --replay="$tmp/$1.replay" -o "$tmp/$1.data" >/dev/null 2>&1 || echo "FAIL replay $1"
}

# objdump's label for every instruction address of .plt, "ADDR LABEL" (header: [unknown])
objdump_plt() {
	$objdump -d --section=.plt "$1" | awk -v base=$(($2)) '
		/^[0-9a-f]+ <.*>:$/ { l = $2; gsub(/[<>:]/, "", l); if (l == ".plt") l = "[unknown]"; next }
		/^ *[0-9a-f]+:\t/ { a = $1; sub(/:$/, "", a); print a, l }' |
		while read -r a l; do printf '%x %s\n' $((0x$a + $2)) "$l"; done
}

# the lines of $2 whose address is not in $1
keep() { awk 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' "$1" "$2"; }

pass=0
for v in pie:0xaaaaab000000 bti:0 pac:0xaaaaab000000; do
	name=${v%%:*} base=${v#*:} f=$elf/symwork-$name
	sweep "$f" "$base" "$name"
	replay "$name" "$f" "$([ "$base" = 0 ] && echo 0x400000 || echo "$base")" "/symwork-$name"
	${SPE_RUN:-} "$load" "$tmp/$name.data" -o "$tmp/$name.db" --symfs="$elf" 2>"$tmp/$name.err"
	expect "${name}_rc" $? 0
	names "$tmp/$name.db" >"$tmp/$name.ours"
	expect "${name}_status" "$(query "$tmp/$name.db" "SELECT build_id_status FROM mapping")" matched
	# PLT: every instruction named as objdump -d names it
	objdump_plt "$f" "$base" >"$tmp/$name.objdump"
	expect "${name}_plt_objdump" "$(grep -v -x -F -f "$tmp/$name.ours" "$tmp/$name.objdump")" ""
	has "${name}_plt_names" "$(cat "$tmp/$name.ours")" "printf@plt"
	expect "${name}_no_mapping_symbols" "$(awk '$2 ~ /^\$/' "$tmp/$name.ours")" ""
	[ $have_perf = 1 ] || continue
	perf_names "$tmp/$name.data" "$elf" >"$tmp/$name.perf"
	expect "${name}_perf_samples" "$(wc -l <"$tmp/$name.perf")" "$(wc -l <"$tmp/$name.ours")"
	# where perf 6.1 is right: .text; and the PIE's PLT entries after the first
	if [ $name = pie ]; then
		first=$(awk '$2 != "[unknown]" { print $2; exit }' "$tmp/$name.objdump")
		awk -v f="$first" '$2 == "[unknown]" || $2 == f { print $1 }' "$tmp/$name.objdump" >"$tmp/$name.skip"
	else
		awk '{ print $1 }' "$tmp/$name.objdump" >"$tmp/$name.skip"
	fi
	expect "${name}_perf_names" "$(keep "$tmp/$name.skip" "$tmp/$name.perf")" "$(keep "$tmp/$name.skip" "$tmp/$name.ours")"
	pass=$((pass + 1))
done

# The program rebuilt after the recording, at the recorded path: never used.
mkdir -p "$tmp/rebuilt"
cp "$elf/symwork-rebuilt" "$tmp/rebuilt/symwork-pie"
${SPE_RUN:-} "$load" "$tmp/pie.data" -o "$tmp/rebuilt.db" --symfs="$tmp/rebuilt" 2>"$tmp/rebuilt.err"
expect rebuilt_rc $? 0
expect rebuilt_no_names "$(names "$tmp/rebuilt.db" | awk '$2 != "[unknown]"')" ""
expect rebuilt_status "$(query "$tmp/rebuilt.db" "SELECT build_id, build_id_status FROM mapping")" "$(bid "$elf/symwork-pie"),mismatch"
expect rebuilt_warning "$(grep -c 'warning' "$tmp/rebuilt.err")" 1
has rebuilt_warning_ids "$(cat "$tmp/rebuilt.err")" \
	"spe-load: warning: /symwork-pie: recorded with build-id $(bid "$elf/symwork-pie"), but $tmp/rebuilt/symwork-pie has build-id $(bid "$elf/symwork-rebuilt"); not used"
has rebuilt_counted "$(cat "$tmp/rebuilt.err")" ", 1 mapped file with another build-id (not used)"
if [ $have_perf = 1 ]; then
	expect rebuilt_perf_unknown "$(perf_names "$tmp/pie.data" "$tmp/rebuilt" | awk '$2 != "[unknown]"')" ""
fi

# Build-ids only in the BUILD_ID table (perf 6.1's default; MMAP2 without one), or nowhere (perf record -z).
pie_id=$(bid "$elf/symwork-pie") rebuilt_id=$(bid "$elf/symwork-rebuilt")
for v in host:--header-id=-1:$pie_id:matched process:--header-id=4242:$pie_id:matched \
	pipe:--header-id=-1:$pie_id,--pipe:matched other:--header-id=-1:$rebuilt_id:mismatch none::unrecorded; do
	name=${v%%:*} rest=${v#*:} want=${v##*:}
	opts=$(echo "${rest%:*}" | tr ',' ' ')
	${SPE_RUN:-} "$bidtool" "$tmp/pie.bin" "$tmp/hdr-$name.data" /symwork-pie 0xaaaaab000000 $opts ||
		echo "FAIL bid_perfdata $name"
	${SPE_RUN:-} "$load" "$tmp/hdr-$name.data" -o "$tmp/hdr-$name.db" --symfs="$elf" 2>"$tmp/hdr-$name.err"
	expect "header_${name}_rc" $? 0
	expect "header_${name}_status" "$(query "$tmp/hdr-$name.db" "SELECT build_id_status FROM mapping")" "$want"
	if [ "$want" = mismatch ]; then
		expect "header_${name}_names" "$(names "$tmp/hdr-$name.db" | awk '$2 != "[unknown]"')" ""
		expect "header_${name}_build_id" "$(query "$tmp/hdr-$name.db" "SELECT build_id FROM mapping")" "$rebuilt_id"
	else
		expect "header_${name}_names" "$(names "$tmp/hdr-$name.db")" "$(cat "$tmp/pie.ours")"
	fi
	if [ "$want" = unrecorded ]; then
		expect header_none_said_once "$(grep -c 'without a recorded build-id' "$tmp/hdr-$name.err")" 1
		has header_none_said "$(cat "$tmp/hdr-$name.err")" \
			"$tmp/hdr-$name.data: 1 mapped file without a recorded build-id, taken by path (unverified"
	else
		expect "header_${name}_quiet" "$(grep -c 'without a recorded build-id' "$tmp/hdr-$name.err")" 0
	fi
	# perf 6.1 takes the table's id too (the pipe's records come after the samples it names: not compared)
	if [ $have_perf = 1 ] && [ $name != pipe ] && [ $name != none ]; then
		if [ "$want" = mismatch ]; then
			expect "header_${name}_perf" "$(perf_names "$tmp/hdr-$name.data" "$elf" | awk '$2 != "[unknown]"')" ""
		else
			perf_names "$tmp/hdr-$name.data" "$elf" >"$tmp/hdr-$name.perf"
			expect "header_${name}_perf" "$(keep "$tmp/pie.skip" "$tmp/hdr-$name.perf")" \
				"$(keep "$tmp/pie.skip" "$tmp/pie.ours")"
		fi
	fi
done

# A build-id cache written by perf (buildid-cache -a) and packed by perf archive, unpacked elsewhere.
if [ $have_perf = 1 ] && command -v bzip2 >/dev/null; then
	perf buildid-cache -a "$elf/symwork-pie" >/dev/null 2>&1
	( cd "$tmp" && perf archive pie.data >/dev/null 2>&1 )
	mkdir -p "$tmp/unpacked" "$tmp/empty"
	tar xjf "$tmp/pie.data.tar.bz2" -C "$tmp/unpacked" 2>/dev/null
	expect archive_link "$(ls "$tmp/unpacked/.build-id/$(echo "$pie_id" | cut -c1-2)")" "$(echo "$pie_id" | cut -c3-)"
	${SPE_RUN:-} "$load" "$tmp/pie.data" -o "$tmp/archive.db" --symfs="$tmp/empty" --buildid-dir="$tmp/unpacked" 2>/dev/null
	expect archive_status "$(query "$tmp/archive.db" "SELECT build_id_status FROM mapping")" matched
	expect archive_names "$(names "$tmp/archive.db")" "$(cat "$tmp/pie.ours")"
	# the cache perf wrote, as ~/.debug
	${SPE_RUN:-} "$load" "$tmp/pie.data" -o "$tmp/home.db" --symfs="$tmp/empty" 2>/dev/null
	expect home_cache_names "$(names "$tmp/home.db")" "$(cat "$tmp/pie.ours")"
	# ... and nothing when neither is there
	HOME="$tmp/empty" ${SPE_RUN:-} "$load" "$tmp/pie.data" -o "$tmp/none.db" --symfs="$tmp/empty" 2>/dev/null
	expect not_found_status "$(query "$tmp/none.db" "SELECT build_id_status FROM mapping")" "not found"
fi
${SPE_RUN:-} "$load" "$tmp/pie.data" -o "$tmp/bad.db" --buildid-dir="$tmp/no-such-dir" 2>/dev/null
expect buildid_dir_missing_rc $? 66

echo "$pass binaries compared"
exit $fail
