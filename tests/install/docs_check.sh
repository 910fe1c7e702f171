#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The man page and the bash completion cannot drift from the program:
# every option buildbpf --help lists must be in man/buildbpf.1 and in
# completion/buildbpf, so must every mode; the man page's version is the
# program's, and man renders it without a warning.  When bash-completion is
# installed, the completion is also run on a few command lines.
#
#   tests/install/docs_check.sh BUILDBPF_BINARY
set -euo pipefail

bin=${1:?usage: docs_check.sh BUILDBPF_BINARY}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
man_page=$repo/man/buildbpf.1
completion=$repo/completion/buildbpf
failed=0
fail() { echo "docs_check: $*" >&2; failed=1; }

help=$("$bin" --help)
# Option lines of --help start with "-x, --long" or "--long".
mapfile -t options < <(printf '%s\n' "$help" |
	sed -nE 's/^ +((-[a-zA-Z]), )?(--[a-z][a-z-]*).*/\2\n\3/p' | sed '/^$/d')
[ ${#options[@]} -ge 20 ] || fail "read only ${#options[@]} options from --help: has its layout changed?"
modes=(record convert report diff)
for m in "${modes[@]}"; do
	grep -q "^ *buildbpf $m " <<< "$help" || fail "--help has no usage line for mode $m"
done

# The man page's source with roff's \- as -; a word match, so --merge is
# not found inside --merge-max-file.
man_text=$(sed 's/\\-/-/g' "$man_page")
word() { grep -qE -- "(^|[^a-zA-Z-])$1(\$|[^a-zA-Z-])" <<< "$2"; }
for o in "${options[@]}"; do
	word "$o" "$man_text" || fail "$o is in --help but not in man/buildbpf.1"
	word "$o" "$(cat "$completion")" || fail "$o is in --help but not in completion/buildbpf"
done
for m in "${modes[@]}"; do
	grep -qE "^\.B $m\$" "$man_page" || fail "mode $m has no entry in man/buildbpf.1"
	word "$m" "$(cat "$completion")" || fail "mode $m is not in completion/buildbpf"
done
grep -q '^\.SH EXIT STATUS' "$man_page" || fail "man/buildbpf.1 has no EXIT STATUS section"

version=$("$bin" --version | sed -n '1s/^buildbpf //p')
grep -q "^\.TH BUILDBPF 1 .* \"buildbpf $version\"" "$man_page" ||
	fail "man/buildbpf.1 is not for version $version (its .TH line)"

warnings=$(MANWIDTH=80 man --warnings -l "$man_page" 2>&1 >/dev/null)
[ -z "$warnings" ] || fail "man --warnings: $warnings"

# The completion at work, as bash runs it on TAB.
bash_completion=/usr/share/bash-completion/bash_completion
if [ -r "$bash_completion" ]; then
	complete_line() {
		bash -c 'source "$1"; source "$2"; shift 2
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
			_buildbpf buildbpf "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
			printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
			sh "$bash_completion" "$completion" "$@"
	}
	expect() {
		local want=$1 got
		shift
		got=$(complete_line "$@")
		[[ " $got" == *" $want "* ]] || fail "completing '$*': expected $want among: $got"
	}
	refuse() {
		local unwanted=$1 got
		shift
		got=$(complete_line "$@")
		[[ " $got" != *" $unwanted "* ]] || fail "completing '$*': $unwanted offered: $got"
	}
	expect record buildbpf rec
	expect --sched-resolution buildbpf --sched
	expect --merge-max-events buildbpf record --merge-m
	expect summary buildbpf --sched ''
	expect full buildbpf convert x.bbl --sched f
	# After the command's name, its own words: no buildbpf option.
	refuse --sched buildbpf -- make --sch
	expect make buildbpf -q mak
	echo "  CHECK    completion: modes, options, --sched levels, the traced command"
else
	echo "  SKIP     completion run: bash-completion is not installed ($bash_completion)"
fi
[ $failed -eq 0 ] || exit 1
echo "  CHECK    man page and completion: ${#options[@]} options, ${#modes[@]} modes, version $version, no man warning"
