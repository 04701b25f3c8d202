#!/bin/bash
# Build the guest programs with musl-gcc -static and pack an initramfs with
# the tree's own usr/gen_init_cpio:  guest.sh OUTDIR CPIO
#   rig/guest/*.c                         the rig's /init and VFS suite
#   tools/testing/lglock-bench/guest/*.c  the series' in-guest programs,
#                                         taken from build/linux when there
#   $GUEST_FILES                          "/dest=/host/src ..." as they are
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need musl-gcc

out=${1:?usage: guest.sh KERNEL_OUTDIR CPIO [SRCDIR]}
cpio=${2:?usage: guest.sh KERNEL_OUTDIR CPIO [SRCDIR]}
# where the series' guest programs come from (default: the work tree)
gsrc=${3:-$TREE/tools/testing/lglock-bench/guest}
gen=$out/usr/gen_init_cpio
[ -x "$gen" ] || die "no $gen: build the kernel first"

bin=$BUILD/guest-bin/$(basename "$cpio" .cpio)
rm -rf "$bin"
mkdir -p "$bin"
cflags="-static -O2 -Wall"
for c in "$RIG"/guest/*.c; do
	musl-gcc $cflags -o "$bin/$(basename "$c" .c)" "$c" ||
		die "guest program $(basename "$c") does not build"
done
if [ -d "$gsrc" ]; then
	for c in "$gsrc"/*.c; do
		[ -e "$c" ] || continue
		musl-gcc $cflags -I"$gsrc" -o "$bin/$(basename "$c" .c)" "$c" ||
			die "series guest program $(basename "$c") does not build"
	done
fi

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
	# extra files: GUEST_FILES="/dest=/host/src ..."
	for f in ${GUEST_FILES:-}; do
		echo "file ${f%%=*} ${f#*=} 0644 0 0"
	done
} >"$bin.list"
"$gen" "$bin.list" >"$cpio" || die "gen_init_cpio failed"
