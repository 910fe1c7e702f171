#!/usr/bin/env bash
# bench/overhead.sh — measure what tracing with buildbpf costs.
#
# Usage: sudo bench/overhead.sh [--targets N] [--reps R] [--jobs J] [--bin PATH]
#        bench/overhead.sh --help
#
#   (a) Fork/exec-heavy build: a generated Makefile with N independent targets,
#       each built by one external program (`cp /dev/null TARGET`, which make
#       forks and execs directly, no shell), is built with `make -jJ -s`
#       untraced and under `buildbpf -- make -jJ -s`, alternating, R times,
#       after one unmeasured warm-up of each.  Reports the median of the
#       per-pair ratios traced_i/untraced_i, the median wall times, and the
#       lost events buildbpf reported for every traced run.
#   (b) Fixed cost: `buildbpf -- /bin/true` against `/bin/true`, alternating,
#       R times; reports the median of the per-pair differences.
#
# Options:
#   --targets N   targets in the generated Makefile (default 2000)
#   --reps R      measured repetitions of each pair (default 7)
#   --jobs J      make's -j (default 2)
#   --sched LEVEL buildbpf's --sched for the traced runs (default summary)
#   --deps LEVEL  buildbpf's --deps for the traced runs (default on)
#   --mem-period P buildbpf's --mem-period for the traced runs (default 100ms)
#   --bin PATH    buildbpf binary (default: build/buildbpf in the repository)
#   -h, --help    show this help and exit
#
# Needs root (buildbpf loads BPF programs).  Traced commands run with
# --keep-root so that, under sudo, both sides run as the same user.
# Besides wall times it reports CPU time (user + system of the whole process
# tree, buildbpf included), which other load on the machine disturbs less;
# it warns when the load average shows such load.
# The last lines of the output are machine-readable, e.g.
#   ratio_median=1.034
#   cpu_ratio_median=1.051
#   fixed_cost_median_s=0.012
#   lost_events_total=0
#   noisy=0
# Exit status: 0 on success; 1 if any traced run lost events, a run failed,
# or a trace file was not written; 2 on bad usage.
# Uses only bash, coreutils, make, awk and sort.

set -euo pipefail
export LC_ALL=C

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd -- "$script_dir/.." && pwd)

targets=2000
sched=summary
deps=on
mem_period=100ms
reps=7
jobs=2
bin=$repo_root/build/buildbpf

usage() {
	awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"
}

die() {
	printf 'overhead.sh: %s\n' "$*" >&2
	exit 1
}

