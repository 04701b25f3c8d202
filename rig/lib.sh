# Shared helpers for the rig scripts.  Sourced, never run.
# shellcheck shell=bash disable=SC2034
# (its variables are for the scripts that source it)

RIG=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$RIG/.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=${TREE:-$BUILD/linux}
LOGS=$BUILD/logs
RESULTS=${RESULTS:-$TOP/results}
PATCHES=${PATCHES:-$TOP/patches}
# The tree part of a compiler message's path: build/linux, build/linux-base
# or build/linux-mutant, as the out-of-tree build sees it (../linux/...) or
# absolute; only that prefix, never the include/linux/ inside the tree.
TREE_PATH_RE="(\.\./|$BUILD/)linux(-[a-z]+)?/"
# ... and as a sed -E command for every such path in a line: sparse's
# "note: in included file (through /.../build/linux-base/include/...)"
# names the tree inside the line
TREE_PATHS_SED="s#(^|[ (,])$TREE_PATH_RE#\\1#g"

# Linux v2.6.36-rc1, commit da5cabf80e2433131bf0ed8993abc0f7ea618c73.
RC1_TREE=208f20750722e031b404f1447b22c5ffd0eed215
RC1_URL=${RC1_URL:-https://www.kernel.org/pub/linux/kernel/v2.6/testing/v2.6.36/linux-2.6.36-rc1.tar.bz2}

mkdir -p "$LOGS"

# make in a kernel tree the rig's way: kmake TREE OUTDIR TARGET...
# Toolchain compatibility that belongs on the command line, not in a patch:
#  -fno-pie        Debian's gcc builds PIE by default; the kernel must not be,
#                  and arch/x86/boot sets its own flags, so it goes into CC.
#  -fgnu89-inline  gcc >= 5 defaults to C99 inline semantics; rc1 relies on
#                  gnu89 'extern inline' (else update_rq_clock and
#                  parse_header are undefined at link).
KCC="gcc -fno-pie -fgnu89-inline"
command -v ccache >/dev/null && KCC="ccache $KCC"
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
# relative paths in the cache key: the base and patched trees share hits
export CCACHE_BASEDIR=$BUILD
# ARCH and CROSS_COMPILE (from the config's arch= and cross= keys,
# rig/build.sh) pass through the environment.
# --output-sync=target: under -j, ld writes a warning and its newline
# apart, and another job's line could land between them ("...implies
# executable stackIn file included from ...": a line no build had before);
# each target's messages now come out whole, together.
kmake() {
	local tree=$1 out=$2 cc=$KCC
	shift 2
	[ -z "${CROSS_COMPILE:-}" ] || cc=${KCC/gcc/${CROSS_COMPILE}gcc}
	make -C "$tree" O="$out" CC="$cc" HOSTCC=gcc -j$(($(nproc) + 1)) \
		--output-sync=target "$@"
}

t0=$(date +%s)
say() { printf '[%4ds] %s\n' $(($(date +%s) - t0)) "$*" >&2; }
die() { printf 'rig: error: %s\n' "$*" >&2; exit 1; }

need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' is not installed (rig/deps.sh JOB installs what a job needs)"
	done
}

# Patch names listed in patches/series, in order.
series_list() {
	[ -f "$PATCHES/series" ] || return 0
	# (awk, not grep -v: an empty series is not an error under pipefail)
	awk '!/^[[:space:]]*#/ && NF { print $1 }' "$PATCHES/series"
}

# sha256 of the listed patch files, concatenated in order.
series_id() {
	(cd "$PATCHES" && series_list | while read -r p; do cat "$p"; done) |
		sha256sum | cut -d' ' -f1
}
# The code id: series_id of the diffs alone, without the changelogs, so
# that what a benchmark measured keeps its id when the figures it gave are
# written into the changelogs (rig/figures.sh).
code_id() {
	(cd "$PATCHES" && series_list | while read -r p; do sed -n '/^diff --git /,$p' "$p"; done) |
		sha256sum | cut -d' ' -f1
}

