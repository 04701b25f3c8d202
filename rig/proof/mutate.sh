#!/bin/sh
# Make a mutant's copy of the code under test:
#
#	mutate.sh mutants/NAME.sed SRCDIR DESTDIR
#
# copies SRCDIR/include and SRCDIR/kernel to DESTDIR and applies the sed
# script mutants/NAME.sed there.  After a comment header describing the
# mutant, a "# file: PATH" line names the file the commands below it edit.
# Each command (one line, or more joined by a trailing backslash, as in
# sed's a\, i\ and c\) is applied on its own and must change the file: a
# mutant whose command no longer matches the source fails loudly here,
# instead of silently testing an unbroken lock.
mutant=$1
src=$2
dst=$3
name=$(basename "$mutant" .sed)

fail()
{
	echo "not ok mutant $name $*"
	exit 1
}

apply()
{
	printf '%s\n' "$cmd" >"$dst/cmd.sed"
	sed -f "$dst/cmd.sed" "$dst/$file" >"$dst/out" ||
		fail "has a bad command: $cmd"
	if cmp -s "$dst/$file" "$dst/out"; then
		fail "changes nothing: $(printf '%s\n' "$cmd" | head -n 1)"
	fi
	mv "$dst/out" "$dst/$file"
	ncmds=$((ncmds + 1))
}

[ -f "$mutant" ] || fail "has no script $mutant"
if ! { rm -rf "$dst" && mkdir -p "$dst" &&
	cp -R "$src/include" "$src/kernel" "$dst/"; }; then
	fail "cannot copy $src"
fi
file=
cmd=
more=
ncmds=0
while IFS= read -r line || [ -n "$line" ]; do
	if [ -n "$more" ]; then
		cmd="$cmd
$line"
	else
		case $line in
		'# file: '*)
			file=${line#'# file: '}
			[ -f "$dst/$file" ] ||
				fail "edits a missing file: $file"
			continue
			;;
		'#'* | '')
			continue
			;;
		esac
		[ -n "$file" ] || fail "has a command before its '# file:' line"
		cmd=$line
	fi
	case $line in
	*\\)
		more=1
		continue
		;;
	esac
	more=
	apply
done <"$mutant"
[ -z "$more" ] || fail "ends inside a command"
[ "$ncmds" -gt 0 ] || fail "has no commands"
rm -f "$dst/cmd.sed"
