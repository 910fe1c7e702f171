#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# No build output is committed: fails when a file git tracks is an ELF
# file (an executable, a .o, a .so, a BPF object) or an ar archive (a .a),
# or is named like an object (.o .a .so .ko .d).  tests/demo/out once held
# 18 of them, and make demo copied them into the traced build.
#
#   tests/repo/tracked_files_check.sh [DIR]     (default: the checkout)
#   tests/repo/tracked_files_check.sh --self-test
#
# Outside a git checkout (a tarball, the Debian build) it says so and
# exits 0: there is nothing git tracks to check.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

check() {
	local dir top f magic bad=0
	dir=$(cd "$1" && pwd -P)
	if ! command -v git >/dev/null; then
		echo "  SKIP     tracked files: git is not installed"
		return 0
	fi
	top=$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null || true)
	if [ "$top" != "$dir" ]; then
		echo "  SKIP     tracked files: $dir is not the top of a git checkout (a tarball?)"
		return 0
	fi
	while IFS= read -r -d '' f; do
		case $f in
		*.o | *.a | *.so | *.so.* | *.ko | *.d)
			echo "tracked_files_check: $f: named like a build output" >&2
			bad=1
			continue ;;
		esac
		[ -f "$dir/$f" ] && [ ! -L "$dir/$f" ] || continue
		magic=$(head -c 8 "$dir/$f" | od -An -tx1 | tr -d ' \n')
		case $magic in
		7f454c46*) echo "tracked_files_check: $f: an ELF file" >&2; bad=1 ;;
		213c617263683e0a) echo "tracked_files_check: $f: an ar archive" >&2; bad=1 ;;
		esac
	done < <(git -C "$dir" ls-files -z)
	[ $bad -eq 0 ] || { echo "tracked_files_check: build outputs are tracked (hint: git rm --cached them, and .gitignore)" >&2; return 1; }
	echo "  CHECK    tracked files: $(git -C "$dir" ls-files | wc -l) files, no ELF, archive or object file"
}

# The check catches what it must: a committed executable, and a .o under
# another name, in a scratch repository; a clean one passes.
self_test() {
	local t rc
	t=$(mktemp -d)
	trap 'rm -rf "$t"' RETURN
	git -C "$t" init -q
	echo 'int main(void) { return 0; }' > "$t/main.c"
	git -C "$t" add main.c
	check "$t" > /dev/null || { echo "tracked_files_check: self-test: a clean repository failed" >&2; return 1; }
	cp "$(type -P true)" "$t/tool"
	git -C "$t" add tool
	rc=0; check "$t" > /dev/null 2>&1 || rc=$?
	[ $rc -ne 0 ] || { echo "tracked_files_check: self-test: a tracked ELF passed" >&2; return 1; }
	git -C "$t" rm -q --cached tool
	printf '!<arch>\n' > "$t/libx.bin"
	git -C "$t" add libx.bin
	rc=0; check "$t" > /dev/null 2>&1 || rc=$?
	[ $rc -ne 0 ] || { echo "tracked_files_check: self-test: a tracked ar archive passed" >&2; return 1; }
	echo "  CHECK    tracked files self-test: an ELF and an archive are caught"
}

case ${1:-} in
--self-test) command -v git >/dev/null || { echo "  SKIP     tracked files self-test: git is not installed"; exit 0; }
	self_test ;;
*) check "${1:-$here/../..}" ;;
esac
