#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetches, once, the real builds the integration suite traces
# (tests/integration/test_real_builds.c): Debian's sources of json-c (CMake +
# ninja) and sed (autotools), by apt-get source; and of two programs of other
# toolchains, ripgrep (cargo) and fzf (go), with their build dependencies
# (apt-get build-dep, when dpkg-checkbuilddeps finds one missing): the
# crates they use, as librust-*-dev in /usr/share/cargo/registry, and the
# go packages, as golang-*-dev in /usr/share/gocode.  With --kbuild, also the
# kernel slice's source (tests/real/test_real_kbuild.c): linux-source-6.1's
# tarball (~140 MB), unpacked.  apt-get source needs deb-src entries: when
# apt has none, they are added beside the deb ones.  Root.
#
#   tests/real/fetch_sources.sh [--kbuild] [DIR]
#
# DIR (default: $BUILDBPF_CACHE or ~/.cache/buildbpf, then /src) is kept
# between runs; make clean leaves it.  Prints DIR.
set -euo pipefail

kbuild=
if [ "${1:-}" = --kbuild ]; then
	kbuild=1
	shift
fi
dir=${1:-${BUILDBPF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/buildbpf}/src}
say() { printf '  %-8s %s\n' "$1" "$2" >&2; }
die() { echo "fetch_sources: $*" >&2; exit 1; }
have() { compgen -G "$dir/$1" >/dev/null; }

# deb-src beside every deb source: the deb822 file's Types, or a .list copy of the deb lines.
enable_deb_src() {
	local f=/etc/apt/sources.list.d/debian.sources
	if [ -f "$f" ] && grep -q '^Types: deb$' "$f"; then
		say APT "deb-src added to $f"
		sed -i 's/^Types: deb$/Types: deb deb-src/' "$f"
	elif [ -f /etc/apt/sources.list ] && grep -q '^deb ' /etc/apt/sources.list; then
		say APT "deb-src added in /etc/apt/sources.list.d/buildbpf-deb-src.list"
		sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > /etc/apt/sources.list.d/buildbpf-deb-src.list
	else
		die "no deb-src entries and no deb line to copy; add deb-src to apt's sources"
	fi
	apt-get update -q >/dev/null
}

# Source packages: the C builds, then the cargo and go programs whose build
# dependencies are installed too.
c_sources="json-c sed"
dep_sources="rust-ripgrep fzf"

mkdir -p "$dir"
missing=
for pkg in $c_sources $dep_sources; do
	have "$pkg-[0-9]*/" || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
	command -v dpkg-source >/dev/null || die "apt-get source needs dpkg-dev (make test-deps installs it)"
	uris=$(apt-get source --print-uris -q json-c 2>/dev/null || true)
	grep -q "^'" <<< "$uris" || enable_deb_src
	for pkg in $missing; do
		say FETCH "$pkg (apt-get source) > $dir"
		(cd "$dir" && apt-get source -q "$pkg" > "$pkg.fetch.log" 2>&1) ||
			die "apt-get source $pkg failed (see $dir/$pkg.fetch.log)"
	done
fi
for pkg in $dep_sources; do
	src=$(compgen -G "$dir/$pkg-[0-9]*/" | head -n 1)
	(cd "$src" && dpkg-checkbuilddeps >/dev/null 2>&1) && continue
	say DEPS "$pkg (apt-get build-dep)"
	DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q "$pkg" > "$dir/$pkg.build-dep.log" 2>&1 ||
		die "apt-get build-dep $pkg failed (see $dir/$pkg.build-dep.log)"
done
if [ -n "$kbuild" ] && ! have "linux-source-6.1/Makefile"; then
	say FETCH "linux-source-6.1 (apt-get download, ~140 MB) > $dir"
	(cd "$dir" && rm -rf linux-source-6.1 linux-source-6.1_*.deb deb &&
		apt-get download -q linux-source-6.1 >/dev/null 2>&1 && dpkg -x linux-source-6.1_*.deb deb &&
		tar -xf deb/usr/src/linux-source-6.1.tar.xz && rm -rf deb linux-source-6.1_*.deb) ||
		die "cannot fetch and unpack linux-source-6.1"
fi
echo "$dir"
