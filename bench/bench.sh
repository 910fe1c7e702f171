#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/bench.sh (make bench) — what tracing costs, every level side by side in one run.
#
# Usage: sudo bench/bench.sh [OPTIONS]
#        bench/bench.sh --self-test        the statistics on known numbers (no root)
#
# Each repetition runs every configuration once, in an order that rotates from
# one repetition to the next (so drift in the machine's load falls on all of
# them alike): the build untraced, then under buildbpf with its defaults and
# with each optional level.  Every figure is the median, and the range, of the
# per-repetition ratios traced / untraced of the same repetition: a ratio of
# two runs minutes apart would measure the machine, not buildbpf.
#
# Workloads:
#   real     a real build: json-c 0.16 (CMake + ninja -jJ, from clean each
#            time) when its Debian source is in the cache (tests/real/
#            fetch_sources.sh) and cmake and ninja are installed; otherwise
#            the bundled demo (tests/demo: generated header, seven compiles,
#            ar, link) four times from clean with make -jJ.
#   storm    a fork/exec storm: N independent targets, each one fork+exec of
#            cp(1), make -jJ.
#   startup  buildbpf -q -- /bin/true against /bin/true: the fixed cost.
#   others   the rest of the machine: `perf bench sched pipe` (on one CPU) outside any
#            traced build, alone and while buildbpf traces a `sleep` (needs
#            perf; every syscall tracepoint puts every task on its slow path).
#
# Configurations: untraced; defaults; --deps=on; --deps=off; --sched=full;
# --sched=off; --mem-period=off.  One of the --deps rows equals the defaults:
# both are kept so the table says what the default is.
#
# Options:
#   --reps R          repetitions (default 5)
#   --jobs J          the build's -j (default: CPUs)
#   --targets N       the storm's targets (default 2000)
#   --real demo|json-c  force the real workload
#   --only LIST       comma-separated workloads to run (default real,storm,startup,others)
#   --bin PATH        buildbpf binary (default build/buildbpf)
#   --markdown FILE   also write the table as GitHub-flavoured Markdown
#   -h, --help        this help
#
# The traced runs use --keep-root, so both sides run as the same user.  Lost
# events of every traced run are summed; any lost event fails the benchmark
# (exit 1).  Exit 2 on bad usage.  Needs root, make, cc (and for json-c cmake
# and ninja, for others perf).
set -euo pipefail
export LC_ALL=C

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd -- "$script_dir/.." && pwd)
# shellcheck source=bench/measure.sh
. "$script_dir/measure.sh"

reps=5
jobs=$(nproc)
targets=2000
real=
only=real,storm,startup,others
bin=$repo_root/build/buildbpf
markdown=

# The configurations: a name, and buildbpf's options for it ("-" = untraced).
CONFIG_NAMES=(untraced defaults deps-on deps-off sched-full sched-off mem-off)
declare -A CONFIG_OPTS=(
	[untraced]=-
	[defaults]=
	[deps-on]=--deps=on
	[deps-off]=--deps=off
	[sched-full]=--sched=full
	[sched-off]=--sched=off
	[mem-off]=--mem-period=off
)

usage() {
	awk 'NR <= 3 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"
}
die() { printf 'bench.sh: %s\n' "$*" >&2; exit 1; }
usage_error() {
	printf 'bench.sh: %s\n' "$*" >&2
	printf "Try 'bench/bench.sh --help'.\n" >&2
	exit 2
}

# --- statistics (pure; --self-test checks them) -------------------------------

# Median of numbers on stdin, one per line.
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit 1
		if (NR % 2) m = v[(NR + 1) / 2]; else m = (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3f\n", m
	}'
}

# "MEDIAN (MIN–MAX)" of numbers on stdin.
median_range() {
	local all m
	all=$(cat)
	m=$(median <<<"$all")
	sort -g <<<"$all" | awk -v m="$m" 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s (%.3f–%.3f)\n", m, lo, hi }'
}

ratio() { awk -v t="$1" -v u="$2" 'BEGIN { if (u <= 0) exit 1; printf "%.4f\n", t / u }'; }

