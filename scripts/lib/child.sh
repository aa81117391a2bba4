# SPDX-License-Identifier: GPL-2.0
#
# Run a reproducer (or anything that must clean up before it ends) from
# a script, so that SIGINT, SIGTERM and SIGHUP reach it exactly once and
# the script returns only after it has ended: a reproducer restores the
# machine before it exits, and a caller that checks the machine, or
# starts the next job, the moment the script returns must find it as
# before. Sourced by scripts/run-all and scripts/vm-run.
#
#   child_traps [exit]    install the traps (once, at the start); with
#                         "exit", a signal while no child runs exits the
#                         script at once (its EXIT trap cleans up)
#   child_run CMD...      run CMD, wait for it; sets child_rc
#   child_sig             the signal that interrupted (INT, TERM, HUP) or ""
#   child_exit_code       128 + that signal's number

child_sig=""
child_pid=""
child_rc=0
child_idle=record

child_on_signal() {
	[ -n "$child_sig" ] || child_sig=$1
	if [ -n "$child_pid" ]; then
		kill -s "$1" "$child_pid" 2>/dev/null
	elif [ "$child_idle" = exit ]; then
		exit "$(child_exit_code)"
	fi
	return 0
}

child_traps() {
	local s

	[ "${1:-}" = exit ] && child_idle=exit
	for s in INT TERM HUP; do
		# shellcheck disable=SC2064
		trap "child_on_signal $s" "$s"
	done
}

# The child gets a process group of its own (job control), so that a
# signal to the script's group reaches it once, forwarded, and so that a
# background job keeps the default SIGINT disposition (without job
# control the shell would start it with SIGINT ignored).
child_run() {
	set -m
	"$@" &
	child_pid=$!
	set +m
	# A trapped signal interrupts wait; the child may still be restoring.
	while kill -0 "$child_pid" 2>/dev/null; do
		wait "$child_pid"
	done
	wait "$child_pid"
	child_rc=$?
	child_pid=""
	return 0
}

child_exit_code() {
	case "$child_sig" in
	HUP) echo 129 ;;
	INT) echo 130 ;;
	TERM) echo 143 ;;
	*) echo 0 ;;
	esac
}
