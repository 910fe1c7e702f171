#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# No suite uses Criterion's gt(): in Debian 12's Criterion 2.4.1,
# gt(Tag, a, b) passes when a == b (Snaipe/Criterion#473), so an assertion
# such as gt(i64, lost, 0) can never fail on 0.  Write lt(Tag, b, a).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if hits=$(grep -rnE '(^|[^_[:alnum:]])gt\(' tests --include='*.c' --include='*.h' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*|//)'); then
	echo "$hits" >&2
	echo "criterion_gt_check: gt() above passes on equality in Criterion 2.4.1; write lt(Tag, b, a)" >&2
	exit 1
fi
echo "  CHECK    no Criterion gt() in the suites"
