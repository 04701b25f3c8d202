#!/bin/bash
# make bisect: build every prefix of the series in every config (smp, debug,
# up), so that each patch is known to build on its own.  The prefixes are
# checked out one after the other in build/linux itself (then the series
# again), so that ccache hits what earlier builds of the same files there
# compiled and only what a patch changes is rebuilt; no other job may use
# build/linux meanwhile.  Writes results/bisect.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Environment: KERNEL_SRC (see tree.sh), SKIP_TREE (set: build/linux is
# known to be the series already; do not rebuild it).
[ -n "${SKIP_TREE:-}" ] || "$RIG/tree.sh"
n=$(series_list | wc -l)
[ "$n" -gt 0 ] || die "bisect: the series is empty"
head=$(git -C "$TREE" rev-parse HEAD)
branch=$(git -C "$TREE" symbolic-ref -q --short HEAD || true)
restore() {
	git -C "$TREE" checkout -q -f "${branch:-$head}"
}
trap restore EXIT
fails=0
log=$RESULTS/bisect.txt
{
	echo "series: $(series_id)"
	echo "# written by make bisect, $(date -u +%Y-%m-%dT%H:%MZ); $(gcc --version | head -n1)"
	echo "# patch config result seconds warnings name"
} >"$log"
start=$(date +%s)
for i in $(seq 1 "$n"); do
	c=$(git -C "$TREE" rev-parse "$head~$((n - i))")
	git -C "$TREE" checkout -q --detach -f "$c"
	p=$(series_list | sed -n "${i}p")
	for cfg in smp debug up; do
		out=$BUILD/bisect-$cfg
		if "$RIG/build.sh" patched "$cfg" "$out"; then
			r=ok
		else
			r=FAIL
			fails=$((fails + 1))
		fi
		echo "$i $cfg $r $(cat "$out/build-seconds" 2>/dev/null || echo -) $(wc -l <"$out/warnings" 2>/dev/null || echo -) $p" >>"$log"
		say "bisect $i/$n $cfg: $r ($p)"
	done
done
echo "# $fails failures in $(($(date +%s) - start))s" >>"$log"
say "bisect: $fails failures; ${log#$TOP/}"
[ "$fails" -eq 0 ]
