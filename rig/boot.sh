#!/bin/bash
# boot_job: boot one built kernel in QEMU, run one guest program, judge it.
#   boot.sh NAME KERN CONFIG CPUS TIMEOUT JUDGE RUN [KERNEL_ARGS...] [-- QEMU_ARGS...]
# The fields of a scenario line (rig/scenarios/README.md): KERN (patched or
# base) built in CONFIG (rig/build.sh), -smp CPUS, killed after TIMEOUT
# seconds; RUN is the guest program and its arguments, comma-separated
# (rig.run= of rig/guest/init.c); JUDGE is verdict.sh's mode.  In
# QEMU_ARGS, @RUN@ is the run's folder; each -serial there is the next port
# from ttyS2 on.  KARGS (environment) is added to every kernel command line.
#
# Writes build/runs/NAME/ (emptied first):
#   boot         the line booted          console      ttyS0: the kernel's
#   output       ttyS1: the program's     console.txt  the same, no CRs
#   rc           QEMU's exit status       seconds      wall time
#   qemu.log     QEMU's own messages      series       the series id
#                                         code         its code id (lib.sh)
#   cmdline      the kernel's arguments   initramfs.cpio
#   verdict      rig/verdict.sh's judgement
# Exit: the verdict's (0 pass, 1 fail).  Judge again: rig/verdict.sh DIR.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 7 ] || die "usage: boot.sh NAME KERN CONFIG CPUS TIMEOUT JUDGE RUN [KERNEL_ARGS...] [-- QEMU_ARGS...]"
name=$1 kern=$2 cfg=$3 cpus=$4 tmo=$5 prog=$7
run=$RUNS/$name
out=$(kern_out "$kern" "$cfg")
img=$out/arch/x86/boot/bzImage
[ -f "$img" ] || die "boot $name: no $img (build it: rig/build.sh $kern $cfg)"
rm -rf "$run"
mkdir -p "$run"
# the run boots its own copy: a build relinking meanwhile cannot touch it
cp "$img" "$run/bzImage"
img=$run/bzImage
echo "${@//@RUN@/$run}" | sed "s#$TOP/##g" >"$run/boot"
series_id >"$run/series"
code_id >"$run/code"
shift 7
kargs=("rig.run=$prog") qargs=()
while [ $# -gt 0 ]; do
	[ "$1" = -- ] && { shift; qargs=("${@//@RUN@/$run}"); break; }
	kargs+=("$1")
	shift
done
# shellcheck disable=SC2206
kargs=(console=ttyS0 panic=-1 softlockup_panic=0 "${kargs[@]}" ${KARGS:-})
echo "${kargs[*]}" >"$run/cmdline"
# an LTP run gets build/ltp (rig/ltp.sh) as /ltp
case $prog in /bin/ltprun*) export GUEST_LTP=$BUILD/ltp ;; esac
"$RIG/guest.sh" "$out" "$run/initramfs.cpio" "$(config_meta "$cfg" guest x86_64)"
qemu=$(config_meta "$cfg" qemu qemu-system-x86_64)
need "$qemu"

# The KVM device here is a PVM flavour that runs a stock guest at a crawl:
# use KVM only when a guest really boots under it quickly; remember that.
accel() {
	local probe=$BUILD/kvm-works
	if [ -n "${RIG_ACCEL:-}" ]; then
		echo "$RIG_ACCEL"
		return
	fi
	if [ ! -f "$probe" ]; then
		echo no >"$probe"
		if [ -w /dev/kvm ] &&
		   timeout 30 qemu-system-x86_64 -accel kvm -m 512 -smp 1 \
			-kernel "$img" -initrd "$run/initramfs.cpio" -display none \
			-monitor none -serial null -serial stdio -no-reboot \
			-append "console=ttyS0 panic=-1" \
			</dev/null 2>/dev/null | grep -q 'rig: done'; then
			echo yes >"$probe"
		fi
		say "KVM usable: $(cat "$probe")"
	fi
	if [ "$(cat "$probe")" = yes ]; then echo kvm; else echo tcg,thread=multi; fi
}
# a scenario that names its accelerator (-accel tcg -icount ...) keeps it
a=()
[[ " ${qargs[*]} " == *" -accel "* ]] || a=(-accel "$(accel)")

say "boot $name: $kern $cfg -smp $cpus: $prog"
s=$(date +%s)
set +e
timeout --foreground -k 5 "$tmo" "$qemu" \
	"${a[@]}" -m 2048 -smp "$cpus" \
	-kernel "$img" -initrd "$run/initramfs.cpio" \
	-append "${kargs[*]}" \
	-display none -monitor none -no-reboot \
	-serial "file:$run/console" -serial "file:$run/output" \
	"${qargs[@]}" </dev/null >"$run/qemu.log" 2>&1
echo $? >"$run/rc"
set -e
echo $(($(date +%s) - s)) >"$run/seconds"
echo "accel=${a[*]} ${qargs[*]}" >>"$run/qemu.log"
"$RIG/verdict.sh" "$run" >/dev/null && r=0 || r=1
say "boot $name: $(head -n1 "$run/verdict") ($(cat "$run/seconds")s)"
exit $r
