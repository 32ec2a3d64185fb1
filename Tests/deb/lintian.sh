#!/bin/bash
# lintian over one package, as the package tests want it: every tag at every level, pedantic and
# experimental included, absent or overridden with its reason (packaging/debian/lintian-overrides).
# One override may go unused: spelling-error-in-binary's hits are byte sequences of machine code
# or tables that happen to spell a misspelt word ("notT not"), there in one build, not in the next.
#   Tests/deb/lintian.sh DEB      exits 1 naming what is wrong
set -uo pipefail
code=0
report=$(lintian --pedantic --display-info --display-experimental --fail-on error,warning "${1:?package}" 2>&1) ||
    code=$?
report=$(grep -v 'running with root privileges' <<<"$report")
[ -z "$report" ] || echo "$report"
[ "$code" = 0 ] || { echo "lintian exited $code"; exit 1; }
if grep '^[EWIPX]:' <<<"$report" | grep -qv '^I: [^ ]*: unused-override spelling-error-in-binary '; then
    echo "lintian tags above"
    exit 1
fi
