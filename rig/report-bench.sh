#!/bin/bash
# results/bench.csv, results/BENCH.md and two PNG plots, from the bench runs
# in build/runs/ (rig/bench.sh); their only writer.  Rerunnable at any time,
# on a partial set of runs: rows that are missing show as "-".
# Environment: CSV (results/bench.csv; BENCH.md and the plots beside it).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

CSV=${CSV:-$RESULTS/bench.csv}
MD=${MD:-$(dirname "$CSV")/BENCH.md}
PLOTS=$(dirname "$CSV")
ls -d "$RUNS"/bench-*-r[0-9]* >/dev/null 2>&1 || die "no bench runs in build/runs: run 'make bench KERNEL_SRC=...' first"

# the vCPU counts the runs have (bench.sh's SMP, SHARING_SMP), for the
# scenario's %-lines (a phase without runs: 1, which matches none)
smp_of() { { ls -d "$RUNS"/bench-"$1"-* 2>/dev/null || true; } | sed -n 's/.*-smp\([0-9]*\)-r[0-9]*$/\1/p' | sort -un | paste -sd' ' -; }
MTTCG_SMP=$(smp_of mttcg)
LOCKSTAT_SMP=$(smp_of lockstat)
SHARING_SMP=$(smp_of sharing)
: "${MTTCG_SMP:=1}" "${LOCKSTAT_SMP:=1}" "${SHARING_SMP:=1}"
# bench.csv: every BENCH row of every run, in scenario order, round by round
field() { grep -o "$1=[0-9]*" "$2/boot" | tail -n1 | cut -d= -f2; }
{
	runs=$(ls -d "$RUNS"/bench-*-r[0-9]*)
	series=$(cat "$RUNS"/bench-*/series | sort -u | paste -sd' ' -)
	newest=$(ls -td "$RUNS"/bench-*-r[0-9]* | head -n1)
	# BENCH_T: lglock-bench's -t in an icount or mttcg run
	bt=$({ ls -td "$RUNS"/bench-icount-*-r[0-9]* "$RUNS"/bench-mttcg-*-r[0-9]* 2>/dev/null || true; } | head -n1)
	echo "# series $series; $(date -u -r "$newest/rc" +%Y-%m-%dT%H:%MZ); $(qemu-system-x86_64 --version | head -n1)"
	echo "# code $(cat "$RUNS"/bench-*/code 2>/dev/null | sort -u | paste -sd' ' -)"
	rounds() { echo "$runs" | sed -n "s#.*/bench-$1-.*-r\([0-9]*\)\$#\1#p" | sort -n | tail -n1 | grep . || echo 0; }
	echo "# ROUNDS=$(rounds mttcg) ICOUNT_ROUNDS=$(rounds icount) BENCH_T=$(sed -n 's/.*,-t,\([0-9.]*\),.*/\1/p' "${bt:-$newest}/boot") POSSIBLE=$(for r in $runs; do case $r in */bench-icount-*-p*) field possible_cpus "$r" ;; esac; done | sort -un | paste -sd' ' -)"
	echo "mode,kernel,round,smp,possible_cpus,test,tasks,ops_per_sec,ops_per_sec_per_task,linear"
	for phase in icount mttcg; do
		for r in $(seq 1 "$(rounds $phase)"); do
			BOOTS='' BENCH_T=${BENCH_T:-1} scenarios bench | while read -r what name kern _ cpus _; do
				d=$RUNS/$name-r$r
				[ "$what" = boot ] && [ "${name#bench-"$phase"-}" != "$name" ] && [ -f "$d/output" ] || continue
				grep -a '^BENCH,' "$d/output" | grep -v '^BENCH,test,' |
					sed "s/^BENCH,/$phase,$kern,$r,$cpus,$(field possible_cpus "$d"),/"
			done
		done
	done
} >"$CSV"

