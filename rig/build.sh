#!/bin/bash
# build_kernel: build.sh KERN CONFIG [OUTDIR]
#   KERN is patched (build/linux, or $TREE) or base (rc1 + compat, in
#   build/linux-base); CONFIG names rig/configs/CONFIG.config, stacked on its
#   parents (rig/lib.sh config_chain) on top of its defconfig, as the
#   keys of its fragments' #rig lines say (rig/lib.sh): defconfig
#   (x86_64_defconfig), arch (x86_64), cross, target (bzImage; objects:
#   the objects of the C files the series touches, for the architectures
#   a full image is out of reach on), make, then extmod (a directory of
#   the tree built as an external module, in a copy: OUTDIR/extmod), and
#   module (modules of the build the guest gets: OUTDIR/guest-modules).
#   OUTDIR defaults to build/out-CONFIG (patched) or build/base-CONFIG.
# Prints one progress line per stage; the full log is in build/logs/.
# Exit 0 on a clean build.  OUTDIR gets: warnings (the tree's gcc
# warnings), modpost (modpost's warnings, section mismatches included, of
# the last link), and summary, one line of key=value: result=FAIL while it
# builds or when it failed, else result=ok seconds=N gcc=N modpost=N (gcc:
# lines of warnings; modpost: each warning, or the N of a "Found N section
# mismatch(es)" summary, as modpost prints without
# CONFIG_DEBUG_SECTION_MISMATCH).  Read a field with lib.sh's kv.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need gcc make perl bc

usage="usage: build.sh patched|base CONFIG [OUTDIR]"
kern=${1:?$usage}
cfg=${2:?$usage}
[ -e "$TREE/.git" ] || die "no tree in $TREE: run 'make tree KERNEL_SRC=...' first"
[ "$kern" != base ] || base_tree
TREE=$(kern_tree "$kern")
out=${3:-$(kern_out "$kern" "$cfg")}
# a build that stops anywhere below leaves result=FAIL, never an old ok
mkdir -p "$out"
echo result=FAIL >"$out/summary"
frags=$(config_chain "$cfg" | tr '\n' ' ') || die "no config '$cfg' in rig/configs"
arch=$(config_meta "$cfg" arch x86_64)
cross=$(config_meta "$cfg" cross "")
defconfig=$(config_meta "$cfg" defconfig x86_64_defconfig)
target=$(config_meta "$cfg" target bzImage)
makeargs=$(config_meta "$cfg" make "")
extmod=$(config_meta "$cfg" extmod "")
# shellcheck disable=SC2086
guestmods=$(config_list "$cfg" module)
[ -z "$cross" ] || need "${cross}gcc"

# shellcheck disable=SC2086
mk() { ARCH=$arch CROSS_COMPILE=$cross kmake "$TREE" "$out" $makeargs "$@"; }

mkdir -p "$out"
out=$(cd "$out" && pwd)
TREE=$(cd "$TREE" && pwd)
log=$LOGS/build-$(basename "$out").log
: >"$log"
say "build $kern $cfg: configure ($(for f in $frags; do basename "$f" .config; done | paste -sd+ -))"
mk "$defconfig" >>"$log" 2>&1 || die "build $kern $cfg: $defconfig failed (see $log)"
# shellcheck disable=SC2086
cat $frags >>"$out/.config"
mk oldconfig < <(yes '') >>"$log" 2>&1 || die "build $kern $cfg: oldconfig failed (see $log)"
# Every fragment line must have taken effect.  A symbol may be absent from
# the tree only where a fragment's #rig line says optional=CONFIG_X (the
# series' own options, on base and on the patches before theirs); any other absent
# symbol is a typo or a rename and fails here.
optional=" $(config_list "$cfg" optional) "
# shellcheck disable=SC2086
cat $frags | grep -E '^CONFIG_[A-Z0-9_]+=' |
	awk -F= '{ v[$1] = $2; o[$1] = NR } END { for (k in v) print o[k], k "=" v[k] }' |
	sort -n | cut -d' ' -f2 | while IFS='=' read -r sym val; do
	if [ "$val" = n ]; then
		! grep -q "^$sym=" "$out/.config" || echo "$sym"
	else
		grep -qx "$sym=$val" "$out/.config" ||
			{ [ "${optional#* $sym }" != "$optional" ] &&
			  ! grep -rqE "^(menu)?config ${sym#CONFIG_}\$" \
				--include='Kconfig*' "$TREE"; } || echo "$sym"
	fi
