#!/bin/bash
# make soak KERNEL_SRC=... [MINUTES=10]: the patched kernel in the debug
# config (PREEMPT, lockdep, DEBUG_LIST, soft-lockup and hung-task
# detection) at -smp 4, running rig/guest/soak.c for MINUTES: every load at
# once, CPU hotplug included.  Passes when the guest finishes in time,
# prints "SOAK result: PASS", the console has no kernel report, and the
# ext2 image it dumps at the end passes e2fsck -fn here.
# Writes results/soak-<MINUTES>min.md (included in REPORT.md by
# kernel-test when its series id matches).
#
# Environment: MINUTES (10), SMP (4), CONFIG (debug), OUT (build/out-CONFIG),
# SOAK_NAME (results/soak-NAME.md, default <MINUTES>min), SOAK_REJUDGE (set:
# do not boot, judge the last console of that name again),
# SOAK_TREE (default build/linux: a tree with a deliberately broken patch
# can be soaked too, to show the soak bites).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need qemu-system-x86_64 musl-gcc mke2fs e2fsck base64

MINUTES=${MINUTES:-10}
SMP=${SMP:-4}
CONFIG=${CONFIG:-debug}
OUT=${OUT:-$BUILD/out-$CONFIG}

if [ -z "${SOAK_TREE:-}" ]; then
	"$RIG/tree.sh"
	SOAK_TREE=$TREE
fi
id=$(series_id)
# the tree soaked, read now: another job may check out something else in it
# before this one ends
soaked=$(git -C "$SOAK_TREE" log -1 --format='%h %s')
NAME=${SOAK_NAME:-${MINUTES}min}
label="series: $id"
# another tree (a mutant) is not the series: its result must not count
if [ "$(cd "$SOAK_TREE" && pwd)" != "$(cd "$TREE" && pwd)" ]; then
	label="tree: $soaked, not the series $id"
fi
sd=$BUILD/soak
mkdir -p "$sd"
if [ -z "${SOAK_REJUDGE:-}" ]; then
	TREE=$SOAK_TREE "$RIG/build.sh" "$CONFIG" "$OUT" ||
		die "soak: the kernel does not build"
	rm -f "$sd/ext2.img"
	mke2fs -q -F -t ext2 -b 1024 -N 16384 "$sd/ext2.img" 16384 >/dev/null ||
		die "soak: mke2fs failed"
	GUEST_FILES="/ext2.img=$sd/ext2.img" "$RIG/guest.sh" "$OUT" "$OUT/soak.cpio"
fi

log=$LOGS/soak-$NAME.console
tmo=$(awk -v m="$MINUTES" 'BEGIN { printf "%d", m * 60 + 900 }')
say "soak: $CONFIG kernel, -smp $SMP, $MINUTES minutes (timeout ${tmo}s); console ${log#$TOP/}"
s=$(date +%s)
if [ -n "${SOAK_REJUDGE:-}" ]; then
	# judge the console of the last run again (after a fix to this script)
	[ -f "$log.qemu" ] || die "soak: no $log to judge again"
	rc=$(sed -n 's/.* rc=\([0-9]*\)$/\1/p' "$log.qemu" | tail -n1)
	secs=$(cat "$log.secs" 2>/dev/null || echo '?')
else
	set +e
	RIG_ACCEL=${RIG_ACCEL:-tcg,thread=multi} "$RIG/boot.sh" "$OUT/arch/x86/boot/bzImage" \
		"$OUT/soak.cpio" "$log" "$SMP" "$tmo" rig.job=soak "rig.args=$MINUTES" \
		-- -serial "file:$log.img"
	rc=$?
	set -e
	secs=$(($(date +%s) - s))
	echo "$secs" >"$log.secs"
fi
# one CR-free copy to read (a grep -q at the end of a pipe would SIGPIPE
# the writer, and pipefail would count that as a failure)
txt=$log.txt
tr -d '\r' <"$log" >"$txt"
# the image comes on the second serial port, away from kernel messages
imgtxt=$log.img.txt
tr -d '\r' <"$log.img" >"$imgtxt" 2>/dev/null || : >"$imgtxt"
why=()
v=$("$RIG/verdict.sh" "$log" "$rc" none) || why+=("${v%%$'\n'*}")
grep -aq '^SOAK result: PASS' "$txt" ||
	why+=("$(grep -a '^SOAK result' "$txt" || echo 'no SOAK result line')")

# the ext2 image, block by block, then fsck
img=$sd/ext2-after.img
rm -f "$img"
fsck="not checked"
# Every block line must be whole: a garbled block cannot be checked.  (On
# the console, kernel messages landed in the middle of them: "serial8250:
# too much work for irq4".)
garbled=0
if grep -aq '^SOAK-IMG end ' "$imgtxt"; then
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
		fsck="not checked: $good of ${nz:-?} image blocks arrived whole, $garbled garbled on the console"
		why+=("ext2 image garbled in transport")
	elif out=$(e2fsck -fn "$img" 2>&1); then
		fsck="e2fsck -fn: clean ($(echo "$out" | tail -n1))"
	else
		fsck="e2fsck -fn: FAILED"
		why+=("ext2 image fails e2fsck")
		echo "$out" | head -n 20 >&2
	fi
else
	why+=("no ext2 image dumped")
fi

summary=$(grep -a -m1 '^SOAK ops:' "$txt" || true)
if [ ${#why[@]} -eq 0 ]; then
	verdict="PASS"
else
	verdict="FAIL: $(printf '%s; ' "${why[@]}")"
fi
res=$RESULTS/soak-$NAME.md
{
	echo "$label"
	echo
	echo "### Soak, $MINUTES minutes: $verdict"
	echo
	echo "- written by \`make soak MINUTES=$MINUTES\` ($(date -u +%Y-%m-%dT%H:%MZ)), $CONFIG config, -smp $SMP on $(nproc) host cores (TCG), ${secs}s$([ -n "${SOAK_REJUDGE:-}" ] && echo '; console judged again by a later rig/soak.sh (SOAK_REJUDGE)')"
	echo "- tree: $soaked"
	echo "- $fsck"
	echo "- ${summary:-no summary line}"
	echo "- boot verdict: ${v%%$'\n'*}"
	if [ ${#why[@]} -ne 0 ]; then
		echo
		echo '```'
		grep -a -E '^# FAIL|^SOAK result' "$txt" | head -n 20 || true
		echo "$v" | tail -n +2
		echo '```'
	fi
} >"$res"
# REPORT.md of the same series: its soak section, rewritten
rep=$RESULTS/REPORT.md
if [ -f "$rep" ] && grep -qx "series: $id" "$rep" && grep -q '^## Soak' "$rep"; then
	{
		sed '/^## Soak/,$d' "$rep"
		echo "## Soak (make soak, same series)"
		echo
		soak_sections "$id"
	} >"$rep.new"
	mv "$rep.new" "$rep"
	say "soak: section updated in ${rep#$TOP/}"
fi
say "soak: $verdict"
say "soak: ${summary:-no summary}"
[ ${#why[@]} -eq 0 ]
