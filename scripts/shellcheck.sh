#!/bin/bash
# Runs shellcheck over every shell script the repository holds: the files `git ls-files` names that
# end in .sh or start with a sh or bash shebang (the packaging's maintainer scripts, the rig's
# init, .ci/run). -x follows `source`, and -P SCRIPTDIR resolves a sourced path against the
# script's own directory first, then the repository's root (where the scripts run from).
# Findings are fixed in the code; a `# shellcheck disable=SCxxxx` needs a comment saying why the
# finding is wrong there. Exits 1 when shellcheck finds anything.
#
#   scripts/shellcheck.sh [SHELLCHECK-OPTIONS]     (make lint runs it; -f gcc: one line a finding)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v shellcheck >/dev/null || { echo "shellcheck: not installed (make setup installs it)" >&2; exit 1; }
scripts=()
while IFS= read -r -d '' file; do
    [ -f "$file" ] || continue
    case $file in
        *.sh) scripts+=("$file") ;;
        *)
            read -r -n 200 first <"$file" || true
            case $first in
                '#!'*/sh | '#!'*/bash | '#!'*'/env bash' | '#!'*'/env sh' | '#!'*'busybox sh') scripts+=("$file") ;;
            esac
            ;;
    esac
done < <(git ls-files -z)
echo "shellcheck: ${#scripts[@]} scripts"
shellcheck -x -P SCRIPTDIR:. "$@" "${scripts[@]}"
