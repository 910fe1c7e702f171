#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Conversion at scale, on synthetic recordings shaped like a large make build
# (build/bench/gen-log: sub-makes, sh -c, gcc, cc1, as, ld, with CPU slices,
# memory and I/O records).  No root needed.
#
#   1. Throughput: PROCS processes (default 200,000) recorded at --sched=full,
#      converted at each scheduler level, REPS times each (median).
#   2. Scale: two recordings of BIG processes (default 1,000,000) with file
#      dependencies: `convert` with the build graph, the audit and its JSON,
#      and `diff` of the two.  --big 0 skips it.
#   3. A kernel: two kernel-shaped builds of KERNEL compiles (default
#      30,000: five processes each under a make per directory, file
#      dependencies and memory records; two seeds, so each compile's time
#      differs between them): `convert` with the graph, the audit, its JSON
#      and the HTML report, and `diff` of the two.  --kernel 0 skips it.
#   4. Shapes (--shapes N): each build shape of gen-log --shape (a kernel,
#      a jobserver, a chain of makes, ninja's links, cargo's pipeline, ...)
#      at N and 2N jobs, converted with the audit, its JSON and the HTML
#      report: the least CPU s of REPS runs and the ratio per doubling
#      (near-linear: under 2.2).
#      Only the shapes when given; --shapes 0 (default) skips it.
#
# Prints wall and CPU (user+sys) time, records per second and the peak RSS,
# and the load average: on a shared machine, judge by CPU time.
#
#   bench/convert.sh [--procs N] [--big N] [--kernel N] [--cpus N] [--reps N] [--shapes N] [--build DIR]
set -euo pipefail

procs=200000 big=1000000 kernel=30000 cpus=16 reps=3 shapes=0 build=build
while [ $# -gt 0 ]; do
	case $1 in
	--procs) procs=$2; shift 2 ;;
	--big) big=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--shapes) shapes=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	-h|--help) sed -n '3,28p' "$0"; exit 0 ;;
	*) echo "convert.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
