#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench/toolchain_whatif.sh — the what-if of a cargo or go build against measured builds, and what tracing it costs.
#
# Usage: sudo bench/toolchain_whatif.sh --tool cargo|go --dir DIR [OPTIONS]
#        sudo bench/toolchain_whatif.sh --tool cargo --demo [OPTIONS]
#
#   (a) Untraced clean builds at each N of --jobs (default 1,2,4), one
#       traced clean build at -jJ (cargo -jJ, go -p J; J from --record-jobs,
#       default 2) with buildbpf's defaults (plus --trace-opts), and one
#       recording at -jJ under `buildbpf --deps=on --summary-json` (the
#       what-if needs the build graph), R times (--reps, default 3),
#       interleaved: each repetition runs every one of them once, in an order
#       that rotates from one repetition to the next.  The first recording
#       is checked for a what-if before anything else runs.
#   (b) A table: N, the wall the what-if predicts for -jN on the machine's
#       CPUs (its quiet row; "-" when it has none: it holds -j1, its own -j,
#       -j and 2x -j of the CPUs), the median over the R recordings (one
#       recording is as noisy as one measured build), the measured median,
#       and the error (predicted - measured) / measured.
#   (c) The overhead: traced / untraced wall at -jJ, per repetition (the pair
#       of one repetition), median; the same for CPU time (user + sys of the
#       whole tree, buildbpf included).
#
# A build is its command run in DIR with N in place of every {N}; a clean
# one runs the clean command first, untimed.  Defaults:
#   cargo  clean `cargo clean`, build `cargo build --release -j{N}`
#   go     clean `rm -rf $GOCACHE`, build `go build -p {N} -o app .`, with
#          GOCACHE a directory of this run's own (the user's cache untouched)
# The commands are split into words by the shell's rules, without a shell:
# use `sh -c '...'` for more.  Which cargo or go ran is printed: the build
# command's words up to the tool's name, asked for its version (so that
# `env PATH=... cargo build` names the cargo that PATH finds).
#
# Options:
#   --tool cargo|go   the build tool (required)
#   --dir DIR         the project's directory (or --demo)
#   --demo            build a generated project instead (bench/toolchain_project.sh,
#                     --size N, in a temporary directory)
#   --size N          the generated project's size (default 40)
#   --clean CMD       the clean command
#   --build CMD       the build command, {N} the job count
#   --jobs LIST       comma-separated job counts to measure (default 1,2,4)
#   --record-jobs J   the traced builds' job count (default 2)
#   --reps R          repetitions (default 3)
#   --trace-opts OPTS more buildbpf options for the overhead pairs' traced runs
#   --bin PATH        buildbpf binary (default: build/buildbpf in the repository)
#   --keep DIR        keep the recordings (record-R.bbl), their summaries
#                     (summary-R.json) and buildbpf's reports in DIR
#   -h, --help        this help
#
# Needs root (buildbpf loads BPF programs); traced builds run with --keep-root
# so that both sides run as the same user.  Wall times mean something only on
# a quiet machine: the load average is printed at the start and the end, and a
# warning given above 0.5.  The last lines are machine-readable, e.g.
#   jobs=1 predicted_s=12.345 measured_s=12.001 error_pct=2.9
#   overhead_ratio_median=1.031
#   overhead_cpu_ratio_median=1.024
#   lost_events_total=0
# Exit status: 0 on success; 1 if a build failed, a traced run lost events or
# the summary has no what-if; 2 on bad usage.
# Uses bash, coreutils, awk and sort, and the build tool.

set -euo pipefail
export LC_ALL=C

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd -- "$script_dir/.." && pwd)

tool=
dir=
demo=0
size=40
clean_cmd=
build_cmd=
jobs_list=1,2,4
record_jobs=2
reps=3
trace_opts=
keep=
bin=$repo_root/build/buildbpf

usage() {
	awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"
}

die() {
	printf 'toolchain_whatif.sh: %s\n' "$*" >&2
	exit 1
}

usage_error() {
	printf 'toolchain_whatif.sh: %s\n' "$*" >&2
	printf "Try 'bench/toolchain_whatif.sh --help'.\n" >&2
	exit 2
}

