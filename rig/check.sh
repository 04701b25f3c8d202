#!/bin/bash
# make check: everything that needs no kernel tree.  This is what CI runs.
#  1. the rig's scripts parse and pass shellcheck, its verdict fails each
#     kind of broken run (canned run folders in rig/tests/), no committed
#     file holds an absolute host path
#  2. patches/ is well formed: the series names existing files, each patch
#     is a git format-patch with a Signed-off-by, the tree import rejects a
#     wrong KERNEL_SRC with a clear sentence
#  3. the series' own userspace tests: tools/testing/lglock-bench is taken
#     out of the patches with git apply --include into a scratch tree, and
#     its 'make check' runs (real lglock.h against shims, under TSan, with
#     the mutants that must fail)
#  4. the guest VFS suite, host-safe part, in a private mount namespace
# Writes only build/check/ (the microbenchmark's CSV too: make microbench
# copies it to results/); git status is the same after as before.
# Ends with "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/lib.sh"

pass=0 fail=0 n=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n $*"; }
t() { local name=$1; shift; if "$@"; then ok "$name"; else nok "$name"; fi; }

scratch=$BUILD/check
rm -rf "$scratch"
mkdir -p "$scratch"
status() { git -C "$TOP" status --porcelain 2>/dev/null; }
status >"$scratch/git-status.before"

echo "TAP version 13"

# 1. the rig itself
for s in "$RIG"/*.sh; do
	t "bash -n rig/$(basename "$s")" bash -n "$s"
done
t "shellcheck -S warning rig/*.sh" shellcheck -x -S warning "$RIG"/*.sh
# each canned run folder rig/tests/CASE: rig/verdict.sh on a copy of it must
# print the first line of CASE/expect first, and every other line somewhere
verdict_is() {
	local d=$scratch/tests/$1 out want
	mkdir -p "$d"
	cp "$RIG/tests/$1"/* "$d"/
	out=$("$RIG/verdict.sh" "$d" 2>&1)
	[[ $out == "$(head -n1 "$d/expect")"* ]] || { echo "# got: $out"; return 1; }
	while read -r want; do
		[[ $out == *"$want"* ]] || { echo "# got: $out"; return 1; }
	done < <(tail -n +2 "$d/expect")
}
for c in "$RIG"/tests/*/; do
	c=$(basename "$c")
	# (folders without an expect file are other tests' data: ltp, ltp-diff)
	[ -f "$RIG/tests/$c/expect" ] || continue
	t "verdict on rig/tests/$c: $(tail -n +1 "$RIG/tests/$c/expect" | paste -sd' ' -)" verdict_is "$c"
