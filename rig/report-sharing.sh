#!/bin/bash
# rig/report-sharing.sh: the cache-line sharing model's rows (the bench's
# "sharing" phase: rig/plugins/lineshare.so over rig/guest/lsrows), as
# markdown on stdout, for report-bench.sh to put in BENCH.md.
# Reads build/runs/bench-sharing-KERN-smpN-rR/: output (LSROW and BENCH
# lines: the operations of each row), lineshare.txt (the plugin's ROW and
# LINE lines) and System.map (of the kernel that ran).  Per row and
# kernel: write-shared lines, ownership changes per operation, and the
# top lines by changes with the symbol they belong to (static data: the
# System.map symbol at or before the line; else "dynamic") and the
# functions whose accesses moved them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
RUNS=${SHARING_RUNS:-$RUNS}
TOP_LINES=${TOP_LINES:-10}
SHARING_CSV=${SHARING_CSV:-$RESULTS/sharing.csv}

# sym MAP ADDR...: "ADDR SYMBOL+OFF" for each, by the map's last symbol
# at or before it (none below _stext or from _end on: "dynamic")
sym() {
	local map=$1
	shift
	printf '%s\n' "$@" | awk -v map="$map" '
		function hex(s,   i, c, v) { v = 0; s = tolower(s)
			for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
			return v }
		BEGIN { while ((getline l < map) > 0) { split(l, f, " ")
				# the kernel image is in the top 2 GiB: its low 32 bits
				# place it (awk numbers are doubles, 64 bits are too many)
				if (f[1] !~ /^ffffffff/) continue
				n++; a[n] = hex(substr(f[1], 9)); s[n] = f[3]
				if (f[3] == "_stext") lo = a[n]; if (f[3] == "_end") hi = a[n] } }
		{ if ($1 !~ /^ffffffff/) { print $1, "dynamic"; next }
		  x = hex(substr($1, 9))
		  if (x < lo || x >= hi) { print $1, "dynamic"; next }
		  l = 1; h = n
		  while (l < h) { m = int((l + h + 1) / 2); if (a[m] <= x) l = m; else h = m - 1 }
		  printf "%s %s+0x%x\n", $1, s[l], x - a[l] }'
}

runs=$(ls -d "$RUNS"/bench-sharing-* 2>/dev/null || true)
[ -n "$runs" ] || exit 0
echo "## Cache lines written by several CPUs (sharing model)"
echo
echo "rig/plugins/lineshare.so counts, while a row of the bench runs (rig/guest/lsrows marks it), every kernel load and store in 64-byte lines: a line is write-shared when two or more vCPUs store to it; an ownership change is a store by another vCPU than the line's last writer (or over other vCPUs' reads) or a first load by another vCPU since the last store. MTTCG; lglock-bench runs a row at 1 to N tasks for 1 second each after a warm-up of 0.2 s at the same rate, and the plugin counts all of it, so a row's operations are 1.2 x the sum of its BENCH lines' ops/s; the plugin slows the guest, so they are fewer than in the other phases. Per operation: changes divided by those operations."
echo
echo "| kernel | vCPUs | round | row | operations | write-shared lines | changes | changes/op |"
echo "|---|---|---|---|---|---|---|---|"
# the same rows, for the cover letter's figures (rig/figures.sh)
d=$(echo "$runs" | head -n1)
{
	echo "# series $(cat "$d/series" 2>/dev/null || echo '?'); $(date -u -r "$d/rc" +%Y-%m-%dT%H:%MZ 2>/dev/null || echo '?'); make bench, sharing phase"
	echo "# code $(cat "$d/code" 2>/dev/null || echo '?')"
	echo "kernel,smp,round,row,ops,shared_lines,changes"
} >"$SHARING_CSV"
for d in $runs; do
	n=${d##*/bench-sharing-}
	kern=${n%%-*}
	smp=$(echo "$n" | grep -o 'smp[0-9]*' | tr -d smp)
	round=${n##*-r}
	[ -f "$d/lineshare.txt" ] || { echo "| $kern | $smp | $round | (no lineshare.txt) | | | | |"; continue; }
	awk -v kern="$kern" -v smp="$smp" -v round="$round" '
		FILENAME ~ /output$/ && /^LSROW [0-9]/ { name[$2] = $3; cur = $2 }
		FILENAME ~ /output$/ && /^BENCH,/ && $0 !~ /^BENCH,test/ { split($0, f, ","); ops[cur] += f[4] * 1.2 }
		FILENAME ~ /lineshare.txt$/ && /^ROW / { r = $2; sub("shared=", "", $3); sub("changes=", "", $4); sh[r] = $3; ch[r] = $4 }
		END { for (r = 1; r in name; r++) {
			printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", kern, smp, round, name[r], ops[r], sh[r], ch[r],
				(ops[r] > 0 ? sprintf("%.2f", ch[r] / ops[r]) : "-")
			printf "%s,%s,%s,%s,%s,%s,%s\n", kern, smp, round, name[r], ops[r], sh[r], ch[r] >>csv } }' csv="$SHARING_CSV" "$d/output" "$d/lineshare.txt"
done
echo
echo "The top $TOP_LINES lines of each row by ownership changes, first round (symbol of the line; functions that moved it):"
for d in $runs; do
	case $d in *-r1) ;; *) continue ;; esac
	n=${d##*/bench-sharing-}
	[ -f "$d/lineshare.txt" ] && [ -f "$d/System.map" ] || continue
	echo
	echo "### ${n%-r1}"
	awk '/^ROW / { r = $2 } /^LINE / { print r, $0 }' "$d/lineshare.txt" >"$d/lines.tmp"
	addrs=$(awk '{ print $3 } { n = split($6, p, ","); for (i = 1; i <= n; i++) { sub("^pc=", "", p[i]); split(p[i], q, ":"); print q[1] } }' "$d/lines.tmp" | sort -u)
	# shellcheck disable=SC2086
	sym "$d/System.map" $addrs >"$d/syms.tmp"
	awk -v top="$TOP_LINES" '
		FILENAME ~ /syms.tmp$/ { s[$1] = $2; next }
		FILENAME ~ /output$/ && /^LSROW [0-9]/ { name[$2] = $3; next }
		FILENAME ~ /lines.tmp$/ { r = $1; if (++k[r] > top) next
			n = split($6, p, ","); fn = ""
			for (i = 1; i <= n; i++) { sub("^pc=", "", p[i]); split(p[i], q, ":"); f = s[q[1]]; sub(/\+0x[0-9a-f]*$/, "", f); fn = fn (i > 1 ? ", " : "") f " " q[2] }
			rows[r] = rows[r] sprintf("| %s | %s | %s | %s |\n", $3, s[$3], substr($4, 9), fn) }
		END { for (r = 1; r in name; r++) { printf "\n%s:\n\n| line | symbol | changes | functions (changes) |\n|---|---|---|---|\n%s", name[r], rows[r] } }' \
		"$d/syms.tmp" "$d/output" "$d/lines.tmp"
	rm -f "$d/lines.tmp" "$d/syms.tmp"
done
