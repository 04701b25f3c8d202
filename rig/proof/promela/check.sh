#!/bin/bash
# rig/proof/promela/check.sh [SCRATCH]: check lglock-online.pml with spin.
# The model must pass (no assertion violated, no invalid end state, every
# statement reached, the search complete); each mutant must be rejected,
# for the reason it is there for.  Each variant is built in its own
# directory under SCRATCH (default: a new mktemp -d), on a copy of the
# model: nothing is written anywhere else.  Prints TAP-like lines; exits
# non-zero if any is "not ok".
set -uo pipefail

if ! command -v spin >/dev/null 2>&1; then
	echo "not ok - spin is not installed (Debian: apt-get install spin; rig/deps.sh check installs it)"
	exit 1
fi
if ! command -v cc >/dev/null 2>&1; then
	echo "not ok - no C compiler (cc) to build spin's pan"
	exit 1
fi

here=$(cd "$(dirname "$0")" && pwd) || exit 1
model=lglock-online.pml
scratch=${1:-}
if [ -z "$scratch" ]; then
	scratch=$(mktemp -d) || exit 1
fi
mkdir -p "$scratch" || exit 1
echo "# $(spin -V 2>&1 | head -n 1); scratch $scratch"

fail=0
pass() { echo "ok - $*"; }
failed() { echo "not ok - $*"; fail=1; }

# run NAME MACRO PANFLAGS: spin -a [-DMACRO], cc, pan in SCRATCH/NAME; pan's
# output is SCRATCH/NAME/pan.log.  Sets $log, $states, $secs, and $error
# (pan's first error, without "pan:1: " and " (at depth N)"; empty if none).
# Fails if the variant could not be built or pan did not run.
run() {
	local name=$1 macro=$2 flags=$3 d=$scratch/$1
	log=$d/pan.log states='?' secs='?' error=
	rm -rf "$d" && mkdir -p "$d" && cp "$here/$model" "$d/" || return 1
	(
		cd "$d" || exit 1
		# shellcheck disable=SC2086
		spin -a ${macro:+-D$macro} "$model" >spin.log 2>&1 || { cat spin.log; exit 1; }
		# (-w: pan.c draws gcc warnings that are spin's, not the model's)
		cc -O2 -w -DSAFETY -o pan pan.c >cc.log 2>&1 || { cat cc.log; exit 1; }
		# shellcheck disable=SC2086
		./pan -m100000 -w21 $flags >pan.log 2>&1
		# pan exits non-zero when it found an error: judged from its log
		if [ -f "$model.trail" ]; then
			# shellcheck disable=SC2086
			spin -t -p ${macro:+-D$macro} "$model" >trail.txt 2>&1
		fi
		exit 0
	) | sed 's/^/# /'
	[ "${PIPESTATUS[0]}" -eq 0 ] && [ -s "$log" ] || return 1
	states=$(awk '$2 == "states," && $3 == "stored" { print $1; exit }' "$log")
	secs=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds$/\1/p' "$log")
	error=$(sed -n 's/^pan:1: \(.*\) (at depth [0-9]*)$/\1/p' "$log" | head -n 1)
	if grep -q 'max search depth too small' "$log"; then
		echo "# $name: pan's search depth (-m) too small"
		return 1
	fi
	[ -n "$states" ] || { echo "# $name: no state count in $log"; return 1; }
}

# the model: no error, a complete search, and every statement reached
# (spin lists the statements no search reached under "unreached in")
if ! run model "" ""; then
	failed "spin: model: builds and verifies"
elif [ -n "$error" ] || ! grep -q 'errors: 0$' "$log" || grep -q 'Search not completed' "$log"; then
	failed "spin: model: ${error:-search not completed} ($states states; see $scratch/model)"
else
	pass "spin: model: no assertion violated, no invalid end state ($states states, ${secs}s)"
	if awk '/^unreached in /{u = 1; next} u && /^\t[^(]/ {bad = 1} /^pan: elapsed/{u = 0} END {exit !bad}' "$log"; then
		failed "spin: model: every statement reached (see $log)"
	else
		pass "spin: model: every statement reached"
	fi
fi

# mutant NAME PANFLAGS ERROR PATTERN WHY: spin must reject the model built
# with -DNAME, with ERROR ("assertion violated" or "invalid end state"),
# and, for an assertion, the failed one must match the ERE PATTERN
mutant() {
	local name=$1 flags=$2 want=$3 pat=$4 why=$5 dir
	dir=$name${flags:+$flags}
	dir=${dir// /}
	if ! run "$dir" "$name" "$flags"; then
		failed "spin rejects mutant $name$why: builds and verifies"
		return
	fi
	case $error in
	"$want"*)
		if [ "$want" = "assertion violated" ] && ! [[ $error =~ $pat ]]; then
			failed "spin rejects mutant $name$why ($error: not the assertion expected)"
		else
			pass "spin rejects mutant $name$why ($want)"
			echo "#   $error; after $states states; counterexample in $scratch/$dir/trail.txt"
		fi ;;
	"") failed "spin rejects mutant $name$why (it passed: $states states)" ;;
	*) failed "spin rejects mutant $name$why ($error, not $want)" ;;
	esac
}

mutant JOIN_AT_ONLINE "" "assertion violated" 'rd_in|wr_in' ""
mutant UNLOCK_REREAD_MASK "" "assertion violated" 'lock\[c\]' ""
# the same mutant with assertions ignored: the per-CPU lock its unlock left
# held is a deadlock, which the invalid end state check alone must find
mutant UNLOCK_REREAD_MASK "-A" "invalid end state" "" " under pan -A, which ignores assertions"

exit $fail
