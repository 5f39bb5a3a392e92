#!/bin/sh
# Built programs run through ${SPE_RUN:-} (the cross-compiling emulator, set by ctest; empty natively).
# spe-topdown stat: event setup checked with --dry-run against fixture sysfs
# trees (expected encodings: docs/topdown-formulas.md §1 slots event=0x00,umask=0x4 ->
# config 0x400, metrics umask 0x80..0x87 -> 0x8000..0x8700; Arm PMUv3 codes
# §4), the unsupported path on a fixture AMD tree and, for real, on this host.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
td=$1
root=$2/sysroot

out=$(${SPE_RUN:-} "$td" stat --dry-run --sysroot "$root/intel-spr" --level=2 -- true)
expect spr_events "$(printf '%s\n' "$out" | grep '^perf_event_attr' | sed 's/ read_format.*//')" \
"perf_event_attr[0] name=slots type=4 config=0x400 group_fd=-1
perf_event_attr[1] name=topdown-retiring type=4 config=0x8000 group_fd=attr[0]
perf_event_attr[2] name=topdown-bad-spec type=4 config=0x8100 group_fd=attr[0]
perf_event_attr[3] name=topdown-fe-bound type=4 config=0x8200 group_fd=attr[0]
perf_event_attr[4] name=topdown-be-bound type=4 config=0x8300 group_fd=attr[0]
perf_event_attr[5] name=topdown-heavy-ops type=4 config=0x8400 group_fd=attr[0]
perf_event_attr[6] name=topdown-br-mispredict type=4 config=0x8500 group_fd=attr[0]
perf_event_attr[7] name=topdown-fetch-lat type=4 config=0x8600 group_fd=attr[0]
perf_event_attr[8] name=topdown-mem-bound type=4 config=0x8700 group_fd=attr[0]"
has spr_leader "$out" "name=slots type=4 config=0x400 group_fd=-1 read_format=GROUP disabled=1 enable_on_exec=1"
has spr_rdpmc "$out" "RDPMC (SLOTS 0x40000003, PERF_METRICS 0x20000000)"

# Ice Lake has no level 2 metrics: --level=2 falls back to level 1 (5 events)
out=$(${SPE_RUN:-} "$td" stat --dry-run --sysroot "$root/intel-icl" --level=2 -- true)
expect icl_count "$(printf '%s\n' "$out" | grep -c '^perf_event_attr')" 5
has icl_level "$out" "level 1"

out=$(${SPE_RUN:-} "$td" stat --dry-run --sysroot "$root/arm-neoverse-n2" -- true)
expect n2_events "$(printf '%s\n' "$out" | grep '^perf_event_attr' | sed 's/ group_fd.*//')" \
"perf_event_attr[0] name=cpu_cycles type=10 config=0x11
perf_event_attr[1] name=stall_slot_frontend type=10 config=0x3e
perf_event_attr[2] name=stall_slot_backend type=10 config=0x3d
perf_event_attr[3] name=stall_slot type=10 config=0x3f
perf_event_attr[4] name=op_spec type=10 config=0x3b
perf_event_attr[5] name=op_retired type=10 config=0x3a
perf_event_attr[6] name=br_mis_pred type=10 config=0x10"
has n2_slots "$out" "slots per cycle 5 (PMMIR_EL1.SLOTS), formula arm_topdown for neoverse-n2"
has n2_midr "$out" "neoverse-n2 (MIDR 0x410fd493)"

err=$(${SPE_RUN:-} "$td" stat --dry-run --sysroot "$root/amd-epyc" -- true 2>&1)
expect amd_exit "$?" 69
has amd_message "$err" "topdown is not supported on this CPU (AMD EPYC 7763 64-Core Processor)"

${SPE_RUN:-} "$td" stat -- 2>/dev/null
expect no_command_exit "$?" 64

# This host, for real: either the unsupported error naming the CPU, or values.
out=$(${SPE_RUN:-} "$td" stat -- true 2>&1)
rc=$?
if [ $rc = 69 ]; then
	has host_unsupported "$out" "topdown is not supported on this CPU ("
elif [ $rc = 0 ]; then
	has host_values "$out" "retiring="
else
	printf 'FAIL host: exit %s\n%s\n' "$rc" "$out"
	fail=1
fi

[ $fail = 0 ] && echo "cli_stat: all passed"
exit $fail
