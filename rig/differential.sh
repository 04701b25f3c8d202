#!/bin/bash
# rig/differential.sh A B PREFIX: do two runs give the same PREFIX lines?
# A and B are run folders (build/runs/NAME) or output files.  Each must end
# with "PREFIX end" (it finished).  Prints "PASS: N lines, no difference",
# or "FAIL: ..." and the first differing lines; exits 0 on PASS.  The
# report's diff scenario lines judge with it (the battery's BAT lines,
# LTP's); make check runs it on canned outputs (rig/tests/ltp-diff/).
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 A B PREFIX" >&2; exit 2; }
p=$3
out() { if [ -d "$1" ]; then echo "$1/output"; else echo "$1"; fi; }
name() { basename "$1"; }
pick() { grep -a "^$p " "$1" 2>/dev/null || true; }
a=$(out "$1") b=$(out "$2")
for x in "$1" "$2"; do
	if ! pick "$(out "$x")" | tail -n1 | grep -q "^$p end"; then
		echo "FAIL: $(name "$x") did not finish ($(pick "$(out "$x")" | wc -l) lines)"
		exit 1
	fi
done
if cmp -s <(pick "$a") <(pick "$b"); then
	echo "PASS: $(pick "$a" | wc -l) lines, no difference"
	exit 0
fi
echo "FAIL: $(name "$1") and $(name "$2") differ"
echo
echo '```'
diff <(pick "$a") <(pick "$b") | head -n 40
echo '```'
exit 1
