#!/bin/bash
# Make build/linux: a git work tree holding
#   base    v2.6.36-rc1 exactly as KERNEL_SRC gave it (checked by tree id)
#   compat  the rig's toolchain fixes, one commit each (rig/compat/*.patch)
#   HEAD    the series, one commit per patch, applied with git am
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need git tar

import_src() {
	local src=$1
	case "$src" in
	*@*)
		local gd=${src%@*} rev=${src##*@}
		git --git-dir="$gd" rev-parse -q --verify "$rev^{commit}" >/dev/null ||
			die "KERNEL_SRC=$src: no commit '$rev' in git dir '$gd'"
		git --git-dir="$gd" archive "$rev" | tar -x -C "$TREE"
		;;
	*.tar|*.tar.gz|*.tgz|*.tar.bz2|*.tbz2|*.tar.xz)
		[ -f "$src" ] || die "KERNEL_SRC=$src: no such tarball"
		tar -x -f "$src" -C "$TREE" --strip-components=1
		;;
	*)
		[ -d "$src" ] ||
			die "KERNEL_SRC=$src is not a directory, a tarball or GITDIR@COMMIT"
		[ -f "$src/Makefile" ] || die "KERNEL_SRC=$src has no Makefile: not a kernel tree"
		tar -C "$src" --exclude=./.git -c -f - . | tar -x -C "$TREE"
		;;
	esac
}

have_base() {
	[ -d "$TREE/.git" ] &&
	[ "$(git -C "$TREE" rev-parse -q --verify 'base^{tree}' 2>/dev/null)" = "$RC1_TREE" ]
}

if ! have_base; then
	# no KERNEL_SRC: kernel.org's rc1 tarball, downloaded once into build/
	[ -n "${KERNEL_SRC:-}" ] || KERNEL_SRC=$RC1_URL
	fetched=
	case "$KERNEL_SRC" in
	http://*|https://*|file://*)
		need curl
		fetched=$BUILD/$(basename "$KERNEL_SRC")
		if [ ! -f "$fetched" ]; then
			say "downloading $KERNEL_SRC into ${fetched#"$TOP"/}"
			mkdir -p "$BUILD"
			err=$(curl -fsSL --connect-timeout 20 -o "$fetched.part" "$KERNEL_SRC" 2>&1) ||
				{ rm -f "$fetched.part"; die "could not download $KERNEL_SRC: set KERNEL_SRC to v2.6.36-rc1 as a directory, a tarball or GITDIR@COMMIT (${err:-curl failed})"; }
			mv "$fetched.part" "$fetched"
		fi
		# a download is kept only once it proves to be rc1
		trap 'rm -f "$fetched"' EXIT
		KERNEL_SRC=$fetched
		;;
	esac
	say "importing $KERNEL_SRC into $TREE"
	rm -rf "$TREE"
	mkdir -p "$TREE"
	import_src "$KERNEL_SRC"
	git -C "$TREE" init -q
	git -C "$TREE" config core.autocrlf false
	git -C "$TREE" add -A -f
	found=$(git -C "$TREE" write-tree)
	if [ "$found" != "$RC1_TREE" ]; then
		ver=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\|EXTRAVERSION\) = *//p' \
			"$TREE/Makefile" 2>/dev/null | paste -sd. -)
		rm -rf "$TREE"
		die "KERNEL_SRC=$KERNEL_SRC is not Linux v2.6.36-rc1: its files make
  git tree $found (Makefile says '${ver:-?}'), rc1 is $RC1_TREE"
	fi
	trap - EXIT
	GIT_AUTHOR_DATE='2010-08-15 17:41:37 -0700' \
	GIT_COMMITTER_DATE='2010-08-15 17:41:37 -0700' \
		git -C "$TREE" commit -q -m "base: Linux 2.6.36-rc1"
	git -C "$TREE" tag -f base >/dev/null
	say "base verified: tree $RC1_TREE"
fi

cd "$TREE"
if [ -n "$(git status --porcelain)" ]; then
	die "$TREE has uncommitted changes; commit them (and 'make export') or
  'git -C $TREE stash' first"
fi
git update-ref refs/rig/previous HEAD
# Rebuilding the series rewrites every file it or the compat fixes touch;
# remember their time stamps so that files whose content comes out the same
# keep them, and make does not rebuild what did not change.
stamps=$BUILD/tree-stamps
git diff --name-only base HEAD | while read -r f; do
	[ -f "$f" ] && printf '%s\t%s\n' "$(stat -c %Y "$f")" "$f"
done >"$stamps"
git checkout -q -B series base

export GIT_COMMITTER_NAME="rig" GIT_COMMITTER_EMAIL="rig@localhost"
export GIT_COMMITTER_DATE='2010-08-16 00:00:00 +0000'
for p in "$RIG"/compat/*.patch; do
	[ -e "$p" ] || continue
	git am -q --keep-cr "$p" >"$LOGS/am.log" 2>&1 ||
		{ git am --abort 2>/dev/null || true; die "compat fix $(basename "$p") does not apply"; }
done
git tag -f compat >/dev/null

n=0
while read -r p; do
	[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
	if ! git am -q "$PATCHES/$p" >"$LOGS/am.log" 2>&1; then
		git am --abort 2>/dev/null || true
		sed 's/^/    /' "$LOGS/am.log" >&2
		die "patch $p does not apply (patch $((n + 1)) of the series)"
	fi
	n=$((n + 1))
done < <(series_list)
while IFS=$'\t' read -r when f; do
	[ -f "$f" ] &&
		[ "$(git rev-parse -q --verify "HEAD:$f")" = \
		  "$(git rev-parse -q --verify "refs/rig/previous:$f")" ] &&
		touch -d "@$when" "$f"
done <"$stamps"
say "tree ready: base + $(git rev-list --count base..compat) compat + $n patches ($(git rev-parse --short HEAD))"
