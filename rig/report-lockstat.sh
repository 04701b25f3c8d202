#!/bin/bash
# rig/report-lockstat.sh: the bench's lockstat phase (rig/guest/lsrows -l
# on the lockstat config) as markdown on stdout, for report-bench.sh to put
# in BENCH.md: per vCPU count and row, the contentions and acquisitions per
# operation of the locks the series replaces (base: files_lock,
# vfsmount_lock) and of their replacements (patched: files_lglock,
# vfsmount_lock, -R read and -W write sides, and the spinlock each lglock
# takes against CPU hotplug, online_lock), next to the classes that
# contend most on that row in either kernel.
# Reads build/runs/bench-lockstat-KERN-smpN-rR/output: LSROW N ROW, the
# bench's BENCH lines (ops/s) and the LOCKSTAT N lines (a /proc/lock_stat
# class line: NAME: con-bounces contentions waittime-min -max -total
# acq-bounces acquisitions holdtime-min -max -total).  Writes the counts
# to LOCKSTAT_CSV (results/lockstat.csv), for the cover letter's figures.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
LOCKSTAT_OTHERS=${LOCKSTAT_OTHERS:-4}
LOCKSTAT_CSV=${LOCKSTAT_CSV:-$RESULTS/lockstat.csv}

# (the first round: LOCKSTAT_ROUNDS beyond 1 are booted, not tabulated)
runs=$(ls -d "$RUNS"/bench-lockstat-*-r1 2>/dev/null || true)
[ -n "$runs" ] || exit 0
# one line a kernel, vCPUs, row and class: kern smp row ops class con acq
for d in $runs; do
	[ -f "$d/output" ] || continue
	n=${d##*/bench-lockstat-}
	kern=${n%%-*}
	smp=$(echo "$n" | grep -o 'smp[0-9]*' | tr -d smp)
	t=$(sed -n 's/.*lsrows,-l,[0-9]*,\([0-9.]*\),.*/\1/p' "$d/boot")
	# lglock-bench counts t seconds after a warm-up of t/5 at the same
	# rate, and lock_stat counts both: the row's operations are 1.2 x t x
	# the sum of its BENCH lines' ops/s (one line per task count)
	awk -v kern="$kern" -v smp="$smp" -v t="${t:-1}" '
		/^LSROW [0-9]/ { name[$2] = $3; cur = $2 }
		/^BENCH,/ && !/^BENCH,test/ { split($0, f, ","); ops[cur] += f[4] * t * 1.2 }
		# (classes of one name, e.g. key#1 of several keys, are summed)
		/^LOCKSTAT [0-9]/ { c = $3; sub(/:$/, "", c); if (!((($2, c) in con))) cls[$2] = cls[$2] " " c
			con[$2, c] += $5; acq[$2, c] += $10 }
		END { for (r = 1; r in name; r++) { n = split(cls[r], a, " ")
			for (i = 1; i <= n; i++) print kern, smp, name[r], ops[r], a[i], con[r, a[i]], acq[r, a[i]] } }' "$d/output"
done >"$BUILD/lockstat.dat"
{
	d=$(echo "$runs" | head -n1)
	echo "# series $(cat "$d/series" 2>/dev/null || echo '?'); $(date -u -r "$d/rc" +%Y-%m-%dT%H:%MZ 2>/dev/null || echo '?'); make bench, lockstat phase"
	echo "# code $(cat "$d/code" 2>/dev/null || echo '?')"
	echo "kernel,smp,row,ops,class,contentions,acquisitions"
	tr ' ' , <"$BUILD/lockstat.dat"
} >"$LOCKSTAT_CSV"

echo "## What still serialises each path (lock_stat)"
echo
echo "The lockstat config (smp + CONFIG_LOCK_STAT) at -smp N (the accelerator boot.sh picks: multi-threaded TCG here), one boot per kernel, its first round: rig/guest/lsrows clears \`/proc/lock_stat\` before each row of the bench and reads it after; the row runs lglock-bench at 1 to N tasks. Per operation: the count over the row's operations (the bench's ops/s x its seconds x 1.2, as the warm-up is counted too). The replaced locks and their replacements come first, then the $LOCKSTAT_OTHERS classes with the most contentions on the row in either kernel (or, where nothing contends, the most acquisitions). \`-R\`/\`-W\`: a class's read and write sides."
echo
echo "The series' lglock and brlock tell lockdep of each acquisition but, in this version, not of waiting (no lock_contended()): lock_stat counts their acquisitions, and their contentions read \"n/r\" (not reported) rather than a 0 it never measured."
echo
for smp in $(awk '{ print $2 }' "$BUILD/lockstat.dat" | sort -un); do
	echo "### -smp $smp"
	echo
	echo "| path | lock class | base contentions/op | base acquisitions/op | patched contentions/op | patched acquisitions/op |"
	echo "|---|---|---|---|---|---|"
	for row in $(awk -v s="$smp" '$2 == s { print $3 }' "$BUILD/lockstat.dat" | awk '!seen[$0]++'); do
		awk -v s="$smp" -v row="$row" -v others="$LOCKSTAT_OTHERS" '
			$2 != s || $3 != row { next }
			{ k = $1; c = $5; ops[k] = $4; con[k, c] = $6; acq[k, c] = $7; tc[c] += $6; ta[c] += $7; all[c] = 1 }
			# per K C WHAT: the count (con or acq) of class C in kernel K per op, "-" if none
			function per(k, c, what) { if (!((k, c) in con)) return "-"
				if (ops[k] <= 0) return "-"
				return sprintf("%.4f", (what == "con" ? con[k, c] : acq[k, c]) / ops[k]) }
			function show(c,   pc) {
				pc = per("patched", c, "con")
				if (pc != "-" && c ~ /^(files_lglock|vfsmount_lock)(-[RW])?$/) pc = "n/r"
				printf "| %s | %s | %s | %s | %s | %s |\n", row, c, per("base", c, "con"),
					per("base", c, "acq"), pc, per("patched", c, "acq")
				done[c] = 1 }
			END {
				nm = split("files_lock vfsmount_lock files_lglock files_lglock-R files_lglock-W vfsmount_lock-R vfsmount_lock-W files_lglock_lglock.online_lock vfsmount_lock_lglock.online_lock", m, " ")
				for (i = 1; i <= nm; i++) if (m[i] in all) show(m[i])
				for (j = 0; j < others; j++) { best = ""
					for (c in all) if (!(c in done) && (best == "" || tc[c] > tc[best] || (tc[c] == tc[best] && ta[c] > ta[best]))) best = c
					if (best == "") break
					show(best) } }' "$BUILD/lockstat.dat"
	done
	echo
done
