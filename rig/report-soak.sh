#!/bin/bash
# results/soak-NAME.md from the run build/runs/soak-NAME (rig/soak.sh); its
# only writer:  report-soak.sh soak-NAME
# The soak passes when the boot's verdict passes (the program exited 0, no
# kernel report, no timeout), the program printed "SOAK result: PASS", and
# the ext2 image it sent on ttyS2 arrived whole and passes e2fsck -fn here.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need e2fsck base64

name=${1:?usage: report-soak.sh soak-NAME}
run=$RUNS/$name
[ -f "$run/verdict" ] || die "no run $run"
read -r _ kern cfg smp _ _ prog _ <"$run/boot"
minutes=$(echo "$prog" | cut -d, -f2)
faults=$(echo "$prog" | sed -n 's/.*,faults=\([0-9]*\).*/\1/p')
out=$run/output
why=()
v=$(cat "$run/verdict")
case $v in PASS*) ;; *) why+=("${v%%$'\n'*}") ;; esac
grep -aq '^SOAK result: PASS' "$out" ||
	why+=("$(grep -a '^SOAK result' "$out" || echo 'no SOAK result line')")

# the ext2 image, block by block, then fsck; every block line must be whole
# (on the kernel console, kernel messages once landed in the middle of them)
img=$run/ext2-after.img
imgtxt=$run/ext2.txt
rm -f "$img"
fsck="not checked"
garbled=0
if grep -aq '^SOAK-IMG end ' "$imgtxt" 2>/dev/null; then
	truncate -s 16M "$img"
	nz=$(awk '$1 == "SOAK-IMG" && $2 == "end" { print $4 }' "$imgtxt" | tail -n1)
	good=0
	while read -r tag no data rest; do
		[ "$tag" = SOAK-IMG ] || continue
		case $no in begin | end) continue ;; esac
		if [ -z "$rest" ] && [[ $no =~ ^[0-9]+$ ]] &&
		   [ "$(echo "$data" | base64 -d 2>/dev/null | wc -c)" -eq 1024 ]; then
			echo "$data" | base64 -d |
				dd of="$img" bs=1024 seek="$no" conv=notrunc status=none
			good=$((good + 1))
		else
			garbled=$((garbled + 1))
		fi
	done < <(grep -a '^SOAK-IMG ' "$imgtxt")
	if [ "$garbled" -ne 0 ] || [ "$good" != "$nz" ]; then
		fsck="not checked: $good of ${nz:-?} image blocks arrived whole, $garbled garbled"
		why+=("ext2 image garbled in transport")
	elif e2=$(cd "$run" && e2fsck -fn ext2-after.img 2>&1); then
		fsck="e2fsck -fn: clean ($(echo "$e2" | tail -n1))"
	else
		fsck="e2fsck -fn: FAILED"
		why+=("ext2 image fails e2fsck")
		echo "$e2" | head -n 20 >&2
	fi
else
	why+=("no ext2 image dumped")
fi

summary=$(grep -a -m1 '^SOAK ops:' "$out" || true)
# under faults: kmemleak's objects at the end, per site no worse than a
# base soak's ($SOAK_BASE, the same soak on rc1 + compat), for as many
# operations (rig/soak-leaks.awk)
fline='' sites=''
if [ -n "$faults" ]; then
	fline=$(grep -a -m1 '^SOAK faults:' "$out" || echo "no SOAK faults line")
	[[ $fline == "SOAK faults:"* ]] || why+=("$fline")
	if [ -n "${SOAK_BASE:-}" ]; then
		# (a missing base fails the judgement, not the report of this run)
		cmp="FAIL: no base soak run $SOAK_BASE on this machine"
		[ ! -f "$RUNS/$SOAK_BASE/output" ] ||
			cmp=$(awk -f "$RIG/fields.awk" -f "$RIG/soak-leaks.awk" "$RUNS/$SOAK_BASE/output" "$out" || true)
		sites=$(echo "$cmp" | tail -n +2)
		cmp=${cmp%%$'\n'*}
		[[ $cmp == PASS* ]] || why+=("kmemleak against $SOAK_BASE: ${cmp#FAIL: }")
		fline="$fline; kmemleak sites against $SOAK_BASE: $cmp"
	fi
fi
verdict=PASS
[ ${#why[@]} -eq 0 ] || verdict="FAIL: $(printf '%s; ' "${why[@]}")"
res=$RESULTS/$name.md
{
	cat "$run/label" 2>/dev/null || echo "series: $(cat "$run/series")"
	echo
	echo "### Soak, $minutes minutes: $verdict"
	echo
	echo "- written by \`make soak MINUTES=$minutes$([ "$kern" = patched ] || echo " KERN=$kern")${faults:+ FAULTS=$faults}\` ($(date -u -r "$run/rc" +%Y-%m-%dT%H:%MZ)), $cfg config, -smp $smp on $(nproc) host cores (TCG), $(cat "$run/seconds")s$([ -f "$run/rejudged" ] && echo '; judged again by a later rig (SOAK_REJUDGE)')"
	echo "- tree: $(cat "$run/tree" 2>/dev/null || echo '?')"
	echo "- $fsck"
	echo "- ${summary:-no summary line}"
	[ -z "$faults" ] || echo "- under faults (failslab ${faults}% on the writers and pty opens): $fline"
	echo "- boot verdict: ${v%%$'\n'*}"
	if [ -n "$sites" ]; then
		echo
		echo "kmemleak's objects per site at the end, against $SOAK_BASE:"
		echo
		echo "$sites"
	fi
	if [ ${#why[@]} -ne 0 ]; then
		echo
		echo '```'
		grep -a -E '^# FAIL|^SOAK result' "$out" | head -n 20 || true
		echo "$v" | tail -n +2
		echo '```'
	fi
} >"$res"
"$RIG/index.sh"
say "soak: $verdict; ${res#"$TOP"/}"
say "soak: ${summary:-no summary}"
[ ${#why[@]} -eq 0 ]