done | sort -u >"$out/config-misses"
if [ -s "$out/config-misses" ]; then
	die "build $kern $cfg: config did not take: $(tr '\n' ' ' <"$out/config-misses")"
fi

pre=
if [ "$target" = objects ]; then
	# the C files the series touches that this tree has, as objects
	# shellcheck disable=SC2046
	target=$(sed -n 's#^+++ b/\(.*\)\.c$#\1.o#p' $(series_list | sed "s#^#$PATCHES/#") |
		grep -vE '^(tools|Documentation|scripts)/' | sort -u |
		while read -r o; do [ ! -f "$TREE/${o%.o}.c" ] || echo "$o"; done | tr '\n' ' ')
	# A single object does not get the headers its directory generates:
	# selinux's flask.h, which hooks.o includes, comes only with avc.o (its
	# Makefile's one rule for it), so avc.o is made first, on its own (the
	# top Makefile makes single objects in parallel under -j).
	case " $target " in
	*" security/selinux/"*)
		! grep -q '^CONFIG_SECURITY_SELINUX=y' "$out/.config" ||
			pre="security/selinux/avc.o" ;;
	esac
fi
say "build $kern $cfg: compile $arch ${target:0:60} (log: ${log#$TOP/})"
start=$(date +%s)
# Every build compiles everything from clean, so that its log has the
# warnings of the whole tree (or of all the objects it builds), never
# only of what changed since the last build: ccache replays an unchanged
# file's warnings with its object, in seconds.
# shellcheck disable=SC2086
if ! mk clean >>"$log" 2>&1 || ! { [ -z "$pre" ] || mk $pre; } >>"$log" 2>&1 || ! mk $target >>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 20 >&2
	die "build $kern $cfg: compile failed (see $log)"
fi
# gcc's warnings, and modpost's of the last link (section mismatches with
# CONFIG_DEBUG_SECTION_MISMATCH also as each built-in.o is linked)
grep -E ': warning: ' "$log" | sort -u >"$out/warnings" || true
grep -E '^WARNING: ' "$log" | sort -u >"$out/modpost" || true
# an external module of the tree's (a copy, built with M= against this
# build), for the guest (rig/guest.sh packs $out/extmod/*.ko)
rm -rf "$out/extmod"
if [ -n "$extmod" ] && [ -d "$TREE/$extmod" ]; then
	cp -r "$TREE/$extmod" "$out/extmod"
	say "build $kern $cfg: external module $extmod"
	if ! mk M="$out/extmod" modules >>"$log" 2>&1; then
		grep -E 'error|Error' "$log" | tail -n 20 >&2
		die "build $kern $cfg: external module $extmod failed (see $log)"
	fi
	grep -E '^(WARNING: |.*: warning: )' "$log" | grep -F "$out/extmod" | sort -u >>"$out/warnings" || true
fi
# the build's own modules that the guest loads (module=), for
# rig/guest.sh; one that this tree does not build (its option absent, on
# base or before its patch) is left out, and the guest program says so
rm -rf "$out/guest-modules"
for m in $guestmods; do
	if [ -f "$out/$m" ]; then
		mkdir -p "$out/guest-modules"
		cp "$out/$m" "$out/guest-modules/"
	else
		say "build $kern $cfg: no module $m in this tree"
	fi
done
mp=$(awk '/Found [0-9]+ section mismatch/ { for (i = 1; i <= NF; i++) if ($i == "Found") n += $(i + 1); next }
     { n++ } END { print n + 0 }' "$out/modpost")
echo "result=ok seconds=$(($(date +%s) - start)) gcc=$(wc -l <"$out/warnings") modpost=$mp" >"$out/summary"
say "build $kern $cfg: $(cat "$out/summary")"