. "$RIG/bench-csv.sh"
# spread of the rounds of one row, as max-min over median in percent
spread() { sel "$@" | stat | awk '$1 == "-" { print "-"; next } { printf "%.2f%%", ($3 - $2) / $1 * 100 }'; }
# check VALUE OP TARGET: MET or MISSED
check() {
	awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN {
		if (v == "-") { print "not measured"; exit }
		ok = op == ">=" ? v >= t : v <= t
		d = (v - t) / t * 100
		if (ok) print "**met**"; else printf "**missed** by %.1f%%\n", d < 0 ? -d : d }'
}

series=$(sed -n 's/^# series \([0-9a-f]*\).*/\1/p' "$CSV" | head -n1)
when=$(sed -n 's/^# series [0-9a-f]*; \([^;]*\);.*/\1/p' "$CSV" | head -n1)
qemu=$(sed -n 's/^# series [^;]*; [^;]*; //p' "$CSV" | head -n1)
poss_list=$(awk -F, '$1 == "icount" && $6 == "mount_umount" { print $5 }' "$CSV" | sort -un | paste -sd' ' -)
ic_rounds=$(awk -F, '$1 == "icount" { print $3 }' "$CSV" | sort -un | wc -l)
mt_rounds=$(awk -F, '$1 == "mttcg" { print $3 }' "$CSV" | sort -un | wc -l)
mt_smp=$(awk -F, '$1 == "mttcg" { print $4 }' "$CSV" | sort -un | paste -sd' ' -)
# the mttcg runs' accelerator (boot.sh's: KVM where usable, else MTTCG)
mt_accel=$({ cat "$RUNS"/bench-mttcg-*/qemu.log 2>/dev/null || true; } | sed -n 's/^accel=-accel \([^ ]*\).*/\1/p' | sort -u | paste -sd' ' -)
# bench.sh's parameters (BENCH_T: guest seconds a row), as its CSV has them
params=$(sed -n 's/^# \(ROUNDS=.*\|rerun of .*\)/\1/p' "$CSV" | paste -sd'|' - | sed 's/|/; /g')
p0=$(echo "$poss_list" | awk '{ print $1 }')
: "${p0:=2}"

# target TEXT MODE SMP POSSIBLE TEST TASKS OP VALUE: one row of the
# targets table, patched/base of the medians against VALUE
target() {
	local r
	r=$(ratio "$(med "$2" patched "$3" "$4" "$5" "$6" 8)" "$(med "$2" base "$3" "$4" "$5" "$6" 8)")
	echo "| $1: patched/base $7 $8 | $r | $(check "$r" "$7" "$8") |"
}
rm100=$(med icount patched 2 2 remount_ro 100000 9)
pn=$(echo "$poss_list" | awk '{ print $NF }')
# Growth of a mount+umount's instructions per possible CPU from the first
# to the last possible_cpus: "base patched ratio", for base and patched.
mu_slope() {
	local b q
	b=$(slope base "$p0" "$pn")
	q=$(slope patched "$p0" "$pn")
	[ "$b" != - ] && [ "$q" != - ] || return 0
	awk -v b="$b" -v q="$q" 'BEGIN { printf "%d %d %.2f\n", b, q, (b > 0 ? q / b : 0) }'
}

