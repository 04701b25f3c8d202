#!/bin/bash
# results/REPORT.md (or $REPORT) from build/runs/: kernel-test's own folder
# (scenarios, builds, new warnings) and each boot's run folder.  Its only
# writer.  Exit 0 when the report says PASS.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

REPORT=${REPORT:-$RESULTS/REPORT.md}
kt=$RUNS/kernel-test
[ -f "$kt/scenarios" ] || die "no $kt: run make kernel-test first"
[ -f "$kt/compat" ] || die "$kt has no compat list (a run from before the rig recorded it): run make kernel-test again"
lines() { awk -v w="$1" '$1 == w { $1 = ""; print substr($0, 2) }' "$kt/scenarios"; }
verdict() { head -n1 "$RUNS/$1/verdict" 2>/dev/null || echo "not run"; }

fails=0
# kt/builds: a key=value line a build (kernel-test.sh)
bkv() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }
while read -r b; do [ "$(bkv "$b" result)" = ok ] || fails=$((fails + 1)); done <"$kt/builds"
while read -r name _; do case $(verdict "$name") in PASS*) ;; *) fails=$((fails + 1)) ;; esac; done < <(lines boot)
[ -s "$kt/new-warnings" ] && fails=$((fails + 1))
[ -s "$kt/new-sparse" ] && fails=$((fails + 1))
[ -s "$kt/new-modpost" ] && fails=$((fails + 1))

declare -A diffs
while read -r a b p; do
	if grep -q "^boot $a " "$kt/scenarios" && grep -q "^boot $b " "$kt/scenarios"; then
		diffs[$a]=$("$RIG/differential.sh" "$RUNS/$a" "$RUNS/$b" "$p" || true)
		case ${diffs[$a]} in FAIL*) fails=$((fails + 1)) ;; esac
	fi
done < <(lines diff)

# sweep BASE PATCHED: the fault sweeps side by side (rig/sweep-table.awk)
declare -A sweeps
while read -r a b; do
	if grep -q "^boot $a " "$kt/scenarios" && grep -q "^boot $b " "$kt/scenarios"; then
		sweeps[$a]=$(awk -f "$RIG/fields.awk" -f "$RIG/sweep-table.awk" "$RUNS/$a/output" "$RUNS/$b/output" 2>/dev/null ||
			echo "FAIL: no output to compare")
		case ${sweeps[$a]} in FAIL*) fails=$((fails + 1)) ;; esac
	fi
done < <(lines sweep)

# The first boot of KERN in CONFIG whose RUN names vfstest's TEST (with its
# arguments or not): "pick KERN CONFIG TEST", nothing when there is none.
pick() { lines boot | awk -v k="$1" -v c="$2" -v t="$3" '$2 == k && $3 == c && $7 ~ ("," t "([:,]|$)") { print $1; exit }'; }
# "run NAME" for a table's caption: the run and its verdict
run_is() { if [ -n "$1" ]; then echo "\`$1\` ($(verdict "$1"))"; else echo "none in the scenario"; fi; }

# tty_remount's "TTYRO CASE RESULT" lines, base (rc1) and patched side by
# side: the one behaviour the series changes on purpose
ttyro_b=$(pick base smp tty_remount) ttyro_p=$(pick patched smp tty_remount)
ttyro_res() { cat "$RUNS/${1:-none}/output" 2>/dev/null | awk -v c="$2" '$1 == "TTYRO" && $2 == c { r = $3 } END { print (r == "" ? "not run" : r) }'; }
ttyro_cases=$(cat "$RUNS/${ttyro_b:-none}/output" "$RUNS/${ttyro_p:-none}/output" 2>/dev/null | awk '$1 == "TTYRO" && !seen[$2]++ { print $2 }') || true

