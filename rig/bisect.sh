#!/bin/bash
# make bisect: build every prefix of the series in every config (smp, debug,
# up), so that each patch is known to build on its own.  The prefixes are
# checked out one after the other in their own work tree (build/linux-bisect)
# so that only what a patch changes is rebuilt, and build/linux is left as
# it is.  Writes results/bisect.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# SKIP_TREE=1: build/linux is known to be the series already (another job
# is using it)
[ -n "${SKIP_TREE:-}" ] || "$RIG/tree.sh"
n=$(series_list | wc -l)
[ "$n" -gt 0 ] || die "bisect: the series is empty"
BT=$BUILD/linux-bisect
if [ ! -e "$BT/.git" ]; then
	git -C "$TREE" worktree add -q --detach "$BT" compat
fi
fails=0
log=$RESULTS/bisect.txt
{
	echo "series: $(series_id)"
	echo "# written by make bisect, $(date -u +%Y-%m-%dT%H:%MZ); $(gcc --version | head -n1)"
	echo "# patch config result seconds warnings name"
} >"$log"
start=$(date +%s)
for i in $(seq 1 "$n"); do
	c=$(git -C "$TREE" rev-parse "HEAD~$((n - i))")
	git -C "$BT" checkout -q --detach -f "$c"
	p=$(series_list | sed -n "${i}p")
	for cfg in smp debug up; do
		out=$BUILD/bisect-$cfg
		if TREE=$BT "$RIG/build.sh" "$cfg" "$out"; then
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
