#!/bin/bash
# make kernel-test: apply the series to rc1, build what
# rig/scenarios/kernel-test lists (patched and base kernels), compare their
# gcc and sparse warnings, run each boot (rig/boot.sh), then
# rig/report-kernel-test.sh writes results/REPORT.md.
#
# Environment: KERNEL_SRC (see tree.sh), BOOTS (names or globs of the
# scenario's boots), CONFIGS and BASE_CONFIGS (when set: build only these
# patched / base configs of the scenario), BOOT_TIMEOUT (seconds, 1500),
# SWEEP_TIMEOUT (seconds, 5400: the fault sweeps), LTP_SRC (rig/ltp.sh),
# LTP_TIMEOUT (seconds, 14400: an LTP boot), KARGS (more kernel arguments), REPORT (results/REPORT.md), PATCHES,
# REJUDGE (set: no tree, build or boot; compare the warnings of the last
# run's builds again and judge its boots again, as rcutorture's
# kvm-recheck does: for a fix to the rig's judging; that run must be of the
# series in patches/ now), RESUME (set: as REJUDGE, but the boots the
# scenario has gained since that run, or that ran on another series, are
# booted now on its builds; the report says when it was resumed).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export BOOT_TIMEOUT=${BOOT_TIMEOUT:-1500} SWEEP_TIMEOUT=${SWEEP_TIMEOUT:-5400} LTP_TIMEOUT=${LTP_TIMEOUT:-14400}
kt=$RUNS/kernel-test
sid=$(series_id)
[ -z "${REJUDGE:-}" ] || [ -z "${RESUME:-}" ] || die "REJUDGE and RESUME: one or the other"
if [ -n "${REJUDGE:-}${RESUME:-}" ]; then
	[ -f "$kt/built" ] && [ -f "$kt/scenarios" ] || die "REJUDGE/RESUME: no kernel-test run in ${kt#"$TOP"/}"
	[ -f "$kt/compat" ] || die "REJUDGE/RESUME: the last kernel-test did not finish its builds; run make kernel-test again"
	ls "$kt"/out/*/summary >/dev/null 2>&1 ||
		die "REJUDGE/RESUME: the last kernel-test is from before build.sh's summary line; run make kernel-test again"
	if [ -f "$kt/series" ] && [ "$(cat "$kt/series")" != "$sid" ]; then
		# RESUME over a change of the changelogs alone (the figures
		# they quote): the builds and boots stand, as the code is the
		# same; checkpatch and kernel-doc run again on the patches now
		[ -n "${RESUME:-}" ] && [ "$(code_of_series "$(cat "$kt/series")")" = "$(code_id)" ] ||
			die "REJUDGE/RESUME: the last kernel-test ran on series $(cut -c1-8 "$kt/series"), patches/ is ${sid:0:8}"
		say "RESUME: series ${sid:0:8} has the code of the run's $(cut -c1-8 "$kt/series"): checkpatch and kernel-doc again"
		cat "$kt/series" >>"$kt/same-code"
		"$RIG/tree.sh"
		base_tree
		"$RIG/lint.sh" >"$kt/lint" || die "rig/lint.sh failed"
		echo "$sid" >"$kt/series"
	fi
	if [ -n "${RESUME:-}" ]; then
		[ -z "${BOOTS:-}${CONFIGS+set}${BASE_CONFIGS+set}" ] ||
			die "RESUME: BOOTS, CONFIGS and BASE_CONFIGS are the first run's; unset them"
		[ -z "${LTP_SRC:-}" ] || "$RIG/ltp.sh" || die "rig/ltp.sh failed"
		# the scenario now; a build the run did not make stays left out
		rm -f "$kt/dropped.new"
		DROPPED=$kt/dropped.new scenarios kernel-test >"$kt/scenarios.new" || die "rig/scenarios/kernel-test"
		awk 'NR == FNR { b[$0] = 1; next }
		     $1 == "build" && !(($2 " " $3) in b) { print "RESUME " $0 >>drop; next } { print }' \
			drop="$kt/dropped.new" "$kt/built" "$kt/scenarios.new" >"$kt/scenarios.new2"
		grep -hv '^RESUME ' "$kt/dropped" 2>/dev/null >>"$kt/dropped.new" || true
		mv "$kt/scenarios.new2" "$kt/scenarios"
		mv "$kt/dropped.new" "$kt/dropped"
		rm -f "$kt/scenarios.new" "$kt/rejudged" "$kt/gained"
		date +%s >"$kt/resumed"
		say "resuming the kernel-test of series ${sid:0:8}: the boots it has not run"
	fi
	if [ -n "${REJUDGE:-}" ]; then
		while read -r what name _; do
			[ "$what" = boot ] && [ -f "$RUNS/$name/series" ] || continue
			[ "$(cat "$RUNS/$name/series")" = "$sid" ] || [ "$(cat "$RUNS/$name/code" 2>/dev/null)" = "$(code_id)" ] ||
				die "REJUDGE: run $name is of series $(cut -c1-8 "$RUNS/$name/series"), patches/ is ${sid:0:8}"
			"$RIG/verdict.sh" "$RUNS/$name" >/dev/null || true
		done <"$kt/scenarios"
		# the boots the scenario has gained since the run (the report
		# lists them): of the scenario now, neither run nor dropped then
		(unset BOOTS CONFIGS BASE_CONFIGS; scenarios kernel-test) | awk '$1 == "boot" { print $2 }' |
			grep -vxF -f <(awk '$1 == "boot" { print $2 } $2 == "boot" { print $3 }' "$kt/scenarios" "$kt/dropped" 2>/dev/null) >"$kt/gained" || true
		date -u +%Y-%m-%dT%H:%MZ >"$kt/rejudged"
		say "judging again the builds and boots of series ${sid:0:8}"
	fi
else
	rm -rf "$kt"
	mkdir -p "$kt"
	date +%s >"$kt/start"
	"$RIG/tree.sh"
	say "series $(series_id) ($(series_list | wc -l) patches)"
	series_id >"$kt/series"
	base_tree
	# checkpatch --strict and kernel-doc, patch by patch (the report judges)
	"$RIG/lint.sh" >"$kt/lint" || die "rig/lint.sh failed"
	# the spin model of lg_global_lock_online()'s CPU hotplug protocol
	# and its mutants (make check runs it too; the report shows it)
	"$RIG/proof/promela/check.sh" >"$kt/spin" 2>&1 || true
	# LTP: built from LTP_SRC (rig/ltp.sh); without it, an earlier build
	# of build/ltp is used, or the LTP boots are left out
	if [ -n "${LTP_SRC:-}" ]; then
		"$RIG/ltp.sh" || die "rig/ltp.sh failed"
	elif [ -f "$BUILD/ltp/tests" ]; then
		say "LTP: no LTP_SRC; using build/ltp as built before ($(head -n1 "$BUILD/ltp/VERSION"))"
	else
		say "LTP: no LTP_SRC, no build/ltp: the LTP boots are left out (LTP_SRC=an LTP tarball, directory or GITDIR@COMMIT)"
	fi
	# what BOOTS, CONFIGS and BASE_CONFIGS leave out goes in $kt/dropped
	DROPPED=$kt/dropped scenarios kernel-test >"$kt/scenarios" || die "rig/scenarios/kernel-test"
	mkdir -p "$kt/out"

	# Builds: "kern cfg" lines in $kt/builds, each out dir has its result.
	while read -r what kern cfg _; do
		[ "$what" = build ] || continue
		"$RIG/build.sh" "$kern" "$cfg" </dev/null || true
		echo "$kern $cfg" >>"$kt/built"
		# what the build left, kept with the run: a later build or make
		# bisect rewrites the out dir, REJUDGE judges this run's
		o=$(kern_out "$kern" "$cfg")
		mkdir -p "$kt/out/$kern-$cfg"
		for f in summary warnings modpost; do
			[ ! -f "$o/$f" ] || cp "$o/$f" "$kt/out/$kern-$cfg/"
		done
		# what was built, so that RESUME boots this build and no other
		(cd "$o" && sha256sum .config vmlinux 2>/dev/null) >"$kt/out/$kern-$cfg/image" || true
	done <"$kt/scenarios"
	# struct file's size compiled in the x86 configs, also with
	# CONFIG_SECURITY on (the report shows it; results/sizes.csv)
	OUT=$kt/sizes.csv "$RIG/sizes.sh" >/dev/null ||
		say "rig/sizes.sh failed: no compiled sizes in the report"
	# the compat patches the trees were made with, for the report
	for p in "$RIG"/compat/*.patch; do
		sed -n 's/^Subject: \[PATCH\] //p' "$p"
	done >"$kt/compat"
fi
# RESUME: run NAME booted this scenario line (the timeout aside)
same_boot() {
	local name=$1; shift
	[ "$(awk '{ $5 = ""; print }' "$RUNS/$name/boot" 2>/dev/null)" = \
	  "$(echo "$name ${*//@RUN@/$RUNS/$name}" | sed "s#$TOP/##g" | awk '{ $5 = ""; print }')" ]
}

