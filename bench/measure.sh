# SPDX-License-Identifier: GPL-2.0
# bench/measure.sh — sourced by the benchmarks: how one command is timed.
# Needs $tmp, a directory the caller owns.

# measure CMD...: runs CMD; sets wall_us (wall clock) and cpu_ms (user +
# system CPU time of CMD and all its descendants, from bash's `times`, which
# counts every reaped child) and returns CMD's status.  Reading either clock
# forks nothing, so the figures hold only CMD's own cost.
measure() {
	local t0 t1 c0 rc=0
	children_cpu_ms
	c0=$cpu_now
	t0=${EPOCHREALTIME/[.,]/}
	"$@" || rc=$?
	t1=${EPOCHREALTIME/[.,]/}
	children_cpu_ms
	wall_us=$((t1 - t0))
	cpu_ms=$((cpu_now - c0))
	return "$rc"
}

# Sets cpu_now to the user + system time, in ms, of this shell's reaped
# children.  `times` prints "XmY.ZZZs XmY.ZZZs" twice: shell, then children.
children_cpu_ms() {
	local u s
	times >"$tmp/times"
	{ read -r _ && read -r u s; } <"$tmp/times"
	tm_to_ms u "$u"
	tm_to_ms s "$s"
	cpu_now=$((u + s))
}

tm_to_ms() { # VAR 1m2.345s: sets VAR to 62345
	local m=${2%%m*} sec=${2#*m}
	sec=${sec%s}
	sec=${sec/[.,]/}
	printf -v "$1" '%d' $((10#$m * 60000 + 10#$sec))
}
