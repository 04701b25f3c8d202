#!/bin/bash
# Boot a built kernel in QEMU and capture its serial console:
#   boot.sh BZIMAGE CPIO CONSOLE_LOG SMP TIMEOUT_S [KERNEL_ARGS...] [-- QEMU_ARGS...]
# Exit: 0 when the guest powered itself off, 124 on timeout, else qemu's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need qemu-system-x86_64

img=$1 cpio=$2 log=$3 smp=$4 tmo=$5
shift 5
kargs=() qargs=()
while [ $# -gt 0 ]; do
	[ "$1" = -- ] && { shift; qargs=("$@"); break; }
	kargs+=("$1")
	shift
done

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
			-kernel "$img" -initrd "$cpio" -nographic -no-reboot \
			-append "console=ttyS0 panic=-1 rig.job=none" \
			</dev/null 2>/dev/null | grep -q 'rig: done'; then
			echo yes >"$probe"
		fi
		say "KVM usable: $(cat "$probe")"
	fi
	if [ "$(cat "$probe")" = yes ]; then echo kvm; else echo tcg,thread=multi; fi
}

a=$(accel)
set +e
timeout --foreground -k 5 "$tmo" qemu-system-x86_64 \
	-accel "$a" -m 2048 -smp "$smp" \
	-kernel "$img" -initrd "$cpio" \
	-append "console=ttyS0 panic=-1 softlockup_panic=0 ${kargs[*]}" \
	-display none -monitor none -serial "file:$log" -no-reboot \
	"${qargs[@]}" </dev/null >"$log.qemu" 2>&1
rc=$?
set -e
echo "accel=$a smp=$smp rc=$rc" >>"$log.qemu"
exit $rc