# filp_size's "SIZE filp object_size=N slab_size=M", base and patched, per
# arch: patched no larger than base (object_size and slab_size on x86_64,
# slab_size on i386), else a FAIL of the verdict; "not run" is no failure
# here (a boot of the scenario that did not run fails as a boot)
size_of() { sed -n "s/^SIZE filp .*\<$2=\([0-9]*\).*/\1/p" "$RUNS/${1:-none}/output" 2>/dev/null | tail -n1 || true; }
size_rows='' size_worse='' size_missing='' size_noted=''
for arch_cfg in x86_64:smp:object_size,slab_size i386:i386:slab_size; do
	IFS=: read -r arch cfg judged <<<"$arch_cfg"
	b=$(pick base "$cfg" filp_size) p=$(pick patched "$cfg" filp_size)
	row="| $arch | ${b:+\`}${b:-none}${b:+\`} | ${p:+\`}${p:-none}${p:+\`}"
	for k in object_size slab_size; do
		bv=$(size_of "$b" $k) pv=$(size_of "$p" $k)
		if [ -n "$bv$pv" ]; then row="$row | ${bv:-not run} → ${pv:-not run}"; else row="$row | not run"; fi
		if [[ ,$judged, != *",$k,"* ]]; then
			[ -z "$bv" ] || [ -z "$pv" ] || [ "$pv" -le "$bv" ] ||
				size_noted="$size_noted $arch $k $bv → $pv,"
			continue
		fi
		if [ -z "$bv" ] || [ -z "$pv" ]; then
			size_missing="$size_missing $arch $k,"
		elif [ "$pv" -gt "$bv" ]; then
			size_worse="$size_worse $arch $k $bv → $pv,"
		fi
	done
	for r in $b $p; do
		grep -qw slub_nomerge "$RUNS/$r/cmdline" 2>/dev/null ||
			[ ! -f "$RUNS/$r/cmdline" ] || row="$row (\`$r\` without slub_nomerge: filp may be a merged cache)"
	done
	size_rows="$size_rows$row |"$'\n'
done
if [ -n "$size_worse" ]; then
	size_verdict="FAIL: the patched struct file is larger:${size_worse%,}"
	fails=$((fails + 1))
elif [ -n "$size_missing" ]; then
	size_verdict="not run:${size_missing%,} (no SIZE line)"
else
	size_verdict="PASS: patched object_size and slab_size not larger than base's on x86_64, slab_size not larger on i386"
fi
[ -z "$size_noted" ] || size_verdict="$size_verdict (larger, not judged:${size_noted%,})"

# rig/lint.sh's lines: a checkpatch --strict error, warning or check, or a
# kernel-doc warning the patched tree has and base has not, fails
lint_bad=$(awk '$1 == "LINT" {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["checkpatch_errors"] + v["checkpatch_warnings"] + v["checkpatch_checks"] > 0 ||
	    v["kerneldoc_patched"] > v["kerneldoc_base"]) print v["patch"] }' "$kt/lint" 2>/dev/null) || true
[ -f "$kt/lint" ] || lint_bad="(no rig/lint.sh output)"
[ -z "$lint_bad" ] || fails=$((fails + 1))
# the spin model: every line ok (none when kernel-test did not run it)
spin_bad=
if [ -f "$kt/spin" ] && { grep -q '^not ok' "$kt/spin" || ! grep -q '^ok' "$kt/spin"; }; then
	spin_bad=1
	fails=$((fails + 1))
fi

