#!/bin/bash
# make kernel-test: apply the series to rc1, build smp/debug/up, build the
# base kernel (rc1 + compat) too, boot both in QEMU, run the suite and the
# differential battery, write results/REPORT.md.
#
# Environment: KERNEL_SRC (see tree.sh), BOOTS (kern:config:cpus:job ...,
# default below), REPORT (default results/REPORT.md), PATCHES (default
# patches/), BOOT_TIMEOUT (seconds, 1500), KARGS (extra kernel arguments),
# CONFIGS ("smp debug up") and BASE_CONFIGS ("smp debug") to build fewer.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

REPORT=${REPORT:-$RESULTS/REPORT.md}
start_all=$(date +%s)

"$RIG/tree.sh"
id=$(series_id)
npatch=$(series_list | wc -l)
say "series $id ($npatch patches)"

# The base kernel: rc1 + compat, in its own work tree.
base_tree

declare -A bres bsec bwarn
for cfg in ${CONFIGS:-smp debug up}; do
	if "$RIG/build.sh" "$cfg"; then
		bres[$cfg]=ok
	else
		bres[$cfg]=FAIL
	fi
	bsec[$cfg]=$(cat "$BUILD/out-$cfg/build-seconds" 2>/dev/null || echo -)
	bwarn[$cfg]=$(wc -l <"$BUILD/out-$cfg/warnings" 2>/dev/null || echo -)
done
for cfg in ${BASE_CONFIGS-smp debug}; do
	if TREE=$BASE "$RIG/build.sh" "$cfg" "$BUILD/base-$cfg"; then
		bres[base-$cfg]=ok
	else
		bres[base-$cfg]=FAIL
	fi
	bsec[base-$cfg]=$(cat "$BUILD/base-$cfg/build-seconds" 2>/dev/null || echo -)
	bwarn[base-$cfg]=$(wc -l <"$BUILD/base-$cfg/warnings" 2>/dev/null || echo -)
done

# Warnings the series adds: same message in the same file, line numbers
# dropped, present in the patched build and not in the base build.
newwarn=$BUILD/new-warnings
: >"$newwarn"
norm() { sed -E 's#'"$TREE_PREFIX_RE"'##; s/:[0-9]+:[0-9]+:/:/' "$1" | sort -u; }
for cfg in smp debug; do
	[ -f "$BUILD/out-$cfg/warnings" ] && [ -f "$BUILD/base-$cfg/warnings" ] &&
		comm -23 <(norm "$BUILD/out-$cfg/warnings") \
			<(norm "$BUILD/base-$cfg/warnings") | sed "s/^/$cfg: /" >>"$newwarn"
done

# sparse over the C files the series touches (rig/sparse.sh), patched and
# base, compared as the gcc warnings are: what the series adds fails the run.
newsparse=$BUILD/new-sparse
: >"$newsparse"
declare -A swarn
for cfg in smp debug; do
	[ "${bres[$cfg]:-}" = ok ] && [ "${bres[base-$cfg]:-}" = ok ] || continue
	say "sparse $cfg: patched and base"
	for o in "out-$cfg:$TREE" "base-$cfg:$BASE"; do
		if "$RIG/sparse.sh" "${o#*:}" "$BUILD/${o%%:*}" >"$BUILD/${o%%:*}/sparse"; then
			swarn[${o%%:*}]=$(wc -l <"$BUILD/${o%%:*}/sparse")
		else
			echo "$cfg: sparse did not run in ${o%%:*}" >>"$newsparse"
		fi
	done
	comm -23 <(norm "$BUILD/out-$cfg/sparse") <(norm "$BUILD/base-$cfg/sparse") |
		sed "s/^/$cfg: /" >>"$newsparse"
	say "sparse $cfg: ${swarn[out-$cfg]:-?} warnings (base ${swarn[base-$cfg]:-?}), $(grep -c "^$cfg: " "$newsparse" || true) new"
done

# Boots: kernel config smp-count job timeout
boots=${BOOTS:-"patched:smp:2:suite patched:smp:4:suite patched:debug:2:suite patched:debug:4:suite base:smp:2:suite base:debug:2:suite base:smp:2:battery patched:smp:2:battery"}
declare -A vres
for b in $boots; do
	IFS=: read -r kern cfg n job <<<"$b"
	out=$BUILD/out-$cfg
	[ "$kern" = base ] && out=$BUILD/base-$cfg
	name=$kern-$cfg-smp$n-$job
	if [ "${bres[$([ "$kern" = base ] && echo base-)$cfg]}" != ok ]; then
		vres[$name]="not run: build failed"
		continue
	fi
	# both kernels run the same guest programs (the series' ones included)
	"$RIG/guest.sh" "$out" "$out/rig.cpio"
	say "boot $name"
	s=$(date +%s)
	set +e
	"$RIG/boot.sh" "$out/arch/x86/boot/bzImage" "$out/rig.cpio" \
		"$LOGS/$name.console" "$n" "${BOOT_TIMEOUT:-1500}" "rig.job=$job" ${KARGS:-}
	rc=$?
	set -e
	mode=tap
	[ "$job" = battery ] && mode=none
	# a failing verdict must not end the run (set -e): it goes in the report
	v=$("$RIG/verdict.sh" "$LOGS/$name.console" "$rc" "$mode") || true
	vres[$name]="$v ($(($(date +%s) - s))s)"
	say "boot $name: ${v%%$'\n'*}"
done

