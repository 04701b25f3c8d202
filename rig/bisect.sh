#!/bin/bash
# make bisect: build every prefix of the series in every config, so each
# patch is known to build on its own (smp, debug, up).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
n=$(series_list | wc -l)
fails=0
log=$RESULTS/bisect.txt
{
	echo "series: $(series_id)"
	echo "# prefix config result"
} >"$log"
for i in $(seq 1 "$n"); do
	"$RIG/tree.sh" --upto "$i"
	p=$(series_list | sed -n "${i}p")
	for cfg in smp debug up; do
		if "$RIG/build.sh" "$cfg" "$BUILD/bisect-$cfg"; then
			r=ok
		else
			r=FAIL
			fails=$((fails + 1))
		fi
		echo "$i $cfg $r $p" >>"$log"
		say "bisect $i/$n $cfg: $r ($p)"
	done
done
"$RIG/tree.sh"
say "bisect: $fails failures; ${log#$TOP/}"
[ $fails -eq 0 ]
