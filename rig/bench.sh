#!/bin/bash
# make bench: the series' in-guest benchmark (tools/testing/lglock-bench/
# guest/lglock-bench.c) on the base and the patched kernel, in the smp config
# (lockstat: its own): the rows of rig/scenarios/bench, phase by phase
# (icount: guest time is guest instructions, a repeatable cost; mttcg:
# scaling, noisy; lockstat: /proc/lock_stat per row; sharing: the
# cache-line model), each phase's rows once a round, kernels alternating.  Each boot is a run in
# build/runs/bench-*-rN; rig/report-bench.sh then writes results/bench.csv,
# results/BENCH.md and the plots from them.
#
# Environment: KERNEL_SRC (see tree.sh), PHASES ("icount mttcg lockstat
# sharing"), ROUNDS (mttcg, 10), ICOUNT_ROUNDS (2), LOCKSTAT_ROUNDS (1),
# SHARING_ROUNDS (1), BENCH_T (guest seconds a row, 1), POSSIBLE (icount
# possible_cpus, "2 8 32 64 128 512"), REMOUNT (yes; no skips remount_ro),
# SMP (the vCPU counts of the mttcg and lockstat phases; unset: "1 2" and
# "2 4"), SHARING_SMP ("2 4 8"), KERNELS ("base patched"), BOOTS (names or
# globs), KEEP_CSV (set: keep the runs of the phases not run now, e.g. to
# rerun only mttcg).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export BENCH_T=${BENCH_T:-1}
PHASES=${PHASES:-"icount mttcg lockstat sharing"}
# the %-lines of the scenario: one boot per vCPU count (scenarios() reads them)
# shellcheck disable=SC2034
MTTCG_SMP=${SMP:-"1 2"}
# shellcheck disable=SC2034
LOCKSTAT_SMP=${SMP:-"2 4"}
SHARING_SMP=${SHARING_SMP:-"2 4 8"}
POSSIBLE=${POSSIBLE:-"2 8 32 64 128 512"}
KERNELS=${KERNELS:-"base patched"}

"$RIG/tree.sh"
say "bench: series $(series_id)"
# the scenario's boots that PHASES, KERNELS, POSSIBLE and REMOUNT keep
mkdir -p "$RUNS"
rows=$RUNS/bench.rows
scenarios bench | while read -r what name kern rest; do
	[ "$what" = boot ] || continue
	phase=${name#bench-}
	phase=${phase%%-*}
	[[ " $PHASES " == *" $phase "* ]] && [[ " $KERNELS " == *" $kern "* ]] || continue
	case $name in *-remount) [ "${REMOUNT:-yes}" = yes ] || continue ;;
	bench-icount-*) [[ " $POSSIBLE " == *" $(echo "$rest" | grep -o 'possible_cpus=[0-9]*' | cut -d= -f2) "* ]] || continue ;;
	esac
	echo "$phase $name $kern $rest"
done >"$rows"
[ -s "$rows" ] || die "bench: no rows left (PHASES, KERNELS, POSSIBLE, BOOTS)"

# the sharing phase's QEMU plugin (rig/plugins), for its scenario lines
if grep -q '^sharing ' "$rows"; then
	make -s -C "$RIG/plugins" O="$BUILD/plugins" || die "bench: rig/plugins do not build"
fi
while read -r k cfg; do
	"$RIG/build.sh" "$k" "$cfg" </dev/null || die "bench: the $k $cfg kernel does not build"
done < <(cut -d' ' -f3,4 "$rows" | sort -u)

# runs of an earlier bench: all go, or with KEEP_CSV those of the phases
# run now (the others must be of this series)
for d in "$RUNS"/bench-*; do
	[ -d "$d" ] || continue
	p=${d#"$RUNS"/bench-}
	if [ -z "${KEEP_CSV:-}" ] || [[ " $PHASES " == *" ${p%%-*} "* ]]; then
		rm -rf "$d"
	elif [ "$(cat "$d/series")" != "$(series_id)" ]; then
		die "KEEP_CSV: $d is from another series"
	fi
done

fails=0
for phase in $PHASES; do
	case $phase in
	icount) n=${ICOUNT_ROUNDS:-2} ;;
	lockstat) n=${LOCKSTAT_ROUNDS:-1} ;;
	sharing) n=${SHARING_ROUNDS:-1} ;;
	*) n=${ROUNDS:-10} ;;
	esac
	for r in $(seq 1 "$n"); do
		while read -r p name kern cfg rest; do
			[ "$p" = "$phase" ] || continue
			# shellcheck disable=SC2086
			"$RIG/boot.sh" "$name-r$r" "$kern" "$cfg" $rest </dev/null || fails=$((fails + 1))
			# the sharing model names lines by the kernel's symbols
			[ "$phase" != sharing ] || cp "$(kern_out "$kern" "$cfg")/System.map" "$RUNS/$name-r$r/"
		done <"$rows"
	done
done

"$RIG/report-bench.sh"
say "bench: $fails failed boots"
[ "$fails" -eq 0 ]