built() { grep -qx "$1 $2" "$kt/built" 2>/dev/null && [ "$(kv result "$kt/out/$1-$2/summary")" = ok ]; }
# RESUME: the out dir still holds the run's build (a soak, bench or
# build.sh by hand may have rebuilt it since)
same_build() { [ -s "$kt/out/$1-$2/image" ] && (cd "$(kern_out "$1" "$2")" && sha256sum -c --quiet "$kt/out/$1-$2/image" >/dev/null 2>&1); }
# Warnings the series adds: same message in the same file, line numbers
# and addresses dropped, in the patched build and not in the base build:
# gcc's, modpost's (section mismatches in full) and sparse's (rig/sparse.sh:
# the C files the series touches), for every config built both ways.
: >"$kt/new-warnings"
: >"$kt/new-modpost"
: >"$kt/new-sparse"
while read -r kern cfg; do
	[ "$kern" = patched ] && built patched "$cfg" && built base "$cfg" || continue
	p=$kt/out/patched-$cfg b=$kt/out/base-$cfg
	warn_added "$p" "$b" warnings | sed "s/^/$cfg: /" >>"$kt/new-warnings"
	warn_added "$p" "$b" modpost | sed "s/^/$cfg: /" >>"$kt/new-modpost"
	[ -n "${REJUDGE:-}${RESUME:-}" ] || say "sparse $cfg: patched and base"
	# (REJUDGE, RESUME: the run's sparse output, not sparse again)
	for k in patched base; do
		s=$kt/out/$k-$cfg/sparse
		# (RESUME: sparse where the run has none, on the run's build)
		if { [ -z "${REJUDGE:-}${RESUME:-}" ] ||
		     { [ -n "${RESUME:-}" ] && [ ! -f "$s" ] && same_build "$k" "$cfg"; }; } &&
		   ! ARCH=$(config_meta "$cfg" arch x86_64) CROSS_COMPILE=$(config_meta "$cfg" cross "") \
			"$RIG/sparse.sh" "$(kern_tree "$k")" "$(kern_out "$k" "$cfg")" >"$s" </dev/null; then
			rm -f "$s"
		fi
		[ -f "$s" ] || echo "$cfg: sparse did not run in $k" >>"$kt/new-sparse"
	done
	[ -f "$p/sparse" ] && [ -f "$b/sparse" ] || continue
	warn_added "$p" "$b" sparse | sed "s/^/$cfg: /" >>"$kt/new-sparse"
	say "sparse $cfg: $(wc -l <"$p/sparse") warnings (base $(wc -l <"$b/sparse")), $(grep -c "^$cfg: " "$kt/new-sparse") new"
