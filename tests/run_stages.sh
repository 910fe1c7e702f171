#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make test and make test-quick: runs every stage of the suite, each to the
# end even when an earlier one failed, and ends with one table: each stage's
# result, its counts, its time, and for a failure the failed tests and the
# stage's log.  Exits 1 when any stage failed.
#
#   tests/run_stages.sh full|quick
#   tests/run_stages.sh --self-test    the runner on made-up stages (make test-repo)
#
#   STAGES="unit fuzz"  runs only these stages of the list, in its order
#   BUILD=dir           the build directory (default: build)
#   MAKE=make           the make that runs the Makefile's targets
#
# Each stage's output goes to the terminal and to BUILD/test-logs/STAGE.log;
# the table also to BUILD/test-logs/summary.txt.  Its last line totals the
# tests of every stage ("tests: N passed, N failed"); a stage that has no
# count of its own counts as one test, and a failed stage as at least one
# failure, so "0 failed" means every stage that ran passed.
set -uo pipefail

# The stage lists: the one place that says what each target runs, in order.
FULL_STAGES="deps build layers unit test-repo test-install integration test-deb test-valgrind fuzz reliability test-asan test-kernels"
QUICK_STAGES="deps build layers unit test-repo integration"
# Stages that load BPF or install packages: skipped, saying why, unless root.
ROOT_STAGES="integration test-deb test-valgrind test-kernels"
# Stages that run what the build stage made: skipped when it failed.
BUILT_STAGES="unit integration test-valgrind test-kernels"

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
logs=$BUILD/test-logs

in_list() { [[ " $2 " == *" $1 "* ]]; }

# The command of one stage.  Its output is the stage's log.
stage_command() {
	case $1 in
	deps) $MAKE --no-print-directory test-deps viewer-deps ;;
	# Compiles on every CPU: serial, a fresh clone's build took half an
	# hour at load 20.  (Their tests run as they always do.)
	build) $MAKE --no-print-directory -j"$(nproc)" test-build ;;
	test-asan | fuzz) $MAKE --no-print-directory -j"$(nproc)" "$1" ;;
	layers) tests/check_layers.sh ;;
	# Verbose: the reliability stage reads the RELIABILITY| rows it prints.
	unit) "$BUILD/tests/unit-tests" --verbose ;;
	integration) $MAKE --no-print-directory test-integration CRITERION_FLAGS=--verbose ;;
	reliability)
		# build/test-output.txt: what the suites printed, for
		# tests/reliability_table.sh (and for people who read it whole).
		local f inputs=()
		for f in unit integration test-valgrind fuzz; do
			[ -f "$logs/$f.log" ] && inputs+=("$logs/$f.log")
		done
		cat "${inputs[@]}" /dev/null > "$BUILD/test-output.txt"
		printf '  %-8s %s\n' TABLE "$BUILD/reliability.md"
		tests/reliability_table.sh "$BUILD/test-output.txt" > "$BUILD/reliability.md.tmp" &&
			mv "$BUILD/reliability.md.tmp" "$BUILD/reliability.md" ;;
	*) $MAKE --no-print-directory "$1" ;;
	esac
}

