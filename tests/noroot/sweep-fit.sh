#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/sweep's fit and plots on synthetic points, through a fake
# reproducer: slope 1 for a line, 0 for a constant, and a valid SVG.
# Needs no root and changes nothing (as root, run-all takes the run lock
# for the fake reproducer, which changes nothing).
. "$(dirname "$0")/../lib/integration.sh"

# well-formed XML (xmllint where it is) with an <svg> root
valid_svg() {
	grep -q '<svg' "$1" || return 1
	! command -v xmllint >/dev/null || xmllint --noout "$1"
}
export -f valid_svg
# A fake reproducer whose KSM max is pages / 100 ms (slope 1) and whose
# anon max is 0.5 ms (slope 0).
fake=$work/tree
rm -rf "$fake"
mkdir -p "$fake/scripts" "$fake/configs" "$fake/build/bin"
cp -r "$top/scripts/run-all" "$top/scripts/sweep" "$top/scripts/lib" \
	"$fake/scripts/"
printf -- '--runs 1\n[fx]\n--pages 10\n' >"$fake/configs/quick.preset"
printf '#!/bin/bash\n[ "${1:-}" = --json ] && echo "{}" || echo "rmap-tp no"\n' \
	>"$fake/build/bin/rmap-probes"
# the fit is the suite's own (rmap-stat --fit)
cp "$top/build/bin/rmap-stat" "$top/build/bin/rmap-trust" "$fake/build/bin/"
cat >"$fake/build/bin/fx" <<'FAKE'
#!/bin/bash
name=fx out=. pages=10
while [ $# -gt 0 ]; do
	case $1 in
	--help) echo "  --pages N  the size"; exit 0 ;;
	--out) out=$2; shift 2 ;;
	--label) name=$2; shift 2 ;;
	--pages) pages=$2; shift 2 ;;
	--parse-only) parse_only=1; shift ;;
	*) shift ;;
	esac
done
[ -n "${parse_only:-}" ] && exit 0
mkdir -p "$out"
jq -n --arg n "$name" --argjson p "$pages" '
	def c($c; $ms): {name: $c, probe: "rmap-tp",
		probe_detail: {interval: "one walk", bounds: "the walk itself",
			       walk_level: true},
		latency_ms: {count: 1, max: $ms, p50: $ms},
		pattern: {vmas: $p}};
	{schema: "rmap-repro-result/1", reproducer: $n,
	 verdict: "reproduced", kernel: {release: "synthetic"},
	 cases: [c("ksm"; $p / 100), c("anon"; 0.5)]}' >"$out/$name.json"
printf 'KTAP version 1\n1..1\nnot ok 1 %s\n' "$name" >"$out/$name.ktap"
echo "$name: synthetic" >"$out/$name.txt"
exit 1
FAKE
chmod +x "$fake/build/bin/rmap-probes" "$fake/build/bin/fx"
"$fake/scripts/sweep" --only fx \
	--param pages=1000,3000,10000,30000,100000 --out "$work/syn" \
	>"$work/syn.out" 2>"$work/syn.err"
assert "synthetic sweep exits 0" [ $? = 0 ]
assert_jq "the fit of y = x / 100 is slope 1, grows linearly; of a constant, 0, flat" \
	"$work/syn/sweep.json" '(.cases[0] | (.slope.max - 1 | fabs) < 1e-9 and .growth.max == "grows linearly") and (.cases[1] | (.slope.max | fabs) < 1e-9 and .growth.max == "flat")'
assert "the plots: a non-empty PNG, and an SVG that is valid XML" \
	bash -c "[ -s '$work/syn/sweep.png' ] &&
		 head -c 8 '$work/syn/sweep.png' | od -An -c | grep -q 'P   N   G' &&
		 valid_svg '$work/syn/sweep.svg'"

finish
