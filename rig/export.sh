#!/bin/bash
# Write the commits after 'compat' in build/linux back to patches/ with
# git format-patch, and patches/series in the same order.  The output is
# stable (zero commit ids, no signature), so the series id changes only
# when a patch does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ -e "$TREE/.git" ] || die "no tree in $TREE: run 'make tree' first"
cd "$TREE"
[ -z "$(git status --porcelain)" ] || die "$TREE has uncommitted changes"
n=$(git rev-list --count compat..HEAD)
tmp=$(mktemp -d)
git format-patch -q --zero-commit --no-signature -o "$tmp" compat..HEAD
mkdir -p "$PATCHES"
# keep the cover letter and series comments; replace the numbered patches
find "$PATCHES" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' -delete
cp "$tmp"/*.patch "$PATCHES"/ 2>/dev/null || true
{
	grep '^#' "$PATCHES/series" 2>/dev/null || echo "# quilt order; also what git am is fed"
	(cd "$tmp" && ls -1 ./*.patch 2>/dev/null | sed 's#^\./##')
} >"$PATCHES/series.new"
mv "$PATCHES/series.new" "$PATCHES/series"
# The cover letter (not in series): git's, with the subject and text of
# rig/cover-letter.txt (first line the subject, then a blank line, then the
# text) in place of its placeholders.
if [ -f "$RIG/cover-letter.txt" ]; then
	git format-patch -q --zero-commit --no-signature --cover-letter \
		-o "$tmp/cl" compat..HEAD
	COVER=$RIG/cover-letter.txt perl -0pi -e '
		open(my $f, "<", $ENV{COVER}) or die;
		my ($subj, $blurb) = split(/\n\n/, do { local $/; <$f> }, 2);
		chomp $blurb;
		s/\*\*\* SUBJECT HERE \*\*\*/$subj/;
		s/\*\*\* BLURB HERE \*\*\*/$blurb/;' "$tmp/cl/0000-cover-letter.patch"
	# then the Cc list that scripts/get_maintainer.pl gives for the
	# patches that touch more than tools/
	core=()
	for p in "$tmp"/0*.patch; do
		grep '^diff --git a/' "$p" | grep -qv '^diff --git a/tools/' && core+=("$p")
	done
	{ echo; perl scripts/get_maintainer.pl --no-git "${core[@]}" | sed 's/^/Cc: /'; } \
		>>"$tmp/cl/0000-cover-letter.patch" || die "scripts/get_maintainer.pl failed"
	cp "$tmp/cl/0000-cover-letter.patch" "$PATCHES/"
fi
rm -rf "$tmp"
# the figures that changelogs, the cover letter and the README quote
"$RIG/figures.sh" fill "$PATCHES"/*.patch "$TOP/README.md"
"$RIG/index.sh"
say "exported $n patches; series id $(series_id)"
