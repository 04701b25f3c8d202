#!/bin/sh
# The checks of "make check", run on what make has built.  Prints TAP-like
# "ok ..." / "not ok ..." lines and exits 1 if any check fails.
#
#	check.sh [test] [up] [nohp] [thin] [sparse] [mutants]	(default: all)
#
# O is the build directory and SMP the -D flags of the SMP build (for
# sparse); the Makefile passes both.
cd "$(dirname "$0")" || exit 1
O=${O:-build}
SMP=${SMP:--DCONFIG_SMP -DCONFIG_HOTPLUG_CPU -DCONFIG_DEBUG_LOCK_ALLOC \
	-DCONFIG_PROVE_LOCKING}
# a race TSan finds fails the test process, after it has run to the end
TSAN_OPTIONS="halt_on_error=0 exitcode=66 report_signal_unsafe=0"
export TSAN_OPTIONS

# rules 1-6 and the brlock rules, under TSan
check_test()
{
	"$O/lglock-test"
}

# rule 7: the header alone without CONFIG_SMP
check_up()
{
	"$O/up-test"
}

# SMP without CONFIG_HOTPLUG_CPU: CPUs come up at boot only
check_nohp()
{
	"$O/nohp-test"
}

# rule 8: DEFINE_LGLOCK() defines data, no code
check_thin()
{
	if nm "$O/define-only.o" | grep -E ' [Tt] '; then
		echo "not ok DEFINE_LGLOCK defines code"
		return 1
	fi
	echo "ok DEFINE_LGLOCK defines data only"
}

# sparse sees the annotations: silent on balanced use and on
# kernel/lglock.c, one context imbalance for each of the two leaks
check_sparse()
{
	if ! command -v sparse >/dev/null; then
		echo "ok sparse # SKIP sparse not installed"
		return 0
	fi
	s="sparse -Wcontext $SMP -Ishim -I$O/src/include"
	if $s sparse-ok.c 2>&1 | grep .; then
		echo "not ok sparse: balanced use warns"
		return 1
	fi
	if $s "$O/src/kernel/lglock.c" 2>&1 | grep .; then
		echo "not ok sparse: kernel/lglock.c warns"
		return 1
	fi
	n=$($s sparse-bad.c 2>&1 | grep -c 'context imbalance')
	if [ "$n" -ne 2 ]; then
		echo "not ok sparse: $n of 2 leaks reported"
		return 1
	fi
	echo "ok sparse sees __acquires/__releases"
}

# every mutant (a deliberately broken lock) must fail the rule tests
check_mutants()
{
	bad=0
	found=
	for m in mutants/*.sed; do
		[ -f "$m" ] || continue
		found=1
		name=$(basename "$m" .sed)
		dir=$O/mut-$name
		if [ ! -x "$dir/lglock-test" ] || [ ! -x "$dir/nohp-test" ]; then
			echo "not ok mutant $name not built"
			bad=1
			continue
		fi
		# the rule tests (SMP with hotplug), then the !HOTPLUG_CPU test
		"$dir/lglock-test" >"$dir/log" 2>&1
		rc=$?
		"$dir/nohp-test" >"$dir/nohp.log" 2>&1
		rc2=$?
		if [ "$rc" -eq 0 ] && [ "$rc2" -eq 0 ]; then
			echo "not ok mutant $name survived"
			bad=1
			continue
		fi
		by=$(grep '^not ok' "$dir/log" | cut -d' ' -f4 | paste -sd' ' -)
		[ "$rc" -eq 0 ] || [ -n "$by" ] || by="lglock-test exit status $rc"
		if [ "$rc2" -ne 0 ]; then
			nb=$(grep -c '^not ok' "$dir/nohp.log")
			if [ "$nb" -gt 0 ]; then
				by="${by:+$by }nohp-test($nb)"
			else
				by="${by:+$by }nohp-test exit status $rc2"
			fi
		fi
		dl=$(sed -n 's/^# \([a-z0-9_]*\): no progress.*/\1/p' \
			"$dir/log" | paste -sd' ' -)
		[ -z "$dl" ] || by="$by (then deadlocked: $dl)"
		if grep -q 'ThreadSanitizer: data race' "$dir/log" "$dir/nohp.log"; then
			by="$by (TSan: data race)"
		fi
		if grep -q 'ThreadSanitizer: SEGV' "$dir/log" "$dir/nohp.log"; then
			by="$by (crashed: SEGV)"
		fi
		echo "ok mutant $name killed by: $by"
	done
	if [ -z "$found" ]; then
		echo "not ok no mutants found"
		return 1
	fi
	return "$bad"
}

[ $# -gt 0 ] || set -- test up nohp thin sparse mutants
bad=0
for c in "$@"; do
	case $c in
	test | up | nohp | thin | sparse | mutants)
		"check_$c" || bad=1
		;;
	*)
		echo "not ok $c: no such check"
		bad=1
		;;
	esac
done
exit $bad
