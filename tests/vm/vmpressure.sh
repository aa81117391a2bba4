#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pressure trigger in a 2 GiB guest of the unfixed test kernel,
# where the rmap tracepoints time the walks that kswapd runs: the host
# test pressure.sh, booted on its own (in vmcheck's guest, after the
# other tests, it failed in two CI runs for a reason not yet found; run
# alone it passes: see the closing note of issue 12). One NUMA node: on
# two, a phase missed the pattern in 5 of 36 runs (MemFree 300 MiB,
# below the 544 MiB low watermark, for 45 s, the pattern untouched:
# kswapd balances node by node, and the pattern's may not be the one the
# load filled), and CI failed on it; on one, 0 of 14. The trigger says
# so when it happens ("pressure phase: ..."); docs/reproducers.md.
# It runs in the vm tier's shared one-node guest (tests/lib/vmshare.sh).
. "$(dirname "$0")/../lib/integration.sh"
. "$top/tests/lib/vmshare.sh"

if ! vm_possible; then
	ok "pressure in the test kernel # SKIP no test kernels or no QEMU"
	finish
	exit 0
fi
vm_job unfixed-1node p --check -- pressure
vm_jobs_run
out=$(vm_job_dir p)
rc=$(vm_job_rc p)
last=$(tail -1 "$out/check.log" 2>/dev/null)
if [ $rc = 0 ] && [[ "$last" =~ ^([0-9]+)\ passed,\ 0\ failed$ ]] &&
   [ "${BASH_REMATCH[1]}" -gt 10 ]; then
	ok "pressure.sh passes in the unfixed kernel's 2 GiB guest, one node ($last)"
else
	not_ok "pressure.sh passes in the unfixed kernel's 2 GiB guest" \
		"its exit $rc, last line '$last'" \
		"$(grep -E '^pressure: (not ok|#)' "$out/check.log" 2>/dev/null | head -20)"
fi
assert "the guest measured kswapd's walks with the rmap tracepoints" \
	grep -q '^pressure: # here: trigger pressure, probe rmap-tp' \
	"$out/check.log"
finish
