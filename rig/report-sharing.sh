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
# the series' own data (System.map symbols the series adds) and functions
SERIES_DATA="files_lglock_lglock files_lglock_lock vfsmount_lock_lglock vfsmount_lock_lock sb_files_blocks sb_files_blocks_lock mnt_id_lock tty_files_lock"
SERIES_FUNCS="^(__lg_|lg_|file_sb_list_|sb_files_|tty_add_file|tty_del_file|tty_alloc_file_entry)"

# sym MAP PERCPU ADDR...: "ADDR SYMBOL+OFF" for each, by the map's last
# symbol at or before it; an address in the per-CPU areas (PERCPU: "BASE
# STATIC UNIT NCPUS" from the boot's PERCPU line, or -) is named
# SYMBOL+OFF@cpuN by the map's per-CPU symbols, or percpu-dynamic@cpuN past
# the static ones; anything else is "dynamic".  The other symbols that
# start inside the 64-byte line follow, after commas (for a code address,
# the caller keeps the first: its function).
sym() {
	local map=$1 pcpu=$2
	shift 2
	printf '%s\n' "$@" | awk -v map="$map" -v pcpu="$pcpu" '
		function hex(s,   i, c, v) { v = 0; s = tolower(s)
			for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
			return v }
		# the last of n symbols at a[] at or before x
		function find(a, n, x,   l, h, m) { l = 1; h = n
			while (l < h) { m = int((l + h + 1) / 2); if (a[m] <= x) l = m; else h = m - 1 }
			return l }
		# ",SYM" for each symbol after the l-th that starts before x + 64
		function more(a, s, n, l, x,   j, r) { r = ""
			for (j = l + 1; j <= n && a[j] < x + 64; j++) r = r "," s[j]
			return r }
		BEGIN { while ((getline l < map) > 0) { split(l, f, " ")
				# per-CPU symbols are offsets into the area of each CPU
				if (f[1] ~ /^0000000000/ && f[2] ~ /^[dD]$/) { pn++; pa[pn] = hex(f[1]); ps[pn] = f[3]; continue }
				# the kernel image is in the top 2 GiB: its low 32 bits
				# place it (awk numbers are doubles, 64 bits are too many)
				if (f[1] !~ /^ffffffff/) continue
				n++; a[n] = hex(substr(f[1], 9)); s[n] = f[3]
				if (f[3] == "_stext") lo = a[n]; if (f[3] == "_end") hi = a[n] }
			# the per-CPU areas: compared on their low 40 bits, under
			# the same top 24 bits as the first
			if (split(pcpu, q, " ") == 4) { pre = substr(q[1], 1, 6); pb = hex(substr(q[1], 7)); pst = q[2]; pu = q[3]; pnc = q[4] } }
		$1 !~ /^ffffffff/ {
			x = hex(substr($1, 7))
			if (pu && substr($1, 1, 6) == pre && x >= pb && x < pb + pu * pnc) {
				c = int((x - pb) / pu); o = x - pb - c * pu
				if (o >= pst || !pn) { printf "%s percpu-dynamic@cpu%d\n", $1, c; next }
				l = find(pa, pn, o); printf "%s %s+0x%x%s@cpu%d\n", $1, ps[l], o - pa[l], more(pa, ps, pn, l, o), c; next }
			print $1, "dynamic"; next }
		{ x = hex(substr($1, 9))
		  if (x < lo || x >= hi) { print $1, "dynamic"; next }
		  l = find(a, n, x)
		  printf "%s %s+0x%x%s\n", $1, s[l], x - a[l], more(a, s, n, l, x) }'
}
# percpu RUN: "BASE STATIC UNIT NCPUS" of the run's per-CPU areas (its
# console's PERCPU line and -smp), or - when it has none
percpu() {
	local l
	l=$(sed -n 's/.*PERCPU: .* @\([0-9a-f]*\) s\([0-9]*\) .* u\([0-9]*\).*/\1 \2 \3/p' "$1/console" 2>/dev/null | head -n1)
	[ -n "$l" ] && echo "$l $(grep -o '^[^ ]* [^ ]* [^ ]* [0-9]*' "$1/boot" | awk '{ print $4 }')" || echo -
}

