#!/bin/bash
# Judge one run from its folder (rig/boot.sh writes it):  verdict.sh RUNDIR
# Reads the folder's boot line (its JUDGE field and kernel arguments), rc,
# console.txt (ttyS0: the kernel) and output (ttyS1: the guest program).
# JUDGE is
#   tap    output has a TAP plan, as many results, no "not ok"
#   exit   output says the program exited with status 0
#   none   the program's output is judged by its job (battery, soak)
# and in every mode: QEMU's status 0 (the guest powered itself off), some
# console and some output, no kernel report on the console, every run of
# the lglock torture test that started on the console ended there (with
# its PASS or FAIL line), and with possible_cpus=N the kernel allowed N
# CPUs.
# Writes RUNDIR/console.txt (the console without CRs) and RUNDIR/verdict
# (and prints it): one summary line, then the first
# lines of any kernel report.  Exits 0 only for a clean pass.
set -uo pipefail

run=${1:?usage: verdict.sh RUNDIR}
con=$run/console.txt out=$run/output
# the console without the CRs of the serial line (the rig's only tr -d '\r':
# the guest writes its own channel raw)
tr -d '\r' <"$run/console" >"$con" 2>/dev/null || : >"$con"
read -r _ _ _ _ _ mode _ <"$run/boot" || mode='?'
rc=$(cat "$run/rc" 2>/dev/null || echo '?')
# What a kernel prints when something is wrong: rig/kernel-reports, the
# list the guest programs that read the kernel log are built with.
reports=$(mktemp)
trap 'rm -f "$reports"' EXIT
grep -v -e '^#' -e '^ *$' "$(dirname "$0")/kernel-reports" >"$reports"
[ -s "$reports" ] || { echo "FAIL: rig/kernel-reports is missing or empty" | tee "$run/verdict"; exit 1; }

why=()
[ -s "$con" ] || why+=("no console output")
[ -s "$out" ] || why+=("no guest output")
# QEMU stopped by a signal (by hand, or the OOM killer) exits 0 too
! grep -q 'terminating on signal' "$run/qemu.log" 2>/dev/null || why+=("QEMU was stopped by a signal")
case $rc in
0) ;;
124|137) why+=("timeout: the guest never powered off") ;;
*) why+=("qemu exit status $rc") ;;
esac

summary="$mode"
case $mode in
tap)
	plan=$(grep -a -m1 -E '^1\.\.[0-9]+$' "$out" 2>/dev/null | cut -c4-)
	pass=$(grep -acE '^ok [0-9]+' "$out" 2>/dev/null)
	fail=$(grep -acE '^not ok [0-9]+' "$out" 2>/dev/null)
	if [ -z "$plan" ]; then
		why+=("no TAP plan")
	elif [ $((pass + fail)) -ne "$plan" ]; then
		why+=("TAP plan 1..$plan but $((pass + fail)) results")
	fi
	[ "$fail" -eq 0 ] || why+=("$fail not ok: $(grep -aE '^not ok' "$out" | cut -d' ' -f4 | paste -sd, -)")
	summary="tap ${plan:-?} planned, $pass ok, $fail not ok"
	;;
exit)
	st=$(sed -n 's/^# rig: .* exit status \(-\{0,1\}[0-9]*\)$/\1/p' "$out" 2>/dev/null | tail -n1)
	[ "$st" = 0 ] || why+=("the program's exit status is ${st:-unknown}, not 0")
	summary="exit status ${st:-?}"
	;;
none) summary="no tap" ;;
*) why+=("unknown JUDGE '$mode' in $run/boot") ;;
esac
poss=$(grep -o 'possible_cpus=[0-9]*' "$run/boot" | tail -n1 | cut -d= -f2)
if [ -n "$poss" ]; then
	got=$(sed -n 's/.*Allowing \([0-9]*\) CPUs.*/\1/p' "$con" 2>/dev/null | head -n1)
	[ "$got" = "$poss" ] || why+=("kernel allowed ${got:-?} CPUs, not $poss")
fi
# CONFIG_LGLOCK_TORTURE_TEST: one last line for each run it starts (at
# boot, or a load of the module); a run that never ended may have hung
tstart=$(grep -ac 'lglock-torture: start:' "$con" 2>/dev/null)
tend=$(grep -acE 'lglock-torture: (PASS|FAIL)$' "$con" 2>/dev/null)
[ "${tstart:-0}" = "${tend:-0}" ] ||
	why+=("lglock-torture started ${tstart:-0} times, ended ${tend:-0}")
nrep=$(grep -acF -f "$reports" "$con" 2>/dev/null)
[ "${nrep:-0}" -eq 0 ] || why+=("$nrep kernel report lines")

{
	if [ ${#why[@]} -eq 0 ]; then
		echo "PASS ($summary)"
	else
		msg=$(printf '%s; ' "${why[@]}")
		echo "FAIL ($summary): ${msg%; }"
		[ "${nrep:-0}" -eq 0 ] ||
			grep -a -m1 -B2 -A12 -F -f "$reports" "$con" | sed 's/^/    | /'
	fi
} >"$run/verdict"
cat "$run/verdict"
[ ${#why[@]} -eq 0 ]
