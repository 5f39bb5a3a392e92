#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# Kernel symbols (spe-load(1), "Kernel symbols") against perf 6.1 on the same perf.data.
# kernel_perfdata writes the files as perf record does: the kernel MMAP named
# [kernel.kallsyms]_text with pgoff = _text's runtime address, module MMAPs named by
# their path, KSYMBOL and BPF_EVENT records, SPE records at chosen PCs.  Each load is
# scored per record, (dso, symbol) against `perf script --itrace=i1i -F ip,sym,dso`:
#   - a record both name differently: wrong, never allowed;
#   - a record only one of the two names: listed below, each with why perf is wrong or
#     what we cannot know; any other is a failure.
# Cases: a kallsyms file of the recording's boot (aliases, data objects, modules above and
# below the kernel), of another boot (KASLR: the image lines up through _text, modules do
# not), the reference symbol _stext, a file without it, a recording that hides the
# kernel's address (kptr_restrict), KSYMBOL maps over time; unusable files exit 65.
# Unknown kernel code is reported per kernel map, apart from unknown user code, in every report.
#   cli_kernel.sh KERNEL_PERFDATA LOAD QUERY FIXTURES [REPORT [EXPORT]]
set -u
. "$(dirname "$0")/../lib/testlib.sh"
gen=$1 load=$2 query=$3 report=${5:-} export=${6:-}
scratch_dir cli-kernel
have_perf=1
if ! command -v perf >/dev/null || [ -n "${SPE_RUN:-}" ]; then
	have_perf=0
	echo "note: perf not compared (not installed, or cross-compiled)"
fi
q() { ${SPE_RUN:-} "$query" -d "$1" --format=csv "$2" | tr -d '\r' | tail -n +2; }

# fixtures/kernel (its README says what each holds): the kallsyms files of the recording's boot and
# of another, the sideband and records kernel_perfdata writes after the kernel MMAP
fx=$4
cp "$fx/kernel/kallsyms.boot" "$fx/kernel/kallsyms.other" "$tmp/"
grep -v ' _text$' "$tmp/kallsyms.other" >"$tmp/kallsyms.notext"

# The spec: HEADER_OSRELEASE, the kernel MMAP line $1, the modules, a process and one record per PC
machine() {
	echo "osrelease 6.1.0-spekit-test"
	echo "$1"
	cat "$fx/kernel/machine.spec"
}
kmap_text="kernel 0xffffc9a2d5400000 0x16000 0xffffc9a2d5400000 [kernel.kallsyms]_text"

# "PC DSO SYMBOL" per record: ours from the database, named as perf names them (a module by
# its file name without .ko, '-' as '_', in brackets; the row of kernel PCs in no kernel map,
# start = end = 0, as perf's [unknown]), and perf's.
ours() {
	q "$1" "SELECT printf('%x', r.pc) AS pc, CASE WHEN m.id IS NULL OR (m.pid IS NULL AND m.start = m.\"end\")
		THEN '[unknown]' ELSE m.path END AS dso, coalesce(s.name, '[unknown]') AS sym
		FROM spe_record r LEFT JOIN symbol s ON s.id = r.symbol_id LEFT JOIN mapping m ON m.id = r.mapping_id ORDER BY r.id" |
		tr ',' ' ' | awk '$2 ~ /\.ko/ { n = $2; sub(/.*\//, "", n); sub(/\.ko.*/, "", n); gsub(/-/, "_", n); $2 = "[" n "]" } 1'
}
theirs() {
	data=$1
	shift
	PAGER=cat perf script -i "$data" --itrace=i1i -F ip,sym,dso "$@" 2>/dev/null |
		awk '{ d = $3; gsub(/[()]/, "", d); print $1, d, $2 }'
}
# The records where $1 and $2 differ: "PC class": wrong (both name it, differently), perf-unknown
# (only we name it), ours-unknown (only perf does)
differ() {
	paste -d' ' "$1" "$2" | awk '{
		if ($2 == $5 && $3 == $6) next
		ou = $3 == "[unknown]"; pu = $6 == "[unknown]"
		if ($2 != $5 && $2 != "[unknown]" && $5 != "[unknown]") print $1, "wrong", $2, $5
		else if (!ou && !pu && $3 != $6) print $1, "wrong", $3, $6
		else if (ou && !pu) print $1, "ours-unknown", $6
		else print $1, "perf-unknown", $2, $3 }'
}

