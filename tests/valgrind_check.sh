#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make test-valgrind: build/buildbpf under valgrind's Memcheck, tracing real
# commands, must give no Memcheck report at all: no invalid access, no use of
# uninitialised memory, no definitely or indirectly lost block (memory still
# reachable at exit is not counted), in buildbpf or in its child before the
# child execs the command.  Each trace must be written, valid and complete.
# The traced commands themselves run natively (no --trace-children).
#
#   tests/valgrind_check.sh [BUILD_DIR]      (root; BUILD_DIR default: build)
#
# Prints a RELIABILITY| row per case for tests/reliability_table.sh.
# tests/valgrind.supp holds the suppressed false positives, with the proof.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(realpath "${1:-build}")
bin=$build/buildbpf
check=$build/tests/trace-check
load_gen=$build/tests/load-gen

for f in "$bin" "$check" "$load_gen"; do
	[ -x "$f" ] || { echo "valgrind_check: $f is not built" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "valgrind_check: needs root to load BPF (sudo make test-valgrind)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind_check: valgrind is not installed (make deps)" >&2; exit 1; }

dir=$(mktemp -d /tmp/buildbpf-valgrind.XXXXXX)
trap 'rm -rf "$dir"' EXIT
# The second case runs as nobody in this directory: buildbpf drops to the
# command's user before it writes anything, so that user must own it.
chmod 755 "$dir"
chown nobody "$dir"

failed=0

fail() {
	echo "valgrind_check: $name: $*" >&2
	case_failed=1
	failed=1
}

# Every Memcheck log of the case: the buildbpf process's ends with its error
# summary; the child's, which execs the command, ends at the exec and must hold
# nothing but valgrind's banner.
check_logs() {
	local log summary summaries=0
	for log in "$dir/$name".vg.*; do
		summary=$(grep -h 'ERROR SUMMARY:' "$log" || true)
		if [ -n "$summary" ]; then
			summaries=$((summaries + 1))
			[[ $summary == *"ERROR SUMMARY: 0 errors"* ]] || fail "Memcheck reported errors"
		elif grep -E '^==[0-9]+== .' "$log" | grep -vqE '^==[0-9]+== (Memcheck, a memory error detector|Copyright |Using Valgrind-|Command: |Parent PID: )'; then
			fail "Memcheck reported errors in a child before its exec"
		fi
	done
	[ "$summaries" = 1 ] || fail "$summaries Memcheck error summaries, expected buildbpf's alone"
}

# run_case NAME LABEL STATUS CHECKED -- BUILDBPF_ARGS...: runs buildbpf
# under Memcheck in $dir; it must exit STATUS (the command's).
run_case() {
	local status=0 expect=$3 start end
	name=$1 label=$2 checked=$4 case_failed=0
	shift 5
	start=$(date +%s.%N)
	(cd "$dir" && env -u SUDO_UID -u SUDO_GID -u SUDO_USER \
		valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 --track-fds=no --suppressions="$here/valgrind.supp" \
		--log-file="$dir/$name.vg.%p" "$bin" -o "$name.json" "$@" >"$name.out" 2>"$name.err") || status=$?
	end=$(date +%s.%N)
	seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
	[ "$status" != 99 ] || fail "Memcheck reported errors (exit status 99)"
	[ "$status" = 99 ] || [ "$status" = "$expect" ] || fail "exit status $status, expected $expect"
	check_logs
	if ! "$check" "$dir/$name.json" >"$dir/$name.procs"; then
		fail "no valid trace"
		: >"$dir/$name.procs"
	fi
}

# The figures of the last case's trace: processes, events, lost, wall_us.
figure() {
	sed -n "1s/.*$1=\([0-9]*\).*/\1/p" "$dir/$name.procs"
}

