#!/bin/sh
# gen-config.sh CONFIG.DEF — print the C header for a config.def file.
set -eu

def=${1:?usage: gen-config.sh CONFIG.DEF}
[ -r "$def" ] || { echo "gen-config.sh: cannot read $def" >&2; exit 1; }

echo "/* Generated from $(basename "$def") by gen-config.sh; do not edit. */"
echo "#ifndef DEMO_CONFIG_H"
echo "#define DEMO_CONFIG_H"
echo
# sed drops comments and blank lines; awk upper-cases the names and checks
# that every line has a value.
sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$def" |
awk '
	NF < 2 { printf "gen-config.sh: line \"%s\" has no value\n", $0 > "/dev/stderr"; bad = 1; next }
	{
		name = toupper($1)
		value = $2
		for (i = 3; i <= NF; i++) value = value " " $i
		printf "#define DEMO_%-12s %s\n", name, value
		n++
	}
	END {
		if (bad) exit 1
		printf "\n#define DEMO_CONFIG_ENTRIES %d\n", n
	}'
echo
echo "#endif"
