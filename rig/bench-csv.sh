# shellcheck shell=bash
# Readers of results/bench.csv (rig/report-bench.sh writes it), sourced by
# report-bench.sh and figures.sh.  CSV names the file.
#
# sel MODE KERNEL SMP POSSIBLE TEST TASKS COLUMN: the values, one a line
sel() {
	awk -F, -v m="$1" -v k="$2" -v s="$3" -v p="$4" -v t="$5" -v n="$6" -v c="$7" \
		'$1 == m && $2 == k && $4 == s && $5 == p && $6 == t && $7 == n { print $c }' "$CSV"
}
# stat: median, min, max, count of stdin
stat() {
	sort -g | awk '{ a[NR] = $1 } END {
		if (!NR) { print "- - - 0"; exit }
		m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
		print m, a[1], a[NR], NR }'
}
med() { sel "$@" | stat | cut -d' ' -f1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.3f", a / b }'; }
fmt() { awk -v a="$1" 'BEGIN { if (a == "-") print "-"; else printf "%.0f", a }'; }
# slope KERNEL P0 P1: a mount+umount's growth in guest instructions per
# possible CPU from P0 to P1 possible CPUs (icount: an op costs 1e9/rate)
slope() {
	awk -v a="$(med icount "$1" 1 "$2" mount_umount 1 8)" \
	    -v b="$(med icount "$1" 1 "$3" mount_umount 1 8)" -v p0="$2" -v p1="$3" 'BEGIN {
		if (a == "-" || b == "-" || p1 <= p0) { print "-"; exit }
		printf "%.0f\n", (1e9 / b - 1e9 / a) / (p1 - p0) }'
}
# dist: of stdin's values, "min q1 median q3 max count modes", where modes
# is 2 when the sorted values fall in two groups of at least two apart by
# a gap wider than a tenth of the median (the emulated machine's modes),
# else 1
dist() {
	sort -g | awk '{ a[NR] = $1 } END {
		if (!NR) { print "- - - - - 0 -"; exit }
		m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
		q1 = a[int((NR - 1) / 4) + 1]; q3 = a[NR - int((NR - 1) / 4)]
		modes = 1
		for (i = 2; i <= NR - 1; i++)
			if (i - 1 >= 2 && NR - i + 1 >= 2 && a[i] - a[i - 1] > m / 10) modes = 2
		print a[1], q1, m, q3, a[NR], NR, modes }'
}
# separate "bmin bmax pmin pmax": the verdict of two distributions, judged
# only when their ranges do not overlap
separate() {
	awk -v bl="$1" -v bh="$2" -v pl="$3" -v ph="$4" 'BEGIN {
		if (bl == "-" || pl == "-") print "not measured"
		else if (pl > bh) print "patched faster"
		else if (ph < bl) print "**patched slower**"
		else print "not separated" }'
}
