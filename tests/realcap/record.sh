#!/bin/sh
# Record the input captures of the real-capture cases again:
#   tests/realcap/record.sh [CASE...]        (default: every case below)
# writes fixtures/realcap/cases/CASE/input.data and record.txt (the command
# run, perf's and the kernel's versions, perf's messages), plus kallsyms for
# the kernel case and perf-PID.map for the jit case.
#
# Each case runs the x86 stand-in of one aarch64 program (stand_in.c) under
# `perf record`, chrooted into a copy of fixtures/realcap/sysroot, so the
# kernel's COMM/FORK/EXIT/MMAP2/SWITCH records describe the aarch64 files at
# their real paths and layouts.  Needs root (chroot, the proc mount for
# ns_last_pid, perf record -a), perf 6.1 and a C compiler with a static libc.
# The captures then change (pids, times, addresses of the x86 parts), so the
# plans' tasks are named by COMM and fork order, never by pid.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cases_dir=$top/fixtures/realcap/cases
if [ "$(id -u)" != 0 ]; then
	echo "record.sh: needs root (chroot, mount -t proc, perf record -a)" >&2
	exit 77
fi
command -v perf >/dev/null || { echo "record.sh: no perf" >&2; exit 69; }

work=$(mktemp -d /tmp/realcap-record-XXXXXX)
root=$work/root
cleanup() {
	umount "$root/proc" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

${CC:-cc} -O2 -Wall -Wextra -static-pie -pthread -o "$work/stand-in" "$here/stand_in.c"
mkdir -p "$root"
cp -a "$top/fixtures/realcap/sysroot/." "$root/"
mkdir -p "$root/usr/libexec/realcap" "$root/tmp" "$root/proc"
for p in "$root"/usr/bin/*; do
	cp "$work/stand-in" "$root/usr/libexec/realcap/$(basename "$p")"
done
mount -t proc proc "$root/proc"

base="--sample-identifier --sample-cpu -e dummy:u"
# case | program | perf record options (besides -o and the workload)
table="
plain|loop-pie|$base
nopie|loop-nopie|$base
stripped|loop-stripped|$base
rebuilt|rebuilt|$base --buildid-mmap
plt16|plt16-pie|$base
plt24-bti|plt24-bti|$base
plt24-pac|plt24-pac|$base
fork|workers|$base --switch-events
exec|launcher|$base
pidreuse|respawn|$base
threads|threads|$base --switch-events
system|multi|--sample-identifier --sample-cpu -a -e dummy --switch-events
zstd|workers|$base -z --switch-events
pipe|launcher|--sample-identifier --sample-cpu -e dummy:u -e sched:sched_process_exec
kernel|loop-pie|--sample-identifier --sample-cpu -e dummy
jit|jit|$base
"

want=" $* "
while IFS='|' read -r name prog opts; do
	[ -n "$name" ] || continue
	case "$want" in "  " | *" $name "*) ;; *) continue ;; esac
	out=$cases_dir/$name
	mkdir -p "$out"
	# the rebuilt case records v1; the sysroot keeps v2 at the same path
	if [ "$name" = rebuilt ]; then
		cp "$top/fixtures/realcap/rebuilt-v1" "$root/usr/bin/rebuilt"
	else
		cp "$top/fixtures/realcap/sysroot/usr/bin/rebuilt" "$root/usr/bin/rebuilt"
	fi
	rm -f "$root"/tmp/perf-*.map "$out"/perf-*.map "$out/input.data" # (perf record keeps an old output as .old)
	workload="chroot $root /usr/libexec/realcap/$prog"
	if [ "$name" = pipe ]; then
		cmd="perf record $opts -o - -- $workload > input.data"
	else
		cmd="perf record $opts -o input.data -- $workload"
	fi
	# a recording can fail on a busy machine (perf's mmap, the workload): three tries
	tries=0
	until
		# shellcheck disable=SC2086
		if [ "$name" = pipe ]; then
			perf record $opts -o - -- $workload >"$out/input.data" 2>"$work/perf.err"
		else
			perf record $opts -o "$out/input.data" -- $workload 2>"$work/perf.err"
		fi
	do
		tries=$((tries + 1))
		echo "record.sh: $name: perf record failed (try $tries):" >&2
		sed 's/^/  /' "$work/perf.err" >&2
		[ $tries -lt 3 ] || exit 1
	done
	chmod 644 "$out/input.data"
	{
		echo "# how input.data was recorded (tests/realcap/record.sh)"
		echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "perf: $(perf --version)"
		echo "kernel: $(uname -r) $(uname -m)"
		echo "command (SYSROOT = a copy of fixtures/realcap/sysroot plus the stand-ins in /usr/libexec/realcap):"
		echo "  $cmd" | sed "s|$root|SYSROOT|g; s|$out/||g"
		echo "perf said:"
		sed "s|$root|SYSROOT|g; s|$out/||g; s/^/  /" "$work/perf.err"
	} >"$out/record.txt"
	if [ "$name" = jit ]; then
		cp "$root"/tmp/perf-*.map "$out/"
	fi
	if [ "$name" = kernel ]; then
		# the kernel symbols the plan names with the names sharing their
		# addresses, the next symbol after each (their ends) and the relocation
		# reference _text: a small kallsyms of this boot
		# (sort reads /proc/kallsyms itself very slowly: minutes; cat does not)
		cat /proc/kallsyms | sort -k1,1 | awk '
			BEGIN { want["do_syscall_64"]; want["__schedule"]; want["handle_mm_fault"]; want["exc_page_fault"] }
			$3 == "_text" || $3 == "_stext" { print; next }
			next_after != "" && $1 > next_after { print; next_after = "" }
			$3 in want { at[$1] = 1; next_after = $1 }
			$1 in at { print }' >"$out/kallsyms"
	fi
	echo "recorded $name: $(wc -c <"$out/input.data") bytes"
done <<EOF
$table
EOF
