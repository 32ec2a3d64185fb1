#!/bin/bash
# make's shell (the Makefile's SHELL, given `--target=$@` first): each recipe line runs in bash as
# make would run it, and when STEP_TIMES names a file (make test sets it) the line's target, start
# and end go into it. `scripts/step-times.sh --report FILE` then prints each step's wall time:
# where make test's time goes (docs/tests.md, "How long it takes") is in every run's log.
set -uo pipefail
if [ "${1:-}" = --report ]; then
    [ -s "${2:?--report FILE}" ] || { echo "step-times: no times in $2" >&2; exit 1; }
    # A step's time is its lines' (a step made again by a later one, as `embedded` is, adds its
    # check); steps that ran beside one another overlap, so the whole is the first start to the
    # last end.
    awk '
        !($1 in first) { first[$1] = $2; order[++count] = $1 }
        { took[$1] += $3 - $2 }
        NR == 1 || $2 < begin { begin = $2 }
        $3 > end { end = $3 }
        END {
            printf "%-22s %8s %8s\n", "step", "from", "took"
            for (i = 1; i <= count; i++) {
                t = order[i]
                printf "%-22s %5d:%02d %7.0fs\n", t, int((first[t] - begin) / 60), (first[t] - begin) % 60, took[t]
            }
            printf "%-22s %8s %7.0fs (%d min %d s)\n", "all", "", end - begin, int((end - begin) / 60), (end - begin) % 60
        }' "$2"
    exit 0
fi
target=${1#--target=}
shift
if [ -z "${STEP_TIMES:-}" ] || [ -z "$target" ]; then exec /bin/bash "$@"; fi
start=$EPOCHREALTIME
/bin/bash "$@"
status=$?
echo "$target $start $EPOCHREALTIME" >>"$STEP_TIMES"
exit "$status"