# compare NAME SPEC_MMAP_LINE KALLSYMS EXPECTED_DIFFERENCES
compare() {
	name=$1
	machine "$2" >"$tmp/$name.spec"
	${SPE_RUN:-} "$gen" "$tmp/$name.spec" "$tmp/$name.data" || echo "FAIL $name: kernel_perfdata"
	${SPE_RUN:-} "$load" "$tmp/$name.data" -o "$tmp/$name.db" --kallsyms="$3" 2>"$tmp/$name.err"
	expect "${name}_rc" $? 0
	ours "$tmp/$name.db" >"$tmp/$name.ours"
	expect "${name}_records" "$(wc -l <"$tmp/$name.ours")" 19
	[ $have_perf = 1 ] || return 0
	theirs "$tmp/$name.data" --kallsyms="$3" >"$tmp/$name.perf"
	expect "${name}_perf_records" "$(wc -l <"$tmp/$name.perf")" 19
	expect "${name}_differences" "$(differ "$tmp/$name.ours" "$tmp/$name.perf")" "$4"
}

# Perf 6.1 is wrong where
#   - it names the data object a PC is in (some_data, hi_data): we name no function there;
#   - a module lies below the kernel (my-mod, where arm64 loads modules): perf takes every PC
#     below the kernel map's start for a user PC (arm-spe.c, arm_spe_cpumode: kernel_start is
#     that map's start on arm64), though SPE's PC packet says EL1;
# and we name less than perf where the file does not say where a module's last function ends
# (lastmod: perf makes it a page).
same_boot_differences="ffffc9a2d5412810 ours-unknown some_data
ffffc9a2d0c00010 perf-unknown [my_mod] mymod_init
ffffc9a2d0c00110 perf-unknown [my_mod] mymod_work
ffffc9a2d0c007f0 perf-unknown [my_mod] mymod_exit
ffffc9a2d6000910 ours-unknown hi_data
ffffc9a2d6100010 ours-unknown last_fn"
compare same_boot "$kmap_text" "$tmp/kallsyms.boot" "$same_boot_differences"
expect same_boot_names "$(awk '{ print $3 }' "$tmp/same_boot.ours" | tr '\n' ' ')" \
	"_text do_one_initcall trace_initcall_start loc_a copy_page [unknown] el0_svc el0_svc schedule _etext mymod_init mymod_work mymod_exit hi_fn1 hi_fn2 [unknown] [unknown] [unknown] [unknown] "
has same_boot_said "$(cat "$tmp/same_boot.err")" \
	"$tmp/same_boot.data: kernel symbols: --kallsyms=$tmp/kallsyms.boot, lined up at _text; modules: 3 named by it, 0 not"

# Unknown kernel code apart from unknown user code, per kernel map, in every report: the view
# hot_symbol, spe-report's text, JSON and HTML page, spe-export's folded stacks
db=$tmp/same_boot.db
expect unknown_view "$(q "$db" "SELECT coalesce(mapping, 'user'), samples FROM hot_symbol WHERE symbol IS NULL ORDER BY 1")" \
"/lib/modules/6.1.0-spekit-test/extra/lastmod.ko.xz,1
/lib/modules/6.1.0-spekit-test/kernel/drivers/himod.ko,1
[kernel.kallsyms],2
user,1"
if [ -n "$report" ]; then
	${SPE_RUN:-} "$report" -d "$db" >"$tmp/report.txt" 2>&1
	expect unknown_text "$(grep '^  ??' "$tmp/report.txt" | awk '{ $NF = ""; print }' | sort)" \
"?? 1 5 5.3% 
?? in /lib/modules/6.1.0-spekit-test/extra/lastmod.ko.xz 1 5 5.3% 
?? in /lib/modules/6.1.0-spekit-test/kernel/drivers/himod.ko 1 5 5.3% 
?? in [kernel.kallsyms] 2 10 10.5% "
	${SPE_RUN:-} "$report" -d "$db" --format=json >"$tmp/report.json" 2>&1
	has unknown_json_kernel "$(cat "$tmp/report.json")" \
		'{"symbol": "??", "file": "??", "line": 0, "samples": 2, "total_latency": 10, "share": 0.1053, "mapping": "[kernel.kallsyms]"}'
	has unknown_json_user "$(cat "$tmp/report.json")" \
		'{"symbol": "??", "file": "??", "line": 0, "samples": 1, "total_latency": 5, "share": 0.0526, "mapping": null}'
	${SPE_RUN:-} "$report" -d "$db" --html="$tmp/report.html" 2>/dev/null
	expect unknown_html "$(grep -o '<td data-col="symbol" class="mono">(no symbol)</td><td>[^<]*</td>' "$tmp/report.html" |
		sed 's/.*<td>//; s/<.td>//' | sort)" "$(printf '%s\n' '[kernel.kallsyms]' himod.ko lastmod.ko.xz '–' | sort)"
