#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-load on every trace fixture of fixtures/ (in the ASan+UBSan pass of
# scripts/test.sh too: a load that touches memory it should not aborts there):
#   - perf.data files (PERFILE2 magic) and raw SPE bytes (the rest, loaded with
#     --raw) under perfdata/, fuzz/perfdata/, public/, replay/, workloads/traces/;
#   - the replay manifests (replay/, workloads/traces/), made into perf.data
#     by spe-record --replay and loaded with --symfs=fixtures/elf.
# For each: spe-dump of the same file is the reference.  A file spe-dump
# refuses (65) spe-load refuses too; else spe-load exits 0 or 1 and stores a
# row per record: where spe-dump decodes the stream cleanly, the same number
# of records as spe-dump and no bad byte or partial record; where it does
# not (spe-dump joins AUX buffers in file order, spe-load in ring order, so
# a damaged stream's pieces may group differently: spe-dump(1), spe-load(1)),
# load_stats says the data was damaged.  In every database the summaries
# agree with each other and with the records (each load counted once by
# level and once by PC, each timed record once by latency bucket).
set -u
. "$(dirname "$0")/../lib/testlib.sh"
record=$1 load=$2 dump=$3 query=$4 fixtures=$5
scratch_dir cli-load-fixtures

# The values of a one-column query, without the CSV header.
query() {
	${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r' | tail -n +2
}

# The number before WORD in spe-dump's summary line (0 when it is not there).
summary_count() {
	n=$(sed -n "s/^spe-dump: .*[^0-9]\([0-9][0-9]*\) $2.*/\1/p; s/^spe-dump: \([0-9][0-9]*\) $2.*/\1/p" "$1" | head -1)
	echo "${n:-0}"
}

loaded=0
# check_file NAME FILE [--raw ...]: load FILE and compare it with spe-dump's reading.
check_file() {
	name=$1 file=$2
	shift 2
	${SPE_RUN:-} "$dump" "$@" --records "$file" >/dev/null 2>"$tmp/dump.err"
	drc=$?
	rm -f "$tmp/db"
	${SPE_RUN:-} "$load" "$@" "$file" -o "$tmp/db" --symfs="$fixtures/elf" 2>"$tmp/load.err"
	lrc=$?
	if [ $drc = 65 ]; then
		expect "$name: refused like spe-dump" $lrc 65
		has "$name: refusal names the file" "$(cat "$tmp/load.err")" "$file"
		return
	fi
	case $lrc in
	0 | 1) ;;
	*)
		printf 'FAIL %s: spe-load exit %s\n%s\n' "$name" $lrc "$(head -40 "$tmp/load.err")"
		fail=1
		return
		;;
	esac
	loaded=$((loaded + 1))
	records=$(summary_count "$tmp/dump.err" records)
	damage=$(($(summary_count "$tmp/dump.err" "bad bytes") + $(summary_count "$tmp/dump.err" "partial records")))
	stored=$(query "$tmp/db" "SELECT count(*) FROM spe_record")
	expect "$name: load_stats.records" "$(query "$tmp/db" "SELECT records FROM load_stats")" "$stored"
	if [ "$damage" = 0 ]; then
		expect "$name: records as spe-dump" "$stored" "$records"
		expect "$name: clean as spe-dump" "$(query "$tmp/db" "SELECT bad_bytes + partial_records FROM load_stats")" 0
	else
		expect "$name: damage reported as spe-dump does" \
			"$(query "$tmp/db" "SELECT bad_bytes + partial_records + coalesce(cut, 0) > 0 FROM load_stats")" 1
	fi
	expect "$name: loads by level and by PC" \
		"$(query "$tmp/db" "SELECT (SELECT coalesce(sum(loads), 0) FROM mem_level_stat) = (SELECT coalesce(sum(loads), 0) FROM prefetch_stat)")" 1
	expect "$name: timed records by bucket" \
		"$(query "$tmp/db" "SELECT (SELECT coalesce(sum(samples), 0) FROM latency_bucket) = (SELECT count(*) FROM spe_record WHERE total_latency IS NOT NULL)")" 1
	expect "$name: records by PC histogram" \
		"$(query "$tmp/db" "SELECT (SELECT coalesce(sum(samples), 0) FROM pc_latency) = (SELECT count(*) FROM spe_record)")" 1
}

files=0
for dir in perfdata fuzz/perfdata public replay workloads/traces; do
	for f in "$fixtures/$dir"/*; do
		case $f in
		*.md | *.txt | *.csv | *.replay) continue ;;
		esac
		[ -f "$f" ] || continue # perfdata/real/: perf's own captures, without SPE (tests/perfdata/real_captures.sh)
		files=$((files + 1))
		if [ "$(head -c 8 "$f")" = PERFILE2 ]; then
			check_file "$dir/${f##*/}" "$f"
		else
			check_file "$dir/${f##*/}" "$f" --raw --midr=0x410fd0c0
		fi
	done
done

# the manifests: the traced program's symbols resolve from fixtures/elf
for m in "$fixtures"/replay/*.replay "$fixtures"/workloads/traces/*.replay; do
	files=$((files + 1))
	name=${m#"$fixtures"/}
	rm -f "$tmp/replay.data"
	if ! ${SPE_RUN:-} "$record" --replay="$m" -o "$tmp/replay.data" >/dev/null 2>"$tmp/record.err"; then
		printf 'FAIL %s: spe-record --replay\n%s\n' "$name" "$(head -20 "$tmp/record.err")"
		fail=1
		continue
	fi
	check_file "$name" "$tmp/replay.data"
	case $name in
	workloads/*)
		expect "$name: every record in a mapping" "$(query "$tmp/db" "SELECT no_mapping FROM load_stats")" 0
		expect "$name: symbols" "$(query "$tmp/db" "SELECT count(*) > 0 FROM spe_record WHERE symbol_id IS NOT NULL")" 1
		;;
	esac
done

# not vacuous: the fixtures are where this script looks (30 files and manifests when written)
[ $files -ge 30 ] || { echo "FAIL only $files fixtures found under $fixtures"; fail=1; }
[ $loaded -ge 25 ] || { echo "FAIL only $loaded fixtures loaded"; fail=1; }
[ $fail = 0 ] && echo "all cli_load_fixtures checks passed ($loaded of $files fixtures loaded)"
exit $fail
