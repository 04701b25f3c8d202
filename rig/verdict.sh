#!/bin/bash
# Judge one boot from its console log and qemu's exit status:
#   verdict.sh CONSOLE_LOG QEMU_RC [tap|none]
# Prints one summary line (and the first lines of any kernel report);
# exits 0 only for a clean pass.
set -uo pipefail

log=$1 rc=$2 mode=${3:-tap}
# What a kernel prints when something is wrong.
reports='BUG:|Oops|WARNING:|INFO: possible|inconsistent lock state|soft lockup|hung_task|blocked for more than|list_add corruption|list_del corruption|Kernel panic|general protection fault|lglock-selftest: FAIL'

why=()
[ -s "$log" ] || why+=("no console output")
case $rc in
0) ;;
124|137) why+=("timeout: the guest never powered off") ;;
*) why+=("qemu exit status $rc") ;;
esac

plan=$(tr -d '\r' <"$log" 2>/dev/null | grep -a -m1 -E '^1\.\.[0-9]+$' | cut -c4-)
pass=$(grep -acE '^ok [0-9]+' "$log" 2>/dev/null)
fail=$(grep -acE '^not ok [0-9]+' "$log" 2>/dev/null)
if [ "$mode" = tap ]; then
	if [ -z "$plan" ]; then
		why+=("no TAP plan")
	elif [ $((pass + fail)) -ne "$plan" ]; then
		why+=("TAP plan 1..$plan but $((pass + fail)) results")
	fi
	[ "$fail" -eq 0 ] || why+=("$fail not ok: $(grep -aE '^not ok' "$log" | cut -d' ' -f4 | paste -sd, -)")
fi
nrep=$(grep -acE "$reports" "$log" 2>/dev/null)
[ "$nrep" -eq 0 ] || why+=("$nrep kernel report lines")

if [ "$mode" = tap ]; then
	summary="tap ${plan:-?} planned, $pass ok, $fail not ok"
else
	summary="no tap"
fi
if [ ${#why[@]} -eq 0 ]; then
	echo "PASS ($summary)"
	exit 0
fi
msg=$(printf '%s; ' "${why[@]}")
echo "FAIL (${summary}): ${msg%; }"
if [ "$nrep" -gt 0 ]; then
	grep -a -m1 -B2 -A12 -E "$reports" "$log" | tr -d '\r'  | sed 's/^/    | /'
fi
exit 1
