#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect-sim: does git bisect run, stepping on vm-run --bisect, find the
# right commit between the shared test kernels' behaviours? A history of
# COMMITS commits is made in a scratch repository; a commit before FIRST
# "is" the -ksmfix kernel (good: the KSM walk looks up one index), FIRST
# and after it the unfixed one (bad). Each step boots that kernel under
# QEMU and runs the KSM walk's reproducers with PRESET. The script
# prints every step (commit, kernel, exit code, verdicts) and fails if
# one step judged its kernel wrong or the bisection named another
# commit. Not part of make check: each step is a boot (about a minute
# under TCG); docs/testing.md names it.
#
# Usage: tests/long/bisect-sim.sh [--commits N] [--first K ...]
#                                 [--preset NAME] [--only NAMES]
#                                 [--kernels DIR]
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
kernels=$top/../shared/kernels
commits=16
firsts=()
preset=default
only=ksm-mprotect-split,madvise-split,ksm-fork

while [ $# -gt 0 ]; do
	case "$1" in
	--commits) commits=${2:?}; shift 2 ;;
	--first) firsts+=("${2:?}"); shift 2 ;;
	--preset) preset=${2:?}; shift 2 ;;
	--only) only=${2:?}; shift 2 ;;
	--kernels) kernels=${2:?}; shift 2 ;;
	-h|--help) sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bisect-sim: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[ ${#firsts[@]} -gt 0 ] || firsts=(5 12)
work=$(mktemp -d /tmp/rmap-repro-bisect.XXXXXX) || exit 2
trap 'rm -rf "$work"' EXIT

# the step git bisect run calls: boot this commit's kernel, judge it
cat >"$work/step" <<STEP
#!/bin/bash
which=\$(cat kernel)
k=$kernels/linux-6.12-rmap-tp.bzImage
[ "\$which" = fixed ] && k=$kernels/linux-6.12-rmap-tp-ksmfix.bzImage
n=\$(git rev-list --count HEAD)
"$top/scripts/vm-run" --kernel "\$k" \\
	--config "$kernels/linux-6.12-rmap-tp.config" --preset $preset \\
	--only $only --bisect --out "$work/step-\$n" \\
	>"$work/step-\$n.out" 2>"$work/step-\$n.err"
rc=\$?
v=\$(jq -r '[.results[] | .reproducer + " " + .verdict +
	" (" + (.runs_agreeing // "-" | tostring) + "/" + (.runs | tostring) + ")"]
	| join(", ")' "$work/step-\$n/results.json" 2>/dev/null)
echo "commit \$n: \$which kernel, exit \$rc: \$v" >>"$work/log"
exit \$rc
STEP
chmod +x "$work/step"

wrong=0
for first in "${firsts[@]}"; do
	repo=$work/repo-$first
	git init -q "$repo"
	for ((i = 1; i <= commits; i++)); do
		if [ $i -lt "$first" ]; then
			echo fixed >"$repo/kernel"
		else
			echo unfixed >"$repo/kernel"
		fi
		git -C "$repo" add kernel
		git -C "$repo" -c user.name=sim -c user.email=sim@invalid \
			commit -q --allow-empty -m "commit $i"
	done
	: >"$work/log"
	(cd "$repo" && git bisect start HEAD "$(git rev-list --reverse HEAD | head -1)" &&
	 git bisect run "$work/step" >"$work/bisect-$first.out" 2>&1)
	found=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' \
		"$work/bisect-$first.out")
	n=$(git -C "$repo" rev-list --count "$found" 2>/dev/null)
	echo "history of $commits commits, the unfixed kernel from commit $first:"
	sed 's/^/  /' "$work/log"
	# each step's code must be its kernel's: fixed 0, unfixed 1
	bad=$(awk '/: fixed kernel, exit [^0]|: unfixed kernel, exit [^1]/' \
		"$work/log" | grep -c .)
	wrong=$((wrong + bad))
	if [ "$n" = "$first" ] && [ "$bad" = 0 ]; then
		echo "  found commit $n: right, every step judged its kernel right"
	else
		echo "  found commit ${n:-none}, $bad steps judged wrong: WRONG"
		wrong=$((wrong + 1))
	fi
done
[ $wrong = 0 ]
