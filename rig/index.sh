#!/bin/bash
# rig/index.sh: write results/INDEX.md, one row per report in results/
# (demos/ and history/ have READMEs of their own): the job that wrote it,
# the series it is of, when, and its verdict, read from its first lines.
# A row whose series is not the one in patches/ now is marked "old", unless
# its job sees only the code and that series has the same code (the
# changelogs alone differ: the figures they quote).
# Every report writer runs it after writing; make check fails when
# INDEX.md is not what it would write (index.sh --check).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cur=$(series_id)
code=$(code_id)
# bench figures depend on the code only: bench.csv's "# code" line
# (lockstat.csv and sharing.csv have their own), of FILE
code_of() {
	local f=$RESULTS/bench.csv
	case $1 in lockstat.csv | sharing.csv) f=$RESULTS/$1 ;; esac
	{ sed -n 's/^# code \([0-9a-f]*\).*/\1/p' "$f" 2>/dev/null || true; } | head -n1
}
# the code of a series: lib.sh's code_of_series
series_code() { code_of_series "$1"; }

job_of() {
	case $1 in
	REPORT*.md) echo "make kernel-test" ;;
	BENCH.md | bench.csv | bench-*.png | lockstat.csv | sharing.csv) echo "make bench" ;;
	soak-*.md) echo "make soak" ;;
	bisect-*.txt) echo "make bisect" ;;
	count.csv) echo "make count" ;;
	microbench.csv) echo "make microbench" ;;
	sizes.csv) echo "make sizes / kernel-test" ;;
	mutants.md | mutants/*) echo "make mutants" ;;
	INDEX.md) echo "rig/index.sh" ;;
	*) echo "?" ;;
	esac
}

# the first series id (64 hex digits) in the file's first lines, or in
# the bench.csv a plot is drawn from, or an abbreviated one
series_of() {
	local f=$1
	case $f in *.png) f=$RESULTS/bench.csv ;; esac
	local id
	id=$(head -n 8 "$f" | grep -o '[0-9a-f]\{64\}' | head -n1) || true
	# or an 8-digit abbreviation ("series 4e72895e"): the series now, or
	# another (shown abbreviated, and old)
	[ -n "$id" ] || id=$(head -n 8 "$f" | grep -io 'series [0-9a-f]\{8\}\b' | head -n1 | cut -c8-) || true
	[ "$id" != "${cur:0:8}" ] || id=$cur
	echo "$id"
}
date_of() {
	local f=$1
	case $f in *.png) f=$RESULTS/bench.csv ;; esac
	head -n 12 "$f" | grep -o '20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-9:]*Z' | head -n1 || true
}
verdict_of() {
	case $1 in
	REPORT*.md) sed -n 's/^Verdict: //p' "$RESULTS/$1" | head -n1 ;;
	soak-*.md) sed -n 's/^### Soak, [^:]*: //p' "$RESULTS/$1" | head -n1 | cut -c1-60 ;;
	bisect-*.txt) grep -m1 -o 'FAIL.*\|[0-9]* failures\?' "$RESULTS/$1" || echo "see file" ;;
	mutants.md) grep -m1 '^Killed:' "$RESULTS/$1" || true ;;
	BENCH.md) sed -n '/^## Targets/,/^## /p' "$RESULTS/$1" | awk -F'|' 'NF > 4 && $2 !~ /target|---/ { if ($4 ~ /\*\*met/) m++; else if ($4 ~ /missed/) x++; else o++ }
		END { printf "targets: %d met, %d missed, %d without a verdict\n", m, x, o }' ;;
	mutants/*.txt) sed -n 's/^# result: //p' "$RESULTS/$1" | head -n1 ;;
	*) echo "-" ;;
	esac
}

render() {
	echo "# results/"
	echo
	echo "What each report here is, written by rig/index.sh (every report writer runs it;"
	echo "\`make check\` checks it). The series in patches/ now: ${cur:0:8}. A row marked"
	echo "**old** is of another series: rerun its job. \"the code of\" marks a report of a series"
	echo "whose changelogs alone differ (the figures they quote), from a job that sees only"
	echo "the code. Kept failures and demonstrations are in demos/, reports that changelogs"
	echo "quote in history/, each with a README."
	echo
	echo "| file | job | series | date | verdict |"
	echo "|---|---|---|---|---|"
	(cd "$RESULTS" && find . -path ./demos -prune -o -path ./history -prune -o -type f -print |
		sed 's#^\./##' | grep -v '^INDEX\.md$' | LC_ALL=C sort) |
	while read -r f; do
		s=$(series_of "$RESULTS/$f")
		d=$(date_of "$RESULTS/$f")
		if [ -z "$s" ]; then sv="-"
		elif [ "$s" = "$cur" ]; then sv=${s:0:8}
		elif [ "$(job_of "$f")" = "make bench" ] && [ "$(code_of "$f")" = "$code" ]; then
			sv="${s:0:8} (the code of ${cur:0:8})"
		# a job that sees only the code (not kernel-test: it checkpatches
		# the changelogs) stands for a series whose changelogs alone differ
		elif [ "$(job_of "$f")" != "make kernel-test" ] && [ "$(series_code "$s")" = "$code" ]; then
			sv="${s:0:8} (the code of ${cur:0:8})"
		else sv="${s:0:8} **old**"
		fi
		printf '| %s | %s | %s | %s | %s |\n' "$f" "$(job_of "$f")" "$sv" "${d:--}" "$(verdict_of "$f" | tr '|' '/')"
	done
}

if [ "${1:-}" = --check ]; then
	diff -u "$RESULTS/INDEX.md" <(render) >/dev/null 2>&1
else
	tmp=$(mktemp)
	render >"$tmp"
	mv "$tmp" "$RESULTS/INDEX.md"
	chmod 644 "$RESULTS/INDEX.md"
fi