# code_of_series ID: the code id of series ID (or of its abbreviation, 8
# hex digits or more), found in the project's git
# history of patches/ (the series now first), or nothing; so that a
# report of a series whose changelogs alone differ from patches/ now (the
# figures they quote, rig/figures.sh) is known to be of the same code
code_of_series() {
	local c p sid code
	# (ID may be abbreviated: its first 8 digits or more)
	[ ${#1} -ge 8 ] || return 0
	sid=$(series_id)
	[ "$1" != "${sid:0:${#1}}" ] || { code_id; return; }
	for c in $(git -C "$TOP" log --format=%H -- patches/ 2>/dev/null); do
		sid=$(git -C "$TOP" show "$c:patches/series" 2>/dev/null | awk '!/^[[:space:]]*#/ && NF { print $1 }' |
			while read -r p; do git -C "$TOP" show "$c:patches/$p"; done | sha256sum | cut -d' ' -f1)
		[ "${sid:0:${#1}}" = "$1" ] || continue
		code=$(git -C "$TOP" show "$c:patches/series" | awk '!/^[[:space:]]*#/ && NF { print $1 }' |
			while read -r p; do git -C "$TOP" show "$c:patches/$p" | sed -n '/^diff --git /,$p'; done | sha256sum | cut -d' ' -f1)
		echo "$code"
		return
	done
}

# The base kernel's work tree: rc1 + compat (tag "compat" of $TREE), in a
# git worktree beside it, so both kernels build from the same objects.
BASE=$BUILD/linux-base
base_tree() {
	if [ ! -e "$BASE/.git" ]; then
		git -C "$TREE" worktree add -q --detach "$BASE" compat
	fi
	git -C "$BASE" checkout -q --detach -f compat
}

# A warnings file (build.sh's warnings or modpost, sparse.sh's) as
# comparable lines: same message in the same file, the tree's path, line
# numbers and addresses dropped.
warn_norm() { sed -E "$TREE_PATHS_SED"'; s/:[0-9]+:[0-9]+:/:/; s/0x[0-9a-f]+/0x_/g; s/\(\.[a-z.]+\+0x_\)//g' "$1" | sort -u; }
# warn_added P B FILE: the warnings of out dir P's FILE that B's has not
warn_added() { comm -23 <(warn_norm "$1/$3") <(warn_norm "$2/$3"); }

# Where kernel KERN (patched: build/linux, base: rc1 + compat) is built in
# config CFG, and its source tree.
kern_out() { case $1 in base) echo "$BUILD/base-$2" ;; *) echo "$BUILD/out-$2" ;; esac; }
# kv_of KEY: KEY's value in the key=value words on stdin (the last, if more)
kv_of() { tr ' ' '\n' | sed -n "s/^$1=//p" | tail -n1; }
# kv KEY FILE: KEY's value in FILE's key=value line (build.sh's summary),
# or - when it has none
kv() { local v=; [ ! -f "$2" ] || v=$(kv_of "$1" <"$2"); echo "${v:--}"; }
# the tree of KERN (base or patched): a lookup; base_tree makes the base one
kern_tree() { case $1 in base) echo "$BASE" ;; *) echo "$TREE" ;; esac; }

# A config fragment (rig/configs/NAME.config) says what the rig does with
# it in one line of metadata, "#rig KEY=VALUE ...": values have no spaces,
# a list is comma-separated.  Keys: parent (the fragment it stacks on),
# arch (make's ARCH), cross (CROSS_COMPILE), defconfig, target (bzImage,
# vmlinux, objects: the objects of the C files the series touches, or a
# list, bzImage,modules), make (more make arguments), extmod (a directory
# of the tree built as an external module), module (modules of the build
# the guest gets), qemu (the system emulator that boots it), guest (the
# guest programs' ABI: x86_64 or i386), optional (symbols that may be
# absent from the tree: the series' own, on base).
# rig_meta FILE KEY: KEY's value in one fragment, its commas made spaces
rig_meta() { sed -n 's/^#rig //p' "$1" | kv_of "$2" | tr ',' ' '; }

# The fragments of config CFG, root first, by their parent= keys.
config_chain() {
	local f=$RIG/configs/$1.config p
	[ -f "$f" ] || { echo "no config '$1' in rig/configs" >&2; return 1; }
	p=$(rig_meta "$f" parent)
	if [ -n "$p" ]; then config_chain "$p" || return 1; fi
	echo "$f"
}

# config_meta CFG KEY DEFAULT: KEY of the config (the child's wins), else
# DEFAULT.  config_list CFG KEY: the values of every fragment (module,
# optional).
config_meta() {
	local v f
	v=$(for f in $(config_chain "$1"); do rig_meta "$f" "$2"; done | grep . | tail -n1) || true
	echo "${v:-$3}"
}
config_list() {
	local f
	for f in $(config_chain "$1"); do rig_meta "$f" "$2"; done | tr '\n' ' '
}

