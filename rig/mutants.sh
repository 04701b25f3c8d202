#!/bin/bash
# make mutants KERNEL_SRC=...: does the booted suite kill the kernel
# mutants of rig/mutants/kernel/?  Each NAME.sed is a sed script for one
# file of the patched tree; its header says what bug it models, and in
# key: value lines
#   # file: PATH                   the file it edits (after the series)
#   # config: CONFIG               the config to build (default faults)
#   # boot: CPUS JUDGE RUN [ARGS]  a boot (scenario fields after CONFIG);
#                                  the boots it names replace the default,
#                                  the suite (vfstest) at 2 and at 4 CPUs
#   # expect: killed | passes      a mutant must be killed (default); a
#                                  variant ("passes") must pass everything
# For each: a tree of its own, build/mutants/NAME/linux (a worktree of
# build/linux at the series; a build compiles from clean, ccache shared,
# about a minute), the sed applied (a sed that changes nothing is stale:
# the mutant fails), rig/build.sh, then each boot with rig/boot.sh and
# rig/verdict.sh, the rig's usual judge, with oops=panic added to the
# kernel arguments (an oops ends the boot at once, rather than at
# BOOT_TIMEOUT).  A mutant is killed when a boot of it fails its verdict;
# by what is the verdict's reason (the tests not ok, a kernel report, a
# timeout).  A build failure, or a boot with no verdict, is an error, never
# a kill.  Writes results/mutants/NAME.txt (the boots and their verdicts)
# and results/mutants.md (the table); exits non-zero when a mutant
# survives, a variant fails, or a mutant cannot be built or applied.
# Environment: KERNEL_SRC (see tree.sh), MUTANTS (names; default all; -:
# only write the table again from results/mutants/), BOOT_TIMEOUT (1500),
# SKIP_TREE (set: build/linux is the series already, as another job that
# is using it made it; do not make it again).
# A mutant's boots stop at the first that kills it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
BOOT_TIMEOUT=${BOOT_TIMEOUT:-1500}
MDIR=$RIG/mutants/kernel
ccache=${CCACHE_DIR:-$BUILD/ccache}
MUTANTS=${MUTANTS:-$(cd "$MDIR" && ls -1 ./*.sed | sed 's#^\./##; s/\.sed$//' | tr '\n' ' ')}
# MUTANTS=-: no build or boot, the table again from results/mutants/
head=
if [ "$MUTANTS" != - ]; then
	[ -n "${SKIP_TREE:-}" ] || "$RIG/tree.sh"
	head=$(git -C "$TREE" rev-parse HEAD)
fi
sid=$(series_id)
mkdir -p "$RESULTS/mutants"
table=$(mktemp)
trap 'rm -f "$table"' EXIT
bad=0 n=0 killed=0

key() { sed -n "s/^# $1: *//p" "$2"; }

for name in $MUTANTS; do
	[ "$name" != - ] || continue
	sed_file=$MDIR/$name.sed
	[ -f "$sed_file" ] || die "no mutant $sed_file"
	file=$(key file "$sed_file" | head -n1)
	cfg=$(key config "$sed_file" | head -n1)
	cfg=${cfg:-faults}
	expect=$(key expect "$sed_file" | head -n1)
	expect=${expect:-killed}
	mb=$BUILD/mutants/$name
	t0=$(date +%s)
	say "mutant $name: $file, $cfg, expect $expect"
	# its tree: the series as build/linux has it, and the sed
	if [ ! -e "$mb/linux/.git" ]; then
		mkdir -p "$mb"
		git -C "$TREE" worktree add -q --detach "$mb/linux" "$head"
	else
		git -C "$mb/linux" checkout -q -f --detach "$head"
	fi
	[ -f "$mb/linux/$file" ] || die "mutant $name: no $file in the tree"
	cp "$mb/linux/$file" "$mb/orig"
	sed -i -f "$sed_file" "$mb/linux/$file"
	out=$RESULTS/mutants/$name.txt
	{
		echo "# mutant $name (rig/mutants/kernel/$name.sed on $file), series $sid, $(date -u +%Y-%m-%dT%H:%MZ)"
		grep '^#' "$sed_file" | grep -v '^# \(file\|config\|boot\|expect\):' | sed 's/^#/##/'
	} >"$out"
	if cmp -s "$mb/orig" "$mb/linux/$file"; then
		echo "# stale: the sed changes nothing in $file" >>"$out"
		echo "| $name | $cfg | stale: changes nothing | - |" >>"$table"
		bad=$((bad + 1))
		continue
	fi
	diff -u "$mb/orig" "$mb/linux/$file" | tail -n +3 | sed 's/^/    /' >>"$out" || true
	n=$((n + 1))
	if ! BUILD=$mb TREE=$mb/linux CCACHE_DIR=$ccache "$RIG/build.sh" patched "$cfg" </dev/null; then
		echo "# build failed (an error, not a kill)" >>"$out"
		echo "| $name | $cfg | error: build failed | - |" >>"$table"
		bad=$((bad + 1))
		continue
	fi
	boots=$(key boot "$sed_file")
	[ -n "$boots" ] || boots=$(printf '2 tap /bin/tap,/bin/vfstest\n4 tap /bin/tap,/bin/vfstest')
	i=0 why="" err=""
	while read -r cpus judge run rest; do
		# a mutant killed once needs no more boots
		[ "$expect" = passes ] || [ -z "$why" ] || break
		i=$((i + 1))
		rn=mut-$name-$i
		# shellcheck disable=SC2086
		BUILD=$mb TREE=$mb/linux "$RIG/boot.sh" "$rn" patched "$cfg" "$cpus" "$BOOT_TIMEOUT" "$judge" "$run" oops=panic $rest </dev/null || true
		v=$(head -n1 "$mb/runs/$rn/verdict" 2>/dev/null || echo "no verdict")
		{
			echo
			echo "## boot $i: patched $cfg -smp $cpus $judge $run $rest"
			echo "# verdict: $v"
			sed -n '2,12p' "$mb/runs/$rn/verdict" 2>/dev/null || true
		} >>"$out"
		# a kill is a boot the judge failed; a boot with no verdict (the
		# guest programs did not build, QEMU did not start) is an error
		case $v in
		PASS*) ;;
		FAIL*) why="$why${why:+; }boot $i (-smp $cpus): ${v#FAIL }" ;;
		*) err="$err${err:+; }boot $i (-smp $cpus): $v"; break ;;
		esac
	done <<<"$boots"
	secs=$(($(date +%s) - t0))
	if [ -n "$err" ]; then
		res="error, neither killed nor survived: $err"
		bad=$((bad + 1))
	elif [ "$expect" = passes ]; then
		if [ -z "$why" ]; then res="variant: passes, as it must"; else res="variant FAILED: $why"; bad=$((bad + 1)); fi
	elif [ -n "$why" ]; then
		res="killed: $why"
		killed=$((killed + 1))
	else
		res="**survived**"
		bad=$((bad + 1))
	fi
	echo "# result: $res (${secs}s)" >>"$out"
	echo "| $name | $cfg | $res | ${secs}s |" >>"$table"
	say "mutant $name: $res (${secs}s)"
