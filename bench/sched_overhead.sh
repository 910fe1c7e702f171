#!/usr/bin/env bash
# bench/sched_overhead.sh — what scheduler tracing (--sched) costs.
#
# Usage: sudo bench/sched_overhead.sh [--reps R] [--jobs J] [--loops N] [--bin PATH]
#
#   (a) The rest of the system: `perf bench sched pipe` (two processes ping-pong
#       over a pipe, a context switch per message) runs outside any traced build,
#       alone and while buildbpf --sched=LEVEL traces an unrelated `sleep`,
#       alternating, R times per level.  Median ratio (with / without).
#   (b) A real multi-process build: the bundled demo (tests/demo: a generated
#       header, seven compilations, ar, a link) built from clean 4 times in a
#       row with make -jJ, untraced and traced at --sched=off, summary and
#       full, in an order that rotates each of the R reps.  Median of the
#       per-rep traced/untraced wall-time ratios per level, and lost events.
#   (c) Trace size per CPU-hour at each level, from (b): bytes / (wall x CPUs).
#
# Options: --reps R (default 7), --jobs J (default: CPUs), --loops N (pipe
# messages, default 100000), --bin PATH (default build/buildbpf), --deps LEVEL
# (buildbpf's --deps for every traced run, default on).
# The last lines are machine-readable (name=value).  Exit 1 if a traced run
# lost events or failed.  Needs root, make, cc and perf (linux-perf).
set -euo pipefail
export LC_ALL=C

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd -- "$script_dir/.." && pwd)
reps=7
jobs=$(nproc)
loops=100000
bin=$repo_root/build/buildbpf
deps=on

die() { echo "sched_overhead.sh: $*" >&2; exit 2; }
while (($#)); do
	case $1 in
	--reps) reps=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--loops) loops=${2:?}; shift 2 ;;
	--bin) bin=${2:?}; shift 2 ;;
	--deps) deps=${2:?}; shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
[[ $EUID -eq 0 ]] || die "needs root (buildbpf loads BPF programs): sudo $0"
[[ -x $bin ]] || die "no buildbpf at $bin (run make)"
command -v perf >/dev/null || die "needs perf (apt-get install linux-perf)"

tmp=$(mktemp -d /tmp/buildbpf-sched-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ncpu=$(nproc)
status=0

now() { echo "${EPOCHREALTIME/./}"; } # microseconds
median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.4f\n", (v[NR/2]+v[NR/2+1])/2}'; }

# (a) ------------------------------------------------------------------------
pipe_seconds() { perf bench sched pipe -l "$loops" 2>/dev/null | awk '/Total time/ {print $3}'; }

unrelated() {
	local level=$1 i base traced pid
	: > "$tmp/unrelated-$level"
	for ((i = 0; i < reps; i++)); do
		base=$(pipe_seconds)
		"$bin" -q -f --sched="$level" --deps="$deps" -o "$tmp/sleep.json" -- sleep 600 &
		pid=$!
		sleep 1.5 # loaded and attached
		traced=$(pipe_seconds)
		kill -TERM "$pid"
		wait "$pid" || true
		awk -v b="$base" -v t="$traced" 'BEGIN {printf "%.4f\n", t / b}' >> "$tmp/unrelated-$level"
	done
	median < "$tmp/unrelated-$level"
}

echo "(a) perf bench sched pipe -l $loops outside the trace, $reps reps"
for level in summary full; do
	r=$(unrelated "$level")
	printf '  --sched=%-8s median ratio %s  (all: %s)\n' "$level" "$r" "$(paste -sd' ' "$tmp/unrelated-$level")"
	printf -v "unrelated_$level" '%s' "$r"
done

# (b) and (c) ----------------------------------------------------------------
cp -r "$repo_root/tests/demo" "$tmp/demo"
# One measured run: the demo built from clean $rounds times in a row (a few
# seconds, long enough that this VM's jitter does not swamp a few percent).
rounds=4
build_cmd=(sh -c "for i in \$(seq $rounds); do make -s -C '$tmp/demo' clean && make -s -C '$tmp/demo' -j$jobs; done >/dev/null")
declare -A ratios bytes lost
echo "(b) demo build x$rounds from clean, make -j$jobs, $reps reps; the order of the four runs rotates each rep"
"${build_cmd[@]}" # warm-up: page cache, compiler binaries
runs=(untraced off summary full)
for ((i = 0; i < reps; i++)); do
	declare -A took=()
	for ((k = 0; k < 4; k++)); do
		level=${runs[(i + k) % 4]}
		t0=$(now)
		if [[ $level == untraced ]]; then
			"${build_cmd[@]}"
		elif ! "$bin" -f --keep-root --sched="$level" --deps="$deps" -o "$tmp/$level.json" -- "${build_cmd[@]}" 2>"$tmp/err"; then
			echo "traced build failed at --sched=$level:" >&2; cat "$tmp/err" >&2; status=1
		fi
		t1=$(now)
		took[$level]=$((t1 - t0))
		[[ $level == untraced ]] && continue
		n=$(sed -n 's/.* \([0-9][0-9]*\) lost event.*/\1/p' "$tmp/err")
		[[ -n $n ]] || { echo "no summary from the traced run" >&2; status=1; n=0; }
		((n == 0)) || status=1
		lost[$level]=$(( ${lost[$level]:-0} + n ))
		# bytes per CPU-hour of wall time
		sz=$(stat -c %s "$tmp/$level.json")
		bytes[$level]+="$(awk -v s="$sz" -v w="$((t1 - t0))" -v c="$ncpu" 'BEGIN {printf "%.0f", s / (w / 1e6 * c) * 3600}') "
	done
	for level in off summary full; do
		ratios[$level]+="$(awk -v b="${took[untraced]}" -v t="${took[$level]}" 'BEGIN {printf "%.4f", t / b}') "
	done
	unset took
done
for level in off summary full; do
	r=$(tr ' ' '\n' <<< "${ratios[$level]}" | sed '/^$/d' | median)
	b=$(tr ' ' '\n' <<< "${bytes[$level]}" | sed '/^$/d' | median)
	printf '  --sched=%-8s median ratio %s  lost %s  trace %.1f MB per CPU-hour  (ratios: %s)\n' \
		"$level" "$r" "${lost[$level]}" "$(awk -v b="$b" 'BEGIN {print b / 1e6}')" "${ratios[$level]}"
	printf -v "build_$level" '%s' "$r"
	printf -v "size_$level" '%s' "$b"
done

echo "unrelated_ratio_summary=$unrelated_summary"
echo "unrelated_ratio_full=$unrelated_full"
for level in off summary full; do
	v=build_$level; s=size_$level
	echo "build_ratio_$level=${!v}"
	echo "trace_bytes_per_cpu_hour_$level=${!s}"
	echo "lost_events_$level=${lost[$level]}"
done
exit "$status"