# line_files RUN: RUN/lines.tmp, the plugin's LINE lines behind their row
# number, and RUN/syms.tmp, the names of their addresses and code
# addresses (sym); both tables below read them, the last removes them
line_files() {
	[ ! -f "$1/syms.tmp" ] || return 0
	awk '/^ROW / { r = $2 } /^LINE / { print r, $0 }' "$1/lineshare.txt" >"$1/lines.tmp"
	# shellcheck disable=SC2046
	sym "$1/System.map" "$(percpu "$1")" $(awk '{ print $3 } { n = split($6, p, ","); for (i = 1; i <= n; i++) { sub("^pc=", "", p[i]); split(p[i], q, ":"); print q[1] } }' "$1/lines.tmp" | sort -u) >"$1/syms.tmp"
}

runs=$(ls -d "$RUNS"/bench-sharing-* 2>/dev/null || true)
[ -n "$runs" ] || exit 0
echo "## Cache lines written by several CPUs (sharing model)"
echo
echo "rig/plugins/lineshare.so counts, while a row of the bench runs (rig/guest/lsrows marks it), every kernel load and store in 64-byte lines: a line is write-shared when two or more vCPUs store to it; an ownership change is a store by another vCPU than the line's last writer (or over other vCPUs' reads) or a first load by another vCPU since the last store. MTTCG; lglock-bench runs a row at 1 to N tasks for 1 second each after a warm-up of 0.2 s at the same rate, and the plugin counts all of it, so a row's operations are 1.2 x the sum of its BENCH lines' ops/s; the plugin slows the guest, so they are fewer than in the other phases. Per operation: changes divided by those operations."
echo
echo "| kernel | vCPUs | round | row | operations | write-shared lines | changes | changes/op |"
echo "|---|---|---|---|---|---|---|---|"
# the same rows go to SHARING_CSV at the end, for rig/figures.sh
: >"$BUILD/sharing-rows.dat"
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
			printf "%s,%s,%s,%s,%s,%s,%s\n", kern, smp, round, name[r], ops[r], sh[r], ch[r] >>csv } }' csv="$BUILD/sharing-rows.dat" "$d/output" "$d/lineshare.txt"