verdict=PASS
[ $fails -eq 0 ] || verdict="FAIL ($fails)"
# What CONFIGS / BASE_CONFIGS / BOOTS left out of this run (kernel-test
# kept it in $kt/dropped)
left_builds=$(awk '$2 == "build" { print $3 ":" $4 }' "$kt/dropped" 2>/dev/null | paste -sd' ' -) || true
left_boots=$(awk '$2 == "boot" { print $3 }' "$kt/dropped" 2>/dev/null | paste -sd' ' -) || true
# and the boots rig/scenarios/kernel-test has gained since the run (REJUDGE
# of an older run wrote them in $kt/gained; RESUME boots them): listed, not
# judged, and no reason to call the run partial
added_boots=
[ ! -f "$kt/gained" ] || added_boots=$(paste -sd' ' - <"$kt/gained")
[ -z "$left_builds$left_boots" ] || verdict="$verdict, partial"
[ -z "$added_boots" ] || verdict="$verdict as run (the scenario has grown since: $(echo "$added_boots" | wc -w) boots not run)"
{
	echo "# Kernel-level report"
	echo
	echo "series: $(series_id)"
	echo
	# START END: "from DATE, Ns", or "from DATE, cut short" without END
	span() { echo "from $(date -u -d "@$(cat "$1")" +%Y-%m-%dT%H:%MZ), $(if [ -f "$2" ]; then echo "$(($(cat "$2") - $(cat "$1")))s"; else echo "cut short"; fi)"; }
	# what a RESUME did after the first run ended: the boots and the
	# sparse outputs newer than its end
	late() { while read -r f; do [ ! -f "$f" ] || [ "$(stat -c %Y "$f")" -le "$(cat "$kt/end")" ] || echo "$f"; done; }
	resumed=
	if [ -f "$kt/resumed" ] && [ -f "$kt/end" ]; then
		late_boots=$(awk '$1 == "boot" { print r "/" $2 "/rc" }' r="$RUNS" "$kt/scenarios" | late | awk -F/ '{ print $(NF - 1) }' | paste -sd' ' -)
		late_sparse=$({ ls "$kt"/out/*/sparse 2>/dev/null || true; } | late | awk -F/ '{ print $(NF - 1) }' | paste -sd' ' -)
		resumed="resumed with RESUME=1 on the same builds (last $(span "$kt/resumed" "$kt/resumed-end")): booted since the first run: ${late_boots:-none}; sparse run since: ${late_sparse:-none}"
	fi
	if [ -f "$kt/rejudged" ]; then
		echo "Written by \`make kernel-test\` (builds and boots $(span "$kt/start" "$kt/end")${resumed:+; $resumed}), judged again with REJUDGE=1 at $(cat "$kt/rejudged")."
	elif [ -n "$resumed" ]; then
		echo "Written by \`make kernel-test\` (builds and boots $(span "$kt/start" "$kt/end")), $resumed."
	else
		echo "Written by \`make kernel-test\` ($(date -u +%Y-%m-%dT%H:%MZ), $(($(date +%s) - $(cat "$kt/start")))s)."
	fi
	echo "Verdict: $verdict"
	echo
	if [ -f "$kt/same-code" ]; then
		# (the run's first series, then the ids its changelogs had since)
		echo "The builds and boots ran on series $(head -n1 "$kt/same-code" | cut -c1-8)$(sed 1d "$kt/same-code" | cut -c1-8 | paste -sd' ' - | sed 's/^./ (changelogs since: &/; s/.$/&)/'), whose code is this series' (code id $(code_id | cut -c1-8)): only the changelogs differ, and checkpatch and kernel-doc ran again on these (RESUME=1)."
		echo
	fi
	if [ -n "$left_builds$left_boots" ]; then
		echo "Left out of this run (CONFIGS, BASE_CONFIGS, BOOTS):"
		echo "builds ${left_builds:-none}; boots ${left_boots:-none}."
		echo
	fi
	if [ -n "$added_boots" ]; then
		echo "Boots rig/scenarios/kernel-test gained after this run (not run, not judged):"
		echo "$added_boots."
		echo
	fi
	echo "- base tree: v2.6.36-rc1, git tree $RC1_TREE (verified by content)"
	echo "- patches: $(series_list | wc -l) ($(series_list | paste -sd' ' -))"
	echo "- toolchain: $(gcc --version | head -n1); $(ld --version | head -n1); $(make --version | head -n1); perl $(perl -e 'print $^V'); $(qemu-system-x86_64 --version | head -n1)"
	echo "- host: $(nproc) cpus; QEMU accel: $(lines boot | while read -r name _; do
		sed -n 's/^accel=-accel \([^ ]*\).*/\1/p' "$RUNS/$name/qemu.log" 2>/dev/null; done | sort -u | paste -sd' ' -)"
	echo "- applied before the series (rig/compat, base and patched alike):"
	sed 's/^/  - /' "$kt/compat"
	echo
	echo "## Patches: checkpatch.pl --strict and kernel-doc"
	echo
	echo "rig/lint.sh: checkpatch.pl --strict on each patch; scripts/kernel-doc's warnings on the kernel C files and headers each patch touches, in base and in the patched tree (\"no structured comments found\" left out)."
	echo
	echo "| patch | checkpatch errors | warnings | checks | kernel-doc base | kernel-doc patched |"
	echo "|---|---|---|---|---|---|"
	awk '$1 == "LINT" { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "| %s | %s | %s | %s | %s | %s |\n", v["patch"], v["checkpatch_errors"],
			v["checkpatch_warnings"], v["checkpatch_checks"], v["kerneldoc_base"], v["kerneldoc_patched"] }' \
		"$kt/lint" 2>/dev/null || true
	echo
	if [ -n "$lint_bad" ]; then echo "FAIL: $lint_bad" | paste -sd' ' -; else echo "PASS"; fi
	echo
	echo "## Builds"
	echo
	echo "Per config, base → patched (a config built one way only shows one side):"
	echo
	echo "| config | arch, target | result | seconds | gcc warnings | modpost warnings | sparse warnings (files the series touches) |"
	echo "|---|---|---|---|---|---|---|"
	two() { if [ -n "$1" ] && [ -n "$2" ]; then echo "$1 → $2"; else echo "${1:-}${2:-}"; fi; }
	sed -n 's/.*config=\([^ ]*\).*/\1/p' "$kt/builds" | awk '!seen[$0]++' | while read -r cfg; do
		b=$(grep "^kern=base config=$cfg " "$kt/builds") || true
		p=$(grep "^kern=patched config=$cfg " "$kt/builds") || true
		f() { [ -z "$1" ] || { v=$(bkv "$1" "$2"); echo "${v:--}"; }; }
		row="| $cfg | $(config_meta "$cfg" arch x86_64), $(config_meta "$cfg" target bzImage) |"
		for k in result seconds gcc modpost sparse; do row="$row $(two "$(f "$b" $k)" "$(f "$p" $k)") |"; done
		echo "$row"
	done
	echo
	for w in "new-warnings|Warnings the series adds (not in the base build):" \
		 "new-modpost|modpost warnings the series adds (section mismatches in full; not in the base build):" \
		 "new-sparse|Sparse warnings the series adds (make C=2 on the C files it touches, not in the base):"; do
		if [ -s "$kt/${w%%|*}" ]; then
			echo "${w#*|}"
			echo '```'
			cat "$kt/${w%%|*}"
			echo '```'
		else
			echo "${w#*|} none."
		fi
		echo
	done
	echo "## Boots"
	echo
	echo "| boot | verdict |"
	echo "|---|---|"
	while read -r name _; do
		echo "| $name | $(verdict "$name")$([ -f "$RUNS/$name/seconds" ] && echo " ($(cat "$RUNS/$name/seconds")s)") |"
	done < <(lines boot)
	echo
	while read -r name _ _ _ _ judge _; do
		r=$RUNS/$name
		[ -f "$r/output" ] || continue
		case $(verdict "$name") in PASS*) ;; *)
			echo "### $name: first lines of what went wrong"
			echo '```'
			tail -n +2 "$r/verdict"
			grep -a -E '^not ok|^# FAIL' "$r/output" | head -n 20 || true
			echo '```'
		esac
		[ "$judge" = tap ] || continue
		echo "<details><summary>$name TAP</summary>"
		echo
		echo '```'
		grep -a -E '^(TAP|1\.\.|ok |not ok |# )' "$r/output" | grep -av '^# FAIL' | head -n 60 || true
		# the lglock torture test's lines (built in: its boot run; the
		# module test: its first load)
		grep -a -F 'lglock-torture: ' "$r/console.txt" | head -n 12 || true
		echo '```'
		echo "</details>"
		echo
	done < <(lines boot)
	while read -r a b p; do
		echo "## Differential: $a against $b ($p lines)"
		echo
		echo "${diffs[$a]:-not run (BOOTS left out its boots)}"
		echo
	done < <(lines diff)
	# LTP: per pair of runs, the totals of each kernel and the tests
	# whose line differs (the diff above judges; this sums up)
	if lines diff | grep -q ' LTP$'; then
		echo "## LTP"
		echo
		echo "$(head -n1 "$BUILD/ltp/VERSION" 2>/dev/null || echo 'LTP ?'), built by rig/ltp.sh (musl, static); the tests of rig/ltp/dirs, $(wc -l <"$BUILD/ltp/tests" 2>/dev/null || echo '?') binaries, each in a fresh tmpfs (rig/guest/ltprun). A test's line is its exit status and its counts; base and patched must have the same lines."
		echo
		echo "| runs (base / patched) | tests | same | differ | base passed/failed/broken/skipped | patched passed/failed/broken/skipped |"
		echo "|---|---|---|---|---|---|"
		while read -r a b p; do
			[ "$p" = LTP ] || continue
			fa=$RUNS/$a/output fb=$RUNS/$b/output
			if [ ! -f "$fa" ] || [ ! -f "$fb" ]; then
				echo "| $a / $b | not run | | | | |"
				continue
			fi
			awk 'FNR == 1 { f++ } $1 == "LTP" && $2 != "end" { k = $2; v = $0; sub(/^LTP [^ ]* /, "", v); r[f, k] = v; t[k] = 1
				for (i = 4; i <= 7; i++) { split($i, q, "="); s[f, i] += q[2] } }
				END { for (k in t) { n++; if (r[1, k] == r[2, k]) same++; else { d++; diff = diff " " k } }
					printf "| %s | %d | %d | %d%s | %d/%d/%d/%d | %d/%d/%d/%d |\n", runs, n, same, d, (d ? ":" diff : ""),
						s[1, 4], s[1, 5], s[1, 6], s[1, 7], s[2, 4], s[2, 5], s[2, 6], s[2, 7] }' \
				runs="$a / $b" "$fa" "$fb"
		done < <(lines diff)
		echo
		# what the list leaves out, and what runs with the hotplug paused
		for f in skip hotplug-pause; do
			case $f in skip) echo "Left out of the list (rig/ltp/skip):" ;; *) echo "Run with the hotplug paused and every CPU online, in the hotplug runs (rig/ltp/hotplug-pause):" ;; esac
			echo
			awk '!/^#/ && NF { n = $1; sub(/^[^ ]+ +/, ""); printf "- %s: %s\n", n, $0 }' "$RIG/ltp/$f"
			echo
		done
	fi
	while read -r a b; do
		echo "## Fault sweeps: $a against $b"
		echo
		echo "${sweeps[$a]:-not run (BOOTS left out its boots)}"
		echo
	done < <(lines sweep)
	echo "## Behaviour change: remount,ro with an open tty"
	echo
	echo "rig/guest/vfstest.c tty_remount: remount,ro of a tmpfs holding a tty node (ptmx), open and unlinked; a /dev/null node the same way; a devpts with a pts slave open after its master closed. Base run $(run_is "$ttyro_b"), patched run $(run_is "$ttyro_p")."
	echo
	if [ -n "$ttyro_cases" ]; then
		echo "| case | base (rc1) | patched |"
		echo "|---|---|---|"
		for c in $ttyro_cases; do
			echo "| $c | $(ttyro_res "$ttyro_b" "$c") | $(ttyro_res "$ttyro_p" "$c") |"
		done
	else
		echo "not run (no TTYRO lines)"
	fi
	echo
	echo "## struct file and the filp slab"
	echo
	echo "rig/guest/vfstest.c filp_size: /sys/kernel/slab/filp/object_size (sizeof(struct file) with slub_nomerge) and slab_size, base → patched."
	echo
	echo "| arch | base run | patched run | object_size | slab_size |"
	echo "|---|---|---|---|---|"
	printf '%s' "$size_rows"
	echo
	echo "$size_verdict"
	echo
	echo "rig/sizes.sh: sizeof(struct file) and the filp object SLUB makes of it (64-byte lines), compiled against each tree in the x86 configs as built and with CONFIG_SECURITY forced on (not judged; the per-CPU lists patch states the i386 cost):"
	echo
	if [ -f "$kt/sizes.csv" ]; then
		echo '```'
		SIZES=$kt/sizes.csv "$RIG/figures.sh" render sizes
		echo '```'
		cp "$kt/sizes.csv" "$RESULTS/sizes.csv"
	else
		echo "not measured (rig/sizes.sh did not run)"
	fi
	echo
	echo "## Model check: spin"
	echo
	echo "rig/proof/promela/check.sh: the model of lg_global_lock_online()'s CPU hotplug protocol (readers, a writer, a CPU going up and down) must pass, each mutant must be rejected."
	echo
	if [ -s "$kt/spin" ]; then
		echo '```'
		sed "s#/tmp/[^ /]*#SCRATCH#g" "$kt/spin"
		echo '```'
		if [ -n "$spin_bad" ]; then echo "FAIL"; else echo "PASS"; fi
	else
		echo "not run"
	fi
	echo
	echo "## Kernel mutants"
	echo
	echo "\`make mutants\` (rig/mutants.sh): kernel mutants that the booted suite must kill; [mutants.md](mutants.md) has its table and each mutant's boots. Its rows now:"
	echo
	if [ -f "$RESULTS/mutants.md" ]; then
		sed -n '/^| mutant /,/^$/p' "$RESULTS/mutants.md"
		grep '^Killed:' "$RESULTS/mutants.md" || true
	else
		echo "not run"
	fi
	echo
	echo "## Other reports"
	echo
	echo "Not run by kernel-test: \`make soak\`, \`make bisect\`, \`make bench\` and \`make mutants\` write reports of their own. [INDEX.md](INDEX.md) lists every report with its series, date and verdict, and marks those of another series."
} >"$REPORT"
"$RIG/index.sh"
say "report: ${REPORT#"$TOP"/} — $verdict"
[ $fails -eq 0 ]
