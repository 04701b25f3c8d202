#!/bin/bash
# The figures that prose quotes (changelogs, the cover letter, the README's
# headline), written by the rig from results/bench.csv (and the instruction
# counts of results/count.csv, the sizes of results/sizes.csv, make bench's
# lock_stat and sharing counts in results/lockstat.csv and sharing.csv) so
# that they cannot go stale.  A figure block is a few indented lines whose first line, its
# header, is fixed text; rig/figures.txt says which block goes where.
#   figures.sh render NAME     print the block
#   figures.sh fill FILE...    in each FILE, replace a line "@@FIGURES NAME@@"
#                              and every block (its header and the indented
#                              lines after it)
#                              with the block rendered now (make export does
#                              this to patches/ and README.md)
#   figures.sh check           every block of rig/figures.txt is in its file
#                              as rendered now, and results/bench.csv is of
#                              the code of patches/ (make check)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
CSV=${CSV:-$RESULTS/bench.csv}
COUNT=${COUNT:-$RESULTS/count.csv}
SIZES=${SIZES:-$RESULTS/sizes.csv}
LOCKSTAT_CSV=${LOCKSTAT_CSV:-$RESULTS/lockstat.csv}
SHARING_CSV=${SHARING_CSV:-$RESULTS/sharing.csv}
. "$RIG/bench-csv.sh"
MAP=$RIG/figures.txt