# scenarios JOB: the lines of rig/scenarios/JOB, whose fields are named
# (rig/scenarios/README.md), as the jobs read them, fields in order:
#   build KERN CONFIG
#   boot NAME KERN CONFIG CPUS TIMEOUT JUDGE RUN [KERNEL_ARGS] [-- QEMU_ARGS]
#   diff A B PREFIX
#   sweep BASE PATCHED
# Comments go, @VAR@ becomes the variable's value (@RUN@ stays: boot.sh
# fills it in), a line that starts with "?PATH " counts only while PATH
# (from the top of the project) exists, and a line that lacks a field is an
# error.  A line that starts with "%VAR " stands for one line for each word
# of VAR, with @VAR@ that word (make bench's SMP).  The one place where
# lines are selected: BOOTS keeps the boots
# whose name matches one of its words (a name or a glob; kern:config:cpus:job
# is read as kern-config-smpN-job); CONFIGS, when set, keeps the patched
# builds of its configs, BASE_CONFIGS the base builds.  With DROPPED=FILE,
# each line left out is added to FILE after the knob that dropped it.
scenarios() {
	local job=$1 line w k drop what name fields out
	local -A f
	for w in $(sed -n 's/^%\([A-Z_]*\) .*/\1/p' "$RIG/scenarios/$job" | sort -u); do
		[ -n "${!w:-}" ] || die "scenario $job needs $w"
	done
	while IFS= read -r line; do
		line=${line%%#*}
		[ -n "${line// /}" ] || continue
		if [[ $line == '?'* ]]; then
			w=${line%% *}
			[ -e "$TOP/${w#?}" ] || continue
			line=${line#* }
		fi
		while [[ $line =~ @([A-Z_]+)@ ]] && [ "${BASH_REMATCH[1]}" != RUN ]; do
			w=${BASH_REMATCH[1]}
			[ -n "${!w:-}" ] || die "scenario $job needs $w"
			line=${line//@$w@/${!w}}
		done
		# shellcheck disable=SC2086
		set -- $line
		what=$1 name=
		shift
		case $what in
		build) fields="kern config" ;;
		boot) fields="kern config cpus timeout judge run" name=$1; shift ;;
		diff) fields="a b prefix" ;;
		sweep) fields="base patched" ;;
		*) die "rig/scenarios/$job: a line of kind '$what'" ;;
		esac
		f=()
		# the named fields, then the rest (boot: kernel and QEMU args)
		while [ $# -gt 0 ] && [[ $1 == *=* ]] && [[ " $fields " == *" ${1%%=*} "* ]]; do
			f[${1%%=*}]=${1#*=}
			shift
		done
		out="$what${name:+ $name}"
		for k in $fields; do
			[ -n "${f[$k]:-}" ] || die "rig/scenarios/$job: '$what${name:+ $name}' has no $k="
			out="$out ${f[$k]}"
		done
		out="$out${*:+ $*}"
		# drop: the knob that leaves the line out, if one does
		drop=
		if [ "$what" = boot ] && [ -n "${BOOTS:-}" ]; then
			drop=BOOTS
			for w in $BOOTS; do
				[[ $w == *:*:*:* ]] && w=$(echo "$w" | awk -F: '{ print $1 "-" $2 "-smp" $3 "-" $4 }')
				# shellcheck disable=SC2053
				[[ $name == $w ]] && drop=
			done
		elif [ "$what" = build ] && [ "${f[kern]}" = base ] && [ -n "${BASE_CONFIGS+set}" ]; then
			[[ " $BASE_CONFIGS " == *" ${f[config]} "* ]] || drop=BASE_CONFIGS
		elif [ "$what" = build ] && [ "${f[kern]}" != base ] && [ -n "${CONFIGS+set}" ]; then
			[[ " $CONFIGS " == *" ${f[config]} "* ]] || drop=CONFIGS
		fi
		if [ -n "$drop" ]; then
			[ -z "${DROPPED:-}" ] || echo "$drop $out" >>"$DROPPED"
			continue
		fi
		echo "$out"
	done < <(scenario_lines "$RIG/scenarios/$job")
}
# scenario_lines FILE: its lines, each "%VAR LINE" as LINE once for each
# word of $VAR, @VAR@ that word
scenario_lines() {
	local line w v
	while IFS= read -r line; do
		if [[ $line == '%'* ]]; then
			w=${line%% *}
			w=${w#%}
			for v in ${!w}; do
				echo "${line#* }" | sed "s/@$w@/$v/g"
			done
		else
			echo "$line"
		fi
	done <"$1"
}

# Runs: build/runs/NAME/, one folder a boot (rig/boot.sh).
RUNS=$BUILD/runs
# the QEMU plugin of the bench's sharing phase (make -C rig/plugins)
PLUGIN=${PLUGIN:-$BUILD/plugins/lineshare.so}