fi
if [ -n "$export" ]; then
	expect unknown_folded "$(${SPE_RUN:-} "$export" -d "$db" --format=folded 2>/dev/null | grep '\[unknown\]' | sort)" \
"[kernel.kallsyms];[unknown];0xffffc9a2d5412810 5
[kernel.kallsyms];[unknown];0xffffc9a2d7000010 5
himod.ko;[unknown];0xffffc9a2d6000910 5
lastmod.ko.xz;[unknown];0xffffc9a2d6100010 5
work;[unknown];0xaaaaab000100 5"
fi

# Another boot: the image's names are the same, the modules' unknown (perf: unknown, or below the kernel, user PCs).
other_boot_differences="ffffc9a2d5412810 ours-unknown some_data
ffffc9a2d0c00010 perf-unknown [my_mod] [unknown]
ffffc9a2d0c00110 perf-unknown [my_mod] [unknown]
ffffc9a2d0c007f0 perf-unknown [my_mod] [unknown]"
compare other_boot "$kmap_text" "$tmp/kallsyms.other" "$other_boot_differences"
expect other_boot_image_names "$(head -10 "$tmp/other_boot.ours")" "$(head -10 "$tmp/same_boot.ours")"
expect other_boot_no_module_names "$(sed -n '11,19p' "$tmp/other_boot.ours" | awk '$3 != "[unknown]"')" ""
has other_boot_said "$(cat "$tmp/other_boot.err")" \
	"kernel symbols: --kallsyms=$tmp/kallsyms.other, lined up at _text: the kernel was +0x3c600000 from where the file has it (another boot); modules: 0 named by it, 3 not (my_mod: the kallsyms file is from another boot, where modules load elsewhere, ...)"

# perf's other reference symbol, _stext: the same names
compare stext "kernel 0xffffc9a2d5400000 0x16000 0xffffc9a2d5410000 [kernel.kallsyms]_stext" "$tmp/kallsyms.other" \
	"$other_boot_differences"
expect stext_names "$(cat "$tmp/stext.ours")" "$(cat "$tmp/other_boot.ours")"

# A file without the reference symbol cannot be lined up: no name at all (perf: none either; its
# kernel map then loads nothing, so it keeps every address above 2^63 for the kernel's)
compare notext "$kmap_text" "$tmp/kallsyms.notext" ""
expect notext_no_names "$(awk '$3 != "[unknown]"' "$tmp/notext.ours")" ""
has notext_said "$(cat "$tmp/notext.err")" \
	"kernel symbols: --kallsyms=$tmp/kallsyms.notext has no _text, the symbol the recording's kernel MMAP places: it cannot be lined up with the recording's kernel (KASLR), so it names none of its PCs"

# kptr_restrict at record time: pgoff 0, the file's addresses as they are (perf does the same)
compare hidden "kernel 0xffffc9a2d5400000 0x16000 0 [kernel.kallsyms]_text" "$tmp/kallsyms.boot" "$same_boot_differences"
expect hidden_names "$(cat "$tmp/hidden.ours")" "$(cat "$tmp/same_boot.ours")"
has hidden_said "$(cat "$tmp/hidden.err")" "its addresses taken as they are (the recording's kernel MMAP does not say where the kernel was"

