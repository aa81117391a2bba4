# SPDX-License-Identifier: GPL-2.0
#
# How busy the host is, for scripts/vm-run (docs/results.md, "A busy
# host"). Under TCG or KVM a guest's clock runs on while the host has
# its vCPU thread off the CPU, so a walk caught in the middle looks
# long: a busy host can turn a fixed kernel's run into "reproduced".
# Two readings:
#
#   host_cpu_pressure        "AVG10 AVG60": /proc/pressure/cpu's "some"
#                            line, the share of the last 10 and 60 s in
#                            which some task waited for a CPU (percent);
#                            nothing where the kernel has no PSI
#   host_cpu_pressure_now    the same share over one second measured
#                            now (percent), from the "some" total
#   host_watch PATTERN FILE  in the background: once a process whose
#                            command line matches PATTERN (QEMU) runs,
#                            every second the time its threads have run
#                            and waited to run (/proc/PID/task/*/
#                            schedstat, ns), and the host's PSI total,
#                            appended to FILE as "RUN WAIT PSI_US
#                            T_NS"; stop it with kill
#   host_wait_share FILE     from the first reading and the last:
#                            "WAIT_PCT PSI_PCT SECONDS CPU_S", the
#                            share of QEMU's thread time spent waiting
#                            for a CPU, and of the wall time in which
#                            some host task waited, the seconds watched,
#                            and the CPU time QEMU's threads ran (what
#                            the boot cost the host, whatever its load);
#                            nothing without two readings

host_cpu_pressure() {
	sed -n 's/^some avg10=\([0-9.]*\) avg60=\([0-9.]*\) .*/\1 \2/p' \
		/proc/pressure/cpu 2>/dev/null
}

# the "some" line's total (us) into psi_total, "-" without PSI
psi_total() {
	local l

	psi_total=-
	[ -r /proc/pressure/cpu ] || return 0
	while read -r l; do
		case $l in "some "*total=*) psi_total=${l##*total=} ;; esac
	done </proc/pressure/cpu
}

host_cpu_pressure_now() {
	local a b t0 t1 psi_total

	psi_total
	a=$psi_total t0=${EPOCHREALTIME//[!0-9]/}000
	sleep 1
	psi_total
	b=$psi_total t1=${EPOCHREALTIME//[!0-9]/}000
	[ "$a" != - ] && [ "$b" != - ] || return 0
	awk -v a="$a" -v b="$b" -v t="$((t1 - t0))" \
		'BEGIN { printf "%.1f\n", (b - a) * 1000 * 100 / t }'
}

# one reading into $reading: "RUN WAIT PSI_US T_NS" of PID's threads.
# By bash alone, as host_watch below: a reading a second for the whole
# boot, and a process costs about 4 ms on some hosts (six a reading were
# 7 CPU-seconds of a 300 s boot on the CI's machine, 2026-12-08).
host_reading() {
	local run=0 wait=0 r w x f psi_total

	for f in /proc/"$1"/task/*/schedstat; do
		read -r r w x 2>/dev/null <"$f" || continue
		run=$((run + r))
		wait=$((wait + w))
	done
	psi_total
	reading="$run $wait $psi_total ${EPOCHREALTIME//[!0-9]/}000"
}

# The readings are appended, one a second; host_wait_share takes the
# first and the last. A second's wait is a read from a pipe nothing
# writes to (no sleep process each time).
host_watch() {
	local pattern=$1 file=$2 pid="" reading wfd

	: >"$file"
	while [ -z "$pid" ]; do
		pid=$(pgrep -f -- "$pattern" | head -1)
		[ -n "$pid" ] || sleep 0.2
	done
	exec {wfd}<> <(:)
	while [ -d "/proc/$pid" ]; do
		host_reading "$pid"
		echo "$reading" >>"$file"
		read -rt 1 -u $wfd
	done
}

host_wait_share() {
	awk 'NR == 1 { r0 = $1; w0 = $2; p0 = $3; t0 = $4; next }
	     NF == 4 { r1 = $1; w1 = $2; p1 = $3; t1 = $4; n++ }
	     END { if (!n) exit
		   r = r1 - r0; w = w1 - w0; t = (t1 - t0) / 1e9
		   if (r + w <= 0 || t <= 0) exit
		   psi = "-"
		   if (p1 != "-" && p0 != "-")
			   psi = sprintf("%.1f", (p1 - p0) / 1e4 / t)
		   printf "%.1f %s %.0f %.1f\n", 100 * w / (r + w), psi, t,
			  r / 1e9 }' \
		"$1" 2>/dev/null
}
