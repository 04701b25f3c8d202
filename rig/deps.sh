#!/bin/bash
# Install the Debian packages a job needs, only those missing:
#   deps.sh check|tree|kernel-test|bisect|bench|soak
set -euo pipefail
tree="git tar curl bzip2"
kernel="$tree gcc make bc perl cpio ccache"
boot="$kernel qemu-system-x86 musl-tools e2fsprogs"
case ${1:-check} in
check) want="gcc make git musl-tools libtsan2 util-linux shellcheck spin valgrind curl bzip2" ;;
tree) want=$tree ;;
# (cross compilers for ppc64 and arm; musl for the i386 guest: not
# gcc-multilib, which would remove the cross compilers)
kernel-test) want="$boot sparse gcc-powerpc64-linux-gnu gcc-arm-linux-gnueabi lib32gcc-12-dev musl-dev:i386 autoconf automake linux-libc-dev file spin" ;;
bisect) want=$kernel ;;
bench) want="$boot gnuplot-nox" ;;
soak) want="$boot e2fsprogs" ;;
*) echo "usage: deps.sh check|tree|kernel-test|bisect|bench|soak" >&2; exit 2 ;;
esac
missing=
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "rig: installing Debian packages:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "rig: error: need root (or sudo) to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
case $missing in *:i386*)
	dpkg --print-foreign-architectures | grep -qx i386 || dpkg --add-architecture i386 ;;
esac
# (an index that fails, e.g. a mirror mid-sync, is only a warning: the
# install below is what fails if a package really cannot be had)
apt-get update -qq >/dev/null || echo "rig: warning: apt-get update failed; installing from the indexes there are" >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
