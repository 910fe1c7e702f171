#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian package as a user gets it (root): make deb has built it and
# lintian passed it; here it is installed with apt-get (its Depends, from
# dh_shlibdeps, resolved by apt), /usr/bin/buildbpf traces a command, its
# man page and completion are where man and bash look, and it is purged
# again, leaving no file behind.
#
#   tests/install/deb_check.sh BUILD_DIR
set -euo pipefail

build=$(cd "${1:?usage: deb_check.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
version=$(sed -n 's/^#define BUILDBPF_VERSION "\(.*\)"/\1/p' "$repo/include/version.h")
fail() { echo "deb_check: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root to install the package (sudo make test-deb)"
debs=("$build"/deb/buildbpf_"$version"_*.deb)
[ -f "${debs[0]}" ] || fail "no $build/deb/buildbpf_${version}_*.deb (make deb)"
deb=${debs[0]}
changelog=$(dpkg-parsechangelog -l "$repo/debian/changelog" -S Version)
[ "$changelog" = "$version" ] || fail "debian/changelog is at $changelog, include/version.h at $version"

work=$(mktemp -d /tmp/buildbpf-deb.XXXXXX)
purge() { DEBIAN_FRONTEND=noninteractive apt-get purge -y -q buildbpf > /dev/null 2>&1 || true; }
trap 'purge; rm -rf "$work"' EXIT

say() { printf '  %-8s %s\n' "$1" "$2"; }
say INSTALL "apt-get install $deb"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" > "$work/apt.log" 2>&1 ||
	{ tail -20 "$work/apt.log"; fail "apt-get install $deb failed"; }
depends=$(dpkg-query -W -f='${Depends}' buildbpf)
for lib in libbpf1 libjson-c5; do
	[[ $depends == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done
files=$(dpkg -L buildbpf)
# The documentation uncompressed (debian/rules), so its relative links hold.
docs=(/usr/share/doc/buildbpf/README.md "$repo"/docs/*.md)
docs=("${docs[@]/#"$repo"//usr/share/doc/buildbpf}")
for f in /usr/bin/buildbpf /usr/share/man/man1/buildbpf.1.gz /usr/share/bash-completion/completions/buildbpf \
	 /usr/share/doc/buildbpf/copyright /usr/share/buildbpf/ci/buildbpf-ci.sh "${docs[@]}"; do
	grep -qx "$f" <<< "$files" || fail "the package does not install $f"
done

# The installed binary, BPF programs inside it, traces a real command.
/usr/bin/buildbpf -q -o "$work/t.json" -- sh -c 'sleep 0.1 & ls / > /dev/null; wait' ||
	fail "/usr/bin/buildbpf could not trace a command"
probe=$("$build/tests/trace-check" "$work/t.json" | head -n1)
[[ $probe == processes=* ]] || fail "the installed buildbpf wrote an invalid trace: $probe"
/usr/bin/buildbpf --version | grep -q "^buildbpf $version\$" || fail "/usr/bin/buildbpf --version is not $version"
MANWIDTH=80 man buildbpf 2>/dev/null | grep -q 'EXIT STATUS' || fail "man buildbpf does not show the page"
say CHECK "installed package: Depends $depends; /usr/bin/buildbpf traced ($probe); man buildbpf works"

purge
dpkg-query -W buildbpf > /dev/null 2>&1 && fail "apt-get purge left the package installed"
for f in /usr/bin/buildbpf /usr/share/man/man1/buildbpf.1.gz /usr/share/bash-completion/completions/buildbpf \
	 /usr/share/buildbpf/ci/buildbpf-ci.sh "${docs[@]}"; do
	[ ! -e "$f" ] || fail "apt-get purge left $f"
done
say CHECK "purged: no file of the package left"
