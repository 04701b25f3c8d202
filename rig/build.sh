#!/bin/bash
# build_kernel: build.sh KERN CONFIG [OUTDIR]
#   KERN is patched (build/linux, or $TREE) or base (rc1 + compat, in
#   build/linux-base); CONFIG names rig/configs/CONFIG.config, stacked on its
#   parents (rig/lib.sh config_chain) on top of x86_64_defconfig.
#   OUTDIR defaults to build/out-CONFIG (patched) or build/base-CONFIG.
# Prints one progress line per stage; the full log is in build/logs/.
# Exit 0 on a clean build.  OUTDIR gets: warnings (the tree's gcc warnings),
# build-seconds, result (ok or FAIL).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need gcc make perl bc

usage="usage: build.sh patched|base CONFIG [OUTDIR]"
kern=${1:?$usage}
cfg=${2:?$usage}
[ -e "$TREE/.git" ] || die "no tree in $TREE: run 'make tree KERNEL_SRC=...' first"
TREE=$(kern_tree "$kern")
out=${3:-$(kern_out "$kern" "$cfg")}
frags=$(config_chain "$cfg" | tr '\n' ' ') || die "no config '$cfg' in rig/configs"

mk() { kmake "$TREE" "$out" "$@"; }

mkdir -p "$out"
out=$(cd "$out" && pwd)
TREE=$(cd "$TREE" && pwd)
echo FAIL >"$out/result"
log=$LOGS/build-$(basename "$out").log
: >"$log"
say "build $kern $cfg: configure ($(for f in $frags; do basename "$f" .config; done | paste -sd+ -))"
# Keep the previous .config (and its time stamp) when nothing changed, so
# that an unchanged tree is not rebuilt from scratch.
[ -f "$out/.config" ] && cp -p "$out/.config" "$out/.config.prev"
mk x86_64_defconfig >>"$log" 2>&1 || die "build $kern $cfg: defconfig failed (see $log)"
# shellcheck disable=SC2086
cat $frags >>"$out/.config"
mk oldconfig < <(yes '') >>"$log" 2>&1 || die "build $kern $cfg: oldconfig failed (see $log)"
# Every fragment line must have taken effect unless the symbol does not
# exist in this tree (e.g. a self-test option before its patch).
# shellcheck disable=SC2086
cat $frags | grep -E '^CONFIG_[A-Z0-9_]+=' |
	awk -F= '{ v[$1] = $2; o[$1] = NR } END { for (k in v) print o[k], k "=" v[k] }' |
	sort -n | cut -d' ' -f2 | while IFS='=' read -r sym val; do
	if [ "$val" = n ]; then
		! grep -q "^$sym=" "$out/.config" || echo "$sym"
	else
		grep -qx "$sym=$val" "$out/.config" ||
			! grep -rqE "^(menu)?config ${sym#CONFIG_}\$" \
				--include='Kconfig*' "$TREE" || echo "$sym"
	fi
done | sort -u >"$out/config-misses"
# (the header's date line aside: "# CONFIG_X is not set" lines count, a
# new symbol appears as one of them)
hdr='^# (Mon|Tue|Wed|Thu|Fri|Sat|Sun) '
if [ -f "$out/.config.prev" ] &&
   cmp -s <(grep -vE "$hdr" "$out/.config") <(grep -vE "$hdr" "$out/.config.prev"); then
	mv "$out/.config.prev" "$out/.config"
fi
rm -f "$out/.config.prev"
if [ -s "$out/config-misses" ]; then
	die "build $kern $cfg: config did not take: $(tr '\n' ' ' <"$out/config-misses")"
fi

say "build $kern $cfg: compile (log: ${log#$TOP/})"
start=$(date +%s)
if ! mk bzImage >>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 20 >&2
	die "build $kern $cfg: compile failed (see $log)"
fi
# The warnings of the whole tree, not only of what this (incremental) build
# recompiled: a warning seen before stays unless its file was rebuilt now.
# Keyed by file stem (fs/super for fs/super.c, fs/super.o, ...).
# (the linker's warnings about a vmlinux link belong to vmlinux: a relink
# replaces them)
stem() { sed -E 's#^ld: (\.tmp_)?vmlinux[0-9]*:.*#vmlinux#; s#^(ld: warning: )?##; s#'"$TREE_PREFIX_RE"'##; s#^'"$out"'/##; s#[:( ].*##; s#\.[a-z]+$##'; }
grep -E ': warning: ' "$log" | sort -u >"$out/warnings.now" || true
sed -nE 's#^  (CC|AS|LD|HOSTCC|CPP|OBJCOPY|VDSO|VDSOSYM|GEN|LDS)( \[M\])? +##p' "$log" |
	sed -E 's#\.[a-z]+$##' | sort -u >"$out/rebuilt"
if [ -f "$out/warnings" ]; then
	while IFS= read -r w; do
		grep -qxF "$(echo "$w" | stem)" "$out/rebuilt" || echo "$w"
	done <"$out/warnings" >"$out/warnings.kept"
else
	: >"$out/warnings.kept"
fi
sort -u "$out/warnings.kept" "$out/warnings.now" >"$out/warnings"
rm -f "$out/warnings.kept" "$out/warnings.now"
echo ok >"$out/result"
say "build $kern $cfg: ok in $(($(date +%s) - start))s, $(wc -l <"$out/warnings") warnings"
echo "$(($(date +%s) - start))" >"$out/build-seconds"
