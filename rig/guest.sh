#!/bin/bash
# The initramfs of one boot:  guest.sh KERNEL_OUTDIR CPIO [ABI]
#   /init and /bin/*: rig/guest/ (make -C rig/guest; vfsload.c is the load
#   library) and the series' tools/testing/lglock-bench/guest/*.c from
#   build/linux, built static with musl into build/guest-progs (ABI
#   x86_64: musl-gcc) or build/guest-progs-i386 (ABI i386: gcc -m32 with
#   Debian's musl-dev:i386) when their sources change; packed with the
#   kernel's own usr/gen_init_cpio.
#   The kernel's external modules (KERNEL_OUTDIR/extmod/*.ko) and the
#   modules of its build that its config names (KERNEL_OUTDIR/guest-modules,
#   rig/build.sh "# module:") go to /, and an empty 1 MiB ext2 image to
#   /ext2.img.
#   $GUEST_FILES: more files, "/dest=/host/src ...", as they are;
#   $GUEST_LTP: an LTP build (rig/ltp.sh) for /ltp/testcases/bin and
#   /ltp/tests.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:?usage: guest.sh KERNEL_OUTDIR CPIO [ABI]}
cpio=${2:?usage: guest.sh KERNEL_OUTDIR CPIO [ABI]}
abi=${3:-x86_64}
gen=$out/usr/gen_init_cpio
[ -x "$gen" ] || die "no $gen: build the kernel first"

case $abi in
x86_64)
	need musl-gcc
	bin=$BUILD/guest-progs cc=musl-gcc ;;
i386)
	# musl for i386 (Debian's musl-dev:i386; glibc's static binaries
	# want a 3.2 kernel); its specs file replaces gcc's link line, -m32's
	# emulation with it
	specs=/usr/lib/i386-linux-musl/musl-gcc.specs
	[ -f "$specs" ] || die "no $specs: rig/deps.sh kernel-test installs musl-dev:i386"
	bin=$BUILD/guest-progs-i386 cc="gcc -m32 -Wl,-melf_i386 -specs $specs" ;;
*) die "guest ABI '$abi': x86_64 or i386" ;;
esac
mkdir -p "$bin"
flock "$bin" make -s -C "$RIG/guest" O="$bin" CC="$cc" SERIES="$TREE/tools/testing/lglock-bench/guest" >&2 ||
	die "the guest programs do not build ($abi)"
# an empty 1 MiB ext2, /ext2.img: vfstest's emergency_ro puts it on a
# ramdisk (a remount that only block-device filesystems get)
img=$BUILD/guest-ext2.img
if [ ! -f "$img" ]; then
	need mke2fs
	tmp=$(mktemp "$img.XXXXXX")
	mke2fs -q -F -t ext2 -b 1024 "$tmp" 1024 >/dev/null || die "mke2fs failed"
	mv "$tmp" "$img"
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
	echo "file /ext2.img $img 0644 0 0"
	for b in "$bin"/*; do
		[ "$(basename "$b")" = init ] && continue
		echo "file /bin/$(basename "$b") $b 0755 0 0"
	done
	# the kernel's external modules (rig/build.sh "# extmod:") and its
	# own that the config names ("# module:"), at /
	for k in "$out"/extmod/*.ko "$out"/guest-modules/*.ko; do
		[ -f "$k" ] && echo "file /$(basename "$k") $k 0644 0 0"
	done
	# LTP (boot.sh sets GUEST_LTP for a run of /bin/ltprun)
	if [ -n "${GUEST_LTP:-}" ]; then
		[ -f "$GUEST_LTP/tests" ] || die "no $GUEST_LTP/tests: run rig/ltp.sh (LTP_SRC=...)"
		# laid out as LTP installs itself: its library looks for
		# helpers and resource files in $LTPROOT/testcases/bin
		echo "dir /ltp 0755 0 0"
		echo "dir /ltp/testcases 0755 0 0"
		echo "dir /ltp/testcases/bin 0755 0 0"
		echo "file /ltp/tests $GUEST_LTP/tests 0644 0 0"
		# the tests ltprun's hotplug mode runs with the hotplug paused
		echo "file /ltp/hotplug-pause $RIG/ltp/hotplug-pause 0644 0 0"
		# what LTP's library looks for: the kernel's config
		# (KCONFIG_PATH), users and groups (nobody, bin, daemon)
		echo "file /ltp/kconfig $out/.config 0644 0 0"
		echo "dir /etc 0755 0 0"
		echo "file /etc/passwd $RIG/ltp/passwd 0644 0 0"
		echo "file /etc/group $RIG/ltp/group 0644 0 0"
		for b in "$GUEST_LTP"/bin/*; do
			echo "file /ltp/testcases/bin/$(basename "$b") $b 0755 0 0"
		done
	fi
	for f in ${GUEST_FILES:-}; do
		echo "file ${f%%=*} ${f#*=} 0644 0 0"
	done
} >"$cpio.list"
"$gen" "$cpio.list" >"$cpio" || die "gen_init_cpio failed"
