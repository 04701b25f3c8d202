#!/bin/bash
# make bisect: build every prefix of the series in every config that
# rig/scenarios/bisect lists, so that each patch is known to build on its
# own and to add no gcc or modpost warning to the base build of the same
# config.  The prefixes are checked out one after the other in build/linux
# itself (then the series again), so that ccache hits what earlier builds
# of the same files there compiled and only what a patch changes is
# rebuilt; no other job may use build/linux meanwhile.  Writes
# results/bisect-CONFIG.txt for each config it builds, and only those:
# CONFIGS=... runs some configs now and others later (each file names the
# series it is of).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Environment: KERNEL_SRC (see tree.sh), SKIP_TREE (set: build/linux is
# known to be the series already; do not rebuild it), CONFIGS (when set:
# only these configs of the scenario).
[ -n "${SKIP_TREE:-}" ] || "$RIG/tree.sh"
n=$(series_list | wc -l)
[ "$n" -gt 0 ] || die "bisect: the series is empty"
scen=$(unset BASE_CONFIGS; scenarios bisect) || die "rig/scenarios/bisect"
# the scenario's KERN configs (scenarios narrows the patched ones by CONFIGS)
pick() { echo "$scen" | awk -v k="$1" '$1 == "build" && $2 == k { print $3 }'; }
cfgs=$(pick patched)
[ -n "$cfgs" ] || die "bisect: no patched config to build (CONFIGS='${CONFIGS:-}')"
for cfg in $cfgs; do
	pick base | grep -qx "$cfg" ||
		die "bisect: rig/scenarios/bisect has no 'build base $cfg' to compare with"
	"$RIG/build.sh" base "$cfg" </dev/null ||
		die "bisect: the base $cfg build fails; nothing to compare the prefixes with"
done
head=$(git -C "$TREE" rev-parse HEAD)
branch=$(git -C "$TREE" symbolic-ref -q --short HEAD || true)
restore() {
	git -C "$TREE" checkout -q -f "${branch:-$head}"
}
trap restore EXIT
fails=0
compat=$(cd "$RIG/compat" && ls -- *.patch | cut -d- -f1 | sed -n '1p;$p' | paste -sd- -)
log() { echo "$RESULTS/bisect-$1.txt"; }
for cfg in $cfgs; do
	{
		echo "series: $(series_id)"
		echo "# written by make bisect, config $cfg, $(date -u +%Y-%m-%dT%H:%MZ); $(gcc --version | head -n1)"
		echo "# tree: rc1 + rig/compat $compat (build/linux's compat tag: $(git -C "$TREE" log -1 --format=%s compat))"
		echo "# each prefix's warnings against the base build of $cfg: new ="
		echo "# gcc and modpost warnings the prefix has and base has not (any fails)"
		echo "# patch config result seconds gcc-warnings modpost-warnings new name"
	} >"$(log "$cfg")"
done
start=$(date +%s)
for i in $(seq 1 "$n"); do
	c=$(git -C "$TREE" rev-parse "$head~$((n - i))")
	git -C "$TREE" checkout -q --detach -f "$c"
	p=$(series_list | sed -n "${i}p")
	for cfg in $cfgs; do
		out=$BUILD/bisect-$cfg base=$(kern_out base "$cfg")
		new=-
		if "$RIG/build.sh" patched "$cfg" "$out" </dev/null; then
			{ warn_added "$out" "$base" warnings; warn_added "$out" "$base" modpost; } >"$out/new-warnings"
			new=$(wc -l <"$out/new-warnings")
			if [ "$new" -eq 0 ]; then r=ok; else r=FAIL; fi
		else
			r=FAIL
		fi
		[ "$r" = ok ] || fails=$((fails + 1))
		echo "$i $cfg $r $(kv seconds "$out/summary") $(kv gcc "$out/summary") $(kv modpost "$out/summary") $new $p" >>"$(log "$cfg")"
		[ "$new" = - ] || [ "$new" -eq 0 ] || sed 's/^/#   new: /' "$out/new-warnings" >>"$(log "$cfg")"
		say "bisect $i/$n $cfg: $r, $new new warnings ($p)"
	done
done
for cfg in $cfgs; do
	echo "# $(grep -c "^[0-9]* $cfg FAIL " "$(log "$cfg")") failures; $(($(date +%s) - start))s for all of ${cfgs//$'\n'/ }" >>"$(log "$cfg")"
done
"$RIG/index.sh"
say "bisect: $fails failures; $(for cfg in $cfgs; do log "$cfg"; done | sed "s#^$TOP/##" | tr '\n' ' ')"
[ "$fails" -eq 0 ]