# The last case's RELIABILITY row (its trace's figures, its heap use) when
# every check of it held; otherwise what Memcheck and buildbpf said.
report() {
	local log heap
	[ "$(figure lost)" = 0 ] || fail "$(figure lost) lost events"
	if [ "$case_failed" = 1 ]; then
		cat "$dir/$name".vg.* "$dir/$name.err" >&2
		return
	fi
	log=$(grep -l 'ERROR SUMMARY:' "$dir/$name".vg.* | head -n1)
	heap=$(sed -n 's/.*total heap usage: \([0-9,]*\) allocs, \([0-9,]*\) frees.*/\1 allocs, \2 frees/p' "$log")
	printf 'RELIABILITY|valgrind::%s|%s|%s|%s|%s|%s|%s|%s\n' "$name" "$label" "$checked" \
		"$(figure processes)" "$(figure events)" "$(figure lost)" \
		"$(awk -v us="$(figure wall_us)" 'BEGIN { printf "%.2f", us / 1e6 }')" \
		"$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*(suppressed: \([0-9]*\).*/\1 errors (\2 known false positives suppressed)/p' "$log"), $heap, $(sed -n 's/.*in use at exit: \([0-9,]*\) bytes.*/\1 bytes in use at exit/p' "$log"); $seconds s under Memcheck"
}

echo "  TEST     build/buildbpf under valgrind memcheck"

# 1. The default options on a real make -j2: 40 one-process targets and a
# process of 8 threads; every target traced, exit 0, nothing lost.
{
	printf 'T :='
	for i in $(seq -w 0 39); do printf ' t%s' "$i"; done
	# shellcheck disable=SC2016 # $(T) and $@ are make's
	printf '\n.PHONY: all threads $(T)\nall: $(T) threads\n$(T):\n\t@true $@\nthreads:\n\t@%s threads 8 50\n' "$load_gen"
} >"$dir/Makefile"
run_case make_j2 "make -j2, default options" 0 \
	"no Memcheck report; 40 targets and 8 threads traced, exit 0, 0 lost" -- -- make -j2
targets=$(grep -c -E $'^proc\texit 0\ttrue t[0-9]{2}$' "$dir/$name.procs" || true)
[ "$targets" = 40 ] || fail "$targets of 40 targets in the trace"
[ "$(figure processes)" = 42 ] || fail "$(figure processes) processes, expected 42 (make, 40 targets, load-gen)"
report

# 2. The other paths: every context switch kept, argv cut, --wait-all for a
# background job, the command run as another user, a non-zero exit passed on.
run_case wait_all "--sched=full --args-max 8 --wait-all --user nobody" 3 \
	"no Memcheck report; exit 3 passed on, the background sleep waited for, 0 lost" -- \
	--sched=full --args-max 8 --wait-all --user nobody -- sh -c '(sleep 0.3 &); ls / >/dev/null; exit 3'
[ "$(figure processes)" = 4 ] || fail "$(figure processes) processes, expected 4 (sh, subshell, sleep, ls)"
[ "$(figure wall_us)" -ge 300000 ] 2>/dev/null || fail "traced $(figure wall_us) us: --wait-all did not wait for the sleep"
report

# 3. --attach: a loop found running with a child, its new children traced
# for 2 s; the task iterator's snapshot, the found records, the end without
# a child of ours (and without a pidfd: Memcheck does not know pidfd_open).
setsid sh -c 'sleep 30 & while :; do sleep 0.1; done' </dev/null >/dev/null 2>&1 &
loop=$!
sleep 0.3
run_case attach "--attach PID --duration 2s" 0 \
	"no Memcheck report; the running loop, its child and its new children traced, exit 0, 0 lost" -- \
	--attach "$loop" --duration 2s
kill -- -"$loop" 2>/dev/null || true
[ "$(figure processes)" -ge 5 ] 2>/dev/null || fail "$(figure processes) processes, expected the loop, sleep 30 and 3 or more sleeps"
report

if [ "$failed" = 1 ]; then
	echo "valgrind_check: FAILED" >&2
	exit 1
fi
echo "valgrind: 3 runs of build/buildbpf, 0 Memcheck errors"