# Differential battery: base against patched, line by line.
battery_diff= battery_state="not run (no battery boots in BOOTS)"
bl=$LOGS/base-smp-smp2-battery.console pl=$LOGS/patched-smp-smp2-battery.console
hb= hp=
case " $boots " in *" base:smp:2:battery "*) hb=1 ;; esac
case " $boots " in *" patched:smp:2:battery "*) hp=1 ;; esac
case $hb$hp in 11)
	bat() { tr -d '\r' <"$1" | grep -a '^BAT ' ; }
	nb=$(bat "$bl" 2>/dev/null | wc -l)
	np=$(bat "$pl" 2>/dev/null | wc -l)
	battery_diff=$(diff <(bat "$bl" 2>/dev/null) <(bat "$pl" 2>/dev/null) | head -n 40 || true)
	if [ "$nb" -eq 0 ] || ! bat "$bl" | grep -q '^BAT end'; then
		battery_state="FAIL: the base battery did not finish ($nb lines)"
	elif [ "$np" -eq 0 ] || ! bat "$pl" | grep -q '^BAT end'; then
		battery_state="FAIL: the patched battery did not finish ($np lines)"
	elif [ -n "$battery_diff" ]; then
		battery_state="FAIL: base and patched differ"
	else
		battery_state="PASS: $nb lines, no difference"
	fi
	;;
esac

fails=0
for k in "${!bres[@]}"; do [ "${bres[$k]}" = ok ] || fails=$((fails + 1)); done
for k in "${!vres[@]}"; do case ${vres[$k]} in PASS*) ;; *) fails=$((fails + 1)) ;; esac; done
case $battery_state in FAIL*) fails=$((fails + 1)) ;; esac
[ -s "$newwarn" ] && fails=$((fails + 1))
[ -s "$newsparse" ] && fails=$((fails + 1))

{
	echo "# Kernel-level report"
	echo
	echo "series: $id"
	echo
	echo "Written by \`make kernel-test\` ($(date -u +%Y-%m-%dT%H:%MZ), $(($(date +%s) - start_all))s)."
	echo "Verdict: $([ $fails -eq 0 ] && echo PASS || echo "FAIL ($fails)")"
	echo
	echo "- base tree: v2.6.36-rc1, git tree $RC1_TREE (verified by content)"
	echo "- patches: $npatch ($(series_list | paste -sd' ' -))"
	echo "- toolchain: $(gcc --version | head -n1); $(ld --version | head -n1); $(make --version | head -n1); perl $(perl -e 'print $^V'); $(qemu-system-x86_64 --version | head -n1)"
	echo "- host: $(nproc) cpus; QEMU accel: $(cat "$BUILD/kvm-works" 2>/dev/null | sed 's/yes/kvm/;s/no/tcg (KVM unusable here)/')"
	echo "- applied before the series (rig/compat, base and patched alike):"
	for p in "$RIG"/compat/*.patch; do
		echo "  - $(sed -n 's/^Subject: \[PATCH\] //p' "$p")"
	done
	echo
	echo "## Builds"
	echo
	echo "| config | result | seconds | gcc warnings | sparse warnings (files the series touches) |"
	echo "|---|---|---|---|---|"
	for k in smp debug up base-smp base-debug; do
		case $k in base-*) o=$k ;; *) o=out-$k ;; esac
		echo "| $k | ${bres[$k]:-} | ${bsec[$k]:-} | ${bwarn[$k]:-} | ${swarn[$o]:--} |"
	done
	echo
	if [ -s "$newwarn" ]; then
		echo "Warnings the series adds (not in the base build):"
		echo '```'
		cat "$newwarn"
		echo '```'
	else
		echo "Warnings the series adds (not in the base build): none."
	fi
	echo
	if [ -s "$newsparse" ]; then
		echo "Sparse warnings the series adds (make C=2 on the C files it touches, not in the base):"
		echo '```'
		cat "$newsparse"
		echo '```'
	else
		echo "Sparse warnings the series adds (make C=2 on the C files it touches, not in the base): none."
	fi
	echo
	echo "## Boots"
	echo
	echo "| boot | verdict |"
	echo "|---|---|"
	for b in $boots; do
		IFS=: read -r kern cfg n job <<<"$b"
		name=$kern-$cfg-smp$n-$job
		echo "| $name | ${vres[$name]%%$'\n'*} |"
	done
	echo
	for b in $boots; do
		IFS=: read -r kern cfg n job <<<"$b"
		name=$kern-$cfg-smp$n-$job
		c=$LOGS/$name.console
		[ -f "$c" ] || continue
		case ${vres[$name]} in PASS*) ;; *)
			echo "### $name: first lines of what went wrong"
			echo '```'
			echo "${vres[$name]}" | tail -n +2
			tr -d '\r' <"$c" | grep -a -E '^not ok|^# FAIL' | head -n 20
			echo '```'
		esac
		if [ "$job" = suite ]; then
			echo "<details><summary>$name TAP</summary>"
			echo
			echo '```'
			tr -d '\r' <"$c" | grep -a -E '^(TAP|1\.\.|ok |not ok |# )' | grep -av '^# FAIL' | head -n 60
			tr -d '\r' <"$c" | grep -a -E 'lglock-selftest' | head -n 5
			echo '```'
			echo "</details>"
			echo
		fi
	done
	echo "## Differential battery (base vs patched, smp, 2 CPUs)"
	echo
	echo "$battery_state"
	if [ -n "$battery_diff" ]; then
		echo
		echo '```'
		echo "$battery_diff"
		echo '```'
	fi
	echo
	echo "## Soak (make soak, same series)"
	echo
	soak=$(soak_sections "$id")
	echo "${soak:-not run for this series}"
} >"$REPORT"
say "report: ${REPORT#$TOP/} — $([ $fails -eq 0 ] && echo PASS || echo "FAIL ($fails)")"
[ $fails -eq 0 ]