done
echo
# every write-shared line of the first round (the plugin prints them all:
# top= in the scenario), the replaced locks' and the series' own
echo "The replaced locks and the series' own data among all the write-shared lines of each row (first round): base's files_lock and vfsmount_lock against the lines that hold the series' data (\`$SERIES_DATA\`) or that the series' functions moved (\`$SERIES_FUNCS\`). Lines and their ownership changes per operation."
echo
echo "| row | vCPUs | base: files_lock, vfsmount_lock lines | their changes (per op) | patched: the series' lines | their changes (per op) | the series' lines (first 3) |"
echo "|---|---|---|---|---|---|---|"
for d in $runs; do
	case $d in *-r1) ;; *) continue ;; esac
	[ -f "$d/lineshare.txt" ] && [ -f "$d/System.map" ] || continue
	n=${d##*/bench-sharing-}
	rm -f "$d/syms.tmp"	# (made afresh, not left by an earlier report)
	line_files "$d"
	awk -v kern="${n%%-*}" -v data="$SERIES_DATA" -v funcs="$SERIES_FUNCS" '
		FILENAME ~ /syms.tmp$/ { s[$1] = $2; next }
		FILENAME ~ /output$/ && /^LSROW [0-9]/ { name[$2] = $3; cur = $2; next }
		FILENAME ~ /output$/ && /^BENCH,/ && !/^BENCH,test/ { split($0, f, ","); ops[cur] += f[4] * 1.2; next }
		FILENAME ~ /output$/ { next }
		{ r = $1; ch = substr($4, 9); mine = 0; old = 0
		  # the symbols of the line: SYM+OFF,SYM,...[@cpuN]
		  v = s[$3]; sub(/@cpu[0-9]+$/, "", v); k = split(v, sy, ",")
		  for (i = 1; i <= k; i++) { sub(/\+0x[0-9a-f]+$/, "", sy[i])
			if (index(" " data " ", " " sy[i] " ")) mine = 1
			if (sy[i] == "files_lock" || sy[i] == "vfsmount_lock") old = 1 }
		  k = split($6, p, ",")
		  for (i = 1; i <= k; i++) { sub("^pc=", "", p[i]); split(p[i], q, ":"); fn = s[q[1]]; sub(/\+0x[0-9a-f]+.*$/, "", fn)
			if (fn ~ funcs) mine = 1 }
		  if (old) { on[r]++; oc[r] += ch }
		  if (mine) { mn[r]++; mc[r] += ch; if (mn[r] <= 3) ml[r] = ml[r] (mn[r] > 1 ? "; " : "") s[$3] } }
		END { for (r = 1; r in name; r++) printf "%s %s %s %d %d %d %d %s\n", name[r], kern, ops[r], on[r], oc[r], mn[r], mc[r], (ml[r] == "" ? "-" : ml[r]) }' \
		"$d/syms.tmp" "$d/output" "$d/lines.tmp" | sed "s/^/${n%-r1} /"
done >"$BUILD/sharing-own.dat"
# one line a row and vCPU count: base's replaced locks, patched's own lines
awk 'function per(c, o) { return c " (" (o > 0 ? sprintf("%.3f", c / o) : "-") ")" }
	{ split($1, a, "-"); smp = substr(a[2], 4); row = $2; k = row " " smp
	if ($3 == "base") { bo[k] = $5; bc[k] = per($6, $4) } else { po[k] = $7; pc[k] = per($8, $4); pl[k] = $9; for (i = 10; i <= NF; i++) pl[k] = pl[k] " " $i }
	if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
	END { for (i = 1; i <= n; i++) { split(order[i], f, " ")
		printf "| %s | %s | %s | %s | %s | %s | %s |\n", f[1], f[2], bo[order[i]], bc[order[i]], po[order[i]], pc[order[i]], pl[order[i]] } }' "$BUILD/sharing-own.dat"
# SHARING_CSV: the rows, and for the first round the replaced locks' and
# the series' own lines and their changes
d=$(echo "$runs" | head -n1)
{
	echo "# series $(cat "$d/series" 2>/dev/null || echo '?'); $(date -u -r "$d/rc" +%Y-%m-%dT%H:%MZ 2>/dev/null || echo '?'); make bench, sharing phase"
	echo "# code $(cat "$d/code" 2>/dev/null || echo '?')"
	echo "kernel,smp,round,row,ops,shared_lines,changes,replaced_lines,replaced_changes,own_lines,own_changes"
	awk 'NR == FNR { split($1, a, "-"); o[a[1], substr(a[2], 4), $2] = $5 "," $6 "," $7 "," $8; next }
		{ split($0, f, ","); k = (f[1] SUBSEP f[2] SUBSEP f[4]); print $0 "," (f[3] == 1 && k in o ? o[k] : "-,-,-,-") }' \
		"$BUILD/sharing-own.dat" "$BUILD/sharing-rows.dat"
} >"$SHARING_CSV"
echo
echo "The top $TOP_LINES lines of each row by ownership changes, first round (symbol of the line; functions that moved it):"
for d in $runs; do
	case $d in *-r1) ;; *) continue ;; esac
	n=${d##*/bench-sharing-}
	[ -f "$d/lineshare.txt" ] && [ -f "$d/System.map" ] || continue
	echo
	echo "### ${n%-r1}"
	line_files "$d"
	awk -v top="$TOP_LINES" '
		FILENAME ~ /syms.tmp$/ { s[$1] = $2; next }
		FILENAME ~ /output$/ && /^LSROW [0-9]/ { name[$2] = $3; next }
		FILENAME ~ /lines.tmp$/ { r = $1; if (++k[r] > top) next
			n = split($6, p, ","); fn = ""
			for (i = 1; i <= n; i++) { sub("^pc=", "", p[i]); split(p[i], q, ":"); f = s[q[1]]; sub(/\+0x.*$/, "", f); fn = fn (i > 1 ? ", " : "") f " " q[2] }
			rows[r] = rows[r] sprintf("| %s | %s | %s | %s |\n", $3, s[$3], substr($4, 9), fn) }
		END { for (r = 1; r in name; r++) { printf "\n%s:\n\n| line | symbol | changes | functions (changes) |\n|---|---|---|---|\n%s", name[r], rows[r] } }' \
		"$d/syms.tmp" "$d/output" "$d/lines.tmp"
	rm -f "$d/lines.tmp" "$d/syms.tmp"
done
