#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The damon trigger where it can run: Debian's stock 6.12 kernel
# (DAMON_PADDR and DAMON_SYSFS built in, no kdamond configured, kprobes
# and function_graph for the walks), booted by vm-run --debian, runs the
# host test damon.sh in the guest: kdamond does the walks of every case,
# the victim's lock waits are recorded, and the kdamond is removed with
# every DAMON setting (the guest's snapshot is as before). The shared
# test kernels have no DAMON. Without Debian's package (no network, no
# package lists), a SKIP that says so.
# In the vm tier's shared guest of that kernel (tests/lib/vmshare.sh).
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/vmshare.sh"

if ! command -v qemu-system-x86_64 >/dev/null; then
	ok "damon in Debian's 6.12 guest # SKIP no QEMU"
	finish
	exit 0
fi
vm_job debian-6.12 d --check -- damon
# (its results held back: without the package the program is a skip)
n=$ktap_n
vm_jobs_run >"$work/share.ktap"
err=$(vm_boot_err debian-6.12)
if grep -Eq 'apt-get (download|update)|no Debian package' "$err"; then
	ktap_n=$n
	ok "damon in Debian's 6.12 guest # SKIP Debian's kernel package: $(grep -E 'apt-get|Debian package' "$err" | tail -1)"
	finish
	exit 0
fi
cat "$work/share.ktap"
out=$(vm_job_dir d)
rc=$(vm_job_rc d)
last=$(tail -1 "$out/check.log" 2>/dev/null)
if [ "$rc" = 0 ] && [[ "$last" =~ ^([0-9]+)\ passed,\ 0\ failed$ ]] &&
   [ "${BASH_REMATCH[1]}" -ge 8 ]; then
	ok "damon.sh passes in Debian's 6.12 guest ($last)"
else
	not_ok "damon.sh passes in Debian's 6.12 guest" \
		"its exit $rc, last line '$last'" \
		"$(grep -E '^damon: (not ok|#)' "$out/check.log" 2>/dev/null | head -20)" \
		"vm-run's last words: $(grep -v '^guest: ' "$err" | tail -5)"
fi
assert "the guest ran the trigger (not its SKIP)" \
	grep -q '^damon: # here: the damon trigger runs' "$out/check.log"
finish