{
	echo "# lglock-bench: base (v2.6.36-rc1) against the series"
	echo
	echo "series: ${series:-?}"
	echo
	echo "Written by \`make bench\` (rig/bench.sh, then rig/report-bench.sh) from"
	echo "\`results/bench.csv\`, measured $when."
	echo
	echo "**This machine has $(nproc) cores and runs the guest under QEMU's TCG (no usable"
	echo "KVM).** The icount rows are instruction-cost figures; the scaling rows"
	echo "show how the kernels behave under contention between two emulated vCPUs,"
	echo "not how they would scale on hardware."
	echo
	echo "## How it was run"
	echo
	echo "- Both kernels: the rig's \`smp\` config (x86_64_defconfig + rig/configs/smp.config,"
	echo "  NR_CPUS=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$(kern_out patched smp)/.config" 2>/dev/null || echo '?')), built by the same compiler from the same tree: base = rc1 + the"
	echo "  rig's compat commits, patched = base + the series."
	echo "- The guest program is the series' tools/testing/lglock-bench/guest/lglock-bench.c,"
	echo "  built once with \`musl-gcc -static\` and booted as the same initramfs by both"
	echo "  kernels (\`rig.run=/bin/lglock-bench,...\`); each row counts BENCH_T guest seconds after a"
	echo "  warm-up of a fifth of that. Parameters, from the CSV: ${params:-not recorded}."
	echo "- **icount** ($ic_rounds rounds): \`qemu-system-x86_64 -accel tcg -icount shift=0 -smp 1\`"
	echo "  with \`possible_cpus=N\` for N in $poss_list, every 1-task row in each boot;"
	echo "  \`remount_ro\` at \`-smp 2\`. Guest time advances one nanosecond per guest"
	echo "  instruction, so ops per guest second is an inverse instruction count."
	echo "- **mttcg** ($mt_rounds rounds): \`-accel ${mt_accel:-tcg,thread=multi}\` at -smp ${mt_smp:-1 2} (SMP),"
	echo "  each round booting base and patched at each -smp once; each row's distribution over the rounds."
	echo "- Host: $(nproc) x $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1); $(gcc --version | head -n1);"
	echo "  $(ld --version | head -n1); ${qemu:-?}; guest libc musl $(dpkg-query -W -f '${Version}' musl 2>/dev/null || echo '?')."
	echo
	echo "## Targets"
	echo
	echo "| target | measured | |"
	echo "|---|---|---|"
	target "open_close_private, 1 task, icount" icount 1 "$p0" open_close_private 1 '>=' 1.02
	target "stat_mounts, 1 task, icount" icount 1 "$p0" stat_mounts 1 '>=' 1.04
	for p in $poss_list; do
		target "mount_umount at possible_cpus=$p, icount" icount 1 "$p" mount_umount 1 '>=' 0.985
	done
	slope=$(mu_slope)
	sr=$(echo "$slope" | awk '{ print $3 }')
	echo "| guest instructions per extra possible CPU, mount+umount, possible_cpus $p0 to $pn (base, patched): patched/base <= 1.10 | ${slope:-n/a} | $(check "${sr:--}" '<=' 1.10) |"
	echo "| remount_ro with 100k open files: completes, no soft lockup | $(fmt "$rm100") us per remount,ro | $([ "$rm100" != - ] && echo '**met** (boot verdict clean)' || echo 'not measured') |"
	for t in open_close_private stat_mounts getcwd_mounts; do
		read -r bl _ _ _ bh _ _ < <(sel mttcg base 2 2 $t 2 8 | dist)
		read -r pl _ _ _ ph _ _ < <(sel mttcg patched 2 2 $t 2 8 | dist)
		v=$(separate "$bl" "$bh" "$pl" "$ph")
		case $v in "patched faster") m="**met**" ;; "not separated") m="no verdict: the distributions overlap" ;; "not measured") m="not measured" ;; *) m="**missed**" ;; esac
		echo "| $t, 2 tasks, -smp 2, mttcg: patched not slower (ranges over $mt_rounds rounds) | $v | $m |"
	done
	echo
	echo "## Cost per operation (icount, 1 task, possible_cpus=$p0)"
	echo
	echo "Ops per guest second (= 10^9 / instructions per op); spread = (max - min) / median over the rounds."
	echo
	echo "| test | base | patched | patched/base | spread base | spread patched |"
	echo "|---|---|---|---|---|---|"
	for t in open_close_private open_close_shared stat_mounts getcwd_mounts mount_umount; do
		b=$(med icount base 1 "$p0" $t 1 8)
		p=$(med icount patched 1 "$p0" $t 1 8)
		echo "| $t | $(fmt "$b") | $(fmt "$p") | $(ratio "$p" "$b") | $(spread icount base 1 "$p0" $t 1 8) | $(spread icount patched 1 "$p0" $t 1 8) |"
	done
	echo
	echo "## mount_umount against possible CPUs (icount, 1 task)"
	echo
	echo "The write side of the brlock takes one spinlock per online CPU; base's own per-CPU work"
	echo "(the mount's write counters, allocated and summed over every possible CPU) grows with them."
	echo
	echo "| possible_cpus | base mount+umount/s | patched mount+umount/s | patched/base | base us/op | patched us/op |"
	echo "|---|---|---|---|---|---|"
	: >"$BUILD/bench-mu.dat"
	for p in $poss_list; do
		b=$(med icount base 1 "$p" mount_umount 1 8)
		q=$(med icount patched 1 "$p" mount_umount 1 8)
		bu=$(awk -v a="$b" 'BEGIN { if (a == "-") print "-"; else printf "%.2f", 1e6 / a }')
		qu=$(awk -v a="$q" 'BEGIN { if (a == "-") print "-"; else printf "%.2f", 1e6 / a }')
		echo "| $p | $(fmt "$b") | $(fmt "$q") | $(ratio "$q" "$b") | $bu | $qu |"
		echo "$p $bu $qu" >>"$BUILD/bench-mu.dat"
	done
	echo
	awk 'NF == 3 && $2 != "-" && $3 != "-" { if (!n++) { p0 = $1; b0 = $2; q0 = $3 } p1 = $1; b1 = $2; q1 = $3 }
	END { if (n > 1 && p1 > p0) printf "Growth from %d to %d possible CPUs, in guest instructions per mount+umount per possible CPU: base %.0f, patched %.0f.\n", p0, p1, (b1 - b0) * 1000 / (p1 - p0), (q1 - q0) * 1000 / (p1 - p0) }' "$BUILD/bench-mu.dat"
	echo
	echo "Other 1-task rows at each possible_cpus (patched/base):"
	echo
	echo "| test | $(echo "$poss_list" | sed 's/ / | /g') |"
	echo "|---|$(for p in $poss_list; do printf -- '---|'; done)"
	for t in open_close_private open_close_shared stat_mounts getcwd_mounts; do
		printf '| %s |' $t
		for p in $poss_list; do
			printf ' %s |' "$(ratio "$(med icount patched 1 "$p" $t 1 8)" "$(med icount base 1 "$p" $t 1 8)")"
		done
		echo
	done
	echo
	echo "## remount_ro (icount, -smp 2, files open read-only spread over both CPUs)"
	echo
	echo "| open files | base us per remount,ro | patched us per remount,ro | patched/base |"
	echo "|---|---|---|---|"
	for f in 0 1000 10000 100000; do
		b=$(med icount base 2 2 remount_ro $f 9)
		p=$(med icount patched 2 2 remount_ro $f 9)
		echo "| $f | $(fmt "$b") | $(fmt "$p") | $(ratio "$p" "$b") |"
	done
	echo
	echo "## Scaling (mttcg; noisy, about +-20% run to run, and multi-modal)"
	echo
	echo "Total ops/s over $mt_rounds rounds: min, lower quartile, median, upper quartile, max. The"
	echo "emulated machine has modes (the same kernel settles at one of two or more rates),"
	echo "so a ratio of medians flips with the draw: a row is judged only where base's and"
	echo "patched's ranges do not overlap; \"2 modes\" marks a kernel whose rounds fall in two"
	echo "groups apart by more than a tenth of the median. Linear = tasks x the 1-task median."
	echo
	echo "| smp | test | tasks | base min / q1 / median / q3 / max | patched min / q1 / median / q3 / max | modes (b, p) | verdict | median ratio | linear (patched) |"
	echo "|---|---|---|---|---|---|---|---|---|"
	: >"$BUILD/bench-scale.dat"
	for s in ${mt_smp:-1 2}; do
		for t in open_close_private open_close_shared stat_mounts getcwd_mounts; do
			for n in $(seq 1 $s); do
				read -r bl bq1 bm bq3 bh _ bmod < <(sel mttcg base $s $s $t $n 8 | dist)
				read -r pl pq1 pm pq3 ph _ pmod < <(sel mttcg patched $s $s $t $n 8 | dist)
				p1=$(med mttcg patched $s $s $t 1 8)
				lin=$(awk -v a="$p1" -v n=$n 'BEGIN { if (a == "-") print "-"; else printf "%.0f", a * n }')
				echo "| $s | $t | $n | $(fmt "$bl") / $(fmt "$bq1") / $(fmt "$bm") / $(fmt "$bq3") / $(fmt "$bh") | $(fmt "$pl") / $(fmt "$pq1") / $(fmt "$pm") / $(fmt "$pq3") / $(fmt "$ph") | $bmod, $pmod | $(separate "$bl" "$bh" "$pl" "$ph") | $(ratio "$pm" "$bm") | $lin |"
				[ "$s" = 2 ] && echo "$t $n $bm $bl $bh $pm $pl $ph $lin" >>"$BUILD/bench-scale.dat"
			done
		done
	done
	echo
	# the lockstat phase: what still serialises each path (rig/report-lockstat.sh)
	LOCKSTAT_CSV=$(dirname "$CSV")/lockstat.csv "$RIG/report-lockstat.sh"
	# the sharing phase: the cache-line model's rows (rig/report-sharing.sh)
	SHARING_CSV=$(dirname "$CSV")/sharing.csv "$RIG/report-sharing.sh"
	echo
	echo "## Plots"
	echo
	[ ! -f "$(dirname "$MD")/bench-scaling.png" ] ||
		echo "- bench-scaling.png: ops/s against tasks at -smp 2, base, patched and linear"
	[ ! -f "$(dirname "$MD")/bench-mount-umount.png" ] ||
		echo "- bench-mount-umount.png: guest microseconds per mount+umount against possible CPUs"
} >"$MD"