# row LABEL MODE SMP POSSIBLE TEST TASKS: one line of rates and their ratio
row() {
	local b p
	b=$(med "$2" base "$3" "$4" "$5" "$6" 8)
	p=$(med "$2" patched "$3" "$4" "$5" "$6" 8)
	printf '  %-38s %9s %9s   %s\n' "$1" "$(fmt "$b")" "$(fmt "$p")" "$(ratio "$p" "$b")"
}
r() { ratio "$(med "$1" patched "$2" "$3" "$4" "$5" 8)" "$(med "$1" base "$2" "$3" "$4" "$5" 8)"; }
possible() {
	awk -F, '$1 == "icount" && $6 == "mount_umount" { print $5 }' "$CSV" | sort -un
}
header() {
	case $1 in
	files) printf '  %-38s %9s %9s   %s\n' "open files (icount, 1 task, ops/s)" rc1 series series/rc1 ;;
	walk) printf '  %-38s %9s %9s   %s\n' "mounts (icount, 1 task, ops/s)" rc1 series series/rc1 ;;
	summary) printf '  %-38s %s\n' "icount, 1 task (higher is better)" series/rc1 ;;
	sizes) printf '  %-38s %9s %9s\n' "struct file / filp slab object, bytes" rc1 series ;;
	count) printf '  %-38s %13s %16s\n' "write section, instructions" for_each_cpu series ;;
	mutants) printf '  %s\n' "kernel mutants (make mutants, results/mutants.md)" ;;
	lockstat) printf '  %-38s %14s %14s\n' "lock_stat: contended/acquired per op" rc1 series ;;
	sharing) printf '  %-38s %14s %14s\n' "cache lines moved between vCPUs, per op" rc1 series ;;
	*) return 1 ;;
	esac
}
render() {
	local p p0 pn list=""
	header "$1" || die "no figure block '$1'"
	p0=$(possible | head -n1)
	pn=$(possible | tail -n1)
	case $1 in
	files)
		row "open+close, own tmpfs file" icount 1 "$p0" open_close_private 1
		row "open+close, one shared file" icount 1 "$p0" open_close_shared 1
		row "remount,ro with 100k files open" icount 2 2 remount_ro 100000
		;;
	walk)
		row "stat() across 8 nested mounts" icount 1 "$p0" stat_mounts 1
		row "getcwd() inside them" icount 1 "$p0" getcwd_mounts 1
		for p in $(possible); do
			row "mount+umount, $p possible CPUs" icount 1 "$p" mount_umount 1
		done
		printf '  %s\n' "mount+umount, instructions per possible CPU"
		printf '  %-38s %9s %9s\n' "from $p0 to $pn possible CPUs" \
			"$(slope base "$p0" "$pn")" "$(slope patched "$p0" "$pn")"
		;;
	count)
		for c in "512 8 1" "512 64 4" "4096 8 1" "4096 64 4"; do
			# shellcheck disable=SC2086
			set -- $c
			printf '  %-38s %13s %16s\n' "NR_CPUS=$1, $2 possible, $3 online" \
				"$(ir "$1" "$2" "$3" for_each_cpu)" "$(ir "$1" "$2" "$3" series)"
		done
		;;
	sizes)
		awk -F, '/^#/ || $1 == "arch" { next } { k = $1 ($3 == "y" ? ", CONFIG_SECURITY=y" : ""); v[k, $4] = $5 "/" $6
			if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
			END { for (i = 1; i <= n; i++)
				printf "  %-38s %9s %9s\n", order[i], v[order[i], "base"], v[order[i], "patched"] }' "$SIZES"
		;;
	mutants)
		printf '  %s\n' "$(sed -n 's/^Killed: \(.*\)\.$/killed by the booted suite: \1/p' "$RESULTS/mutants.md")"
		;;
	lockstat)
		[ -f "$LOCKSTAT_CSV" ] || die "no $LOCKSTAT_CSV: run make bench (its lockstat phase)"
		# at the most vCPUs measured: the replaced locks against their
		# replacements (a class's -R and -W sides summed; n/r: not
		# reported), and the brlock's write sections per mount+umount
		local n
		n=$(awk -F, '!/^#/ && $2 ~ /^[0-9]+$/ { print $2 }' "$LOCKSTAT_CSV" | sort -n | tail -n1)
		for r in "open_close_private files_lock files_lglock open+close, own file: files lock" \
			 "open_close_shared files_lock files_lglock open+close, one file: files lock" \
			 "stat_mounts vfsmount_lock vfsmount_lock stat() across mounts: vfsmount_lock" \
			 "mount_umount vfsmount_lock vfsmount_lock mount+umount: vfsmount_lock" \
			 "mount_umount - vfsmount_lock-W mount+umount: write sections"; do
			# shellcheck disable=SC2086
			set -- $r
			printf '  %-38s %14s %14s\n' "${*:4}" "$(ls_per base "$n" "$1" "$2")" "$(ls_per patched "$n" "$1" "$3")"
		done
		printf '  %s\n' "(-smp $n; per operation, from results/lockstat.csv)"
		;;
	sharing)
		[ -f "$SHARING_CSV" ] || die "no $SHARING_CSV: run make bench (its sharing phase)"
		# ownership changes per op of all write-shared lines, then of
		# rc1's files_lock and vfsmount_lock lines against the lines of
		# the series' own data, per vCPU count (first round)
		for r in "open_close_private open+close, own file" "stat_mounts stat() across mounts" \
			 "mount_umount mount+umount"; do
			# shellcheck disable=SC2086
			set -- $r
			for n in $(awk -F, '!/^#/ && $2 ~ /^[0-9]+$/ { print $2 }' "$SHARING_CSV" | sort -un); do
				printf '  %-38s %14s %14s\n' "${*:2}, -smp $n" "$(sh_per base "$n" "$1" 7)" "$(sh_per patched "$n" "$1" 7)"
				printf '  %-38s %14s %14s\n' "  files_lock+vfsmount_lock / own" "$(sh_per base "$n" "$1" 9)" "$(sh_per patched "$n" "$1" 11)"
			done
		done
		;;
	summary)
		printf '  %-38s %s\n' "open+close of a tmpfs file" "$(r icount 1 "$p0" open_close_private 1)"
		printf '  %-38s %s\n' "stat() across 8 nested mounts" "$(r icount 1 "$p0" stat_mounts 1)"
		printf '  %-38s %s\n' "getcwd() inside them" "$(r icount 1 "$p0" getcwd_mounts 1)"
		for p in $(possible); do
			list="$list${list:+ / }$(r icount 1 "$p" mount_umount 1)"
		done
		printf '  %-38s %s\n' "mount+umount at possible CPUs" "$(possible | paste -sd/ -)"
		printf '  %-38s %s\n' "" "$list"
		printf '  %-38s %s\n' "remount,ro with 100k files open" "$(r icount 2 2 remount_ro 100000)"
		;;
	esac
}
names() { for n in files walk summary count sizes mutants lockstat sharing; do echo "$n"; done; }
# ls_per KERNEL SMP ROW CLASS: "contended/acquired" per op of CLASS and its
# -R/-W sides on the row (CLASS-W: that side alone, which lock_stat names
# so only when the class was also taken for reading on the row; contended
# "n/r" for the series' lglock and brlock, which do not report it)
ls_per() {
	awk -F, -v k="$1" -v n="$2" -v row="$3" -v c="$4" '
		$1 == k && $2 == n && $3 == row && ($5 == c || $5 == c "-R" || $5 == c "-W") { ops = $4; con += $6; acq += $7; f = 1 }
		END { if (!f || ops <= 0) { print "-"; exit }
		      nr = k == "patched" && c ~ /^(files_lglock|vfsmount_lock)(-[RW])?$/
		      printf "%s/%.2f\n", nr ? "n/r" : sprintf("%.3f", con / ops), acq / ops }' "$LOCKSTAT_CSV"
}
# sh_per KERNEL SMP ROW COLUMN: that column of sharing.csv (changes) per op
# on the row, first round
sh_per() {
	awk -F, -v k="$1" -v n="$2" -v row="$3" -v c="$4" '$1 == k && $2 == n && $3 == 1 && $4 == row && $5 > 0 && $c != "-" { printf "%.2f\n", $c / $5; f = 1 }
		END { if (!f) print "-" }' "$SHARING_CSV"
}
# ir NR_CPUS NR_CPU_IDS ONLINE LOOP: instructions of one lock+unlock pair
ir() {
	awk -F, -v a="$1" -v b="$2" -v c="$3" -v l="$4" \
		'$1 == a && $2 == b && $3 == c && $4 == l { print $5; f = 1 } END { if (!f) print "-" }' "$COUNT"
}