done
# every line of rig/kernel-reports, alone on a passing run's console,
# fails the verdict; "BUG " keeps its space (SLUB's "BUG kmalloc-64: ...")
reports_judged() {
	local d=$scratch/tests/reports line n=0
	grep -qx 'BUG ' "$RIG/kernel-reports" || { echo "# no 'BUG ' line"; return 1; }
	while IFS= read -r line; do
		case $line in '#'*|'') continue ;; esac
		rm -rf "$d" && mkdir -p "$d" && cp "$RIG/tests/pass"/* "$d"/ && rm -f "$d/expect"
		echo "[   9.9] $line at the end of a made-up report" >>"$d/console"
		"$RIG/verdict.sh" "$d" >/dev/null 2>&1 && { echo "# passes: $line"; return 1; }
		n=$((n + 1))
	done <"$RIG/kernel-reports"
	[ "$n" -gt 10 ]
}
t "every line of rig/kernel-reports fails a run" reports_judged
chain_is() { [ "$(config_chain "$1" | xargs -n1 basename | paste -sd' ' -)" = "$2" ]; }
t "configs stack by their parent lines" chain_is debug-notorture "smp.config debug.config debug-notorture.config"
scen_ok() { # every job's scenario reads, each boot line has its 7 fields
	local f
	for f in kernel-test bench bisect; do
		BOOT_TIMEOUT=1 SWEEP_TIMEOUT=1 LTP_TIMEOUT=1 BENCH_T=1 PLUGIN=x MTTCG_SMP="1 2" LOCKSTAT_SMP="2 4" SHARING_SMP="2 4 8" \
			scenarios "$f" | awk '$1 == "boot" && NF < 8 { bad = 1 } END { exit bad }' || return 1
	done
	[ "$(BOOT_TIMEOUT=1 SWEEP_TIMEOUT=1 LTP_TIMEOUT=1 BOOTS='*-suite' scenarios kernel-test | grep -c '^boot ')" = 9 ]
}
t "scenarios read, and BOOTS narrows them" scen_ok
# a "%VAR" line is one line per word of VAR: make bench SMP="1 2 4 8 16"
# boots the mttcg and lockstat rows at each, -smp and possible_cpus alike
scen_each() {
	local out
	out=$(BENCH_T=1 PLUGIN=x MTTCG_SMP="1 2 4 8 16" LOCKSTAT_SMP="1 2 4 8 16" SHARING_SMP="2" scenarios bench)
	[ "$(echo "$out" | awk '$2 ~ /^bench-(mttcg|lockstat)-/ { split($2, n, "-smp"); if ($5 == n[2] && index($0 " ", " possible_cpus=" $5 " ")) k++ } END { print k + 0 }')" = 20 ] &&
		[ "$(echo "$out" | grep -c '^boot bench-sharing-')" = 2 ]
}
t "scenarios: a %VAR line is one line per word of VAR (make bench SMP=...)" scen_each
# selection in one place: what BOOTS and CONFIGS drop is recorded, with
# the knob; a line without one of its fields is an error
scen_select() {
	local d=$scratch/dropped
	rm -f "$d"
	[ "$(DROPPED=$d BOOT_TIMEOUT=1 SWEEP_TIMEOUT=1 LTP_TIMEOUT=1 BOOTS='patched-smp-smp2-suite' CONFIGS='smp' \
		scenarios kernel-test | grep -c '^build patched ')" = 1 ] || return 1
	grep -qx 'CONFIGS build patched debug' "$d" && grep -q '^BOOTS boot base-smp-smp2-suite base smp 2 1 tap ' "$d" &&
		! grep -q 'patched-smp-smp2-suite' "$d" || { echo "# dropped: $(wc -l <"$d") lines"; return 1; }
	mkdir -p "$scratch/scen/scenarios"
	printf 'boot x kern=patched config=smp cpus=2 judge=tap run=/bin/tap\n' >"$scratch/scen/scenarios/t"
	! (RIG=$scratch/scen scenarios t) 2>"$scratch/scen/err" && grep -q "'boot x' has no timeout=" "$scratch/scen/err"
}
t "scenarios: BOOTS and CONFIGS drop lines into DROPPED; a missing field is an error" scen_select
# warnings compared across trees: the tree's paths, at the start of a line
# or inside it (sparse's notes), line numbers and addresses are not the
# warning; include/linux/ inside the tree is
norm_same() {
	printf '%s\n' "$BUILD/linux-base/fs/a.c:1:2: warning: x" \
		"s.c: note: in included file (through $BUILD/linux-base/include/net/sock.h, ../linux-base/include/linux/fs.h):" >"$scratch/w.b"
	printf '%s\n' "../linux/fs/a.c:3:4: warning: x" \
		"s.c: note: in included file (through $BUILD/linux/include/net/sock.h, ../linux/include/linux/fs.h):" >"$scratch/w.p"
	[ -z "$(comm -3 <(warn_norm "$scratch/w.b") <(warn_norm "$scratch/w.p"))" ] &&
		warn_norm "$scratch/w.p" | grep -q '(through include/net/sock.h, include/linux/fs.h):$'
}
t "warnings compare without the tree's paths, wherever in the line" norm_same
# the kmemleak judges, on made-up outputs: JUDGE_is WANT BASE PATCHED, each
# "COUNT SITE:N ...": COUNT the runs (a sweep) or the marked operations (a
# soak), N kmemleak objects at SITE.  leak_lines OP SITE:N ...: the LEAK lines
leak_lines() {
	local op=$1 s; shift
	for s in "$@"; do
		for _ in $(seq "${s#*:}"); do echo "LEAK op=$op alloc=failslab site=${s%:*} size=16"; done
	done
}
sweep_out() {
	local runs=$1 s total=0; shift
	for s in "$@"; do total=$((total + ${s#*:})); done
	echo "SWEEP op=x alloc=failslab runs=$runs failed=1 errnos=ENOMEM reports=0 others=0 leaks=$total sites=f:ENOMEM"
	leak_lines x "$@"
}
soak_out() {
	local ops=$1; shift
	echo "SOAK ops: tmpfs_open=$((ops / 2)) tmpfs_erofs=0 ext2_open=$((ops - ops / 2)) walks=5 pty=0"
	leak_lines soak "$@"
}
# judge_is JUDGE MAKE WANT BASE PATCHED: rig/JUDGE.awk's verdict, the first
# word of its first line, on MAKE BASE and MAKE PATCHED
judge_is() {
	# shellcheck disable=SC2086
	$2 $4 >"$scratch/judge.b"
	# shellcheck disable=SC2086
	$2 $5 >"$scratch/judge.p"
	[ "$(awk -f "$RIG/fields.awk" -f "$RIG/$1.awk" "$scratch/judge.b" "$scratch/judge.p" | head -n 1 | cut -d: -f1)" = "$3" ]
}
sweep_is() { judge_is sweep-table sweep_out "$@"; }
soak_is() { judge_is soak-leaks soak_out "$@"; }
t "sweep judge: a leak base has, as many per run over more runs, is no worse" \
	sweep_is PASS "100 a:50 b:10" "110 a:55 b:10"
t "sweep judge: more objects per run at a site base leaks at is worse" \
	sweep_is FAIL "100 a:50 b:10" "100 a:52 b:10"
t "sweep judge: a leak site base does not have is worse" \
	sweep_is FAIL "100 a:50" "100 a:49 c:1"
t "sweep judge: more objects in all, per run too, is worse" \
	sweep_is FAIL "100 a:50" "110 a:60"
t "soak judge: a leak base has, a few more over more operations, is no worse" \
	soak_is PASS "1000 a:50 b:10" "1300 a:70 b:12"
t "soak judge: as many operations, within chance at a site base leaks at" \
	soak_is PASS "1000 a:50" "1000 a:62"
t "soak judge: far more objects for as many operations is worse" \
	soak_is FAIL "1000 a:50" "1000 a:90"
t "soak judge: a leak site base does not have is worse" \
	soak_is FAIL "1000 a:50" "1000 a:40 c:1"
t "soak judge: a run without its operations count is not judged PASS" \
	soak_is FAIL "0 a:1" "1000 a:1"
soak_table() {
	soak_out 1000 a:50 b:10 >"$scratch/judge.b"
	soak_out 2000 a:80 c:2 >"$scratch/judge.p"
	awk -f "$RIG/fields.awk" -f "$RIG/soak-leaks.awk" "$scratch/judge.b" "$scratch/judge.p" >"$scratch/judge.t" || true
	grep -qx '| a | 50 | 80 | 40.0 |' "$scratch/judge.t" &&
		grep -qx '| b | 10 | 0 | 0.0 |' "$scratch/judge.t" &&
		grep -qx '| c | 0 | 2 | 1.0 |' "$scratch/judge.t" &&
		[ "$(grep -c '^| [abc] ' "$scratch/judge.t")" -eq 3 ]
}
t "soak judge: its table lists every site, base, patched and patched scaled to base's operations" soak_table
# no absolute host path in a file git has (or would add): this checkout's,
# or one of the usual roots
host_paths() {
	local top
	top=$(printf '%s' "$TOP" | sed 's/[][\.*^$()+?{}|]/\\&/g')
	! git -C "$TOP" grep -nI --untracked -E -e "$top/" -e '/(work|home|root|Users)/' \
		-e '/tmp/[a-z]+/(linux|logs|build|out)' -- . ':!build' | grep .
}
t "no absolute host path in any committed file" host_paths

# 2. the series, as files
series_ok() {
	local p bad=0
	[ -f "$PATCHES/series" ] || { echo "# no patches/series"; return 1; }
	while read -r p; do
		[ -f "$PATCHES/$p" ] || { echo "# series names missing $p"; bad=1; continue; }
		grep -q '^From 0000000000000000000000000000000000000000 ' "$PATCHES/$p" ||
			{ echo "# $p: not a stable format-patch (make export)"; bad=1; }
		grep -q '^Signed-off-by: ' "$PATCHES/$p" ||
			{ echo "# $p: no Signed-off-by"; bad=1; }
		grep -q '^Subject: \[PATCH' "$PATCHES/$p" ||
			{ echo "# $p: no Subject"; bad=1; }
	done < <(series_list)
	return $bad
}
t "patches/series well formed ($(series_list | wc -l) patches, id $(series_id | cut -c1-12))" series_ok
wrong_tree() {
	local d=$scratch/notrc1 out
	mkdir -p "$d"
	printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 35\n' >"$d/Makefile"
	out=$(BUILD=$scratch/tree TREE=$scratch/tree/linux KERNEL_SRC=$d "$RIG/tree.sh" 2>&1) && return 1
	[[ $out == *"is not Linux v2.6.36-rc1"*"2.6.35"* ]] || { echo "# got: $out"; return 1; }
}
t "tree import rejects a KERNEL_SRC that is not rc1" wrong_tree
# without KERNEL_SRC the tree downloads RC1_URL once (here a file:// URL,
# no network): a tarball that is not rc1 is refused and not kept; a URL
# that cannot be had fails at once, saying how to give KERNEL_SRC
fetch_tree() {
	local d=$scratch/fake out
	mkdir -p "$d/linux-2.6.36-rc1"
	printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 35\n' >"$d/linux-2.6.36-rc1/Makefile"
	tar -C "$d" -cjf "$d/linux-2.6.36-rc1.tar.bz2" linux-2.6.36-rc1
	out=$(BUILD=$scratch/tree TREE=$scratch/tree/linux KERNEL_SRC='' RC1_URL="file://$d/linux-2.6.36-rc1.tar.bz2" "$RIG/tree.sh" 2>&1) && return 1
	[[ $out == *downloading*"is not Linux v2.6.36-rc1"*"2.6.35"* ]] || { echo "# got: $out"; return 1; }
	[ ! -e "$scratch/tree/linux-2.6.36-rc1.tar.bz2" ] || { echo "# the refused tarball was kept"; return 1; }
	out=$(BUILD=$scratch/tree TREE=$scratch/tree/linux KERNEL_SRC='' RC1_URL="file://$d/none.tar.bz2" "$RIG/tree.sh" 2>&1) && return 1
	[[ $out == *"could not download file://$d/none.tar.bz2: set KERNEL_SRC to"* ]] || { echo "# got: $out"; return 1; }
}
t "tree without KERNEL_SRC: downloads rc1 once, refuses a wrong one, fails at once offline" fetch_tree

# 3. the series' userspace proof: include/linux/lglock.h and
# kernel/lglock.c are taken out of the patches with git apply --include
# into a scratch tree, and rig/proof builds and tests them there (the real
# header and code on shims, under TSan, the !SMP and !HOTPLUG_CPU builds,
# sparse, the mutants that must fail) and runs the microbenchmark
ext=$scratch/series
mkdir -p "$ext"
git -C "$ext" init -q
extract() {
	local p
	while read -r p; do
		git -C "$ext" apply --include='include/linux/lglock.h' \
			--include='kernel/lglock.c' "$PATCHES/$p" || return 1
	done < <(series_list)
}
t "series' include/linux/lglock.h and kernel/lglock.c extract" extract
for s in "$RIG"/proof/*.sh; do
	t "bash -n rig/proof/$(basename "$s")" bash -n "$s"
done
t "shellcheck -S warning rig/proof/*.sh" shellcheck -x -S warning "$RIG"/proof/*.sh
if [ -f "$ext/include/linux/lglock.h" ] && [ -f "$ext/kernel/lglock.c" ]; then
	if make -s -C "$RIG/proof" KSRC="$ext" O="$scratch/proof" check \
		>"$scratch/proof.log" 2>&1; then
		ok "rig/proof: make check on the series' lglock.h and lglock.c"
	else
		nok "rig/proof: make check on the series' lglock.h and lglock.c"
	fi
	sed 's/^/    /' "$scratch/proof.log"
	# the microbenchmark (not a test: a measurement); make microbench
	# copies its CSV to results/
	if make -s -C "$RIG/proof" KSRC="$ext" O="$scratch/proof" microbench \
		>"$scratch/microbench.log" 2>&1; then
		{ echo "# series $(series_id); $(date -u +%Y-%m-%dT%H:%MZ); rig/proof microbench (the shim's locks)"
		  cat "$scratch/proof/microbench.csv"; } >"$scratch/microbench.csv" 2>/dev/null || true
	fi
	sed 's/^/# /' "$scratch/microbench.log"
	# the write side's instruction counts (valgrind); make count copies
	# them to results/count.csv, which rig/figures.sh quotes
	if make -s -C "$RIG/proof" KSRC="$ext" O="$scratch/proof" count \
		>"$scratch/count.log" 2>&1; then
		ok "rig/proof: instruction counts of the brlock write side"
		{ echo "# series $(series_id); $(date -u +%Y-%m-%dT%H:%MZ); rig/proof count (valgrind)"
		  cat "$scratch/proof/count.csv"; } >"$scratch/count.csv"
	else
		nok "rig/proof: instruction counts of the brlock write side"
		sed 's/^/    /' "$scratch/count.log"
	fi
else
	nok "rig/proof: the series has no include/linux/lglock.h and kernel/lglock.c"
fi

# the lglock "online" protocol, model-checked by spin: the model passes,
# its mutants fail (rig/proof/promela)
if "$RIG/proof/promela/check.sh" "$scratch/promela" >"$scratch/promela.log" 2>&1; then
	ok "spin: lglock online protocol holds, its mutants are rejected (rig/proof/promela)"
else
	nok "spin: lglock online protocol holds, its mutants are rejected (rig/proof/promela)"
fi
sed 's/^/    /' "$scratch/promela.log"

# 4. the guest suite's host-safe tests, in a private mount namespace
if make -s -C "$RIG/guest" O="$scratch" EXTRA=-Werror; then
	ok "guest programs build with musl-gcc -static -Wall -Werror"
	t "no guest .c includes a .c" eval "! grep -n '^#include \".*\.c\"' '$RIG'/guest/*.c"
	if unshare -m true 2>/dev/null; then
		mkdir -p "$scratch/ns"
		if unshare -m sh -c "mount --make-rprivate / && exec '$scratch/vfstest' --host-safe '$scratch/ns'" \
			>"$scratch/vfstest.log" 2>&1; then
			ok "guest VFS suite, host-safe tests, private mount namespace"
		else
			nok "guest VFS suite, host-safe tests, private mount namespace"
		fi
		sed 's/^/    /' "$scratch/vfstest.log"
		# the differential battery: here only that it runs to its end
		# with every line well formed (its values are the host's)
		battery_ok() {
			unshare -m sh -c "mount --make-rprivate / && exec '$scratch/battery' '$scratch/bat'" \
				>"$scratch/battery.log" 2>&1 || return 1
			grep -q '^BAT end: [0-9]* calls$' "$scratch/battery.log" || return 1
			! grep -v -E '^BAT ([0-9]{3} .* = (-?[0-9]+ [-A-Z0-9]+|[-/a-z]+ [-A-Z]+)|[0-9]{3} mounts? .*|end: .*)$' \
				"$scratch/battery.log" | grep . || return 1
			! grep -q 'child did not exit' "$scratch/battery.log"
		}
		t "differential battery runs to its end in a private mount namespace" battery_ok
		# the LTP runner on canned tests (rig/tests/ltp)
		ltprun_ok() {
			rm -rf "$scratch/ltp" && cp -r "$RIG/tests/ltp" "$scratch/ltp" || return 1
			LTP_DIR=$scratch/ltp LTP_TEST_TIMEOUT=2 unshare -m sh -c \
				"mount --make-rprivate / && exec '$scratch/ltprun'" >"$scratch/ltprun.log" 2>&1
			diff -u "$RIG/tests/ltp/expected" "$scratch/ltprun.log" | sed 's/^/    /'
			cmp -s "$RIG/tests/ltp/expected" "$scratch/ltprun.log"
		}
		t "LTP runner: one LTP line per canned test, summaries and old-style results counted" ltprun_ok
	else
		echo "# SKIP guest VFS suite: unshare -m not permitted here"
	fi
else
	nok "guest programs build with musl-gcc -static -Wall -Werror"
fi

# the QEMU plugin of the cache-line sharing model builds, and its model
# counts canned traces right
if make -s -C "$RIG/plugins" O="$scratch" >"$scratch/plugins.log" 2>&1; then
	ok "rig/plugins build (lineshare.so against the plugin API as declared)"
	if "$scratch/test-lineshare" >"$scratch/test-lineshare.log" 2>&1; then
		ok "sharing model: one line written alternately by two vCPUs, two lines written apart, a producer and a reader"
	else
		nok "sharing model: one line written alternately by two vCPUs, two lines written apart, a producer and a reader"
	fi
	sed 's/^/    /' "$scratch/test-lineshare.log"
else
	nok "rig/plugins build (lineshare.so against the plugin API as declared)"
	sed 's/^/    /' "$scratch/plugins.log"
fi

# the lockstat phase's table, from canned runs (rig/tests/lockstat)
lockstat_ok() {
	rm -rf "$scratch/lockstat" && mkdir -p "$scratch/lockstat" &&
		cp -r "$RIG/tests/lockstat/runs" "$scratch/lockstat/" || return 1
	BUILD=$scratch/lockstat LOCKSTAT_CSV=$scratch/lockstat.csv "$RIG/report-lockstat.sh" >"$scratch/lockstat.md" 2>&1
	diff -u "$RIG/tests/lockstat/expected" "$scratch/lockstat.md" | sed 's/^/    /'
	cmp -s "$RIG/tests/lockstat/expected" "$scratch/lockstat.md"
}
t "lock_stat table: per-op counts, n/r for the series' locks, on canned runs" lockstat_ok

# 5. every figure that prose quotes is the rig's: the blocks of
# rig/figures.txt are in their files as results/bench.csv renders them,
# and bench.csv is of the code of patches/
if "$RIG/figures.sh" check >"$scratch/figures.log" 2>&1; then
	ok "figures in changelogs, cover letter and README are results/bench.csv's"
else
	nok "figures in changelogs, cover letter and README are results/bench.csv's"
fi
sed 's/^/    /' "$scratch/figures.log"

# 6. each kernel mutant still applies to the series: its sed changes a
# line of its file as the patches of patches/ have it (added or context
# lines; no tree needed), so the set follows the series
# post FILE: the lines of FILE that the patches show, after the series,
# each hunk after the function line of its @@ header (what a sed's
# /^function(/,/^}/ range starts at)
post() {
	awk -v f="$1" '/^diff --git / { on = ($3 == "a/" f) ; next }
		on && /^(\+\+\+|---) / { next }
		on && /^@@ / { sub(/^@@ [^@]* @@ ?/, ""); print; next }
		on && /^[+ ]/ { print substr($0, 2) }' "$PATCHES"/0*.patch
}
mutant_applies() {
	local f
	f=$(sed -n 's/^# file: *//p' "$1" | head -n1)
	[ -n "$f" ] || { echo "    $1: no '# file:' line"; return 1; }
	post "$f" >"$scratch/mut.orig"
	[ -s "$scratch/mut.orig" ] || { echo "    $1: the series does not touch $f"; return 1; }
	sed -f "$1" "$scratch/mut.orig" >"$scratch/mut.new"
	! cmp -s "$scratch/mut.orig" "$scratch/mut.new" || { echo "    $1: stale, changes nothing in $f"; return 1; }
}
for m in "$RIG"/mutants/kernel/*.sed; do
	t "kernel mutant $(basename "$m" .sed) applies to the series" mutant_applies "$m"
done

# 7. the README's patch list is the series: item N is patch N's subject
readme_patches() {
	local i=0 p subj
	while read -r p; do
		i=$((i + 1))
		subj=$(awk '/^Subject: / { s = $0; getline; while ($0 ~ /^ /) { s = s $0; getline }; print s; exit }' \
			"$PATCHES/$p" | sed 's/^Subject: \[PATCH[^]]*\] //')
		grep -qF -- "$i. \`$subj\`" "$TOP/README.md" ||
			{ echo "    README.md has no item '$i. \`$subj\`'"; return 1; }
	done < <(series_list)
	! grep -q "^$((i + 1))\. \`" "$TOP/README.md" ||
		{ echo "    README.md lists more than the $i patches"; return 1; }
}
t "README's patch list is patches/series, in order" readme_patches

# 8. rig/README.md's knob table is the scripts': each knob it names is read
#    by a script, a script's literal default ${K:-D} is in K's row, and every
#    ${K:-...} a script reads is in the table, or passed between stages
#    (the list below)
knobs_ok() {
	local rows k d row f scripts=() bad=0 stage=" TOP RIG BUILD_ RUNS TOP_LINES SHARING_RUNS SIZES OUT MD PLUGIN CCACHE_DIR CROSS_COMPILE COUNT GUEST_LTP DROPPED "
	for f in "$RIG"/*.sh; do [ "$f" = "$RIG/check.sh" ] || scripts+=("$f"); done
	rows=$(sed -n '/^## Knobs/,/^## results/p' "${1:-$RIG/README.md}" | grep '^| [A-Z]')
	for k in $(echo "$rows" | cut -d'|' -f2 | tr '/' ' '); do
		grep -qE "\\\$\{?$k\b" "$RIG"/*.sh "$TOP/Makefile" ||
			{ echo "    rig/README.md names $k, which no script reads"; bad=1; }
	done
	while read -r k d; do
		row=$(echo "$rows" | awk -F'|' -v k="$k" '{ n = split($2, a, /[ \/]+/); for (i = 1; i <= n; i++) if (a[i] == k) print }')
		if [ -z "$row" ]; then
			[[ $stage == *" $k "* ]] || { echo "    \${$k:-} is read but not in rig/README.md's knob table"; bad=1; }
			continue
		fi
		d=${d#\"}; d=${d%\"}
		[ -z "$d" ] || [[ $d == *'$'* ]] || echo "$row" | grep -qE "[(\` ]${d}[)\`:, ]" ||
			{ echo "    rig/README.md's $k row does not give the default $d"; bad=1; }
	done < <(grep -ohE '\$\{[A-Z_]+:-("[^"]*"|[^}"]*)\}' "${scripts[@]}" | sed -E 's/^\$\{([A-Z_]+):-(.*)\}$/\1 \2/' | sort -u)
	return $bad
}
t "rig/README.md's knobs are the scripts' (names and defaults)" knobs_ok
# and the check catches a wrong default, a knob no script reads, a knob
# the table lacks
knobs_bad() {
	sed "$1" "$RIG/README.md" >"$scratch/README.knobs"
	! knobs_ok "$scratch/README.knobs" >/dev/null
}
t "the knob check fails on a wrong default" knobs_bad 's/a boot is killed (1500)/a boot is killed (1200)/'
knobs_unread() {
	sed 's/^| BENCH_T |/| NOSUCHKNOB | bench | x |\n&/' "$RIG/README.md" >"$scratch/README.knobs"
	local out
	out=$(knobs_ok "$scratch/README.knobs")
	[[ $out == *"names NOSUCHKNOB, which no script reads"* ]]
}
t "the knob check fails on a knob no script reads" knobs_unread
t "the knob check fails on a knob left out" knobs_bad '/^| MINUTES |/d'

# the base/patched comparison of the report's diff lines (BAT, LTP) on
# canned outputs (rig/tests/ltp-diff/README)
diff_is() {
	local out
	out=$("$RIG/differential.sh" "$RIG/tests/ltp-diff/base" "$RIG/tests/ltp-diff/$1" LTP)
	[ $? -eq "$2" ] && [[ $out == "$3"* ]] && [[ $out == *"$4"* ]] || { echo "# got: $out"; return 1; }
}
t "LTP comparison: the same answers pass" diff_is same 0 "PASS: 4 lines" ""
t "LTP comparison: a test that differs fails, with its lines" diff_is differ 1 "FAIL: base and differ differ" "> LTP fcntl05 exit=1 passed=0 failed=1"
t "LTP comparison: a run cut short fails" diff_is unfinished 1 "FAIL: unfinished did not finish" ""

# 9. results/INDEX.md is what rig/index.sh writes from results/ now
t "results/INDEX.md is current (rig/index.sh)" "$RIG/index.sh" --check

status >"$scratch/git-status.after"
t "make check leaves git status as it found it" cmp -s "$scratch/git-status.before" "$scratch/git-status.after"

echo "1..$n"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