done <"$kt/built"

# a line a build: kern= config=, build.sh's summary, sparse= (warnings)
while read -r kern cfg; do
	o=$kt/out/$kern-$cfg
	echo "kern=$kern config=$cfg $(cat "$o/summary" 2>/dev/null || echo result=FAIL) sparse=$(if [ -f "$o/sparse" ]; then wc -l <"$o/sparse"; else echo -; fi)"
done <"$kt/built" >"$kt/builds"

# Boots: each in build/runs/NAME (a failing verdict goes in the report).
[ -n "${REJUDGE:-}" ] ||
while read -r what name kern cfg rest; do
	[ "$what" = boot ] || continue
	# shellcheck disable=SC2086
	if [ -n "${RESUME:-}" ] && [ -f "$RUNS/$name/verdict" ] &&
	   { [ "$(cat "$RUNS/$name/series" 2>/dev/null)" = "$sid" ] || [ "$(cat "$RUNS/$name/code" 2>/dev/null)" = "$(code_id)" ]; } &&
	   same_boot "$name" "$kern" "$cfg" $rest; then
		"$RIG/verdict.sh" "$RUNS/$name" >/dev/null || true
	elif [ -n "${RESUME:-}" ] && built "$kern" "$cfg" && ! same_build "$kern" "$cfg"; then
		rm -rf "${RUNS:?}/$name"
		mkdir -p "$RUNS/$name"
		echo "not run: build/$(basename "$(kern_out "$kern" "$cfg")") is not the run's $kern $cfg build any more" >"$RUNS/$name/verdict"
	elif built "$kern" "$cfg"; then
		# shellcheck disable=SC2086
		"$RIG/boot.sh" "$name" "$kern" "$cfg" $rest </dev/null || true
	else
		rm -rf "${RUNS:?}/$name"
		mkdir -p "$RUNS/$name"
		echo "not run: the $kern $cfg kernel was not built" >"$RUNS/$name/verdict"
	fi
done <"$kt/scenarios"

[ -n "${REJUDGE:-}" ] || date +%s >"$kt/${RESUME:+resumed-}end"
"$RIG/report-kernel-test.sh"
