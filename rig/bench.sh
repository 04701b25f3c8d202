#!/bin/bash
# make bench: the series' in-guest benchmark (tools/testing/lglock-bench/
# guest/lglock-bench.c) on the base kernel (rc1 + compat) and on the
# patched kernel, both built with the same smp config, in one run.
#
#  1. icount: QEMU -accel tcg -icount shift=0, one vCPU: guest time is
#     guest instructions, so each 1-task rate is a repeatable cost figure.
#     Every 1-task row at possible_cpus = each of $POSSIBLE (mount_umount's
#     write side grows with it), then remount_ro at -smp 2 (files spread
#     over both CPUs), $ICOUNT_ROUNDS rounds.
#  2. mttcg: -accel tcg,thread=multi at -smp 1 and -smp 2, base and patched
#     booted alternately, $ROUNDS rounds: scaling, noisy.
#
# Every row goes to results/bench.csv as soon as its boot ends (an
# interrupted run keeps what it finished); rig/bench-report.sh then writes
# results/BENCH.md and the plots from it.
#
# Environment: KERNEL_SRC (see tree.sh), ROUNDS (5), ICOUNT_ROUNDS (2),
# POSSIBLE ("2 8 32 64"), BENCH_T (seconds per row, 1), KEEP_CSV (set: keep
# the rows of the phases not run now, e.g. to rerun only mttcg), PHASES
# ("icount mttcg"), REMOUNT (yes; no skips the remount_ro boots), KERNELS
# ("base patched").
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need qemu-system-x86_64 musl-gcc gnuplot

ROUNDS=${ROUNDS:-5}
ICOUNT_ROUNDS=${ICOUNT_ROUNDS:-2}
POSSIBLE=${POSSIBLE:-"2 8 32 64"}
BENCH_T=${BENCH_T:-1}
PHASES=${PHASES:-"icount mttcg"}
CSV=${CSV:-$RESULTS/bench.csv}
single="open_close_private,open_close_shared,stat_mounts,getcwd_mounts,mount_umount"
scaling="open_close_private,open_close_shared,stat_mounts,getcwd_mounts"

"$RIG/tree.sh"
id=$(series_id)
base_tree
say "bench: series $id"

declare -A img cpio
for k in ${KERNELS:-base patched}; do
	out=$BUILD/out-smp
	tree=$TREE
	[ $k = base ] && { out=$BUILD/base-smp; tree=$BASE; }
	TREE=$tree "$RIG/build.sh" smp "$out" || die "bench: $k kernel does not build"
	# one set of guest programs (the series' benchmark) for both kernels
	"$RIG/guest.sh" "$out" "$out/bench.cpio"
	img[$k]=$out/arch/x86/boot/bzImage
	cpio[$k]=$out/bench.cpio
done

mkdir -p "$RESULTS"
if [ -n "${KEEP_CSV:-}" ] && [ -f "$CSV" ]; then
	# rerun some phases: their old rows go, every other row stays
	grep -q "^# series $id;" "$CSV" ||
		die "KEEP_CSV: $CSV is from another series"
	for phase in $PHASES; do
		grep -v "^$phase," "$CSV" >"$CSV.new" || true
		mv "$CSV.new" "$CSV"
	done
	echo "# rerun of $PHASES: $(date -u +%Y-%m-%dT%H:%MZ); ROUNDS=$ROUNDS BENCH_T=$BENCH_T" >>"$CSV"
else
	{
		echo "# series $id; $(date -u +%Y-%m-%dT%H:%MZ); $(qemu-system-x86_64 --version | head -n1)"
		echo "# ROUNDS=$ROUNDS ICOUNT_ROUNDS=$ICOUNT_ROUNDS BENCH_T=$BENCH_T POSSIBLE=$POSSIBLE"
		echo "mode,kernel,round,smp,possible_cpus,test,tasks,ops_per_sec,ops_per_sec_per_task,linear"
	} >"$CSV"
fi

# bench KERNEL MODE ROUND SMP POSSIBLE ARGS
bench() {
	local k=$1 mode=$2 r=$3 smp=$4 poss=$5 args=$6 log rc v got q=()
	log=$LOGS/bench-$mode-$k-smp$smp-p$poss-r$r.console
	if [ "$mode" = icount ]; then
		export RIG_ACCEL=tcg
		q=(-icount shift=0)
	else
		export RIG_ACCEL=tcg,thread=multi
	fi
	set +e
	"$RIG/boot.sh" "${img[$k]}" "${cpio[$k]}" "$log" "$smp" 3000 \
		rig.job=bench "rig.args=-t,$BENCH_T,$args" "possible_cpus=$poss" \
		-- "${q[@]}"
	rc=$?
	set -e
	v=$("$RIG/verdict.sh" "$log" "$rc" none) || true
	grep -aq '^# rig: /bin/lglock-bench exit status 0' "$log" ||
		v="FAIL: lglock-bench did not exit 0; $v"
	got=$(tr -d '\r' <"$log" | sed -n 's/.*Allowing \([0-9]*\) CPUs.*/\1/p' | head -n1)
	[ "$got" = "$poss" ] || v="FAIL: kernel allowed ${got:-?} CPUs, not $poss; $v"
	tr -d '\r' <"$log" | grep -a '^BENCH,' | grep -v '^BENCH,test,' |
		sed "s/^BENCH,/$mode,$k,$r,$smp,$poss,/" >>"$CSV"
	say "bench $mode $k smp=$smp possible=$poss round $r: $(tr -d '\r' <"$log" | grep -a '^BENCH,[a-z]' | grep -vc '^BENCH,test,') rows, ${v%%$'\n'*}"
	case $v in PASS*) ;; *) echo "$v" >&2; return 1 ;; esac
}

fails=0
for phase in $PHASES; do
	case $phase in
	icount)
		for r in $(seq 1 "$ICOUNT_ROUNDS"); do
			for p in $POSSIBLE; do
				for k in ${KERNELS:-base patched}; do
					bench $k icount "$r" 1 "$p" "-T,1,$single" ||
						fails=$((fails + 1))
				done
			done
			[ "${REMOUNT:-yes}" = yes ] || continue
			for k in ${KERNELS:-base patched}; do
				bench $k icount "$r" 2 2 "remount_ro" ||
					fails=$((fails + 1))
			done
		done
		;;
	mttcg)
		for r in $(seq 1 "$ROUNDS"); do
			for smp in 1 2; do
				for k in ${KERNELS:-base patched}; do
					bench $k mttcg "$r" "$smp" "$smp" "$scaling" ||
						fails=$((fails + 1))
				done
			done
		done
		;;
	*) die "unknown phase '$phase'" ;;
	esac
done

"$RIG/bench-report.sh" "$CSV"
say "bench: $(grep -c '^[a-z]*,[a-z]' "$CSV") rows in ${CSV#$TOP/}; $fails failed boots"
[ "$fails" -eq 0 ]