usage_error() {
	printf 'overhead.sh: %s\n' "$*" >&2
	printf "Try 'bench/overhead.sh --help'.\n" >&2
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
	--targets) need_value "$1" $#; targets=$2; shift 2 ;;
	--targets=*) targets=${1#*=}; shift ;;
	--reps) need_value "$1" $#; reps=$2; shift 2 ;;
	--reps=*) reps=${1#*=}; shift ;;
	--jobs) need_value "$1" $#; jobs=$2; shift 2 ;;
	--jobs=*) jobs=${1#*=}; shift ;;
	--sched) need_value "$1" $#; sched=$2; shift 2 ;;
	--sched=*) sched=${1#*=}; shift ;;
	--deps) need_value "$1" $#; deps=$2; shift 2 ;;
	--deps=*) deps=${1#*=}; shift ;;
	--mem-period) need_value "$1" $#; mem_period=$2; shift 2 ;;
	--mem-period=*) mem_period=${1#*=}; shift ;;
	--bin) need_value "$1" $#; bin=$2; shift 2 ;;
	--bin=*) bin=${1#*=}; shift ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
positive_int --targets "$targets"
positive_int --reps "$reps"
positive_int --jobs "$jobs"

if [[ $EUID -ne 0 ]]; then
	die "must be run as root (buildbpf loads BPF programs); try: sudo $0"
fi
[[ $bin == */* ]] || bin=./$bin
[[ -x $bin && -f $bin ]] || die "buildbpf binary '$bin' not found or not executable (run 'make' first, or pass --bin PATH)"
bin=$(cd -- "$(dirname -- "$bin")" && pwd)/$(basename -- "$bin")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/buildbpf-bench.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the generated build -----------------------------------------------------
work=$tmp/build
mkdir -p "$work"
{
	printf '# %d independent targets, each one fork+exec of cp(1).\n' "$targets"
	printf '.SUFFIXES:\nMAKEFLAGS += -r\n'
	printf 'T :='
	for ((i = 1; i <= targets; i++)); do
		printf ' out/t%d' "$i"
	done
	# shellcheck disable=SC2016 # $(T) and $@ are make's, not the shell's
	printf '\n.PHONY: all\nall: $(T)\n$(T):\n\t@cp /dev/null $@\n'
} >"$work/Makefile"

# shellcheck source=bench/measure.sh
. "$script_dir/measure.sh"

clean_targets() {
	rm -rf -- "$work/out"
	mkdir -- "$work/out"
}

check_built() {
	local n
	# shellcheck disable=SC2012 # the names are t1..tN
	n=$(ls -A -- "$work/out" | wc -l)
	[[ $n -eq $targets ]] || die "build left $n of $targets targets"
}

# The four runs; each sets wall_us and cpu_ms, and aborts the benchmark
# if its command fails.
run_untraced_make() {
	clean_targets
	local rc=0
	measure make -C "$work" -j"$jobs" -s --no-print-directory || rc=$?
	[[ $rc -eq 0 ]] || die "untraced make failed with status $rc"
	check_built
}

# $1: file for buildbpf's stderr (the summary).
run_traced_make() {
	clean_targets
	rm -f -- "$tmp/t.json"
	local rc=0
	measure "$bin" --keep-root --sched="$sched" --deps="$deps" --mem-period="$mem_period" -f -o "$tmp/t.json" -- \
		make -C "$work" -j"$jobs" -s --no-print-directory 2>"$1" || rc=$?
	if [[ $rc -ne 0 ]]; then
		cat -- "$1" >&2
		die "traced make failed with status $rc"
	fi
	[[ -s $tmp/t.json ]] || { cat -- "$1" >&2; die "trace file $tmp/t.json was not written"; }
	check_built
}

run_true() {
	measure /bin/true
}

run_traced_true() {
	rm -f -- "$tmp/t0.json"
	local rc=0
	measure "$bin" --keep-root --sched="$sched" --deps="$deps" --mem-period="$mem_period" -q -f -o "$tmp/t0.json" -- /bin/true || rc=$?
	[[ $rc -eq 0 ]] || die "buildbpf -- /bin/true failed with status $rc"
	[[ -s $tmp/t0.json ]] || die "trace file $tmp/t0.json was not written"
}

# Prints "LOST PROCS" from a buildbpf summary ("N processes, ... K lost events").
parse_summary() {
	awk '
		/buildbpf: .*lost event/ {
			for (i = 2; i <= NF; i++) {
				if ($i ~ /^lost$/ && $(i - 1) ~ /^[0-9]+$/) lost = $(i - 1)
				if ($i ~ /^process(es)?,?$/ && $(i - 1) ~ /^[0-9]+$/) procs = $(i - 1)
			}
		}
		END {
			if (lost == "") exit 1
			print lost, (procs == "" ? "?" : procs)
		}' "$1"
}

median() { # numbers on stdin, one per line
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit 1
		if (NR % 2) m = v[(NR + 1) / 2]; else m = (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.6f\n", m
	}'
}

us_to_s() { awk -v u="$1" 'BEGIN { printf "%.3f", u / 1e6 }'; }

ratio() { awk -v t="$1" -v u="$2" 'BEGIN { printf "%.4f", (u > 0 ? t / u : 0) }'; }
us_to_s6() { awk -v u="$1" 'BEGIN { printf "%.6f", u / 1e6 }'; }
ms_to_s() { awk -v m="$1" 'BEGIN { printf "%.3f", m / 1e3 }'; }

# Other work on the machine shows up in the wall times: say so.
check_load() { # WHEN
	local load1 _rest
	read -r load1 _rest </proc/loadavg
	if awk -v l="$load1" 'BEGIN { exit !(l > 0.5) }'; then
		printf '  warning: load average %s %s: other work on the machine makes wall times noisy\n' \
			"$load1" "$1" >&2
		noisy=1
	fi
}

noisy=0
printf 'buildbpf overhead benchmark\n'
printf '  binary:  %s\n' "$bin"
printf '  sched:   %s\n' "$sched"
printf '  build:   %d targets (each one fork+exec of cp), make -j%d -s\n' "$targets" "$jobs"
printf '  reps:    %d (alternating untraced/traced, after one warm-up of each)\n' "$reps"
printf '  machine: %s CPUs, kernel %s\n\n' "$(nproc)" "$(uname -r)"
check_load "at the start"

# --- (a) fork/exec-heavy build ------------------------------------------------
run_untraced_make
run_traced_make "$tmp/warmup.err"

ratios=() untraced=() traced=() cpu_ratios=() untraced_cpu=() traced_cpu=()
lost_total=0
fewer_procs=0
printf '(a) fork/exec-heavy build (wall time; cpu = user+sys of the whole tree)\n'
printf '  %-6s %10s %10s %7s  %10s %10s %7s  %6s %5s\n' \
	rep untraced_s traced_s ratio untr_cpu_s trac_cpu_s ratio procs lost
for ((r = 1; r <= reps; r++)); do
	run_untraced_make
	u=$wall_us uc=$cpu_ms
	run_traced_make "$tmp/traced.$r.err"
	t=$wall_us tc=$cpu_ms
	summary=$(parse_summary "$tmp/traced.$r.err") || {
		cat -- "$tmp/traced.$r.err" >&2
		die "no 'lost events' count in buildbpf's summary"
	}
	read -r lost procs <<<"$summary"
	lost_total=$((lost_total + lost))
	# make itself plus one cp per target.
	if [[ $procs != "?" && $procs -lt $((targets + 1)) ]]; then
		fewer_procs=$((fewer_procs + 1))
	fi
	rt=$(ratio "$t" "$u")
	rc=$(ratio "$tc" "$uc")
	ratios+=("$rt") untraced+=("$u") traced+=("$t")
	cpu_ratios+=("$rc") untraced_cpu+=("$uc") traced_cpu+=("$tc")
	printf '  %-6d %10s %10s %7s  %10s %10s %7s  %6s %5s\n' "$r" "$(us_to_s "$u")" "$(us_to_s "$t")" \
		"$rt" "$(ms_to_s "$uc")" "$(ms_to_s "$tc")" "$rc" "$procs" "$lost"
done

ratio_median=$(printf '%s\n' "${ratios[@]}" | median)
untraced_median_us=$(printf '%s\n' "${untraced[@]}" | median)
traced_median_us=$(printf '%s\n' "${traced[@]}" | median)
cpu_ratio_median=$(printf '%s\n' "${cpu_ratios[@]}" | median)
untraced_cpu_median_ms=$(printf '%s\n' "${untraced_cpu[@]}" | median)
traced_cpu_median_ms=$(printf '%s\n' "${traced_cpu[@]}" | median)
printf '  %-6s %10s %10s %7s  %10s %10s %7s\n' median \
	"$(us_to_s "$untraced_median_us")" "$(us_to_s "$traced_median_us")" "$(ratio "$ratio_median" 1)" \
	"$(ms_to_s "$untraced_cpu_median_ms")" "$(ms_to_s "$traced_cpu_median_ms")" "$(ratio "$cpu_ratio_median" 1)"
printf '  (ratio medians are medians of the per-pair ratios, not ratios of the medians)\n'
if [[ $fewer_procs -gt 0 ]]; then
	printf '  warning: %d traced run(s) reported fewer than %d processes (make + %d targets)\n' \
		"$fewer_procs" $((targets + 1)) "$targets" >&2
fi

# --- (b) fixed cost -------------------------------------------------------------
run_true
run_traced_true

diffs=()
printf '\n(b) fixed cost: buildbpf -- /bin/true against /bin/true (wall time)\n'
printf '  %-6s %10s %10s %10s\n' rep true_s traced_s diff_s
for ((r = 1; r <= reps; r++)); do
	run_true
	u=$wall_us
	run_traced_true
	t=$wall_us
	d=$((t - u))
	diffs+=("$d")
	printf '  %-6d %10s %10s %10s\n' "$r" "$(us_to_s6 "$u")" "$(us_to_s6 "$t")" "$(us_to_s6 "$d")"
done
fixed_median_us=$(printf '%s\n' "${diffs[@]}" | median)
printf '  %-6s %10s %10s %10s\n' median "" "" "$(us_to_s6 "$fixed_median_us")"
check_load "at the end"

printf '\n'
printf 'targets=%d\n' "$targets"
printf 'reps=%d\n' "$reps"
printf 'jobs=%d\n' "$jobs"
awk -v r="$ratio_median" -v u="$untraced_median_us" -v t="$traced_median_us" \
	-v cr="$cpu_ratio_median" -v f="$fixed_median_us" 'BEGIN {
	printf "ratio_median=%.3f\n", r
	printf "untraced_median_s=%.3f\n", u / 1e6
	printf "traced_median_s=%.3f\n", t / 1e6
	printf "cpu_ratio_median=%.3f\n", cr
	printf "fixed_cost_median_s=%.3f\n", f / 1e6
}'
printf 'lost_events_total=%d\n' "$lost_total"
printf 'noisy=%d\n' "$noisy"

if [[ $lost_total -gt 0 ]]; then
	printf 'overhead.sh: FAIL: traced runs lost %d events\n' "$lost_total" >&2
	exit 1
fi