# The order of the configurations in repetition R (1-based): rotated by R-1.
rotated_configs() { # R
	local n=${#CONFIG_NAMES[@]} i
	for ((i = 0; i < n; i++)); do
		printf '%s\n' "${CONFIG_NAMES[$(((i + $1 - 1) % n))]}"
	done
}

self_test() {
	local fail=0 got
	check() { # WHAT GOT WANT
		if [[ $2 != "$3" ]]; then
			printf 'bench.sh self-test: %s: got "%s", want "%s"\n' "$1" "$2" "$3" >&2
			fail=1
		fi
	}
	check "median of 3" "$(printf '3\n1\n2\n' | median)" 2.000
	check "median of 4" "$(printf '4\n1\n3\n2\n' | median)" 2.500
	check "median sorts numerically" "$(printf '10\n9\n1.5\n' | median)" 9.000
	check "median and range" "$(printf '1.2\n0.9\n1.05\n' | median_range)" "1.050 (0.900–1.200)"
	check "ratio" "$(ratio 3 2)" 1.5000
	got=0
	ratio 1 0 >/dev/null 2>&1 || got=1
	check "ratio refuses a zero base" "$got" 1
	check "rotation, first rep" "$(rotated_configs 1 | head -n 1)" untraced
	check "rotation, second rep" "$(rotated_configs 2 | head -n 1)" defaults
	check "rotation keeps every config" "$(rotated_configs 3 | sort | tr '\n' ' ')" \
		"$(printf '%s\n' "${CONFIG_NAMES[@]}" | sort | tr '\n' ' ')"
	check "lost events parsed" "$(printf 'buildbpf: 12 processes, 3 lost events\n' | lost_of -)" 3
	check "no lost events line" "$(printf 'buildbpf: 12 processes\n' | lost_of -)" ""
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/buildbpf-bench.XXXXXX")
	measure sleep 0.05
	check "measure: sleep 0.05 takes 50 ms or more of wall" "$((wall_us >= 50000))" 1
	check "measure: and next to no CPU" "$((cpu_ms < 40))" 1
	got=0
	measure false || got=$?
	check "measure returns the command's status" "$got" 1
	rm -rf -- "$tmp"
	if ((fail)); then
		exit 1
	fi
	echo "bench.sh self-test: 14 checks passed"
	exit 0
}

# The lost-event count in a buildbpf summary ("… N lost events"); empty if none.
lost_of() { # FILE
	awk '/buildbpf: .*lost event/ { for (i = 2; i <= NF; i++) if ($i == "lost" && $(i - 1) ~ /^[0-9]+$/) n = $(i - 1) }
		END { if (n != "") print n }' "$1"
}

# --- arguments ------------------------------------------------------------------

need_value() { [[ $2 -ge 2 ]] || usage_error "option $1 needs a value"; }
positive_int() { [[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "$1 must be a positive integer, not '$2'"; }

while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--self-test) self_test ;;
	--reps) need_value "$1" $#; reps=$2; shift 2 ;;
	--jobs) need_value "$1" $#; jobs=$2; shift 2 ;;
	--targets) need_value "$1" $#; targets=$2; shift 2 ;;
	--real) need_value "$1" $#; real=$2; shift 2 ;;
	--only) need_value "$1" $#; only=$2; shift 2 ;;
	--bin) need_value "$1" $#; bin=$2; shift 2 ;;
	--markdown) need_value "$1" $#; markdown=$2; shift 2 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
positive_int --reps "$reps"
positive_int --jobs "$jobs"
positive_int --targets "$targets"
case $real in
'' | demo | json-c) ;;
*) usage_error "--real must be demo or json-c, not '$real'" ;;
esac
wants() { [[ ,$only, == *,$1,* ]]; }
for w in ${only//,/ }; do
	case $w in real | storm | startup | others) ;; *) usage_error "unknown workload '$w' in --only" ;; esac
done

