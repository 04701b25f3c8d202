#!/bin/bash
# make sizes: sizeof(struct file) and the filp slab object it makes, base
# and patched, in each x86 config of SIZES_CONFIGS (smp: x86_64, i386), as
# the config has it and with CONFIG_SECURITY forced on, as distributions
# build (it adds f_security).  Each figure is a compile of one line against
# the tree, with the flags kbuild used for fs/file_table.o in that config's
# out dir (its .cmd file), so the configs must have been built (make
# kernel-test, or rig/build.sh base|patched CONFIG).  The object is what
# SLUB makes of SLAB_HWCACHE_ALIGN with 64-byte cache lines (QEMU's, and
# most x86's): the size rounded up to the line, or to half of it while the
# size fits there.  The guests' filp_size test reads the same from
# /sys/kernel/slab/filp for the configs as built.
# Writes results/sizes.csv (also printed):
#   a "# series ID; DATE" line, then
#   arch,config,security,kernel,sizeof_file,filp_object
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SIZES_CONFIGS=${SIZES_CONFIGS:-smp i386}
OUT=${OUT:-$RESULTS/sizes.csv}

src=$(mktemp --suffix=.c)
asm=$(mktemp --suffix=.s)
trap 'rm -f "$src" "$asm"' EXIT
printf '#include <linux/fs.h>\nint sizeof_file = sizeof(struct file);\n' >"$src"

# size KERN CONFIG SECURITY: sizeof(struct file) there
size() {
	local out tree cmd flags sec
	out=$(kern_out "$1" "$2")
	tree=$(kern_tree "$1")
	cmd=$out/fs/.file_table.o.cmd
	[ -f "$cmd" ] || die "no $cmd: build $1 $2 first (rig/build.sh $1 $2)"
	# the compile line, its tree made this tree, without its -MD, -c -o
	flags=$(sed -n '1s/^cmd_fs\/file_table\.o := \(ccache \)\{0,1\}gcc //p' "$cmd" |
		sed -E "s#$TREE_PATH_RE#$tree/#g; s# -Wp,-MD,[^ ]*##; s# -c -o fs/file_table\.o .*##")
	[ -n "$flags" ] || die "no gcc line in $cmd"
	sec=""
	[ "$3" = y ] && sec="-DCONFIG_SECURITY=1"
	(cd "$out" && eval "gcc $flags $sec -w -S -o '$asm' '$src'") ||
		die "compiling struct file in $out failed"
	awk '/^sizeof_file:/ { getline; print $2; exit }' "$asm"
}
object() { local line=64; while [ "$1" -le $((line / 2)) ]; do line=$((line / 2)); done
	echo $(( ($1 + line - 1) / line * line )); }

{
	echo "# series $(series_id); $(date -u +%Y-%m-%dT%H:%MZ); rig/sizes.sh"
	echo "arch,config,security,kernel,sizeof_file,filp_object"
	for c in $SIZES_CONFIGS; do
		arch=$(config_meta "$c" arch x86_64)
		for sec in config y; do
			s=$sec
			[ "$sec" = config ] && s=$(grep -q '^CONFIG_SECURITY=y' "$(kern_out patched "$c")/.config" && echo y || echo n)
			for k in base patched; do
				n=$(size "$k" "$c" "$sec")
				echo "$arch,$c,$s,$k,$n,$(object "$n")"
			done
		done
	done
} >"$OUT.new"
mv "$OUT.new" "$OUT"
[ "$OUT" != "$RESULTS/sizes.csv" ] || "$RIG/index.sh"
cat "$OUT"
say "sizes: $OUT"