bin=$build/buildbpf gen=$build/bench/gen-log
for f in "$bin" "$gen"; do
	[ -x "$f" ] || { echo "convert.sh: $f is not built (make all $build/bench/gen-log)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "convert.sh: needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 1; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/buildbpf-bench-convert.XXXXXX")
trap 'rm -rf "$dir"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"

# run NAME CMD...: runs CMD under GNU time; leaves "wall cpu kb" in $dir/NAME.
run() {
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$@"
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$dir/time" > "$dir/$name"
}

# The shapes' names, from gen-log's usage line.
shape_names() {
	"$gen" 2>&1 | sed -n 's/.*NAME one of://p'
}

if [ "$shapes" -gt 0 ]; then
	echo "shapes: convert with the audit, --summary-json and --html, at $shapes and $((2 * shapes)) jobs"
	printf '%-16s %9s %8s %9s %8s %7s\n' shape "jobs" "CPU s" "jobs" "CPU s" ratio
	for shape in $(shape_names); do
		for n in "$shapes" $((2 * shapes)); do
			"$gen" "$dir/shape.bbl" "$n" --shape "$shape" > /dev/null
			: > "$dir/runs"
			for ((i = 0; i < reps; i++)); do
				run one "$bin" convert -q -f --keep-root "$dir/shape.bbl" -o "$dir/shape.json" \
					--summary-json "$dir/shape-audit.json" --html "$dir/shape.html"
				cat "$dir/one" >> "$dir/runs"
			done
			sort -n -k2,2 "$dir/runs" | head -1 > "$dir/shape$n"
		done
		read -r _ small _ < "$dir/shape$shapes"
		read -r _ large _ < "$dir/shape$((2 * shapes))"
		awk -v s="$shape" -v n="$shapes" -v a="$small" -v b="$large" \
			'BEGIN { printf "%-16s %9d %8.2f %9d %8.2f %7.2f\n", s, n, a, 2 * n, b, (a > 0 ? b / a : 0) }'
	done
	rm -f "$dir/shape.bbl" "$dir/shape.json" "$dir/shape-audit.json" "$dir/shape.html"
	exit 0
fi

events=$("$gen" "$dir/build.bbl" "$procs" --cpus "$cpus" --sched full)
size=$(stat -c %s "$dir/build.bbl")
echo "throughput: a build of $procs processes on $cpus CPUs: $events records, $((size / 1048576)) MiB"
printf '%-8s %8s %8s %14s %14s %10s %10s\n' level "wall s" "CPU s" "records/s" "per CPU s" "RSS MiB" "trace MiB"
for level in off summary full; do
	: > "$dir/runs"
	for ((i = 0; i < reps; i++)); do
		rm -f "$dir/t.json"
		# --keep-root: under sudo, convert would become the caller, who
		# cannot enter this root-made 0700 directory; without sudo it is moot.
		run one "$bin" convert -q --keep-root --sched="$level" "$dir/build.bbl" -o "$dir/t.json"
		cat "$dir/one" >> "$dir/runs"
	done
	trace=$(stat -c %s "$dir/t.json")
	m=$(((reps + 1) / 2))
	wall=$(sort -n -k1,1 "$dir/runs" | sed -n "${m}p" | cut -d' ' -f1)
	cpu=$(sort -n -k2,2 "$dir/runs" | sed -n "${m}p" | cut -d' ' -f2)
	kb=$(sort -n -k3,3 "$dir/runs" | tail -1 | cut -d' ' -f3)
	awk -v l="$level" -v e="$events" -v t="$trace" -v w="$wall" -v c="$cpu" -v r="$kb" \
		'BEGIN { printf "%-8s %8.2f %8.2f %14.0f %14.0f %10.1f %10.1f\n", l, w, c, e / w, e / c, r / 1024, t / 1048576 }'
done

if [ "$kernel" -gt 0 ]; then
	for seed in 1 2; do
		"$gen" "$dir/kernel$seed.bbl" "$kernel" --shape kernel --seed "$seed" --memory > "$dir/events$seed"
	done
	echo "kernel: two builds of $kernel compiles: $(cat "$dir/events1") records," \
		"$(($(stat -c %s "$dir/kernel1.bbl") / 1048576)) MiB each"
	run convert "$bin" convert -q --keep-root "$dir/kernel1.bbl" -o "$dir/kernel.json" \
		--summary-json "$dir/kernel-audit.json" --html "$dir/kernel.html"
	run diff "$bin" diff -q "$dir/kernel1.bbl" "$dir/kernel2.bbl" --json "$dir/kernel-diff.json"
	printf '%-34s %8s %8s %10s\n' "" "wall s" "CPU s" "RSS MiB"
	for what in convert diff; do
		read -r wall cpu kb < "$dir/$what"
		label=$([ "$what" = convert ] && echo "convert (graph, audit, JSON, HTML)" || echo "diff of the two")
		awk -v l="$label" -v w="$wall" -v c="$cpu" -v r="$kb" \
			'BEGIN { printf "%-34s %8.2f %8.2f %10.1f\n", l, w, c, r / 1024 }'
	done
	rm -f "$dir"/kernel*
fi

[ "$big" -gt 0 ] || exit 0
for seed in 1 2; do
	"$gen" "$dir/big$seed.bbl" "$big" --cpus "$cpus" --deps --seed "$seed" > "$dir/events$seed"
done
echo "scale: two builds of $big processes with --deps: $(cat "$dir/events1") records," \
	"$(($(stat -c %s "$dir/big1.bbl") / 1048576)) MiB each"
# The audit report is printed, as by default, but not shown here.
run convert "$bin" convert --keep-root "$dir/big1.bbl" -o "$dir/big.json" --summary-json "$dir/audit.json" 2> "$dir/report"
run diff "$bin" diff -q "$dir/big1.bbl" "$dir/big2.bbl" --json "$dir/diff.json"
printf '%-34s %8s %8s %10s\n' "" "wall s" "CPU s" "RSS MiB"
for what in convert diff; do
	read -r wall cpu kb < "$dir/$what"
	label=$([ "$what" = convert ] && echo "convert (graph, audit, JSON)" || echo "diff of the two")
	awk -v l="$label" -v w="$wall" -v c="$cpu" -v r="$kb" 'BEGIN { printf "%-34s %8.2f %8.2f %10.1f\n", l, w, c, r / 1024 }'
done
echo "trace $(($(stat -c %s "$dir/big.json") / 1048576)) MiB; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