# Plots (gnuplot, PNG): mount+umount against possible CPUs, and the mttcg
# scaling rows when there are any (without them there is no scaling plot).
if command -v gnuplot >/dev/null; then
	xt=$(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $1 }' "$BUILD/bench-mu.dat")
	xmax=$(awk '{ m = $1 } END { print m * 1.4 }' "$BUILD/bench-mu.dat")
	# (no icount rows, no plot of them)
	rm -f "$PLOTS/bench-mount-umount.png"
	[ -z "$xt" ] || gnuplot <<EOF || say "report-bench: gnuplot failed on bench-mount-umount.png"
set terminal pngcairo size 800,500 font ",10" noenhanced
set output "$PLOTS/bench-mount-umount.png"
set title "mount+umount cost against possible CPUs (icount: guest us = instructions / 1000)"
set xrange [1.5:$xmax]
set yrange [0:*]
set logscale x 2
set xtics ($xt)
set key left top
set xlabel "possible_cpus"
set ylabel "guest microseconds per mount+umount"
plot "$BUILD/bench-mu.dat" using 1:2 with linespoints title "base", \
     "" using 1:3 with linespoints title "patched"
EOF
	rm -f "$PLOTS/bench-scaling.png"
	if awk '$3 != "-" { found = 1 } END { exit !found }' "$BUILD/bench-scale.dat"; then
		gnuplot <<EOF || say "report-bench: gnuplot failed on bench-scaling.png"
set terminal pngcairo size 1000,700 font ",10" noenhanced
set output "$PLOTS/bench-scaling.png"
set multiplot layout 2,2 title "lglock-bench at -smp 2 (TCG, 2 host cores): median ops/s, bars min-max"
set xrange [0.5:2.5]
set xtics 1
set yrange [0:*]
set key left top
set xlabel "tasks"
set ylabel "ops/s"
do for [t in "open_close_private open_close_shared stat_mounts getcwd_mounts"] {
	set title t
	plot "$BUILD/bench-scale.dat" using (\$2-0.05):(strcol(1) eq t ? \$3 : 1/0):4:5 with yerrorlines title "base", \
	     "" using (\$2+0.05):(strcol(1) eq t ? \$6 : 1/0):7:8 with yerrorlines title "patched", \
	     "" using 2:(strcol(1) eq t ? \$9 : 1/0) with linespoints dt 2 title "linear (patched)"
}
unset multiplot
EOF
	fi
fi
"$RIG/index.sh"
say "report-bench: ${MD#$TOP/} and the plots"
