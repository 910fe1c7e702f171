#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The shell steps of the CI recipes in docs/ci.md.  The GitHub Actions
# workflow, the GitLab CI job and the suite's test (tests/integration/
# test_ci.c) all call this script, so the suite runs what CI runs.
#
#   buildbpf-ci.sh trace OUT -- COMMAND [ARG...]
#       Traces COMMAND (the build) into the directory OUT: build.bbl (the
#       event log, the next run's base), trace.json, build.html (the build on
#       one page), summary.json, build.svg.
#       Only this step needs root, to load the BPF programs: run as a user,
#       it calls sudo, and buildbpf runs the build and writes every file as
#       that user.  Exit status: the build's.
#   buildbpf-ci.sh gate BASE.bbl OUT [--fail-if COND]...
#       No root.  Compares OUT/build.bbl with the base branch's log
#       (buildbpf diff): OUT/diff.md, OUT/diff.json; the build's own
#       summary OUT/build.md and report OUT/report.txt (buildbpf report); and
#       the Markdown summary OUT/summary.md (the gate's result, build.md, the
#       comparison), under 65,536 characters, also appended to
#       $GITHUB_STEP_SUMMARY when that is set.  Exit status: diff's (0 no
#       condition held, 1 one did, 2 an error); 0 with a note in the summary
#       when BASE.bbl does not exist (the base branch's first run).
#
# Environment: BUILDBPF, the buildbpf to run (default: the one on PATH);
# SUDO, how the trace step gets root (default: sudo -E --preserve-env=PATH
# as a user, nothing as root).
set -euo pipefail

buildbpf=${BUILDBPF:-buildbpf}
# What GitHub takes in a job summary and GitLab in a comment, rounded down.
summary_max=65536

die() { echo "buildbpf-ci: $*" >&2; exit 2; }
usage() { die "usage: $0 trace OUT -- COMMAND [ARG...] | gate BASE.bbl OUT [--fail-if COND]..."; }

trace() {
	local out=$1 sudo
	shift
	[ "${1:-}" = -- ] && shift
	[ $# -gt 0 ] || usage
	mkdir -p "$out"
	if [ -n "${SUDO+set}" ]; then
		sudo=$SUDO
	elif [ "$(id -u)" -eq 0 ]; then
		sudo=
	else
		# -E and PATH: the build sees the job's environment (CC, ccache's PATH).
		sudo='sudo -E --preserve-env=PATH'
	fi
	# --deps=on: the critical path and races, compared by the gate; -f: a rerun replaces.
	$sudo "$buildbpf" -f --deps=on --log "$out/build.bbl" -o "$out/trace.json" \
		--html "$out/build.html" --summary-json "$out/summary.json" --svg "$out/build.svg" -- "$@"
}

# Appends file to the summary as a fenced block.
fenced() {
	printf '\n```\n'
	cat "$1"
	printf '```\n'
}

gate() {
	local base=$1 out=$2 rc=0 summary
	shift 2
	[ -f "$out/build.bbl" ] || die "$out/build.bbl: no event log (run: $0 trace $out -- BUILD)"
	summary=$out/summary.md
	"$buildbpf" report -f --markdown "$out/build.md" "$out/build.bbl" > "$out/report.txt" 2>&1 ||
		die "buildbpf report failed: $(cat "$out/report.txt")"
	{
		echo "## buildbpf: the gate"
		if [ ! -f "$base" ]; then
			echo
			echo "No log of the base branch ($base): nothing to compare, the gate passes."
		fi
	} > "$summary"
	if [ -f "$base" ]; then
		"$buildbpf" diff -f "$base" "$out/build.bbl" --markdown "$out/diff.md" --json "$out/diff.json" "$@" \
			2> "$out/diff.txt" || rc=$?
		{
			echo
			case $rc in
			0) echo "**Gate passed** against the base branch's build." ;;
			1) echo "**Gate failed**:"; echo; sed -n 's/^buildbpf: failed: \(.*\)$/- `\1`/p' "$out/diff.txt" ;;
			*) echo "**Gate error** (exit status $rc):"; fenced "$out/diff.txt" ;;
			esac
		} >> "$summary"
	fi
	{
		echo
		cat "$out/build.md"
		if [ -f "$out/diff.md" ] && [ $rc -le 1 ]; then
			echo
			echo "## buildbpf: against the base branch"
			echo
			cat "$out/diff.md"
		fi
	} >> "$summary"
	if [ "$(wc -c < "$summary")" -ge $summary_max ]; then
		# Whole lines only, and room for the note.
		head -c $((summary_max - 200)) "$summary" | sed '$d' > "$summary.cut"
		# A cut inside the report's block closes it, so the note is not code.
		[ $(($(grep -c '^```' "$summary.cut") % 2)) -eq 0 ] || echo '```' >> "$summary.cut"
		printf '\n*(cut at %d characters: the whole summary is in the artifacts, diff.md and report.txt)*\n' \
			$summary_max >> "$summary.cut"
		mv "$summary.cut" "$summary"
	fi
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		cat "$summary" >> "$GITHUB_STEP_SUMMARY"
	fi
	[ $rc -le 1 ] || cat "$out/diff.txt" >&2
	[ $rc -ne 1 ] || grep '^buildbpf: failed:' "$out/diff.txt" >&2 || true
	return $rc
}

case ${1:-} in
trace) [ $# -ge 3 ] || usage; shift; trace "$@" ;;
gate) [ $# -ge 3 ] || usage; shift; gate "$@" ;;
*) usage ;;
esac