fill() {
	local f n tmp blk
	for f in "$@"; do
		tmp=$(mktemp)
		cp "$f" "$tmp"
		for n in $(names); do
			# the marker, or the block: its header and the indented lines
			# that follow it (a block the file lacks is not rendered)
			grep -qxF -e "@@FIGURES $n@@" -e "$(header "$n")" "$tmp" || continue
			blk=$(render "$n") || die "figures: block '$n' does not render"
			awk -v hdr="$(header "$n")" -v mark="@@FIGURES $n@@" -v blk="$blk" '
				skip && !/^  / { skip = 0 }
				skip { next }
				$0 == mark || $0 == hdr { print blk; skip = ($0 == hdr); next }
				{ print }' "$tmp" >"$tmp.new"
			mv "$tmp.new" "$tmp"
		done
		cmp -s "$f" "$tmp" || cp "$tmp" "$f"
		rm -f "$tmp"
	done
}

check() {
	local bad=0 n glob f blk have want
	[ -f "$CSV" ] || die "no $CSV"
	have=$(sed -n 's/^# code \([0-9a-f]*\).*/\1/p' "$CSV" | head -n1)
	want=$(code_id)
	if [ "$have" = "$want" ]; then
		echo "ok - $(basename "$CSV") is of the code of patches/ (${want:0:12})"
	else
		echo "not ok - $(basename "$CSV") is of code ${have:-none}, patches/ are ${want:0:12}: run make bench"
		bad=1
	fi
	for f in "$LOCKSTAT_CSV" "$SHARING_CSV"; do
		have=$({ sed -n 's/^# code \([0-9a-f]*\).*/\1/p' "$f" 2>/dev/null || true; } | head -n1)
		if [ "$have" = "$want" ]; then
			echo "ok - $(basename "$f") is of the code of patches/ (${want:0:12})"
		else
			echo "not ok - $(basename "$f") is of code ${have:-none}, patches/ are ${want:0:12}: run make bench"
			bad=1
		fi
	done
	while read -r n glob; do
		blk=$(render "$n")
		for f in $TOP/$glob; do
			[ -f "$f" ] || { echo "not ok - figures '$n': no file $glob"; bad=1; continue; }
			if grep -qxF -- "$(header "$n")" "$f" &&
			   awk -v blk="$blk" 'BEGIN { n = split(blk, want, "\n") }
				{ line[NR] = $0 }
				END { for (i = 1; i + n - 1 <= NR; i++) {
					for (j = 1; j <= n && line[i + j - 1] == want[j]; j++) ;
					if (j > n) exit 0 }
				      exit 1 }' "$f"; then
				echo "ok - figures '$n' in ${f#"$TOP"/} are what results/ renders"
			else
				echo "not ok - figures '$n' in ${f#"$TOP"/} differ from what results/ renders (rig/figures.sh fill)"
				bad=1
			fi
		done
	done < <(grep -v '^#' "$MAP" | grep .)
	return $bad
}

case ${1:-} in
render) render "${2:?usage: figures.sh render NAME}" ;;
fill) shift; fill "$@" ;;
check) check ;;
*) die "usage: figures.sh render NAME | fill FILE... | check" ;;
esac
