#!/bin/bash
# lint.sh: what a maintainer runs on each patch of the series, one
# key=value line a patch on stdout:
#   LINT patch=NAME checkpatch_errors=E checkpatch_warnings=W
#        checkpatch_checks=C kerneldoc_base=B kerneldoc_patched=P
# checkpatch.pl --strict on the patch file, and scripts/kernel-doc's
# warnings on the C files and headers the patch touches, in the base tree
# (rc1 + compat, build/linux-base) and in the patched tree (build/linux with
# the whole series).  Both trees must be there (rig/tree.sh, lib.sh's
# base_tree); kernel-test runs it and its report judges the lines.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need perl
[ -e "$TREE/.git" ] && [ -e "$BASE/.git" ] || die "lint: no trees: run 'make tree' first"

# kdoc TREE FILE...: kernel-doc's warnings on the kernel files there (a
# file the tree does not have counts none; tools/ is userspace).  "no
# structured comments found" is left out: it says that a file has no
# kernel-doc, which a file without exported API need not have, not that
# its kernel-doc is wrong.
kdoc() {
	local t=$1 f n=0
	shift
	for f in "$@"; do
		[ -f "$t/$f" ] && [ "${f#tools/}" = "$f" ] || continue
		n=$((n + $(cd "$t" && perl scripts/kernel-doc -text "$f" 2>&1 >/dev/null |
			grep -i '^warning' | grep -vc 'no structured comments found' || true)))
	done
	echo "$n"
}

while read -r p; do
	out=$(cd "$TREE" && perl scripts/checkpatch.pl --strict -q "$PATCHES/$p" 2>&1 || true)
	mapfile -t files < <(sed -n 's#^+++ b/\(.*\.[ch]\)$#\1#p' "$PATCHES/$p")
	printf 'LINT patch=%s checkpatch_errors=%d checkpatch_warnings=%d checkpatch_checks=%d kerneldoc_base=%d kerneldoc_patched=%d\n' \
		"${p%.patch}" \
		"$(grep -c '^ERROR:' <<<"$out" || true)" \
		"$(grep -c '^WARNING:' <<<"$out" || true)" \
		"$(grep -c '^CHECK:' <<<"$out" || true)" \
		"$(kdoc "$BASE" "${files[@]}")" "$(kdoc "$TREE" "${files[@]}")"
done < <(series_list)
