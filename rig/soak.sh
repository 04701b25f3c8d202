#!/bin/bash
# make soak KERNEL_SRC=... [MINUTES=10]: one boot of the
# patched kernel in the debug config (PREEMPT, lockdep, DEBUG_LIST,
# soft-lockup and hung-task detection) at -smp 4, running rig/guest/soak.c
# for MINUTES: every load at once, CPU hotplug included.  The run is
# build/runs/soak-NAME; rig/report-soak.sh judges its ext2 image and writes
# results/soak-NAME.md.
#
# Environment: MINUTES (10), SMP (4), CONFIG (debug), KERN (patched, or
# base: rc1 + rig/compat), FAULTS (a percentage: failslab fails that many
# of the slab allocations of the writers and of the pty opens; needs a config
# with FAILSLAB, e.g. CONFIG=faults), SOAK_BASE (the name of a base soak
# run, soak-NAME, on this machine: rig/soak-leaks.awk judges this run's
# kmemleak objects per site against it),
# SOAK_NAME (default <MINUTES>min), SOAK_REJUDGE (set: do not boot, judge the last run of that
# name again), SOAK_TREE (default build/linux: a tree with a deliberately
# broken patch can be soaked too, to show the soak bites), RIG_ACCEL
# (tcg,thread=multi).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need mke2fs

export MINUTES=${MINUTES:-10} SMP=${SMP:-4} CONFIG=${CONFIG:-debug} KERN=${KERN:-patched}
export SOAK_RUN=/bin/soak,$MINUTES${FAULTS:+,faults=$FAULTS}
export SOAK_NAME=${SOAK_NAME:-${MINUTES}min}
export SOAK_TIMEOUT=$((MINUTES * 60 + 900))
export RIG_ACCEL=${RIG_ACCEL:-tcg,thread=multi}
run=$RUNS/soak-$SOAK_NAME

if [ -z "${SOAK_REJUDGE:-}" ]; then
	if [ -z "${SOAK_TREE:-}" ]; then
		"$RIG/tree.sh"
		[ "$KERN" != base ] || base_tree
		SOAK_TREE=$(kern_tree "$KERN")
	fi
	# the tree soaked, read now: another job may check out something else
	# in it before this one ends
	soaked=$(git -C "$SOAK_TREE" log -1 --format='%h %s')
	if [ "$KERN" = base ]; then
		"$RIG/build.sh" base "$CONFIG" || die "soak: the base kernel does not build"
	else
		TREE=$SOAK_TREE "$RIG/build.sh" patched "$CONFIG" || die "soak: the kernel does not build"
	fi
	img=$BUILD/soak/ext2.img
	mkdir -p "$BUILD/soak"
	rm -f "$img"
	mke2fs -q -F -t ext2 -b 1024 -N 16384 "$img" 16384 >/dev/null || die "soak: mke2fs failed"
	# the boot: rig/guest/soak.c for MINUTES (with FAULTS, under failslab),
	# every load at once with CPU hotplug; the ext2 image it dumps at the
	# end comes on ttyS2, to a file of its own (e2fsck'd by report-soak.sh).
	# The old run goes first, so that no report can take it for this one.
	rm -rf "$run"
	GUEST_FILES="/ext2.img=$img" "$RIG/boot.sh" "soak-$SOAK_NAME" "$KERN" "$CONFIG" "$SMP" "$SOAK_TIMEOUT" \
		exit "$SOAK_RUN" -- -serial "file:@RUN@/ext2.txt" </dev/null || true
	[ -f "$run/boot" ] || die "soak: rig/boot.sh did not run soak-$SOAK_NAME"
	# what the report says of the tree: the series, or another tree
	if [ "$KERN" = base ]; then
		echo "base: rc1 + rig/compat (the series $(series_id) not applied)"
	elif [ "$(cd "$SOAK_TREE" && pwd)" = "$(cd "$TREE" && pwd)" ]; then
		echo "series: $(series_id)"
	else
		echo "tree: $soaked, not the series $(series_id)"
	fi >"$run/label"
	echo "$soaked" >"$run/tree"
else
	[ -f "$run/boot" ] || die "soak: no $run to judge again"
	"$RIG/verdict.sh" "$run" >/dev/null || true
	touch "$run/rejudged"
fi
"$RIG/report-soak.sh" "soak-$SOAK_NAME"
