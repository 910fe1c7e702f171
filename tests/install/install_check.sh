#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make install / make uninstall into a scratch DESTDIR, as a packager runs
# them: every file lands under PREFIX, the documentation is the README with
# every docs/*.md beside it (their links are relative), the installed binary
# runs (its BPF object is inside it), its man page renders, and uninstall
# leaves no file.
#
#   tests/install/install_check.sh      (from the checkout, after make)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
dest=$(mktemp -d /tmp/buildbpf-install.XXXXXX)
trap 'rm -rf "$dest"' EXIT
fail() { echo "install_check: $*" >&2; exit 1; }

make -s -C "$repo" --no-print-directory install DESTDIR="$dest" PREFIX=/usr > /dev/null
docs=("$repo"/docs/*.md)
[ -f "${docs[0]}" ] || fail "no docs/*.md in $repo"
expected=(usr/bin/buildbpf usr/share/man/man1/buildbpf.1 usr/share/bash-completion/completions/buildbpf
	  usr/share/doc/buildbpf/README.md "${docs[@]/#"$repo"/usr/share/doc/buildbpf}"
	  usr/share/buildbpf/ci/buildbpf-ci.sh)
for f in "${expected[@]}"; do
	[ -f "$dest/$f" ] || fail "make install did not install /$f"
done
[ -f "$dest/usr/share/doc/buildbpf/docs/index.md" ] || fail "make install did not install the docs' index"
[ -x "$dest/usr/bin/buildbpf" ] || fail "/usr/bin/buildbpf is not executable"
[ -x "$dest/usr/share/buildbpf/ci/buildbpf-ci.sh" ] || fail "the CI script is not executable"
stray=$(cd "$dest" && find . -type f | grep -v '^\./usr/' || true)
[ -z "$stray" ] || fail "make install wrote outside PREFIX: $stray"
"$dest/usr/bin/buildbpf" --version | grep -q '^buildbpf ' || fail "the installed buildbpf does not run"
MANWIDTH=80 man -l "$dest/usr/share/man/man1/buildbpf.1" | grep -q 'EXIT STATUS' ||
	fail "the installed man page does not render"

make -s -C "$repo" --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr > /dev/null
left=$(cd "$dest" && find . -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "  CHECK    make install / uninstall (DESTDIR, PREFIX=/usr): ${#expected[@]} files (${#docs[@]} docs)," \
	"installed binary runs, man renders"