need_value() { # OPTION ARGC
	[[ $2 -ge 2 ]] || usage_error "option $1 needs a value"
}

positive_int() { # NAME VALUE
	[[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "$1 must be a positive integer, not '$2'"
}

while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--tool) need_value "$1" $#; tool=$2; shift 2 ;;
	--tool=*) tool=${1#*=}; shift ;;
	--dir) need_value "$1" $#; dir=$2; shift 2 ;;
	--dir=*) dir=${1#*=}; shift ;;
	--demo) demo=1; shift ;;
	--size) need_value "$1" $#; size=$2; shift 2 ;;
	--size=*) size=${1#*=}; shift ;;
	--clean) need_value "$1" $#; clean_cmd=$2; shift 2 ;;
	--clean=*) clean_cmd=${1#*=}; shift ;;
	--build) need_value "$1" $#; build_cmd=$2; shift 2 ;;
	--build=*) build_cmd=${1#*=}; shift ;;
	--jobs) need_value "$1" $#; jobs_list=$2; shift 2 ;;
	--jobs=*) jobs_list=${1#*=}; shift ;;
	--record-jobs) need_value "$1" $#; record_jobs=$2; shift 2 ;;
	--record-jobs=*) record_jobs=${1#*=}; shift ;;
	--reps) need_value "$1" $#; reps=$2; shift 2 ;;
	--reps=*) reps=${1#*=}; shift ;;
	--trace-opts) need_value "$1" $#; trace_opts=$2; shift 2 ;;
	--trace-opts=*) trace_opts=${1#*=}; shift ;;
	--keep) need_value "$1" $#; keep=$2; shift 2 ;;
	--keep=*) keep=${1#*=}; shift ;;
	--bin) need_value "$1" $#; bin=$2; shift 2 ;;
	--bin=*) bin=${1#*=}; shift ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
[[ $tool == cargo || $tool == go ]] || usage_error "--tool must be cargo or go, not '$tool'"
[[ -n $dir || $demo -eq 1 ]] || usage_error "give --dir DIR, or --demo"
[[ -z $dir || $demo -eq 0 ]] || usage_error "--dir and --demo: one of them"
positive_int --size "$size"
positive_int --record-jobs "$record_jobs"
positive_int --reps "$reps"
IFS=, read -ra jobs <<<"$jobs_list"
[[ ${#jobs[@]} -gt 0 ]] || usage_error "--jobs needs at least one count"
for n in "${jobs[@]}"; do positive_int --jobs "$n"; done

if [[ $EUID -ne 0 ]]; then
	die "must be run as root (buildbpf loads BPF programs); try: sudo $0"
fi
[[ $bin == */* ]] || bin=./$bin
[[ -x $bin && -f $bin ]] || die "buildbpf binary '$bin' not found or not executable (run 'make' first, or pass --bin PATH)"
bin=$(cd -- "$(dirname -- "$bin")" && pwd)/$(basename -- "$bin")
command -v "$tool" >/dev/null || die "'$tool' is not on PATH"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/buildbpf-toolchain.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [[ $demo -eq 1 ]]; then
	dir=$tmp/project
	"$script_dir/toolchain_project.sh" "$tool" "$dir" --size "$size"
fi
[[ -d $dir ]] || die "'$dir' is not a directory"
dir=$(cd -- "$dir" && pwd)
if [[ $tool == go ]]; then
	export GOCACHE=$tmp/gocache
	[[ -n $clean_cmd ]] || clean_cmd="rm -rf $GOCACHE"
	[[ -n $build_cmd ]] || build_cmd='go build -p {N} -o app .'
else
	[[ -n $clean_cmd ]] || clean_cmd='cargo clean'
	[[ -n $build_cmd ]] || build_cmd='cargo build --release -j{N}'
fi
if [[ -n $keep ]]; then
	mkdir -p -- "$keep"
	keep=$(cd -- "$keep" && pwd)
fi

# shellcheck source=bench/measure.sh
. "$script_dir/measure.sh"

# build_words N: the build command for N, as words, into the array words.
build_words() {
	read -ra words <<<"${build_cmd//\{N\}/$1}"
}

clean() {
	local rc=0 cmd
	read -ra cmd <<<"$clean_cmd"
	(cd -- "$dir" && "${cmd[@]}") >"$tmp/clean.out" 2>&1 || rc=$?
	[[ $rc -eq 0 ]] || { cat -- "$tmp/clean.out" >&2; die "clean command failed with status $rc: $clean_cmd"; }
}

# untraced N: a clean build at N; sets wall_us and cpu_ms.
untraced() {
	local rc=0
	clean
	build_words "$1"
	cd -- "$dir"
	measure "${words[@]}" >"$tmp/build.out" 2>&1 || rc=$?
	cd - >/dev/null
	[[ $rc -eq 0 ]] || { cat -- "$tmp/build.out" >&2; die "untraced build failed with status $rc: ${words[*]}"; }
}

# traced N ERR OPTS...: a clean build at N under buildbpf OPTS; its stderr to ERR; sets wall_us and cpu_ms.
traced() {
	local n=$1 err=$2 rc=0
	shift 2
	clean
	build_words "$n"
	cd -- "$dir"
	measure "$bin" --keep-root -f -o "$tmp/t.json" "$@" -- "${words[@]}" >"$tmp/build.out" 2>"$err" || rc=$?
	cd - >/dev/null
	[[ $rc -eq 0 ]] || { cat -- "$tmp/build.out" "$err" >&2; die "traced build failed with status $rc: ${words[*]}"; }
	[[ -s $tmp/t.json ]] || { cat -- "$err" >&2; die "trace file $tmp/t.json was not written"; }
}

# Lost events from a buildbpf summary on stderr ("... K lost events").
lost_in() {
	awk '/buildbpf: .*lost event/ { for (i = 2; i <= NF; i++) if ($i ~ /^lost$/ && $(i - 1) ~ /^[0-9]+$/) l = $(i - 1) }
	     END { if (l == "") exit 1; print l }' "$1"
}

# predicted SUMMARY N CPUS: the what-if's quiet row for -jN on CPUS CPUs, in seconds; nothing when it has none.
# When the machine was quiet, as run stands for the build's own -j on a quiet machine (the what-if prints
# no second row for it).
# json-c writes the summary one key per line: the top-level "what_if" object's "rows", each an object.
predicted() {
	awk -v n="$2" -v cpus="$3" '
		/^  "what_if": \{/ { in_w = 1; next }
		in_w && /^  [}]/ { in_w = 0 }
		in_w && /"machine_was_quiet": true/ { was_quiet = 1 }
		in_w && /"rows": \[/ { in_rows = 1; next }
		in_rows && /\{/ { jobs = ""; c = ""; quiet = ""; wall = "" }
		in_rows && /"jobs":/ { jobs = $2; sub(/,$/, "", jobs) }
		in_rows && /"cpus":/ { c = $2; sub(/,$/, "", c) }
		in_rows && /"quiet":/ { quiet = $2; sub(/,$/, "", quiet) }
		in_rows && /"wall_ms":/ { wall = $2; sub(/,$/, "", wall) }
		in_rows && /\}/ && jobs == n && c == cpus && quiet == "true" && found == "" { found = wall }
		in_rows && /\}/ && jobs == n && c == cpus && quiet == "false" && as_run == "" { as_run = wall }
		in_rows && /^    \]/ { in_rows = 0 }
		END {
			if (found == "" && was_quiet) found = as_run
			if (found != "") printf "%.3f\n", found / 1000
		}' "$1"
}

summary_field() { # SUMMARY KEY: a top-level number
	awk -v k="\"$2\":" '$1 == k && /^  "/ { v = $2; sub(/,$/, "", v); print v; exit }' "$1"
}

median() { # numbers on stdin, one per line
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit 1
		if (NR % 2) m = v[(NR + 1) / 2]; else m = (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.6f\n", m
	}'
}

ratio() { awk -v t="$1" -v u="$2" 'BEGIN { printf "%.4f", (u > 0 ? t / u : 0) }'; }

noisy=0
check_load() { # WHEN
	local load1 _rest
	read -r load1 _rest </proc/loadavg
	printf '  load average %s %s\n' "$load1" "$1"
	if awk -v l="$load1" 'BEGIN { exit !(l > 0.5) }'; then
		printf '  warning: load average %s %s: other work on the machine makes wall times noisy\n' "$load1" "$1" >&2
		noisy=1
	fi
}

# The tool the build command runs, with its version: the command's words up
# to the tool's name (an `env PATH=...` before it included), run in DIR.
tool_ran() {
	local w prefix=() version_arg=--version
	[[ $tool == go ]] && version_arg=version
	build_words "$record_jobs"
	for w in "${words[@]}"; do
		prefix+=("$w")
		if [[ ${w##*/} == "$tool" ]]; then
			(cd -- "$dir" && "${prefix[@]}" "$version_arg" 2>&1 | head -1) || true
			return
		fi
	done
	printf '%s on PATH: %s\n' "$(command -v "$tool")" "$( ("$tool" "$version_arg" 2>&1 || true) | head -1)"
}

printf 'buildbpf what-if against measured %s builds\n' "$tool"
printf '  binary:  %s\n' "$bin"
printf '  project: %s%s\n' "$dir" "$([[ $demo -eq 1 ]] && printf ' (generated, size %d)' "$size")"
printf '  tool:    %s\n' "$(tool_ran)"
printf '  clean:   %s\n' "$clean_cmd"
printf '  build:   %s\n' "$build_cmd"
printf '  jobs:    %s measured, %d recorded; %d repetitions\n' "$jobs_list" "$record_jobs" "$reps"
printf '  machine: %s CPUs, kernel %s\n' "$(nproc)" "$(uname -r)"
check_load "at the start"

# record R: repetition R's recording, the what-if read from it; its lost events added.
lost_total=0
cpus=
record() {
	local r=$1 lost c
	traced "$record_jobs" "$tmp/record-$r.err" --deps=on --log "$tmp/record-$r.bbl" --summary-json "$tmp/summary-$r.json"
	lost=$(lost_in "$tmp/record-$r.err") || { cat -- "$tmp/record-$r.err" >&2; die "no 'lost events' count in buildbpf's summary"; }
	lost_total=$((lost_total + lost))
	[[ -z $keep ]] || cp -- "$tmp/record-$r.bbl" "$tmp/summary-$r.json" "$tmp/record-$r.err" "$keep/"
	c=$(summary_field "$tmp/summary-$r.json" cpu_count)
	[[ -n $c ]] || die "no cpu_count in the summary"
	[[ -z $cpus || $c == "$cpus" ]] || die "the recordings saw $cpus and then $c CPUs"
	cpus=$c
	grep -q '^  "what_if": {' "$tmp/summary-$r.json" ||
		die "the summary has no what-if (no build graph, or no jobs): see $tmp/record-$r.err"
}

# --- (a) the measured builds and the recordings, interleaved ----------------------
runs=(recorded "${jobs[@]}" traced)
declare -A walls=()
ratios=() cpu_ratios=()
printf '\n(a) clean builds, each repetition in a rotated order (wall s, cpu s)\n'
for ((r = 0; r < reps; r++)); do
	line=$(printf '  rep %d:' $((r + 1)))
	for ((k = 0; k < ${#runs[@]}; k++)); do
		run=${runs[$(((k + r) % ${#runs[@]}))]}
		if [[ $run == recorded ]]; then
			record $((r + 1))
			line+=$(printf ' recorded-j%d %.3f/%.3f' "$record_jobs" "$(awk -v u="$wall_us" 'BEGIN { print u / 1e6 }')" \
				"$(awk -v m="$cpu_ms" 'BEGIN { print m / 1e3 }')")
		elif [[ $run == traced ]]; then
			# shellcheck disable=SC2086 # the options are words
			traced "$record_jobs" "$tmp/traced.err" $trace_opts
			lost=$(lost_in "$tmp/traced.err") || die "no 'lost events' count in buildbpf's summary"
			lost_total=$((lost_total + lost))
			t_wall=$wall_us t_cpu=$cpu_ms
			line+=$(printf ' traced-j%d %.3f/%.3f' "$record_jobs" "$(awk -v u="$wall_us" 'BEGIN { print u / 1e6 }')" \
				"$(awk -v m="$cpu_ms" 'BEGIN { print m / 1e3 }')")
		else
			untraced "$run"
			walls[$run]+="$wall_us "
			[[ $run -ne $record_jobs ]] || { u_wall=$wall_us u_cpu=$cpu_ms; }
			line+=$(printf ' j%d %.3f/%.3f' "$run" "$(awk -v u="$wall_us" 'BEGIN { print u / 1e6 }')" \
				"$(awk -v m="$cpu_ms" 'BEGIN { print m / 1e3 }')")
		fi
	done
	if [[ -n ${u_wall:-} ]]; then
		ratios+=("$(ratio "$t_wall" "$u_wall")")
		cpu_ratios+=("$(ratio "$t_cpu" "$u_cpu")")
	else
		# The recorded -j is not among the measured ones: pair with an untraced build of its own.
		untraced "$record_jobs"
		ratios+=("$(ratio "$t_wall" "$wall_us")")
		cpu_ratios+=("$(ratio "$t_cpu" "$cpu_ms")")
	fi
	unset u_wall
	printf '%s\n' "$line"
done

# --- (b) predicted against measured ---------------------------------------------
printf '\n(b) the what-if (quiet rows, %s CPUs; the median of the %d recordings) against the measured medians\n' \
	"$cpus" "$reps"
printf '  %-6s %12s %12s %8s   %s\n' N predicted_s measured_s error "each recording's prediction"
machine=()
for n in "${jobs[@]}"; do
	# shellcheck disable=SC2086 # one number per word
	m=$(printf '%s\n' ${walls[$n]} | median)
	m=$(awk -v u="$m" 'BEGIN { printf "%.3f", u / 1e6 }')
	each=()
	for ((r = 1; r <= reps; r++)); do
		p=$(predicted "$tmp/summary-$r.json" "$n" "$cpus")
		[[ -z $p ]] || each+=("$p")
	done
	if [[ ${#each[@]} -gt 0 ]]; then
		p=$(printf '%s\n' "${each[@]}" | median)
		p=$(awk -v s="$p" 'BEGIN { printf "%.3f", s }')
		e=$(awk -v p="$p" -v m="$m" 'BEGIN { printf "%+.1f", (p - m) / m * 100 }')
		printf '  -j%-4d %12s %12s %7s%%   %s\n' "$n" "$p" "$m" "$e" "${each[*]}"
		machine+=("jobs=$n predicted_s=$p measured_s=$m error_pct=$e")
	else
		printf '  -j%-4d %12s %12s %8s\n' "$n" - "$m" -
		machine+=("jobs=$n predicted_s= measured_s=$m error_pct=")
	fi
done

# --- (c) overhead -----------------------------------------------------------------
ratio_median=$(printf '%s\n' "${ratios[@]}" | median)
cpu_ratio_median=$(printf '%s\n' "${cpu_ratios[@]}" | median)
printf '\n(c) tracing at -j%d with the defaults%s: traced / untraced of each repetition, median\n' "$record_jobs" \
	"${trace_opts:+ and $trace_opts}"
printf '  wall %.3f (%s), cpu %.3f (%s)\n' "$ratio_median" "${ratios[*]}" "$cpu_ratio_median" "${cpu_ratios[*]}"
check_load "at the end"

printf '\n'
printf '%s\n' "${machine[@]}"
printf 'overhead_ratio_median=%.3f\n' "$ratio_median"
printf 'overhead_cpu_ratio_median=%.3f\n' "$cpu_ratio_median"
printf 'lost_events_total=%d\n' "$lost_total"
printf 'noisy=%d\n' "$noisy"
if [[ $lost_total -gt 0 ]]; then
	printf 'toolchain_whatif.sh: FAIL: traced runs lost %d events\n' "$lost_total" >&2
	exit 1
fi
