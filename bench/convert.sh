#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Conversion throughput: a synthetic event log of PROCS processes and SLICES
# scheduler records (default 200,000 and 5,000,000, on 8 CPUs; made by
# build/bench/gen-log) converted by `buildbpf convert` at each scheduler
# level, REPS times each.  Prints the median wall time, records per second
# and the peak RSS.  No root needed.
#
#   bench/convert.sh [--procs N] [--slices N] [--cpus N] [--reps N] [--build DIR]
set -euo pipefail

procs=200000 slices=5000000 cpus=8 reps=3 build=build
while [ $# -gt 0 ]; do
	case $1 in
	--procs) procs=$2; shift 2 ;;
	--slices) slices=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	-h|--help) sed -n '3,10p' "$0"; exit 0 ;;
	*) echo "convert.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
bin=$build/buildbpf gen=$build/bench/gen-log
for f in "$bin" "$gen"; do
	[ -x "$f" ] || { echo "convert.sh: $f is not built (make all $build/bench/gen-log)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "convert.sh: needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 1; }

dir=$(mktemp -d /tmp/buildbpf-bench-convert.XXXXXX)
trap 'rm -rf "$dir"' EXIT
events=$("$gen" "$dir/synthetic.bbl" "$procs" "$slices" "$cpus")
size=$(stat -c %s "$dir/synthetic.bbl")
echo "synthetic log: $procs processes, $slices scheduler records, $cpus CPUs: $events records, $((size / 1048576)) MiB"
printf '%-8s %10s %14s %14s %12s\n' level "median s" "records/s" "peak RSS MiB" "trace MiB"
for level in off summary full; do
	times=() rss=0
	for ((i = 0; i < reps; i++)); do
		rm -f "$dir/t.json"
		# --keep-root: under sudo, convert would become the caller, who
		# cannot enter this root-made 0700 directory; without sudo it is moot.
		/usr/bin/time -f '%e %M' -o "$dir/time" "$bin" convert -q --keep-root --sched="$level" \
			"$dir/synthetic.bbl" -o "$dir/t.json"
		read -r secs kb < "$dir/time"
		times+=("$secs")
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	trace=$(stat -c %s "$dir/t.json")
	awk -v l="$level" -v m="$median" -v e="$events" -v r="$rss" -v t="$trace" \
		'BEGIN { printf "%-8s %10.2f %14.0f %14.1f %12.1f\n", l, m, e / m, r / 1024, t / 1048576 }'
done
