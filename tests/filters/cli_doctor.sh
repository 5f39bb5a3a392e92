#!/usr/bin/env bash
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe doctor end to end: every captured situation of fixtures/doctor/ against
# its golden checklist (text and JSON, reviewed by eye) and exit code;
# spe-record --check on the same trees with spe-record's plans; the live run
# on this machine; usage errors.
# usage: cli_doctor.sh SPE_DOCTOR SPE_RECORD FIXTURES_DOCTOR
#   UPDATE_GOLDENS=1 rewrites the goldens (then read the diff before committing).
set -u
doc=$1 rec=$2 fx=$3
. "$(dirname "$0")/../lib/testlib.sh"
scratch_dir doctor-cli
n=0

# run NAME WANT_RC PROG ARGS...: stdout in $tmp/out, stderr in $tmp/err
run() {
	local name=$1 want=$2; shift 2
	n=$((n + 1))
	${SPE_RUN:-} "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	expect "$name exit" "$rc" "$want"
}
golden() { # NAME FILE: stdout equals the golden FILE
	if [ "${UPDATE_GOLDENS:-}" = 1 ]; then cp "$tmp/out" "$2"; return; fi
	if ! diff -u "$2" "$tmp/out"; then echo "FAIL $1: output differs from $2"; fail=1; fi
}
err_has() { has "$1" "$(cat "$tmp/err")" "$2"; }
out_has() { has "$1" "$(cat "$tmp/out")" "$2"; }

# situation  exit  first failing check (README.md says where each comes from)
while read -r name want first; do
	root="$fx/$name/root"
	run "$name" "$want" "$doc" --root="$root"
	golden "$name" "$fx/$name/doctor.txt"
	if [ "$first" = - ]; then
		out_has "$name verdict" "verdict: ok (exit 0)"
	else
		out_has "$name verdict" "(exit $want): first failing check: $first"
	fi
	run "$name json" "$want" "$doc" --root="$root" --format=json
	golden "$name json" "$fx/$name/doctor.json"
	if command -v python3 >/dev/null; then
		got=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["exit"], d["first_failure"] or "-", len(d["checks"]))' <"$tmp/out")
		expect "$name json fields" "$got" "$want $first 15"
	fi
done <<'EOF'
x86-vm                  69 arch
arm-vm-graviton3        69 virt
kpti-enabled            69 kpti
module-not-loaded       69 driver
n1-baremetal-paranoid2   0 -
mlock-too-small          0 -
biglittle-two-pmus       0 -
all-good-perfmon         0 -
EOF

