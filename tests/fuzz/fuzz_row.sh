#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Turns a finished libFuzzer run's log into one RELIABILITY| row for the
# reliability table (tests/reliability_table.sh), and a line for people.
#
#   tests/fuzz/fuzz_row.sh FUZZ_LOG SECONDS TIMEOUT [reader]
#
# TIMEOUT: the -timeout it ran with, in seconds.
# reader: the log is the reader-alone target's (event_log_reader_fuzz.c),
# not the one that replays and analyses (event_log_fuzz.c).
set -euo pipefail

log=$1
seconds=$2
timeout=$3
case ${4:-} in
reader)
	name=fuzz::event_log_reader_alone
	what="libFuzzer on the event-log reader alone (frames, records, trailer), ASan + UBSan" ;;
*)
	name=fuzz::event_log_reader
	what="libFuzzer on the event-log reader, replay and analysis (build graph, start causes, audit, every output), ASan + UBSan" ;;
esac
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
# libFuzzer's peak_rss_mb is ru_maxrss (KiB) shifted down by 10: MiB.
peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
# Its "corp: N/SIZE": N inputs of SIZE in all, "b", "Kb" or "Mb" being bytes shifted by 0, 10 or 20.
corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 | sed 's/corp: //')
corpus=?
if [ -n "$corp" ]; then
	size=${corp#*/}
	bytes=${size%%[a-zA-Z]*}
	case ${size#"$bytes"} in
	b) unit=B ;;
	Kb) unit=KiB ;;
	Mb) unit=MiB ;;
	*) unit=${size#"$bytes"} ;;
	esac
	corpus="${corp%%/*} inputs ($bytes $unit)"
fi
if [ -z "$runs" ]; then
	echo "fuzz_row: no final stats in $log" >&2
	exit 1
fi
echo "  FUZZ     $runs executions in $seconds s, 0 crashes, peak RSS ${peak:-?} MiB, corpus $corpus"
echo "RELIABILITY|$name|$what|no crash, leak, hang ($timeout s) or RSS over 2 GiB on any input; seeded with tests/fixtures/*.bbl and tests/fuzz/seeds/*.bbl|-|-|-|-|$runs executions in $seconds s, corpus $corpus, peak RSS ${peak:-?} MiB"
