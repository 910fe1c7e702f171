#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench/toolchain_project.sh — a small cargo workspace or go module to measure on.
#
# Usage: bench/toolchain_project.sh cargo|go DIR [--size N]
#
# Writes, under DIR (created; it must not exist), a project that needs no
# network (path dependencies, the standard library only), shaped as the
# integration suites' (tests/lib/cargo_workspace.c, tests/lib/go_module.c):
#
#   cargo  heavy (lib: a generic function instantiated N times, so its rustc
#          spends long in code generation after its .rmeta), util (lib, reads
#          heavy's .rmeta: pipelined), side (lib, independent: something for
#          a second job slot), app (bin, links all three).  Rust 2018, so
#          Debian's rustc builds it as well as a newer one.
#   go     heavy (N functions of a switch loop), base, mid (imports both),
#          side (independent), and the main package, linked as `app`.
#
#   --size N   heavy's instances or functions (default 40: some seconds of CPU)
#   -h, --help this help
set -euo pipefail

usage() {
	awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"
}

die() {
	printf 'toolchain_project.sh: %s\n' "$*" >&2
	exit 2
}

kind=
dir=
size=40
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--size) [[ $# -ge 2 ]] || die "option --size needs a value"; size=$2; shift 2 ;;
	--size=*) size=${1#*=}; shift ;;
	cargo | go) [[ -z $kind ]] || die "one kind, not '$kind' and '$1'"; kind=$1; shift ;;
	-*) die "unknown option '$1'" ;;
	*) [[ -z $dir ]] || die "one directory, not '$dir' and '$1'"; dir=$1; shift ;;
	esac
done
[[ -n $kind && -n $dir ]] || die "usage: toolchain_project.sh cargo|go DIR [--size N]"
[[ $size =~ ^[1-9][0-9]*$ ]] || die "--size must be a positive integer, not '$size'"
[[ ! -e $dir ]] || die "'$dir' exists; give a new directory"

# package NAME EXTRA: NAME/Cargo.toml, EXTRA after [package].
package() {
	mkdir -p "$dir/$1/src"
	printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2018"\n%b' "$1" "${2:-}" >"$dir/$1/Cargo.toml"
}

write_cargo() {
	local i
	mkdir -p "$dir"
	printf '[workspace]\nmembers = ["heavy", "util", "side", "app"]\ndefault-members = ["app"]\n' >"$dir/Cargo.toml"
	package heavy
	{
		printf 'pub trait Step {\n    fn step(x: u64) -> u64;\n}\n'
		for ((i = 0; i < 16; i++)); do
			printf 'pub struct K%d;\nimpl Step for K%d {\n    fn step(x: u64) -> u64 {\n' "$i" "$i"
			printf '        x.rotate_left(%d).wrapping_mul(0x9E37_79B9_7F4A_7C15 ^ %d)\n    }\n}\n' \
				$((i + 1)) $((i * 7919 + 1))
		done
		printf '#[inline(never)]\npub fn mix<A: Step, B: Step, C: Step>(seed: u64) -> u64 {\n'
		printf '    let mut x = seed;\n    let mut v: Vec<u64> = (0..64).map(|i| A::step(seed ^ i)).collect();\n'
		printf '    v.sort_unstable_by_key(|&y| B::step(y));\n'
		printf '    for (i, y) in v.iter().enumerate() {\n'
		printf '        x = x.wrapping_add(C::step(*y ^ i as u64)) ^ A::step(x);\n    }\n    x\n}\n'
		printf 'pub fn run_all(seed: u64) -> u64 {\n    let mut acc = seed;\n'
		for ((i = 0; i < size; i++)); do
			printf '    acc ^= mix::<K%d, K%d, K%d>(acc);\n' $((i % 16)) $((i / 16 % 16)) $((i / 256 % 16))
		done
		printf '    acc\n}\n'
	} >"$dir/heavy/src/lib.rs"
	package util '[dependencies]\nheavy = { path = "../heavy" }\n'
	printf 'use heavy::Step;\npub fn summary(x: u64) -> u64 {\n' >"$dir/util/src/lib.rs"
	printf '    (0..1000u64).fold(x, |a, i| heavy::K1::step(a ^ i).wrapping_add(heavy::K2::step(i)))\n}\n' \
		>>"$dir/util/src/lib.rs"
	package side
	{
		printf 'pub fn table() -> u64 {\n    let mut t = [0u64; 256];\n'
		for ((i = 0; i < size; i++)); do
			printf '    for (k, v) in t.iter_mut().enumerate() { *v = v.wrapping_add((k as u64).pow(%d) ^ %d); }\n' \
				$((i % 5 + 1)) "$i"
		done
		printf '    t.iter().fold(0, |a, v| a ^ v)\n}\n'
	} >"$dir/side/src/lib.rs"
	package app '[dependencies]\nheavy = { path = "../heavy" }\nutil = { path = "../util" }\nside = { path = "../side" }\n'
	printf 'fn main() {\n    println!("{}", util::summary(1) ^ heavy::run_all(1) ^ side::table());\n}\n' \
		>"$dir/app/src/main.rs"
}