# The recording spe-record's options describe.  Without -p or a command it
# records CPU-wide, which paranoid 2 refuses to a user without CAP_PERFMON.
n1="$fx/n1-baremetal-paranoid2/root"
run "check command" 0 "$rec" --check --root="$n1" -- true
out_has "check command" "works now: spe-record -- COMMAND"
run "check cpu-wide" 77 "$rec" --check --root="$n1"
out_has "check cpu-wide paranoid" "FAIL  paranoid  2: user space of your own processes only; spe-record leaves the kernel out (exclude_kernel=1) and says so, and -a or -C (CPU-wide) is refused"
err_has "check cpu-wide blocker" "spe-record: cannot record: paranoid: 2: user space"
err_has "check cpu-wide works" "spe-record: this works now: spe-record -- COMMAND"
err_has "check cpu-wide pointer" "spe-record: 'spe doctor' (or spe-record --check) shows every check and its evidence"
run "doctor -a" 77 "$doc" --root="$n1" -a
out_has "doctor -a" "FAIL  record    not as planned (CPU-wide needs perf_event_paranoid <= 0 or CAP_PERFMON); this works now: spe-record -- COMMAND"
# mlock, 64 CPUs at the default limits (41216 KiB): the default 4 MiB of AUX
# per CPU would need 295168 KiB, so without -m spe-record maps the largest
# that fits, 256 KiB, with a 256 KiB data ring (the golden above: WARN, 0).
# -m 32 fits with the full data ring, -m 64 only with the cut one, -m 128
# not at all (77, and -m 64 is the suggestion).
ml="$fx/mlock-too-small/root"
run "doctor mlock" 0 "$doc" --root="$ml"
out_has "mlock default sized" "WARN  mlock     64 CPUs x (AUX 256 KiB + data ring 260 KiB) = 33024 KiB fits"
run "check -m 32" 0 "$rec" --check --root="$ml" -m 32 -- true
out_has "check -m 32" "OK    mlock     64 CPUs x (AUX 128 KiB + data ring 516 KiB) = 41216 KiB fits"
run "check -m 64" 0 "$rec" --check --root="$ml" -m 64 -- true
out_has "check -m 64" "OK    mlock     64 CPUs x (AUX 256 KiB + data ring 260 KiB) = 33024 KiB fits: the caller may lock 41216 KiB (perf_event_mlock_kb 516 x 64 online CPUs + RLIMIT_MEMLOCK 8192 KiB) (with the data ring cut to fit)"
run "check -m 128" 77 "$rec" --check --root="$ml" -m 128 -- true
err_has "check -m 128" "spe-record: cannot record: mlock: 64 CPUs x (AUX 512 KiB + data ring 260 KiB) = 49408 KiB, but the caller may lock 41216 KiB"
err_has "check -m 128 works" "spe-record: this works now: spe-record -m 64 -- COMMAND"
run "doctor -m 32" 0 "$doc" --root="$ml" -m 32
run "check default" 0 "$rec" --check --root="$ml" -- true
out_has "check default" "works now: spe-record -- COMMAND"
# The same machine on a 64 KiB-page kernel: 516 KiB is 8 pages per CPU.  The
# data ring is 512 KiB (8 pages, not 128: 8 MiB per CPU), cut to 256 KiB here.
cp -R "$ml" "$tmp/ml64"
sed 's/^KernelPageSize: .*/KernelPageSize:       64 kB/' "$ml/proc/self/smaps" >"$tmp/ml64/proc/self/smaps"
run "mlock 64k pages" 0 "$doc" --root="$tmp/ml64"
out_has "mlock 64k pages" "WARN  mlock     64 CPUs x (AUX 256 KiB + data ring 320 KiB) = 36864 KiB fits: the caller may lock 40960 KiB"
out_has "mlock 64k pages page size" "0-63 (64 CPUs; page size 65536)"
# Two PMUs: -C picks one; a list across both is refused by the PMU choice.
bl="$fx/biglittle-two-pmus/root"
run "check -C 6-9" 0 "$rec" --check --root="$bl" -C 6-9 -- true
out_has "check -C 6-9" "everything: spe-record -C 6-9 -- COMMAND"
run "doctor -C 3-7" 0 "$doc" --root="$bl" -C 3-7
out_has "doctor -C 3-7" "WARN  record    the requested CPUs span more than one SPE PMU (arm_spe_0 covers 2-5)"
run "check json" 69 "$rec" --check --format=json --root="$fx/kpti-enabled/root" -- true
out_has "check json" '"verdict":"unavailable","exit":69,"first_failure":"kpti"'
err_has "check json blocker" "spe-record: cannot record: kpti: kernel page-table isolation is on"
err_has "check json hint" "spe-record: without SPE: check filter options with --dry-run --cpu-model=MODEL"

