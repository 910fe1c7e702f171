#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Every link of the documentation leads somewhere: each relative link in
# README.md and docs/*.md names a file among them (what make install ships,
# so the installed documentation links as the checkout's does), and each
# #anchor names a heading of the file it points into, spelt as GitHub spells
# a heading's anchor (lower case; punctuation but - and _ dropped; spaces
# to -; a repeated heading gets -1, -2).  Links written across two lines
# count; a link inside code (a fenced or indented block, a `span`) is text,
# not a link; links with a scheme (https:, mailto:) are not followed.
# Not handled: setext headings (underlined with === or ---), and non-ASCII
# punctuation in a heading, which GitHub drops and this keeps.
#
#   tests/repo/doc_links_check.sh [DIR]     (default: the checkout)
#   tests/repo/doc_links_check.sh --self-test
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# One pass over the files: the anchors of every heading first, then every
# link resolved against them.  Paths are relative to DIR, where awk runs.
check_awk='
function flush() {
	if (para != "") links(para, para_file, para_line)
	para = ""
}
# The text a reader sees of s: code spans out, a [text](url) as its text.
function no_code(s) {
	gsub(/`[^`]*`/, "", s)
	return s
}
function heading_slug(text,   out, c, i) {
	while (match(text, /\[[^]]*\]\([^)]*\)/)) {
		c = substr(text, RSTART + 1, RLENGTH)
		sub(/\]\(.*$/, "", c)
		text = substr(text, 1, RSTART - 1) c substr(text, RSTART + RLENGTH)
	}
	text = tolower(text)
	out = ""
	for (i = 1; i <= length(text); i++) {
		c = substr(text, i, 1)
		if (c ~ /[a-z0-9_ -]/ || c > "~")
			out = out (c == " " ? "-" : c)
	}
	return out
}
function add_anchor(file, a) {
	if ((file SUBSEP a) in anchor) {
		n = ++repeats[file SUBSEP a]
		a = a "-" n
	}
	anchor[file SUBSEP a] = 1
}
function links(s, file, line,   t) {
	s = no_code(s)
	while (match(s, /\[[^]]*\]\([^)]*\)/)) {
		t = substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
		sub(/^\[[^]]*\]\(/, "", t)
		sub(/\)$/, "", t)
		add_link(t, file, line)
	}
}
function add_link(t, file, line) {
	sub(/^[ \t]+/, "", t)
	sub(/[ \t].*$/, "", t)		# a "title" after the target
	gsub(/^<|>$/, "", t)
	nlinks++
	lfile[nlinks] = file
	lline[nlinks] = line
	ltarget[nlinks] = t
}
# path relative to DIR, or "" when it climbs out of DIR.
function resolve(from, path,   dir, n, i, part, out, k, stack) {
	dir = from
	if (dir ~ /\//) sub(/\/[^\/]*$/, "", dir); else dir = ""
	path = (dir == "" ? path : dir "/" path)
	n = split(path, part, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "" || part[i] == ".") continue
		if (part[i] == "..") { if (k == 0) return ""; k--; continue }
		stack[++k] = part[i]
	}
	out = ""
	for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") stack[i]
	return out
}
function bad(i, why) {
	printf "doc_links_check: %s:%d: (%s): %s\n", lfile[i], lline[i], ltarget[i], why > "/dev/stderr"
	errors++
}
FNR == 1 { flush(); fence = 0; code = 0; prev_blank = 1; doc[FILENAME] = 1 }
{
	line = $0
	if (line ~ /^ ? ? ?(```|~~~)/) { flush(); fence = !fence; prev_blank = 0; next }
	if (fence) next
	if (line ~ /^[ \t]*$/) { flush(); prev_blank = 1; next }
	# An indented block after a blank line (or more of one) is code.
	if (line ~ /^(    |\t)/ && (prev_blank || code)) { flush(); code = 1; prev_blank = 0; next }
	code = 0; prev_blank = 0
	if (line ~ /^ ? ? ?#+([ \t]|$)/) {
		flush()
		h = line
		sub(/^ *#+[ \t]*/, "", h)
		sub(/[ \t]+#+[ \t]*$/, "", h)
		sub(/[ \t]+$/, "", h)
		add_anchor(FILENAME, heading_slug(h))
		links(h, FILENAME, FNR)
		next
	}
	if (match(line, /<a (id|name)="[^"]*"/)) {
		a = substr(line, RSTART, RLENGTH); sub(/^<a (id|name)="/, "", a); sub(/"$/, "", a)
		anchor[FILENAME SUBSEP a] = 1
	}
	if (line ~ /^ ? ? ?\[[^]]+\]:[ \t]/) {	# a reference definition
		flush()
		t = line; sub(/^ *\[[^]]+\]:[ \t]*/, "", t)
		add_link(t, FILENAME, FNR)
		next
	}
	if (para == "") { para_file = FILENAME; para_line = FNR }
	para = para (para == "" ? "" : " ") line
}
END {
	flush()
	for (i = 1; i <= nlinks; i++) {
		t = ltarget[i]
		if (t ~ /^[a-zA-Z][a-zA-Z0-9+.-]*:/) { external++; continue }
		if (t == "") { bad(i, "an empty link"); continue }
		if (t ~ /^\//) { bad(i, "an absolute path: it resolves nowhere once installed"); continue }
		path = t; a = ""
		if (index(t, "#")) { path = substr(t, 1, index(t, "#") - 1); a = substr(t, index(t, "#") + 1) }
		file = (path == "" ? lfile[i] : resolve(lfile[i], path))
		if (file == "") { bad(i, "climbs out of the tree"); continue }
		if (file != "README.md" && file !~ /^docs\//) {
			bad(i, "leads to " file ", which make install does not ship (README.md and docs/ only)")
			continue
		}
		if (!(file in doc) && system("test -e \"" file "\"") != 0) { bad(i, "no such file: " file); continue }
		if (path != "") files++
		if (a == "") continue
		if (!(file in doc)) { bad(i, "an #anchor into " file ", which is not a checked Markdown file"); continue }
		if (!((file SUBSEP a) in anchor)) { bad(i, "no heading in " file " has the anchor #" a); continue }
		anchors++
	}
	printf "%d %d %d %d\n", files, anchors, external, errors
	exit errors > 0
}'

check() {
	local dir docs rc=0 out files anchors external errors
	dir=$(cd "$1" && pwd -P)
	[ -f "$dir/README.md" ] || { echo "doc_links_check: $dir has no README.md" >&2; return 1; }
	mapfile -t docs < <(cd "$dir" && { [ -d docs ] && find docs -name '*.md' -type f | LC_ALL=C sort; })
	out=$(cd "$dir" && LC_ALL=C awk "$check_awk" README.md "${docs[@]}") || rc=$?
	read -r files anchors external errors <<< "$out"
	if [ $rc -ne 0 ]; then
		echo "doc_links_check: ${errors:-?} broken link(s) in README.md and docs/ (above)" >&2
		return 1
	fi
	echo "  CHECK    doc links: README.md and ${#docs[@]} docs: $files relative links lead to a file," \
		"$anchors #anchors to a heading ($external external link(s) not followed)"
}

# The check catches what it must, in a scratch tree: a link to a missing
# file, a missing heading behind a #anchor in another file and in its own,
# a broken link written across two lines, a link out of what is installed;
# and passes a tree whose good links are spelt every way the docs spell
# them, with broken ones inside code that must be ignored.
self_test() {
	local t rc case
	t=$(mktemp -d)
	trap 'rm -rf "$t"' RETURN
	mkdir "$t/docs"
	cat > "$t/README.md" <<-'EOF'
	# Tool

	See [the audit](docs/audit.md), [its fields](docs/audit.md#--summary-json-fields), [the
	gate](docs/audit.md#the-gate---fail-if) and [twice](docs/audit.md#notes-1), [here](#tool-1).

	## Tool

	    [in an indented block](docs/missing.md)

	```
	[in a fence](docs/missing.md)
	```

	Text with `[a span](docs/missing.md)` and <https://example.org> and [a site](https://example.org).

	The last paragraph's [link](docs/audit.md), read as the README's, not the next file's.
	EOF
	cat > "$t/docs/audit.md" <<-'EOF'
	# The audit

	Back to the [README](../README.md#tool).

	## `--summary-json` fields

	## The gate: `--fail-if`

	## Notes

	## Notes
	EOF
	check "$t" > /dev/null || { echo "doc_links_check: self-test: a tree with good links failed" >&2; return 1; }
	for case in 'docs/missing.md|a missing file' 'docs/audit.md#no-such-heading|a missing anchor in another file' \
		'#no-such-heading|a missing anchor in the same file' '../Makefile|a link out of the installed docs' \
		'docs/audit.md#the-gate-fail-if|an anchor spelt without the dropped punctuation'; do
		cp "$t/README.md" "$t/README.good"
		printf 'A [broken](%s) link.\n' "${case%%|*}" >> "$t/README.md"
		rc=0; check "$t" > /dev/null 2>&1 || rc=$?
		mv "$t/README.good" "$t/README.md"
		[ $rc -ne 0 ] || { echo "doc_links_check: self-test: ${case#*|} passed" >&2; return 1; }
	done
	printf 'A [link across\nlines](docs/audit.md#nowhere).\n' >> "$t/docs/audit.md"
	rc=0; check "$t" > /dev/null 2>&1 || rc=$?
	[ $rc -ne 0 ] || { echo "doc_links_check: self-test: a broken link across two lines passed" >&2; return 1; }
	echo "  CHECK    doc links self-test: a missing file, a missing #anchor (here and in another file), a link" \
		"across lines and one out of the docs are caught; links in code are not links"
}

case ${1:-} in
--self-test) self_test ;;
*) check "${1:-$here/../..}" ;;
esac
