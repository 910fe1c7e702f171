#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The man page and the bash completion name the options of the program's
# table, and no other: every option buildbpf --list-options prints (the
# rows of user/cli/cli_options.c, diff's last) has an entry of its own in
# man/buildbpf.1 (OPTIONS, or DIFF OPTIONS for diff's) and is in
# completion/buildbpf's list for its mode; an entry or a listed word the
# table lacks fails too.
#
#   tests/repo/options_docs_check.sh BUILDBPF_BINARY [MAN_PAGE COMPLETION]
#   tests/repo/options_docs_check.sh --self-test BUILDBPF_BINARY
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The option words of the man page's entry headings (the line after .TP)
# in the section from the line matching $2 to the next section heading.
man_entries() {
	sed 's/\\-/-/g' "$1" | awk -v from="$2" '
		$0 ~ from { on = 1; next }
		on && /^\.S[HS] / { on = 0 }
		on && tp { print }
		{ tp = on && /^\.TP/ }' |
		grep -oE '(^|[ "])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' "' | sort -u
}

# The words of the completion's list named $2 ("opts", "diff_opts").
completion_list() {
	awk -v name="$2" '
		!on && $0 ~ "^[[:space:]]*local " name "=\047" { on = 1; sub(".*" name "=\047", "") }
		on { if (sub("\047.*", "")) on = -1; print; if (on < 0) exit }' "$1" | tr -s ' \t' '\n\n' |
		sed '/^$/d' | sort -u
}

# The options of the table for modes matching $2: each option's short and long spelling.
table_options() {
	awk -v modes="$2" '$1 ~ modes { if ($2 != "-") print $2; print $3 }' <<< "$1" | sort -u
}

# Says, as "$3", what is in one sorted list ($1) and not in the other ($2), both ways.
compare() {
	local what=$3 only
	only=$(comm -23 <(printf '%s\n' "$1") <(printf '%s\n' "$2"))
	[ -z "$only" ] || echo "options_docs_check: in the option table, not in $what: $(echo $only)"
	only=$(comm -13 <(printf '%s\n' "$1") <(printf '%s\n' "$2"))
	[ -z "$only" ] || echo "options_docs_check: in $what, not in the option table: $(echo $only)"
}

# A row may serve diff and the other modes both: each list of modes is matched word by word.
run_modes='(^|,)(trace|record|convert|report)(,|$)'
diff_mode='(^|,)diff(,|$)'

check() {
	local bin=$1 man_page=$2 completion=$3 table failures
	table=$("$bin" --list-options)
	[ "$(wc -l <<< "$table")" -ge 20 ] || { echo "options_docs_check: $bin --list-options printed too little" >&2; return 1; }
	failures=$(
		compare "$(table_options "$table" "$run_modes")" \
			"$(man_entries "$man_page" '^\.SH OPTIONS')" "man/buildbpf.1 OPTIONS"
		compare "$(table_options "$table" "$diff_mode")" \
			"$(man_entries "$man_page" '^\.SS DIFF OPTIONS')" "man/buildbpf.1 DIFF OPTIONS"
		compare "$(table_options "$table" "$run_modes")" \
			"$(completion_list "$completion" opts)" "completion/buildbpf opts"
		compare "$(table_options "$table" "$diff_mode")" \
			"$(completion_list "$completion" diff_opts)" "completion/buildbpf diff_opts"
	)
	[ -z "$failures" ] || { echo "$failures" >&2; return 1; }
	echo "  CHECK    man page and completion: the $(wc -l <<< "$table") options of the table, no other"
}

# The check must fail on a man page without an option's entry, and on a
# completion that offers an option the table lacks.
self_test() {
	local bin=$1 t
	t=$(mktemp -d)
	trap 'rm -rf "$t"' RETURN
	check "$bin" "$repo/man/buildbpf.1" "$repo/completion/buildbpf" > /dev/null ||
		{ echo "options_docs_check: self-test: the repository's own docs fail" >&2; return 1; }
	sed '/^\.B \\-\\-wait\\-all$/d' "$repo/man/buildbpf.1" > "$t/lacking.1"
	sed 's/--keep-root/--keep-root --keep-roots/' "$repo/completion/buildbpf" > "$t/extra.bash"
	sed '/^\.SS DIFF OPTIONS/a .TP\n.B \\-\\-json\\-all' "$repo/man/buildbpf.1" > "$t/extra.1"
	for pair in "lacking.1 $repo/completion/buildbpf" "$repo/man/buildbpf.1 extra.bash" "extra.1 $repo/completion/buildbpf"; do
		set -- $pair
		if (cd "$t" && check "$bin" "$1" "$2") > /dev/null 2>&1; then
			echo "options_docs_check: self-test: passed with $1 and $2" >&2
			return 1
		fi
	done
	echo "  CHECK    options_docs_check self-test: a missing man entry and an extra option fail"
}

if [ "${1:-}" = --self-test ]; then
	self_test "${2:?usage: options_docs_check.sh --self-test BUILDBPF_BINARY}"
else
	check "${1:?usage: options_docs_check.sh BUILDBPF_BINARY [MAN_PAGE COMPLETION]}" \
		"${2:-$repo/man/buildbpf.1}" "${3:-$repo/completion/buildbpf}"
fi