# KSYMBOL: a BPF program's map from its registration to its unregistration, its one symbol covering it
cat >"$tmp/ksym.spec" <<EOF
osrelease 6.1.0-spekit-test
$kmap_text
comm 4242 work
bpf 150 1 77
ksymbol 150 0xffffc9a2d7000000 0x200 1 0 bpf_prog_6deef7357e7b4530_foo
ksymbol 150 0xffffc9a2d0d00000 0x200 1 0 bpf_prog_1111111111111111_low
ksymbol 150 0xffffc9a2d7001000 0x100 1 0 bpf_trampoline_6442
pc 100 0xffffc9a2d7000010 1 4242
pc 200 0xffffc9a2d7000010 1 4242
pc 201 0xffffc9a2d70001fc 1 4242
pc 202 0xffffc9a2d7000200 1 4242
pc 203 0xffffc9a2d0d00010 1 4242
pc 204 0xffffc9a2d7001010 1 4242
ksymbol 300 0xffffc9a2d7000000 0x200 1 1 bpf_prog_6deef7357e7b4530_foo
bpf 300 2 77
pc 400 0xffffc9a2d7000010 1 4242
EOF
${SPE_RUN:-} "$gen" "$tmp/ksym.spec" "$tmp/ksym.data" || echo "FAIL ksym: kernel_perfdata"
${SPE_RUN:-} "$load" "$tmp/ksym.data" -o "$tmp/ksym.db" --kallsyms="$tmp/kallsyms.boot" 2>"$tmp/ksym.err"
expect ksym_rc $? 0
ours "$tmp/ksym.db" >"$tmp/ksym.ours"
expect ksym_names "$(awk '{ print $3 }' "$tmp/ksym.ours" | tr '\n' ' ')" \
	"[unknown] bpf_prog_6deef7357e7b4530_foo bpf_prog_6deef7357e7b4530_foo [unknown] bpf_prog_1111111111111111_low bpf_trampoline_6442 [unknown] "
expect ksym_rows "$(q "$tmp/ksym.db" "SELECT m.path, printf('%x', m.start), m.\"end\" - m.start, m.time, s.name, s.size
	FROM mapping m JOIN symbol s ON s.mapping_id = m.id ORDER BY m.id")" \
	"bpf_prog_6deef7357e7b4530_foo,ffffc9a2d7000000,512,150,bpf_prog_6deef7357e7b4530_foo,512
bpf_prog_1111111111111111_low,ffffc9a2d0d00000,512,150,bpf_prog_1111111111111111_low,512
bpf_trampoline_6442,ffffc9a2d7001000,256,150,bpf_trampoline_6442,256"
has ksym_bpf_said "$(cat "$tmp/ksym.err")" "BPF programs: 1 loaded, 1 unloaded while recording"
has ksym_unmapped_said "$(cat "$tmp/ksym.err")" \
	"kernel records without symbols: 3 (3 at addresses no kernel MMAP or KSYMBOL of the recording covers)"
if [ $have_perf = 1 ]; then
	theirs "$tmp/ksym.data" --kallsyms="$tmp/kallsyms.boot" >"$tmp/ksym.perf"
	# the program below the kernel: perf takes its PCs for user PCs (see above)
	expect ksym_differences "$(differ "$tmp/ksym.ours" "$tmp/ksym.perf")" \
		"ffffc9a2d0d00010 perf-unknown bpf_prog_1111111111111111_low bpf_prog_1111111111111111_low"
	# the records as perf prints them, and the rows we made of them
	expect ksym_records "$(PAGER=cat perf script -i "$tmp/ksym.data" --show-bpf-events 2>/dev/null |
		awk '/PERF_RECORD_KSYMBOL/ && $(NF - 2) == "0x0" { printf "%s,%d,%s\n", $(NF - 8), $(NF - 6), $NF }')" \
		"$(q "$tmp/ksym.db" "SELECT printf('%x', start) AS a, \"end\" - start AS n, path FROM mapping WHERE time = 150 ORDER BY id")"
fi

# Unusable --kallsyms files: 65, the file and line named, nothing created
printf 'ffffc9a2d5400000 T _text\n%01500d T too_long\n' 0 >"$tmp/long"
printf 'ffffc9a2d5400000 T _text\nnot a kallsyms line\n' >"$tmp/garbage"
printf '0000000000000000 T _text\n0000000000000000 t el0_svc\n' >"$tmp/zero"
: >"$tmp/empty"
for v in "long:line 2: longer than the 1024 bytes a kallsyms line may have" \
	"garbage:line 2: not a kallsyms line (ADDRESS TYPE NAME [MODULE]): \"not a kallsyms line\"" \
	"zero:every address is 0 (read with kptr_restrict set?" "empty:empty: no symbols"; do
	f=${v%%:*} why=${v#*:}
	${SPE_RUN:-} "$load" "$tmp/same_boot.data" -o "$tmp/bad-$f.db" --kallsyms="$tmp/$f" 2>"$tmp/bad-$f.err"
	expect "bad_${f}_rc" $? 65
	has "bad_${f}_message" "$(cat "$tmp/bad-$f.err")" "spe-load: $tmp/$f: $why"
	[ ! -e "$tmp/bad-$f.db" ] || { echo "FAIL bad_${f}: $tmp/bad-$f.db created"; fail=1; }
done

exit $fail