[[ $EUID -eq 0 ]] || die "must be run as root (buildbpf loads BPF programs); try: sudo $0"
[[ $bin == */* ]] || bin=./$bin
[[ -x $bin && -f $bin ]] || die "buildbpf binary '$bin' not found (run 'make' first, or pass --bin PATH)"
bin=$(cd -- "$(dirname -- "$bin")" && pwd)/$(basename -- "$bin")
if [[ -n $markdown ]]; then
	: >"$markdown" 2>/dev/null || die "cannot write --markdown file '$markdown'"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/buildbpf-bench.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- measuring --------------------------------------------------------------------

lost_total=0
# run_config CONFIG ERRFILE CMD...: CMD untraced, or under buildbpf with CONFIG's options.
run_config() {
	local config=$1 err=$2 opts rc=0 lost
	shift 2
	opts=${CONFIG_OPTS[$config]}
	if [[ $opts == - ]]; then
		measure "$@" >/dev/null 2>"$err" || rc=$?
	else
		# shellcheck disable=SC2086 # opts is one option or none
		measure "$bin" --keep-root $opts -f -o "$tmp/trace.json" -- "$@" >/dev/null 2>"$err" || rc=$?
		lost=$(lost_of "$err")
		lost_total=$((lost_total + ${lost:-0}))
	fi
	if [[ $rc -ne 0 ]]; then
		cat -- "$err" >&2
		die "$config: '$*' failed with status $rc"
	fi
}

# --- the workloads ----------------------------------------------------------------

# Each workload is a script in $tmp, run the same way untraced and traced.
setup_storm() {
	mkdir -p "$tmp/storm"
	{
		printf '.SUFFIXES:\nMAKEFLAGS += -r\nT :='
		for ((i = 1; i <= targets; i++)); do printf ' out/t%d' "$i"; done
		# shellcheck disable=SC2016 # make's variables
		printf '\n.PHONY: all\nall: $(T)\n$(T):\n\t@cp /dev/null $@\n'
	} >"$tmp/storm/Makefile"
	printf 'cd %s && rm -rf out && mkdir out && exec make -j%d -s --no-print-directory\n' "$tmp/storm" "$jobs" >"$tmp/storm.sh"
}

jsonc_src() {
	local cache=${BUILDBPF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/buildbpf}/src
	compgen -G "$cache/json-c-*/CMakeLists.txt" | head -n 1 | xargs -r dirname
}
setup_real() {
	local src=
	[[ $real == demo ]] || src=$(jsonc_src)
	if [[ -n $src ]] && command -v cmake >/dev/null && command -v ninja >/dev/null; then
		real_name="json-c $(basename -- "$src" | sed 's/^json-c-//'), CMake + ninja -j$jobs, from clean"
		cp -a -- "$src" "$tmp/real-src"
		cmake -S "$tmp/real-src" -B "$tmp/real-bld" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
			-DBUILD_TESTING=OFF >/dev/null || die "cmake could not configure json-c"
		printf 'ninja -C %s -t clean >/dev/null && exec ninja -C %s -j%d >/dev/null\n' \
			"$tmp/real-bld" "$tmp/real-bld" "$jobs" >"$tmp/real.sh"
	else
		[[ $real != json-c ]] || die "--real json-c: no json-c source in the cache (run tests/real/fetch_sources.sh), or no cmake/ninja"
		real_name="the bundled demo, 4 times from clean, make -j$jobs"
		cp -a -- "$repo_root/tests/demo" "$tmp/demo"
		printf 'for i in 1 2 3 4; do make -s -C %s clean && make -s --no-print-directory -C %s -j%d || exit; done\n' \
			"$tmp/demo" "$tmp/demo" "$jobs" >"$tmp/real.sh"
	fi
}

# A workload's table rows: per configuration, the median (range) of the
# per-repetition wall and CPU ratios against that repetition's untraced run.
declare -A wall_of cpu_of
bench_workload() { # NAME SCRIPT
	local name=$1 script=$2 r c
	declare -A wall_r=() cpu_r=()
	printf '\n%s\n' "$name"
	bash "$script" >/dev/null 2>&1 || die "$name: the warm-up run failed"
	for ((r = 1; r <= reps; r++)); do
		for c in $(rotated_configs "$r"); do
			run_config "$c" "$tmp/err" bash "$script"
			wall_of[$c]=$wall_us cpu_of[$c]=$cpu_ms
		done
		printf '  rep %d: untraced %s s;' "$r" "$(awk -v u="${wall_of[untraced]}" 'BEGIN { printf "%.3f", u / 1e6 }')"
		for c in "${CONFIG_NAMES[@]}"; do
			[[ $c == untraced ]] && continue
			wall_r[$c]+="$(ratio "${wall_of[$c]}" "${wall_of[untraced]}") "
			cpu_r[$c]+="$(ratio "${cpu_of[$c]}" "$((cpu_of[untraced] > 0 ? cpu_of[untraced] : 1))") "
			printf ' %s %s' "$c" "$(ratio "${wall_of[$c]}" "${wall_of[untraced]}")"
		done
		printf '\n'
	done
	for c in "${CONFIG_NAMES[@]}"; do
		[[ $c == untraced ]] && continue
		rows+=("$name|$c|$(tr ' ' '\n' <<<"${wall_r[$c]}" | grep . | median_range)|$(tr ' ' '\n' <<<"${cpu_r[$c]}" | grep . | median_range)")
	done
}

# Start-up: the difference buildbpf -- /bin/true minus /bin/true, in ms, per configuration.
bench_startup() {
	local r c base
	declare -A diffs=()
	printf '\nstart-up and shutdown around /bin/true\n'
	for ((r = 1; r <= reps; r++)); do
		for c in $(rotated_configs "$r"); do
			run_config "$c" "$tmp/err" /bin/true
			wall_of[$c]=$wall_us
		done
		base=${wall_of[untraced]}
		printf '  rep %d:' "$r"
		for c in "${CONFIG_NAMES[@]}"; do
			[[ $c == untraced ]] || printf ' %s +%d ms' "$c" $(((wall_of[$c] - base) / 1000))
		done
		printf '\n'
		for c in "${CONFIG_NAMES[@]}"; do
			[[ $c == untraced ]] || diffs[$c]+="$(((wall_of[$c] - base) / 1000)) "
		done
	done
	for c in "${CONFIG_NAMES[@]}"; do
		[[ $c == untraced ]] && continue
		startup_rows+=("$c|$(tr ' ' '\n' <<<"${diffs[$c]}" | grep . | median_range)")
	done
}

# The rest of the machine: perf bench sched pipe alone, and beside a traced sleep.
bench_others() {
	local r c pid secs
	declare -A ratios=()
	printf '\nthe rest of the machine: perf bench sched pipe beside a traced sleep\n'
	for ((r = 1; r <= reps; r++)); do
		for c in $(rotated_configs "$r"); do
			pid=
			if [[ $c != untraced ]]; then
				# shellcheck disable=SC2086
				"$bin" --keep-root ${CONFIG_OPTS[$c]} -q -f -o "$tmp/others.json" -- sleep 600 2>"$tmp/others.err" &
				pid=$!
				sleep 2 # past start-up (~0.1-0.3 s): the programs are attached
			fi
			# Pinned to one CPU: unpinned, the pair's placement alone swings
			# its time by 2x from one run to the next.
			secs=$(taskset -c "$(($(nproc) - 1))" perf bench sched pipe -l 100000 2>/dev/null |
				awk '/Total time:/ { print $3 }')
			[[ -n $secs ]] || die "perf bench sched pipe printed no total time"
			if [[ -n $pid ]]; then
				# TERM, not INT: a script's background job starts with SIGINT
				# ignored, and buildbpf keeps a signal its caller ignored.
				kill -TERM "$pid" 2>/dev/null || true
				wait "$pid" 2>/dev/null || true
			fi
			wall_of[$c]=$secs
		done
		for c in "${CONFIG_NAMES[@]}"; do
			[[ $c == untraced ]] || ratios[$c]+="$(ratio "${wall_of[$c]}" "${wall_of[untraced]}") "
		done
	done
	for c in "${CONFIG_NAMES[@]}"; do
		[[ $c == untraced ]] && continue
		others_rows+=("$c|$(tr ' ' '\n' <<<"${ratios[$c]}" | grep . | median_range)")
	done
}

# --- the run -------------------------------------------------------------------------

read -r load_start _ </proc/loadavg
printf 'buildbpf benchmark of %s\n' "$bin"
"$bin" --version 2>&1 | sed 's/^/  /'
printf '  machine: %s CPUs, kernel %s, load average %s at the start\n' "$(nproc)" "$(uname -r)" "$load_start"
printf '  reps: %d, each running every configuration once in a rotating order\n' "$reps"

rows=() startup_rows=() others_rows=()
if wants real; then
	setup_real
	bench_workload "real build: $real_name" "$tmp/real.sh"
fi
if wants storm; then
	setup_storm
	bench_workload "fork/exec storm: $targets targets of one cp each, make -j$jobs" "$tmp/storm.sh"
fi
wants startup && bench_startup
if wants others; then
	if command -v perf >/dev/null; then
		bench_others
	else
		printf '\nthe rest of the machine: skipped, perf is not installed (Debian: linux-perf)\n'
	fi
fi
read -r load_end _ </proc/loadavg

table() {
	printf '| workload | configuration | wall ratio, median (range) | CPU ratio, median (range) |\n'
	printf '| --- | --- | --- | --- |\n'
	local row
	for row in "${rows[@]}"; do
		IFS='|' read -r w c wall cpu <<<"$row"
		printf '| %s | %s | %s | %s |\n' "$w" "${CONFIG_OPTS[$c]:-defaults}" "$wall" "$cpu"
	done
	for row in "${startup_rows[@]}"; do
		IFS='|' read -r c ms <<<"$row"
		# Milliseconds added, not a ratio: whole numbers, and said so in the cell.
		ms=$(awk '{ gsub(/[()–]/, " "); printf "%+d ms (%+d to %+d ms)", $1, $2, $3 }' <<<"$ms")
		printf '| start-up + shutdown around /bin/true | %s | %s | |\n' "${CONFIG_OPTS[$c]:-defaults}" "$ms"
	done
	for row in "${others_rows[@]}"; do
		IFS='|' read -r c r <<<"$row"
		printf '| rest of the machine: perf bench sched pipe beside a traced sleep | %s | %s | |\n' \
			"${CONFIG_OPTS[$c]:-defaults}" "$r"
	done
	printf '\n%d repetitions on %s CPUs, kernel %s, load average %s at the start and %s at the end; %d lost events.\n' \
		"$reps" "$(nproc)" "$(uname -r)" "$load_start" "$load_end" "$lost_total"
}
printf '\n'
table
[[ -z $markdown ]] || table >"$markdown"
if [[ $lost_total -gt 0 ]]; then
	printf 'bench.sh: FAIL: traced runs lost %d events\n' "$lost_total" >&2
	exit 1
fi
