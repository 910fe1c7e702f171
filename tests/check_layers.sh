#!/bin/sh
# Fails when a file includes a header of a later pipeline stage
# (docs/design.md, "Layout").  A file's stage is its folder: user/STAGE/*.c and
# include/STAGE/*.h; include/*.h is the shared top level, user/main.c (and
# user/main/) the wiring, bpf/ the kernel side (it sees only the top level).  tests/ are
# exempt.  Run from the repository's root.
set -eu

stages="util top log record model hosts graph merge audit report diff output cli main"

rank() {
	i=0
	for s in $stages; do
		[ "$s" = "$1" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo -1
}

# The stage of a file of the repository, or nothing when it has none.
stage_of_file() {
	case "$1" in
	user/main.c) echo main ;;
	user/*/*|include/*/*) echo "$1" | cut -d/ -f2 ;;
	include/*) echo top ;;
	bpf/*) echo top ;;
	esac
}

# The stage of an #include "NAME": a stage folder, a top-level header, or
# nothing (generated or local headers: the skeleton, vmlinux.h).
stage_of_include() {
	case "$1" in
	*/*) echo "$1" | cut -d/ -f1 ;;
	*) [ -f "include/$1" ] && echo top ;;
	esac
	return 0
}

bad=0
for f in $(find user include bpf -name '*.[ch]' | sort); do
	fs=$(stage_of_file "$f")
	[ -n "$fs" ] || continue
	fr=$(rank "$fs")
	if [ "$fr" -lt 0 ]; then
		echo "check_layers: $f: folder '$fs' is not a stage (add it to tests/check_layers.sh and docs/design.md)" >&2
		bad=1
		continue
	fi
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		is=$(stage_of_include "$inc")
		[ -n "$is" ] || continue
		ir=$(rank "$is")
		if [ "$ir" -lt 0 ]; then
			echo "check_layers: $f includes \"$inc\": '$is' is not a stage" >&2
			bad=1
		elif [ "$ir" -gt "$fr" ]; then
			echo "check_layers: $f ($fs) includes \"$inc\" of a later stage ($is)" >&2
			bad=1
		fi
	done
done
exit $bad
