#!/bin/bash
# The initramfs of one boot:  guest.sh KERNEL_OUTDIR CPIO
#   /init and /bin/*: rig/guest/ (make -C rig/guest; vfsload.c is the load
#   library) and the series' tools/testing/lglock-bench/guest/*.c from
#   build/linux, built with musl-gcc -static into build/guest-bin when
#   their sources change; packed with the kernel's own usr/gen_init_cpio.
#   $GUEST_FILES: more files, "/dest=/host/src ...", as they are.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need musl-gcc

out=${1:?usage: guest.sh KERNEL_OUTDIR CPIO}
cpio=${2:?usage: guest.sh KERNEL_OUTDIR CPIO}
gen=$out/usr/gen_init_cpio
[ -x "$gen" ] || die "no $gen: build the kernel first"

bin=$BUILD/guest-progs
mkdir -p "$bin"
flock "$bin" make -s -C "$RIG/guest" O="$bin" SERIES="$TREE/tools/testing/lglock-bench/guest" >&2 ||
	die "the guest programs do not build"
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /proc 0755 0 0"
	echo "dir /sys 0755 0 0"
	echo "dir /tmp 1777 0 0"
	echo "dir /mnt 0755 0 0"
	echo "dir /bin 0755 0 0"
	echo "file /init $bin/init 0755 0 0"
	for b in "$bin"/*; do
		[ "$(basename "$b")" = init ] && continue
		echo "file /bin/$(basename "$b") $b 0755 0 0"
	done
	for f in ${GUEST_FILES:-}; do
		echo "file ${f%%=*} ${f#*=} 0644 0 0"
	done
} >"$cpio.list"
"$gen" "$cpio.list" >"$cpio" || die "gen_init_cpio failed"
