#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Regenerates the pictures of docs/html-report.md from recordings:
#
#   tools/screenshots.sh [-o DIR] NAME=LOG[,strip] ...
#   make screenshots SHOTS='lz4=lz4.bbl,strip json-c=json-c.bbl'
#
# Each LOG (a `buildbpf record` recording) becomes an --html page, pictured
# at 1400 px wide in Debian's chromium by tests/viewer/screenshots.cjs as
# DIR/html-report-NAME.png, -path.png and, with ",strip", -strip.png (DIR:
# docs/images).  Needs build/buildbpf and `make viewer-deps` (playwright-core
# in build/viewer).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/docs/images
bin=${BUILDBPF:-$top/build/buildbpf}
viewer=$top/build/viewer
if [ "${1:-}" = -o ]; then
	[ $# -ge 2 ] || { echo "buildbpf: screenshots: -o needs a directory" >&2; exit 2; }
	out=$2
	shift 2
fi
if [ $# -eq 0 ]; then
	echo "buildbpf: screenshots: no recording given; usage: $0 [-o DIR] NAME=LOG[,strip] ..." >&2
	exit 2
fi
[ -x "$bin" ] || { echo "buildbpf: screenshots: no $bin; hint: make" >&2; exit 2; }
if [ ! -f "$viewer/screenshots.cjs" ] || [ ! -d "$viewer/node_modules" ]; then
	echo "buildbpf: screenshots: no chromium driver in $viewer; hint: make viewer-deps" >&2
	exit 2
fi
pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
specs=
for arg in "$@"; do
	name=${arg%%=*}
	rest=${arg#*=}
	log=${rest%%,*}
	opts=${rest#"$log"}
	case $name in '' | *[!A-Za-z0-9._-]*)
		echo "buildbpf: screenshots: '$arg' is not NAME=LOG; hint: lz4=lz4.bbl,strip" >&2; exit 2 ;;
	esac
	[ -f "$log" ] || { echo "buildbpf: screenshots: no recording '$log'" >&2; exit 2; }
	echo "  HTML     $name"
	"$bin" convert "$log" -o "$pages/$name.json" --html "$pages/$name.html" -q >/dev/null
	specs="$specs $name=$pages/$name.html$opts"
done
mkdir -p "$out"
echo "  SHOTS    $out"
# shellcheck disable=SC2086 # the specs are words without spaces
node "$viewer/screenshots.cjs" "$out" $specs
