#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The CI recipes of docs/ci.md hold together: every ```yaml block there
# parses (python3-yaml), and each CI job in it traces with the script's
# trace step, gates with its gate step and keeps the output directory as
# its artifact, so a recipe cannot drift from the script the suite runs
# (tests/integration/test_ci.c).
#
#   tests/repo/ci_recipes_check.sh [FILE]     (default: docs/ci.md)
#   tests/repo/ci_recipes_check.sh --self-test
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

check_py='
import sys, re, yaml
text = open(sys.argv[1]).read()
blocks = re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M)
if not blocks:
    sys.exit("ci_recipes_check: %s: no ```yaml block" % sys.argv[1])
def strings(node):
    if isinstance(node, dict):
        for k, v in node.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)
    elif node is not None:
        yield str(node)
jobs = 0
for i, block in enumerate(blocks, 1):
    try:
        doc = yaml.safe_load(block)
    except yaml.YAMLError as e:
        sys.exit("ci_recipes_check: %s: yaml block %d: %s" % (sys.argv[1], i, e))
    if not isinstance(doc, dict):
        sys.exit("ci_recipes_check: %s: yaml block %d is not a mapping" % (sys.argv[1], i))
    # A GitHub workflow keeps its jobs under jobs:, a .gitlab-ci.yml at the top.
    for name, job in (doc.get("jobs") or doc).items():
        if not isinstance(job, dict) or not ("steps" in job or "script" in job):
            continue
        words = "\n".join(strings(job))
        for need in ("$CI_SCRIPT trace buildbpf-out --", "$CI_SCRIPT gate base/build.bbl buildbpf-out",
                     "buildbpf-out/", "buildbpf-ci.sh"):
            if need not in words:
                sys.exit("ci_recipes_check: %s: yaml block %d, job %s: no %r" % (sys.argv[1], i, name, need))
        jobs += 1
if jobs != len(blocks):
    sys.exit("ci_recipes_check: %s: %d yaml blocks but %d CI jobs in them" % (sys.argv[1], len(blocks), jobs))
print("  CHECK    CI recipes: %d yaml blocks parse, each job traces, gates and keeps buildbpf-out/" % len(blocks))
'

check() {
	if ! python3 -c 'import yaml' 2>/dev/null; then
		echo "  SKIP     CI recipes: python3-yaml is not installed (apt-get install python3-yaml)"
		return 0
	fi
	python3 -c "$check_py" "$1"
}

# The check catches a block that does not parse and a job that skips the
# gate, and passes a good one.
self_test() {
	local t
	t=$(mktemp -d)
	trap 'rm -rf "$t"' RETURN
	python3 -c 'import yaml' 2>/dev/null || { echo "  SKIP     CI recipes self-test: no python3-yaml"; return 0; }
	good='job:
  variables: {CI_SCRIPT: /usr/share/buildbpf/ci/buildbpf-ci.sh}
  script:
    - $CI_SCRIPT trace buildbpf-out -- make
    - $CI_SCRIPT gate base/build.bbl buildbpf-out --fail-if cpu>+10%
  artifacts: {paths: [buildbpf-out/]}'
	printf '# x\n\n```yaml\n%s\n```\n' "$good" > "$t/good.md"
	check "$t/good.md" > /dev/null || { echo "ci_recipes_check: self-test: a good recipe failed" >&2; return 1; }
	printf '# x\n\n```yaml\n%s\n```\n' "${good/    - \$CI_SCRIPT gate*/}" > "$t/nogate.md"
	printf '# x\n\n```yaml\n%s\n  - [\n```\n' "$good" > "$t/bad.md"
	for f in nogate bad; do
		if check "$t/$f.md" > /dev/null 2>&1; then
			echo "ci_recipes_check: self-test: $f.md passed" >&2
			return 1
		fi
	done
}

case ${1:-} in
--self-test) self_test ;;
*) check "${1:-$here/../../docs/ci.md}" ;;
esac
