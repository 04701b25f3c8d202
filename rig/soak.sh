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
# SOAK_NAME (results/soak-NAME.md, default <MINUTES>min),
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
NAME=${SOAK_NAME:-${MINUTES}min}
label="series: $id"
# another tree (a mutant) is not the series: its result must not count
if [ "$(cd "$SOAK_TREE" && pwd)" != "$(cd "$TREE" && pwd)" ]; then
	label="tree: $(git -C "$SOAK_TREE" log -1 --format='%h %s'), not the series $id"
fi
TREE=$SOAK_TREE "$RIG/build.sh" "$CONFIG" "$OUT" || die "soak: the kernel does not build"

sd=$BUILD/soak
mkdir -p "$sd"
rm -f "$sd/ext2.img"
mke2fs -q -F -t ext2 -b 1024 -N 16384 "$sd/ext2.img" 16384 >/dev/null ||
	die "soak: mke2fs failed"
GUEST_FILES="/ext2.img=$sd/ext2.img" "$RIG/guest.sh" "$OUT" "$OUT/soak.cpio"

log=$LOGS/soak-$NAME.console
tmo=$(awk -v m="$MINUTES" 'BEGIN { printf "%d", m * 60 + 900 }')
say "soak: $CONFIG kernel, -smp $SMP, $MINUTES minutes (timeout ${tmo}s); console ${log#$TOP/}"
s=$(date +%s)
set +e
RIG_ACCEL=${RIG_ACCEL:-tcg,thread=multi} "$RIG/boot.sh" "$OUT/arch/x86/boot/bzImage" \
	"$OUT/soak.cpio" "$log" "$SMP" "$tmo" rig.job=soak "rig.args=$MINUTES"
rc=$?
set -e
secs=$(($(date +%s) - s))
why=()
v=$("$RIG/verdict.sh" "$log" "$rc" none) || why+=("${v%%$'\n'*}")
tr -d '\r' <"$log" | grep -aq '^SOAK result: PASS' ||
	why+=("$(tr -d '\r' <"$log" | grep -a '^SOAK result' || echo 'no SOAK result line')")

# the ext2 image, block by block, then fsck
img=$sd/ext2-after.img
rm -f "$img"
fsck="not checked"
if tr -d '\r' <"$log" | grep -aq '^SOAK-IMG end '; then
	truncate -s 16M "$img"
	tr -d '\r' <"$log" | awk '$1 == "SOAK-IMG" && $2 ~ /^[0-9]+$/ { print $2, $3 }' |
		while read -r no data; do
			echo "$data" | base64 -d |
				dd of="$img" bs=1024 seek="$no" conv=notrunc status=none
		done
	if out=$(e2fsck -fn "$img" 2>&1); then
		fsck="e2fsck -fn: clean ($(echo "$out" | tail -n1))"
	else
		fsck="e2fsck -fn: FAILED"
		why+=("ext2 image fails e2fsck")
		echo "$out" | head -n 20 >&2
	fi
else
	why+=("no ext2 image dumped")
fi

summary=$(tr -d '\r' <"$log" | grep -a '^SOAK ops:' | head -n1)
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
	echo "- written by \`make soak MINUTES=$MINUTES\` ($(date -u +%Y-%m-%dT%H:%MZ)), $CONFIG config, -smp $SMP on $(nproc) host cores (TCG), ${secs}s"
	echo "- tree: $(git -C "$SOAK_TREE" log -1 --format='%h %s')"
	echo "- $fsck"
	echo "- ${summary:-no summary line}"
	echo "- boot verdict: ${v%%$'\n'*}"
	if [ ${#why[@]} -ne 0 ]; then
		echo
		echo '```'
		tr -d '\r' <"$log" | grep -a -E '^# FAIL|^SOAK result' | head -n 20
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