# Counts of a finished stage's log, as "PASSED FAILED DESCRIPTION";
# PASSED is - for a stage with no count of its own.
stage_counts() {
	local stage=$1 log=$2
	case $stage in
	unit | integration | test-asan)
		# Criterion: "Tested" leaves skipped tests out, "Failing" counts
		# crashes and timeouts; test-asan runs two binaries.
		awk '/Synthesis: Tested:/ { for (i = 1; i <= NF; i++) { if ($i == "Passing:") p += $(i+1); if ($i == "Failing:") f += $(i+1) }; n++ }
		     /^\[SKIP\] / { s++ }
		     END { if (n) printf "%d %d %d passed, %d failed, %d skipped\n", p, f, p, f, s; else print "- 0 no Criterion synthesis line" }' "$log" ;;
	test-kernels)
		# The matrix's own table: | kernel | accel | loaded | passed/expected | … | result |
		# (the result is the last column, whatever columns come between)
		awk -F'|' 'NF > 3 && $(NF-1) ~ /^ *(PASS|FAIL|TIMEOUT)/ { split($5, t, "/"); p += t[1]; f += t[2] - t[1]; k++; if ($(NF-1) ~ /^ *PASS/) ok++ }
		     END { if (k) printf "%d %d %d/%d kernels passed, %d tests passed, %d failed\n", p, f, ok, k, p, f;
			   else print "- 0 no kernel booted" }' "$log" ;;
	test-valgrind)
		awk '/^RELIABILITY\|valgrind::/ { p++ } /^valgrind_check: [a-z_]+: / { split($2, n, ":"); if (!(n[1] in seen)) { seen[n[1]]; f++ } }
		     END { printf "%d %d %d runs under Memcheck passed, %d failed\n", p, f, p, f }' "$log" ;;
	fuzz)
		awk '/^  FUZZ +[0-9]+ executions/ { runs += $2; targets++ }
		     END { printf "- 0 %d targets, %d runs\n", targets, runs }' "$log" ;;
	*) echo "- 0 -" ;;
	esac
}