# Variants of the trees, one file changed: each branch a real system can take.
variant() { rm -rf "$tmp/v"; cp -r "$fx/$1/root" "$tmp/v"; }
variant all-good-perfmon # a stale /boot/config: the PMUs decide
sed -i 's/^CONFIG_ARM_SPE_PMU=m/# CONFIG_ARM_SPE_PMU is not set/' "$tmp"/v/boot/config-*
run "stale config" 0 "$doc" --root="$tmp/v"
out_has "stale config" "says the driver is not built, yet the PMUs exist: the file is not this kernel's"
variant module-not-loaded # CONFIG_ARM_SPE_PMU=m but linux-modules-extra not installed
rm "$tmp"/v/lib/modules/*/kernel/drivers/perf/arm_spe_pmu.ko.zst
run "no module file" 69 "$doc" --root="$tmp/v"
out_has "no module file" "FAIL  driver    the kernel builds arm_spe_pmu as a module, but no module file is installed for 6.17.0-1010-aws"
out_has "no module file fix" "sudo apt install linux-modules-extra-6.17.0-1010-aws), then sudo modprobe arm_spe_pmu"
variant n1-baremetal-paranoid2 # level 3 on a kernel with the Debian/Ubuntu patch (its config says so)
echo 3 >"$tmp/v/proc/sys/kernel/perf_event_paranoid"
run "paranoid 3 patched" 77 "$doc" --root="$tmp/v"
out_has "paranoid 3 patched" "FAIL  paranoid  3: this kernel refuses every perf event to callers without CAP_SYS_ADMIN"
out_has "paranoid 3 record" "FAIL  record    nothing: perf events are refused (see paranoid)"
rm "$tmp"/v/boot/config-* # ... and without a configuration to tell: a warning, not a refusal
run "paranoid 3 unknown" 0 "$doc" --root="$tmp/v"
out_has "paranoid 3 unknown" "WARN  paranoid  3: mainline treats it as 2"
variant kpti-enabled # no kernel log: KPTI from the meltdown status of an affected core
rm "$tmp/v/var/log/dmesg"
echo "Mitigation: PTI" >"$tmp/v/sys/devices/system/cpu/vulnerabilities/meltdown"
run "kpti meltdown" 69 "$doc" --root="$tmp/v"
out_has "kpti meltdown" "FAIL  kpti      kernel page-table isolation is on, which stops the arm_spe_pmu driver from probing"
out_has "kpti meltdown probe" "WARN  probe     kernel log not readable: the driver's messages would say why it did not probe"

# This machine: a correct verdict (on x86, exit 69 at arch).
if [ "$(cat /proc/sys/kernel/arch 2>/dev/null || uname -m)" = x86_64 ]; then
	run "live x86" 69 "$doc"
	out_has "live x86" "FAIL  arch      x86_64: SPE is a feature of 64-bit Arm CPUs (Armv8.2 and later), so there is none here"
	out_has "live x86 header" "spe doctor: this system, Linux $(uname -r) on x86_64"
	out_has "live x86 skip" "SKIP  pmu       not an Arm system"
	run "live x86 json" 69 "$doc" --format=json
	out_has "live x86 json" '"live":true,'
	run "live record" 69 "$rec" -o "$tmp/x.data" -- true
	err_has "live record" "spe-record: cannot record: arch: x86_64"
	expect "live record no file" "$(test -e "$tmp/x.data" && echo yes)" ""
fi

# Usage.
run "bad format" 64 "$doc" --format=xml
err_has "bad format" "spe-doctor: --format=xml: use text or json"
run "bad root" 66 "$doc" --root=/nonexistent/tree
err_has "bad root" "spe-doctor: /nonexistent/tree: No such file or directory"
run "file root" 66 "$doc" --root=/etc/hostname
err_has "file root" "not a directory (give the root of a captured tree)"
run "bad -m" 64 "$doc" -m 3
err_has "bad -m" "spe-doctor: --mmap-pages=3: expected a power of two of at least 2 AUX pages"
run "bad -C" 64 "$doc" -C 1-
err_has "bad -C" "spe-doctor: --cpu=1-: offset 2: expected a CPU list like 0-3,8"
run "stray arg" 64 "$doc" extra
err_has "stray arg" "spe-doctor: unexpected argument 'extra'"
run "help" 0 "$doc" --help
out_has "help" "usage: spe-doctor [--root=DIR] [--format=text|json] [-a | -C LIST] [-m PAGES]"
run "root without check" 64 "$rec" --root="$n1" -- true
err_has "root without check" "--root=$n1 goes with --check"

echo "$n runs, $([ "$fail" = 0 ] && echo "no failures" || echo failures)"
exit "$fail"
