#!/bin/bash
# Install the Debian packages the rig needs, only those missing.
#   deps.sh check     what make check needs
#   deps.sh kernel    what building and booting kernels needs as well
set -euo pipefail
pk_check="gcc make git musl-tools libtsan2 util-linux"
pk_kernel="$pk_check bc cpio perl ccache qemu-system-x86 sparse gnuplot-nox bzip2 curl e2fsprogs"
case ${1:-check} in
check) want=$pk_check ;;
kernel) want=$pk_kernel ;;
*) echo "usage: deps.sh check|kernel" >&2; exit 2 ;;
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
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
