#!/bin/bash
# rig/ltp.sh: the Linux Test Project as an input, like the kernel: built
# once into build/ltp for the guests (musl, static, stripped).
#   LTP_SRC=DIR|TARBALL|GITDIR@COMMIT rig/ltp.sh
# LTP_SRC is an LTP release or git snapshot.  Its source is copied to
# build/ltp-src, configured for musl-gcc -static (musl has no linux/*.h:
# build/ltp-inc links Debian's linux-libc-dev headers), and its library
# and the folders of rig/ltp/dirs are built.  build/ltp gets:
#   bin/     every binary those folders built, stripped
#   tests    the tests to run: the entries of the runtest files of
#            rig/ltp/dirs that are one built binary without arguments,
#            minus those rig/ltp/skip leaves out (each with its reason)
#   VERSION  the LTP version and LTP_SRC as given
# Nothing is rebuilt when build/ltp/VERSION names the same LTP_SRC and
# rig/ltp/dirs; the test list is remade every time (rig/ltp/skip).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ -n "${LTP_SRC:-}" ] || die "no LTP_SRC: an LTP release tarball, a directory, or GITDIR@COMMIT (https://github.com/linux-test-project/ltp/releases)"
src=$BUILD/ltp-src
dst=$BUILD/ltp
inc=$BUILD/ltp-inc
t=$(date +%s)
# the build, unless build/ltp is of this LTP_SRC already
build() {
	need musl-gcc
	need autoreconf
	rm -rf "$src" "$dst"
	mkdir -p "$src"
	case $LTP_SRC in
	*@*)
		git --git-dir="${LTP_SRC%@*}" archive "${LTP_SRC##*@}" | tar -x -C "$src" ||
			die "ltp: no commit ${LTP_SRC##*@} in ${LTP_SRC%@*}" ;;
	*.tar.* | *.tgz)
		tar -x -C "$src" --strip-components=1 -f "$LTP_SRC" || die "ltp: cannot unpack $LTP_SRC" ;;
	*)
		[ -d "$LTP_SRC" ] || die "ltp: $LTP_SRC is no directory, tarball or GITDIR@COMMIT"
		cp -a "$LTP_SRC"/. "$src"/ ;;
	esac
	[ -f "$src/configure.ac" ] && [ -d "$src/testcases/kernel/syscalls" ] || die "ltp: $LTP_SRC is not an LTP source tree"
	mkdir -p "$inc"
	ln -sfn /usr/include/linux "$inc/linux"
	ln -sfn /usr/include/asm-generic "$inc/asm-generic"
	ln -sfn /usr/include/x86_64-linux-gnu/asm "$inc/asm"

	say "ltp: configure $(cat "$src/VERSION" 2>/dev/null || echo '?') (log: build/logs/ltp-build.log)"
	{
		make -C "$src" autotools
		(cd "$src" && ./configure CC=musl-gcc CFLAGS="-I$inc -O2" LDFLAGS=-static --without-tirpc)
		make -C "$src/lib" -j2
	} >"$LOGS/ltp-build.log" 2>&1 || die "ltp: configure or library failed (build/logs/ltp-build.log)"
	mkdir -p "$dst/bin"
	while read -r d _; do
		case $d in '' | '#'*) continue ;; esac
		[ -d "$src/testcases/kernel/$d" ] || die "ltp: rig/ltp/dirs: no testcases/kernel/$d"
		if make -k -j2 -C "$src/testcases/kernel/$d" >>"$LOGS/ltp-build.log" 2>&1; then
			say "ltp: built $d"
		else
			say "ltp: $d built in part (build/logs/ltp-build.log)"
		fi
		find "$src/testcases/kernel/$d" -type f -perm -u+x ! -name '*.sh' ! -name '*.py' \
			-exec sh -c 'file -b "$1" | grep -q "^ELF" && cp "$1" "$2"/' _ {} "$dst/bin" \;
	done <"$RIG/ltp/dirs"
	strip "$dst"/bin/* 2>/dev/null || true
}
dirs=$(grep -v '^#' "$RIG/ltp/dirs" | sha256sum | cut -c1-16)
if [ -f "$dst/VERSION" ] && grep -qxF "LTP_SRC=$LTP_SRC" "$dst/VERSION" &&
   grep -qxF "dirs=$dirs" "$dst/VERSION"; then
	say "ltp: build/ltp is of $LTP_SRC already ($(head -n1 "$dst/VERSION")); its test list again"
else
	build
fi
# the tests: runtest entries "NAME BINARY" whose binary was built
skip=$(awk '!/^#/ && NF { print $1 }' "$RIG/ltp/skip")
for r in $(grep -v '^#' "$RIG/ltp/dirs" | awk 'NF > 1 { print $2 }' | tr ',' ' '); do
	[ -f "$src/runtest/$r" ] || die "ltp: no runtest/$r"
	awk 'NF == 2 && $1 !~ /^#/ { print $2 }' "$src/runtest/$r"
done | sort -u | while read -r b; do
	[ -x "$dst/bin/$b" ] || continue
	grep -qxF "$b" <<<"$skip" && continue
	echo "$b"
done >"$dst/tests"
{
	echo "LTP $(cat "$src/VERSION" 2>/dev/null || echo unknown)"
	echo "LTP_SRC=$LTP_SRC"
	echo "dirs=$dirs"
} >"$dst/VERSION"
say "ltp: $(wc -l <"$dst/tests") tests, $(find "$dst/bin" -type f | wc -l) binaries, $(du -sh "$dst/bin" | cut -f1) in build/ltp ($(($(date +%s) - t))s)"