done

# the mutants not run now: their rows from their results/mutants/NAME.txt,
# where those are of this series
for f in "$RESULTS"/mutants/*.txt; do
	[ -f "$f" ] || continue
	m=$(basename "$f" .txt)
	[[ " $MUTANTS " == *" $m "* ]] && continue
	head -n1 "$f" | grep -q "series ${sid:0:8}" || continue  # (older files: 8 digits)
	r=$(sed -n 's/^# result: //p' "$f" | tail -n1)
	[ -n "$r" ] || continue
	c=$(key config "$MDIR/$m.sed" 2>/dev/null | head -n1)
	echo "| $m | ${c:-faults} | ${r% (*} | $(echo "$r" | sed -n 's/.*(\([0-9]*s\))$/\1/p') |" >>"$table"
done
killed=$(grep -c '| killed:' "$table" || true)
{
	echo "# Kernel mutants"
	echo
	echo "Series $sid, $(date -u +%Y-%m-%dT%H:%MZ): \`make mutants\` (rig/mutants.sh) on the mutants of rig/mutants/kernel/ listed here; details in results/mutants/NAME.txt."
	echo
	echo "| mutant | config | result | time |"
	echo "|---|---|---|---|"
	cat "$table"
	echo
	echo "Killed: $killed of $(grep -vc 'variant' "$table" || true) mutants tried."
	echo
	echo "Time: $(awk -F'|' '{ sub(/s *$/, "", $5); t += $5 } END { print t + 0 }' "$table")s for all the rows (each its build and its boots; one job or several)."
} >"$RESULTS/mutants.md.new"
mv "$RESULTS/mutants.md.new" "$RESULTS/mutants.md"
"$RIG/index.sh"
say "mutants: $killed killed of $n built; $bad not as expected"
[ "$bad" -eq 0 ]
