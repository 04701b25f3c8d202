#!/bin/bash
# sparse over the C files the series touches, in one built tree:
#   sparse.sh TREE OUTDIR
# Runs the kernel's own "make C=2" (sparse with the kernel's CHECKFLAGS) on
# every object of those files that OUTDIR has built, and prints sparse's
# diagnostics one a line, paths relative to the tree, line numbers kept.
# A file the tree does not have (new in the series, when TREE is the base)
# or that the config does not build is left out.  kernel-test runs it on
# the patched and the base build of a config and compares.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need sparse

tree=$(cd "${1:?usage: sparse.sh TREE OUTDIR}" && pwd)
out=$(cd "${2:?usage: sparse.sh TREE OUTDIR}" && pwd)

objs=()
for c in $(cd "$PATCHES" && series_list | while read -r p; do
		sed -n 's#^+++ b/\(.*\.c\)$#\1#p' "$p"
	done | grep -v '^tools/' | sort -u); do
	[ -f "$tree/$c" ] && [ -f "$out/${c%.c}.o" ] && objs+=("${c%.c}.o")
done
[ ${#objs[@]} -gt 0 ] || exit 0

# Every sparse line tagged, so that nothing else make prints can pass for
# one (kbuild also recompiles the checked objects: C=2 is a new command
# line to it; ccache makes that cheap).
wrap=$out/sparse-tagged
cat >"$wrap" <<'EOF'
#!/bin/sh
sparse "$@" 2>&1 | sed 's/^/SPARSE: /'
EOF
chmod +x "$wrap"
kmake "$tree" "$out" C=2 CHECK="$wrap" "${objs[@]}" >"$out/sparse.log" 2>&1 ||
	die "sparse: make C=2 failed in ${out#$TOP/} (see $out/sparse.log)"
sed -n 's/^SPARSE: //p' "$out/sparse.log" | sed -E "$TREE_PATHS_SED; s#^$tree/##"