# What failed, one name a line: Criterion's failed tests (in the matrix,
# each guest's, by kernel), Memcheck's failed cases; else the last lines in
# which a script names itself ("check_layers: …", lintian's "E: …"); else
# the stage's last line that is not make's own complaint.
stage_failures() {
	local stage=$1 log=$2 k
	case $stage in
	test-kernels)
		for k in "$BUILD"/kernels/*.log; do
			[ -f "$k" ] && sed -n "s|^\[FAIL\] \([^:]*::[^:]*\):.*|$(basename "$k" .log): \1|p" "$k"
		done
		sed -n 's/^| \([^ ]*\) |.*| \(FAIL.*\|TIMEOUT\) |$/\1: \2/p' "$log" ;;
	test-valgrind) sed -n 's/^valgrind_check: \([a-z_]*\): \(.*\)/\1: \2/p' "$log" ;;
	*) criterion_failures "$log" ;;
	# A repeated name once; detail lines (indented) each under its own test.
	esac | awk '/^  / || !seen[$0]++' | head -n 40 | grep . && return
	{ grep -E '^([a-z][a-z0-9_-]*|E): ' "$log" | grep -vE '^make(\[[0-9]+\])?: ' | tail -n 5 | grep . ||
		grep -vE '^make(\[[0-9]+\])?: \*\*\*|^ *$' "$log" | tail -n 1; } | cut -c1-150
}

# Criterion's failed tests, each with where its assertion failed and the
# first lines of its message (Criterion prints them just before [FAIL]), so
# a CI log cut short still says why.
criterion_failures() {
	awk 'function flush() { loc = ""; nmsg = 0 }
	     /^\[----\] [^ ]+:[0-9]+: (Assertion Failed|Unexpected signal)/ { flush(); loc = $2; sub(/:$/, "", loc); next }
	     loc != "" && /^\[----\]   / { m = substr($0, 10); if (m ~ /[^ ]/ && nmsg < 3) msg[++nmsg] = m; next }
	     /^\[FAIL\] / { name = $2; sub(/:$/, "", name); print name
			   if (loc != "") print "  at " loc
			   for (i = 1; i <= nmsg; i++) print "  " substr(msg[i], 1, 140)
			   flush(); next }
	     /^\[(RUN |PASS|SKIP)\]/ { flush() }' "$1"
}

secs_text() { awk -v s="$1" 'BEGIN { s = int(s + 0.5); if (s >= 60) printf "%dm%02ds", s / 60, s % 60; else printf "%ds", s }'; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# run_list MODE "STAGE...": runs the stages, prints the table; 1 if one failed.
run_list() {
	local mode=$1 list=$2 stage log why t0 rc secs pass fail counts result failures row took
	local load_start load_end t_start total_secs build_failed=0 total_pass=0 total_fail=0 any_failed=0
	local rows=()
	mkdir -p "$logs"
	rm -f "$logs"/*.log "$logs/summary.txt"
	load_start=$(loadavg)
	t_start=$(date +%s.%N)
	for stage in $list; do
		log=$logs/$stage.log
		why=
		if in_list "$stage" "$ROOT_STAGES" && [ "$(id -u)" != 0 ]; then
			why="needs root (sudo $mode)"
		elif in_list "$stage" "$BUILT_STAGES" && [ $build_failed = 1 ]; then
			why="the build stage failed"
		fi
		if [ -n "$why" ]; then
			printf '  %-8s %s\n' SKIP "$stage: $why" | tee "$log"
			rows+=("$stage|skipped|$why|-|0|")
			continue
		fi
		printf '\n==== %s: %s (log: %s)\n' "$stage" "$(date +%H:%M:%S)" "$log"
		t0=$(date +%s.%N)
		stage_command "$stage" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
		secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
		read -r pass fail counts < <(stage_counts "$stage" "$log")
		if [ "$rc" = 0 ] && grep -q '^SKIPPED: ' "$log"; then
			result=skipped counts=$(sed -n 's/^SKIPPED: //p' "$log" | head -n 1)
		elif [ "$rc" = 0 ]; then
			result=passed
		else
			result=FAILED any_failed=1
			[ "$stage" = build ] && build_failed=1
		fi
		# A stage without counts is one test; a failed one, one failure at least.
		if [ "$pass" = - ]; then
			pass=0
			[ $result = passed ] && pass=1
		fi
		[ $result = FAILED ] && [ "$fail" = 0 ] && fail=1
		total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail))
		failures=
		[ $result = FAILED ] && failures=$(stage_failures "$stage" "$log" | tr '|\n' '/\001')
		rows+=("$stage|$result|$counts|$(secs_text "$secs")|$rc|$failures")
	done
	load_end=$(loadavg)
	total_secs=$(awk -v a="$t_start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')

	{
		echo
		echo "==== $mode: $(echo "$list" | wc -w) stages in $(secs_text "$total_secs") on $(nproc) CPUs, load average $load_start at start, $load_end at end"
		printf '%-14s %-8s %-62s %s\n' stage result counts time
		for row in "${rows[@]}"; do
			IFS='|' read -r stage result counts took rc failures <<< "$row"
			if [ "$result" = skipped ]; then
				printf '%-14s %-8s %-62s %s\n' "$stage" skipped "why: $counts" "$took"
				continue
			fi
			printf '%-14s %-8s %-62s %s\n' "$stage" "$result" "$counts" "$took"
			if [ "$result" = FAILED ]; then
				# A failure's detail lines (indented) sit under it.
				printf '%s' "$failures" | tr '\001' '\n' | sed -e 's/^  /            /;t' -e 's/^/    failed: /'
				echo "    exit status $rc; log: $logs/$stage.log"
			fi
		done
		echo "logs: $logs/<stage>.log"
		echo "tests: $total_pass passed, $total_fail failed"
	} | tee "$logs/summary.txt"
	return $any_failed
}

# The runner on made-up stages whose logs are the real tools' shapes: a
# failed Criterion test, a failed script, a kernel that failed one guest
# test; every stage after the first failure must still run, the table must
# name what failed, and the status must be 1.
self_test() {
	local out rc=0 want bad=0 dir
	dir=$(mktemp -d /tmp/run-stages-self-test.XXXXXX)
	self_test_dir=$dir
	trap 'rm -rf "$self_test_dir"' EXIT
	local BUILD=$dir logs=$dir/test-logs ROOT_STAGES=
	mkdir -p "$dir/kernels"
	printf '[FAIL] sched::sleep_is_sleep: (0.20s)\n' > "$dir/kernels/6.1.0-9-amd64.log"
	stage_command() {
		case $1 in
		unit) printf '%s\n' '[PASS] a::one: (0.00s)' '[----] tests/a.c:12: Assertion Failed' '[----]   ' \
			'[----]   the page has no answers' '[----]   ' '[FAIL] a::two: (0.01s)' '[SKIP] a::three: no BTF' \
			'[====] Synthesis: Tested: 2 | Passing: 1 | Failing: 1 | Crashing: 0 '; return 1 ;;
		test-repo) printf '%s\n' '  CHECK    one' 'x_check: a.o: named like a build output' 'make: *** [Makefile:1: x] Error 1'; return 2 ;;
		test-valgrind) printf '%s\n' 'RELIABILITY|valgrind::make_j2|a|b|1|2|0|0.1|c' 'RELIABILITY|valgrind::attach|a|b|1|2|0|0.1|c' ;;
		fuzz) printf '%s\n' '  FUZZ     1200 executions in 40 s, 0 crashes' '  FUZZ     3400 executions in 20 s, 0 crashes' ;;
		test-kernels) printf '%s\n' '| kernel | accel | loaded | tests passed | probe | time | result |' \
			'| 6.1.0-9-amd64 | tcg | yes | 38/39 | 5, 60 (0) | 700s | FAIL |' \
			'| 6.12.9+deb12-amd64 | tcg | yes | 39/39 | 5, 60 (0) | 650s | PASS |'; return 1 ;;
		esac
	}
	out=$(run_list "a self-test" "unit test-repo test-valgrind fuzz test-kernels" 2>&1) || rc=$?
	# The time column is left out: it is the machine's, not the runner's.
	while IFS= read -r want; do
		sed -E 's/ +[0-9]+(m[0-9]+)?s$//' <<< "$out" | grep -qxF -- "$want" || { echo "run_stages self-test: no line '$want' in:" >&2; bad=1; }
	done <<-'EOF2'
	unit           FAILED   1 passed, 1 failed, 1 skipped
	    failed: a::two
	            at tests/a.c:12
	            the page has no answers
	    failed: x_check: a.o: named like a build output
	test-valgrind  passed   2 runs under Memcheck passed, 0 failed
	fuzz           passed   2 targets, 4600 runs
	test-kernels   FAILED   1/2 kernels passed, 77 tests passed, 1 failed
	    failed: 6.1.0-9-amd64: sched::sleep_is_sleep
	    failed: 6.1.0-9-amd64: FAIL
	tests: 81 passed, 3 failed
	EOF2
	[ "$(tail -n 1 <<< "$out")" = "tests: 81 passed, 3 failed" ] || { echo "run_stages self-test: the totals are not the last line" >&2; bad=1; }
	[ "$rc" = 1 ] || { echo "run_stages self-test: exit status $rc, expected 1" >&2; bad=1; }
	if [ $bad = 1 ]; then
		printf '%s\n' "$out" >&2
		return 1
	fi
	echo "  CHECK    run_stages self-test: every stage run past failures, each named in the table, status 1"
}

case ${1:-} in
full) mode="make test" list=$FULL_STAGES ;;
quick) mode="make test-quick" list=$QUICK_STAGES ;;
--self-test) self_test; exit ;;
*) echo "usage: run_stages.sh full|quick|--self-test" >&2; exit 2 ;;
esac
if [ -n "${STAGES:-}" ]; then
	for stage in $STAGES; do
		in_list "$stage" "$list" || { echo "run_stages: STAGES: no stage '$stage' in $mode (stages: $list)" >&2; exit 2; }
	done
	picked=
	for stage in $list; do
		in_list "$stage" "$STAGES" && picked="$picked $stage"
	done
	list=${picked# }
fi

# make -n test: make runs this recipe anyway (it names $(MAKE)); say, don't do.
flags=${MAKEFLAGS:-}
flags=${flags%% *}
if [[ $flags != -* && $flags != *=* && $flags == *n* ]]; then
	echo "run_stages: would run: $list"
	exit 0
fi
run_list "$mode" "$list"
