#!/usr/bin/env bash
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-record end to end on the sysfs fixtures: exact --dry-run output (worked
# out by hand: see the comments), JSON, exit codes and messages.
# usage: cli_record.sh SPE_RECORD FIXTURES_SYSFS
set -u
rec=$1 fx=$2
fail=0 n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run WANT_RC ARGS...: runs spe-record, stdout in $tmp/out, stderr in $tmp/err
run() {
	local want=$1; shift
	n=$((n + 1))
	${SPE_RUN:-} "$rec" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: spe-record $*: exit $rc, wanted $want"; cat "$tmp/err"; fail=$((fail + 1))
	fi
}
# expect_out FILE: stdout equals FILE's content
expect_out() {
	if ! diff -u "$1" "$tmp/out"; then echo "FAIL: output differs (test $n)"; fail=$((fail + 1)); fi
}
# expect_err TEXT: stderr contains TEXT
expect_err() {
	if ! grep -qF -- "$1" "$tmp/err"; then
		echo "FAIL: stderr of test $n lacks: $1"; cat "$tmp/err"; fail=$((fail + 1))
	fi
}
expect_grep() {
	if ! grep -qE -- "$1" "$tmp/out"; then
		echo "FAIL: stdout of test $n lacks: $1"; cat "$tmp/out"; fail=$((fail + 1))
	fi
}

# The hiperf example on Neoverse N1 / 6.1 (type 8, min_interval 1024):
#  config = TS(0) PA(1) PCT(2) jitter(16) B(32) LD(33) ST(34) = 0x0000000700010007
#  pmscr  = E0SPE(0) E1SPE(1) CX(3) PA(4) TS(5) PCT=01(6) = 0x7b
#  pmsfcr = FT(1) B(16) LD(17) ST(18) = 0x70002; pmsirr = 1024 | RND = 0x401
cat >"$tmp/want" <<'X'
pmu=arm_spe_0
type=8
size=128
config=0x0000000700010007
config1=0x0000000000000000
config2=0x0000000000000000
config3=0x0000000000000000
config4=0x0000000000000000
sample_period=1024
exclude_user=0
exclude_kernel=0
pmscr=0x000000000000007b
pmsfcr=0x0000000000070002
pmsevfr=0x0000000000000000
pmsnevfr=0x0000000000000000
pmslatfr=0x0000000000000000
pmsdsfr=0xffffffffffffffff
pmsirr=0x0000000000000401
X
run 0 --dry-run --sysfs="$fx/n1-v1p1-linux6.1" --privileged \
	-e arm_spe/ts_enable=1,pa_enable=1,pct_enable=1,jitter=1,branch_filter=1,load_filter=1,store_filter=1/
expect_out "$tmp/want"
run 0 --dry-run --sysfs="$fx/n1-v1p1-linux6.1" --privileged --ts-enable --pa_enable --pct-enable \
	--jitter --branch_filter --load-filter --store-filter=1
expect_out "$tmp/want"

# JSON: the same fields, one object.  N2 / 6.16, period 2048, user only:
#  config1 = retired|l1d_refill = 0xa; config3 = not_taken = 0x40 (size 136)
#  pmscr = E0SPE | CX = 0x9; pmsfcr = FE | FnE = 0x9; pmsirr = 2048 = 0x800
printf '%s\n' '{"pmu":"arm_spe_0","type":9,"size":136,"config":"0x0000000000000000","config1":"0x000000000000000a","config2":"0x0000000000000000","config3":"0x0000000000000040","config4":"0x0000000000000000","sample_period":2048,"exclude_user":0,"exclude_kernel":1,"pmscr":"0x0000000000000009","pmsfcr":"0x0000000000000009","pmsevfr":"0x000000000000000a","pmsnevfr":"0x0000000000000040","pmslatfr":"0x0000000000000000","pmsdsfr":"0xffffffffffffffff","pmsirr":"0x0000000000000800"}' >"$tmp/want"
run 0 --dry-run --format=json --sysfs="$fx/n2-v1p2-linux6.16" --paranoid=1 -c 2048 \
	--event_filter=retired,l1d_refill -e 'arm_spe/inv_event_filter=not_taken/u'
expect_out "$tmp/want"

# Exit codes and messages.
run 69 --dry-run --cpu=neoverse-n1 --inv-event-filter=not_taken
expect_err "error: inv_event_filter: needs FEAT_SPE_FnE (SPEv1.2); arm_spe_0 is SPEv1.1 (neoverse-n1) on Linux 6.19 [needs-feature]"
run 69 --dry-run --sysfs="$fx/n1-v1p1-linux6.1" --discard
expect_err "discard: needs Linux 6.14"
run 77 --dry-run --cpu=neoverse-n2 --kernel=6.12 --paranoid=2 --pa-enable
expect_err "[needs-privilege]"
run 0 --dry-run --cpu=neoverse-n2 --kernel=6.12 --paranoid=1 --pa-enable
run 64 --dry-run --cpu=neoverse-n2 -F 1000
expect_err "[freq-mode]"
run 64 --dry-run --cpu=neoverse-n2 --load-filter=2
expect_err "[value-too-big]"
run 64 --dry-run --cpu=neoverse-n2 --lod-filter
expect_err "unrecognized option '--lod-filter'; did you mean '--load-filter'?"
run 0 --dry-run --cpu=neoverse-n2 --privileged -c 1000
expect_err "warning: period: 1000 is below caps/min_interval=1024 (a recommendation since 6.17); Linux 6.19 programs 768 [period-low]"
run 64 --dry-run --cpu=neoverse-n2 --privileged -c 1000 --strict
expect_err "error (--strict): period:"
run 64 --dry-run --cpu=no-such-cpu
expect_err "unknown CPU 'no-such-cpu'"
run 66 --dry-run --sysfs="$fx/bad-format"
expect_err "bad-format/format/load_filter: offset 7"
run 64 --dry-run --cpu=neoverse-n1 --sysfs="$fx/n1-v1p1-linux6.1"
expect_err "each name a target"
run 64 --dry-run --cpu=neoverse-n1 --pmsver=3
run 64 --dry-run --pmsidr=0x7
expect_err "--pmsidr needs --pmsver"
run 64 --dry-run --cpu=neoverse-n1 stray-word
expect_err "unexpected argument 'stray-word'"
run 64 --dry-run --cpu=neoverse-n1 --period
expect_err "--period needs a value"
run 64 --dry-run --cpu=neoverse-n1 --strict=1
expect_err "--strict takes no value"
# -e arm_spe_N/ names the instance of a profile target in messages.
run 69 --dry-run --cpu=neoverse-n1 -e arm_spe_2/inv_event_filter=2/
expect_err "arm_spe_2 is SPEv1.1 (neoverse-n1)"

# No target named and no arm_spe PMU on this machine: unavailable, with a hint.
if ! ls /sys/bus/event_source/devices/ 2>/dev/null | grep -q '^arm_spe'; then
	run 69 --dry-run --load-filter
	expect_err "no arm_spe PMU here; name a target with --cpu-model=MODEL or --sysfs=DIR"
fi

# A mistyped term value is a usage error (64, naming the term and value) before any look at the
# target: not 66 for a --sysfs that is missing, not 69 on a machine without SPE (record, --check,
# --dry-run, --replay alike), whatever machine runs this.
run 64 --dry-run --sysfs="$tmp/no-such-dir" --min-latency=abc
expect_err "error: min_latency: 'abc' is not a decimal or 0x-hex number [bad-value]"
run 64 --load-filter=maybe -- true
expect_err "error: load_filter: 'maybe' is not 0 or 1 [bad-value]"
run 64 --check -e arm_spe/load_filter=2x/
expect_err "error: load_filter: '2x' is not 0 or 1 [bad-value]"
run 64 --dry-run -e foo/load_filter=1/
expect_err "[bad-pmu]"
run 64 --replay="$tmp/no-such-trace" --min-latency=abc
expect_err "min_latency: 'abc'"
if grep -q "no-such" "$tmp/err"; then echo "FAIL: --replay's input was looked at before the usage error"; fail=$((fail + 1)); fi

# A copy with only the kernel's files (no `kernel`): the newest rules, a warning, exit 0.
run 0 --dry-run --sysfs="$fx/n1-v1p1-no-kernel-file" --load_filter
expect_err "warning: $fx/n1-v1p1-no-kernel-file: no 'kernel' file and not under /sys: assuming Linux 6.19"
expect_err "pass --kernel=X.Y"
expect_grep '^config=0x0000000200000000$'
run 69 --dry-run --sysfs="$fx/n1-v1p1-no-kernel-file" --kernel=6.1 --discard
expect_err "discard: needs Linux 6.14"
grep -q "assuming Linux" "$tmp/err" && { echo "FAIL: --kernel given, yet a warning"; fail=$((fail + 1)); }
# caps/ values no kernel prints: refused like a malformed file (66), naming file and value.
cp -r "$fx/n1-v1p1-no-kernel-file" "$tmp/oddcaps"
echo 7 >"$tmp/oddcaps/caps/min_interval"
run 66 --dry-run --sysfs="$tmp/oddcaps" -c 7
expect_err "oddcaps/caps/min_interval: 7 is not a minimum interval PMSIDR_EL1.Interval encodes"
# A tree under /sys is this machine: uname's release, no warning.
if [ -r /sys/bus/event_source/devices/software/type ]; then
	run 0 --list-filters --sysfs=/sys/bus/event_source/devices/software
	expect_grep "on Linux $(uname -r | cut -d. -f1,2)\$"
	grep -q "assuming Linux" "$tmp/err" && { echo "FAIL: a /sys tree got a warning"; fail=$((fail + 1)); }
fi

# Heterogeneous: the PMU that covers the CPUs decides.
run 64 --dry-run --sysfs="$fx/hetero-linux6.16"
expect_err "pick one with --cpus=LIST"
run 0 --dry-run --sysfs="$fx/hetero-linux6.16" -C 4-7 --privileged --inv-event-filter=not_taken
expect_grep '^pmu=arm_spe_1$'
expect_grep '^type=13$'
run 69 --dry-run --sysfs="$fx/hetero-linux6.16" --cpus=0-3 --privileged --inv-event-filter=not_taken
run 64 --dry-run --sysfs="$fx/hetero-linux6.16" --cpus=3-4

# Raw registers.
run 0 --dry-run --pmsidr=0x40000c7 --pmsver=5 --kernel=6.18 --privileged --simd-filter
expect_grep '^config=0x0000008000000000$'
expect_grep '^pmsfcr=0x0000000000100002$'

# --list-filters names every term and the reason it is missing.
run 0 --list-filters --sysfs="$fx/n1-v1p1-linux6.1"
expect_grep '^inv_event_filter +--inv-event-filter +config3:0-63 +no: needs Linux 6.3'
expect_grep '^load_filter +--load-filter +config:33 +yes$'
[ "$(grep -c -- ' --' "$tmp/out")" = 25 ] || { echo "FAIL: --list-filters should list 25 terms"; fail=$((fail + 1)); }
run 0 --list-filters --format=json --cpu=neoverse-v2
expect_grep '^\{"term":"simd_filter","option":"--simd-filter","field":"config:39","feature":"FEAT_SPE_EFT","supported":false,"reason":"needs FEAT_SPE_EFT'

# --list-filters agrees with --dry-run on privilege: pa_enable is "yes, if privileged"
# exactly where --dry-run --pa-enable exits 77.
run 0 --list-filters --cpu=neoverse-n2 --kernel=6.12 --paranoid=2
expect_grep '^pa_enable +--pa-enable +config:1 +yes, if privileged: needs CAP_PERFMON or perf_event_paranoid <= 1 \(Linux 6.12\+\); target has perf_event_paranoid=2 and no CAP_PERFMON$'
expect_grep '^pct_enable +--pct-enable +config:2 +yes, if privileged: '
run 0 --list-filters --cpu=neoverse-n2 --kernel=6.12 --paranoid=1
expect_grep '^pa_enable +--pa-enable +config:1 +yes$'
run 0 --list-filters --format=json --cpu=neoverse-n2 --kernel=6.1 --paranoid=1
expect_grep '^\{"term":"pa_enable",.*"supported":true,"reason":null,"needs_privilege":"needs CAP_PERFMON \(Linux 6.1 ignores perf_event_paranoid here; 6.12 relaxed it\); target has no CAP_PERFMON"\}$'
expect_grep '^\{"term":"ts_enable",.*"needs_privilege":null\}$'
run 77 --dry-run --cpu=neoverse-n2 --kernel=6.1 --paranoid=1 --pa-enable
run 0 --list-filters --format=json --cpu=neoverse-n2 --kernel=6.1 --privileged
expect_grep '^\{"term":"pa_enable",.*"needs_privilege":null\}$'
run 0 --dry-run --cpu=neoverse-n2 --kernel=6.1 --privileged --pa-enable

# Unprivileged default (issue 18 item 5): a caller perf core would refuse kernel
# samples (paranoid 2, no CAP_PERFMON: the --cpu default) gets a user-only event,
# as perf record falls back.  Neoverse V2 on 6.19, min_interval 1024:
#  config = LD(33) = 0x200000000; config2 = 10; pmscr = E0SPE only (no E1SPE, no CX);
#  pmsfcr = FT(1) | FL(2) | LD(17) = 0x20006; pmsirr = 1024.
cat >"$tmp/want" <<'X'
pmu=arm_spe_0
type=unknown
size=128
config=0x0000000200000000
config1=0x0000000000000000
config2=0x000000000000000a
config3=0x0000000000000000
config4=0x0000000000000000
sample_period=1024
exclude_user=0
exclude_kernel=1
pmscr=0x0000000000000001
pmsfcr=0x0000000000020006
pmsevfr=0x0000000000000000
pmsnevfr=0x0000000000000000
pmslatfr=0x000000000000000a
pmsdsfr=0xffffffffffffffff
pmsirr=0x0000000000000400
X
run 0 --load_filter --min_latency=10 --dry-run --cpu=neoverse-v2
expect_out "$tmp/want"
expect_err "spe-record: warning: exclude_kernel: target has perf_event_paranoid=2 and no CAP_PERFMON, so the event samples user space only (exclude_kernel=1, PMSCR.E1SPE clear); for kernel samples give the recorder CAP_PERFMON or set kernel.perf_event_paranoid=1 [kernel-excluded]"
run 64 --load_filter --dry-run --cpu=neoverse-v2 --strict
expect_err "error (--strict): exclude_kernel:"
run 0 --list-filters --cpu=neoverse-v2
expect_grep '^# samples: perf_event_paranoid=2 and no CAP_PERFMON: kernel samples are excluded$'
run 0 --list-filters --cpu=neoverse-v2 --paranoid=1
expect_grep '^# samples: user space and kernel$'
run 0 --list-filters --format=json --cpu=neoverse-v2 --paranoid=3
expect_grep '^\{"target":"arm_spe_0 is SPEv1.2 \(neoverse-v2\) on Linux 6.19","kernel_samples":false,"reason":"perf_event_paranoid=3 and no CAP_PERFMON: kernel samples are excluded"\}$'

# The kernel's rule (perf_allow_kernel: paranoid <= 1 or CAP_PERFMON, on every
# release) for each level and privilege, and each way of asking:
#   default: kernel when allowed, else user only with a warning (exit 0);
#   k (-e .../uk) and --exclude-user: kernel when allowed, else refused (77);
#   u: user only, never a warning.
for paranoid in -1 0 1 2 3 4; do
	for priv in "" --privileged; do
		allowed=0
		{ [ "$paranoid" -le 1 ] || [ -n "$priv" ]; } && allowed=1
		args="--dry-run --cpu=neoverse-n1 --kernel=6.8 --paranoid=$paranoid $priv"
		run 0 $args --load-filter
		if [ $allowed = 1 ]; then
			expect_grep '^exclude_kernel=0$'; expect_grep '^pmscr=0x000000000000000[3b]$'
			grep -q kernel-excluded "$tmp/err" && { echo "FAIL: $args: warned although allowed"; fail=$((fail + 1)); }
		else
			expect_grep '^exclude_kernel=1$'; expect_grep '^pmscr=0x0000000000000001$'
			expect_err "target has perf_event_paranoid=$paranoid and no CAP_PERFMON, so the event samples user space only"
		fi
		if [ $allowed = 1 ]; then run 0 $args -e arm_spe//uk; else run 77 $args -e arm_spe//uk; fi
		[ $allowed = 1 ] && expect_grep '^exclude_kernel=0$'
		[ $allowed = 0 ] && expect_err "error: k: kernel samples need CAP_PERFMON or perf_event_paranoid <= 1 (perf core refuses the event with EACCES); target has perf_event_paranoid=$paranoid and no CAP_PERFMON [needs-privilege]"
		if [ $allowed = 1 ]; then run 0 $args --exclude-user; else run 77 $args --exclude-user; fi
		[ $allowed = 1 ] && expect_grep '^exclude_user=1$'
		[ $allowed = 0 ] && expect_err "error: exclude_user: kernel samples need"
		run 0 $args -e arm_spe//u
		expect_grep '^exclude_kernel=1$'
		grep -q kernel-excluded "$tmp/err" && { echo "FAIL: $args u: a warning for a user-only request"; fail=$((fail + 1)); }
	done
done

# Every JSON output line parses.
if command -v python3 >/dev/null; then
	${SPE_RUN:-} "$rec" --list-filters --format=json --sysfs="$fx/v1p4-fds-linux6.19" >"$tmp/out"
	${SPE_RUN:-} "$rec" --dry-run --format=json --sysfs="$fx/v1p4-fds-linux6.19" --data-src-filter=1,2 >>"$tmp/out" 2>/dev/null
	n=$((n + 1))
	python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' <"$tmp/out" ||
		{ echo "FAIL: JSON lines do not parse"; fail=$((fail + 1)); }
fi

# --help comes from the tables.
run 0 --help
expect_grep '^  --inv-data-src-filter=V'
expect_grep 'neoverse-v3'

echo "$n tests, $fail failures"
[ "$fail" = 0 ]
