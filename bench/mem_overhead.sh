#!/usr/bin/env bash
# bench/mem_overhead.sh — what sampling the build's memory (--mem-period) costs.
#
# Usage: sudo bench/mem_overhead.sh [--reps R] [--jobs J] [--period P] [--bin PATH]
#
#   (a) A real multi-process build: the bundled demo (tests/demo) built from
#       clean 4 times in a row with make -jJ, untraced, traced with
#       --mem-period P and traced with --mem-period off, in an order that
#       rotates each of the R reps.  Per rep, the ratio of the two traced runs
#       (P / off) in wall time and in CPU time (user + system of the whole
#       tree, buildbpf included, which other load disturbs less), and each
#       against the untraced run; medians over the reps.
#   (b) Start-up: `buildbpf -q -- /bin/true` at P and at off, alternating,
#       R times; median wall time of each.
#
# Options: --reps R (default 7), --jobs J (default: CPUs), --period P
# (default 100ms), --bin PATH (default build/buildbpf).
# The last lines are machine-readable (name=value).  Exit 1 if a traced run
# lost events or failed.  Needs root, make and cc.
set -euo pipefail
export LC_ALL=C

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd -- "$script_dir/.." && pwd)
reps=7
jobs=$(nproc)
period=100ms
bin=$repo_root/build/buildbpf

die() { echo "mem_overhead.sh: $*" >&2; exit 2; }
while (($#)); do
	case $1 in
	--reps) reps=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--period) period=${2:?}; shift 2 ;;
	--bin) bin=${2:?}; shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
[[ $EUID -eq 0 ]] || die "needs root (buildbpf loads BPF programs): sudo $0"
[[ -x $bin ]] || die "no buildbpf at $bin (run make)"

tmp=$(mktemp -d /tmp/buildbpf-mem-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
status=0

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now_us() { echo "${EPOCHREALTIME/[.,]/}"; }
# Sets cpu_now to the user + system time, in ms, of this shell's reaped
# children (bash's `times`, second line; in a subshell it would count none).
children_cpu_ms() {
	local u s
	times >"$tmp/times"
	{ read -r _ && read -r u s; } <"$tmp/times"
	cpu_now=$(awk -v u="$u" -v s="$s" 'function ms(t) { split(t, a, "m"); sub("s", "", a[2]); return a[1] * 60000 + a[2] * 1000 }
		BEGIN { printf "%d", ms(u) + ms(s) }')
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }'; }

echo "buildbpf memory-sampling benchmark: $(nproc) CPUs, kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"

cp -r "$repo_root/tests/demo" "$tmp/demo"
rounds=4
build_cmd=(sh -c "for i in \$(seq $rounds); do make -s -C '$tmp/demo' clean && make -s -C '$tmp/demo' -j$jobs; done >/dev/null")
echo "(a) demo build x$rounds from clean, make -j$jobs, $reps reps; untraced, --mem-period $period and off rotate"
"${build_cmd[@]}" # warm-up: page cache, compiler binaries
runs=(untraced "$period" off)
declare -A wall cpu
ab_wall="" ab_cpu="" on_wall="" off_wall=""
for ((i = 0; i < reps; i++)); do
	for ((k = 0; k < 3; k++)); do
		run=${runs[(i + k) % 3]}
		children_cpu_ms
		c0=$cpu_now
		t0=$(now_us)
		if [[ $run == untraced ]]; then
			"${build_cmd[@]}"
		elif ! "$bin" -f --keep-root --mem-period="$run" -o "$tmp/t.json" -- "${build_cmd[@]}" 2>"$tmp/err"; then
			echo "traced build failed at --mem-period $run:" >&2; cat "$tmp/err" >&2; status=1
		fi
		wall[$run]=$(($(now_us) - t0))
		children_cpu_ms
		cpu[$run]=$((cpu_now - c0))
		[[ $run == untraced ]] && continue
		n=$(sed -n 's/.* \([0-9][0-9]*\) lost event.*/\1/p' "$tmp/err")
		[[ -n $n && $n -eq 0 ]] || { echo "lost events (or no summary) at --mem-period $run" >&2; status=1; }
	done
	ab_wall+="$(ratio "${wall[$period]}" "${wall[off]}") "
	ab_cpu+="$(ratio "${cpu[$period]}" "${cpu[off]}") "
	on_wall+="$(ratio "${wall[$period]}" "${wall[untraced]}") "
	off_wall+="$(ratio "${wall[off]}" "${wall[untraced]}") "
done
m() { tr ' ' '\n' <<< "$1" | sed '/^$/d' | median; }
ms() { m "$1" | awk '{ printf "%d", $1 / 1000 }'; }
printf '  %s / off: median wall ratio %s, CPU ratio %s  (wall ratios: %s)\n' "$period" "$(m "$ab_wall")" \
	"$(m "$ab_cpu")" "$ab_wall"
printf '  against untraced: %s %s, off %s (median wall ratios)\n' "$period" "$(m "$on_wall")" "$(m "$off_wall")"

echo "(b) start-up: buildbpf -q -- /bin/true, $reps alternating pairs"
t_on="" t_off=""
for ((i = 0; i < reps; i++)); do
	for run in "$period" off; do
		t0=$(now_us)
		"$bin" -q -f --keep-root --mem-period="$run" -o "$tmp/t0.json" -- /bin/true || status=1
		if [[ $run == off ]]; then t_off+="$(($(now_us) - t0)) "; else t_on+="$(($(now_us) - t0)) "; fi
	done
done
printf '  median %s ms at %s, %s ms at off\n' "$(ms "$t_on")" "$period" "$(ms "$t_off")"

echo "load_average_end=$(cut -d' ' -f1 /proc/loadavg)"
echo "build_ratio_period_to_off=$(m "$ab_wall")"
echo "build_cpu_ratio_period_to_off=$(m "$ab_cpu")"
echo "build_ratio_period=$(m "$on_wall")"
echo "build_ratio_off=$(m "$off_wall")"
echo "startup_ms_period=$(ms "$t_on")"
echo "startup_ms_off=$(ms "$t_off")"
exit "$status"