write_go() {
	local i k
	mkdir -p "$dir/base" "$dir/heavy" "$dir/mid" "$dir/side"
	printf 'module example.com/bench\n\ngo 1.19\n' >"$dir/go.mod"
	printf 'package base\n\n// Mix is one round of a 64-bit mixer.\nfunc Mix(x uint64) uint64 {\n' >"$dir/base/base.go"
	printf '\tx ^= x >> 33\n\tx *= 0xff51afd7ed558ccd\n\treturn x ^ x>>29\n}\n' >>"$dir/base/base.go"
	{
		printf 'package heavy\n\nimport "example.com/bench/base"\n\n'
		for ((i = 0; i < size; i++)); do
			printf 'func f%d(x uint64) uint64 {\n\tfor i := uint64(0); i < 8; i++ {\n\t\tswitch (x + i) %% 8 {\n' "$i"
			for ((k = 0; k < 8; k++)); do
				printf '\t\tcase %d:\n\t\t\tx = base.Mix(x*%d + %d) ^ (x >> %d)\n' "$k" $((2 * (i + k) + 1)) \
					$((i * 31 + k)) $((k + 1))
			done
			printf '\t\t}\n\t}\n\treturn x\n}\n\n'
		done
		printf 'func All(x uint64) uint64 {\n'
		for ((i = 0; i < size; i++)); do
			printf '\tx = f%d(x)\n' "$i"
		done
		printf '\treturn x\n}\n'
	} >"$dir/heavy/heavy.go"
	{
		printf 'package side\n\n'
		for ((i = 0; i < size; i++)); do
			printf 'func g%d(x uint64) uint64 { return (x<<%d | x>>%d) * %d }\n' "$i" $((i % 63 + 1)) \
				$((63 - i % 63)) $((2 * i + 3))
		done
		printf '\nfunc All(x uint64) uint64 {\n'
		for ((i = 0; i < size; i++)); do
			printf '\tx = g%d(x)\n' "$i"
		done
		printf '\treturn x\n}\n'
	} >"$dir/side/side.go"
	printf 'package mid\n\nimport (\n\t"example.com/bench/base"\n\t"example.com/bench/heavy"\n)\n\n' >"$dir/mid/mid.go"
	printf 'func Run(x uint64) uint64 { return heavy.All(x) ^ base.Mix(x) }\n' >>"$dir/mid/mid.go"
	printf 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/bench/mid"\n\t"example.com/bench/side"\n)\n\n' \
		>"$dir/main.go"
	printf 'func main() { fmt.Println(mid.Run(1) ^ side.All(2)) }\n' >>"$dir/main.go"
}

if [[ $kind == cargo ]]; then
	write_cargo
else
	write_go
fi
