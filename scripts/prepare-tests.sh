#!/bin/bash
# make test's slow preparations, started in the background at its beginning so that on a new
# machine their downloads, debootstraps and builds overlap the first steps' compiling instead of
# adding to it: the trixie build root, Home Assistant's venv, the real-kernel rig and the system
# rig's root and modules. Each of them is idempotent and holds its own lock, and the step of
# make test that needs one calls it again: that call waits for the background's work, or does it
# itself when the background failed (whose output is in the log). On a machine where all is made
# already every one returns within seconds.
#
#   scripts/prepare-tests.sh --start    (as root) starts it, detached, and returns at once
#   scripts/prepare-tests.sh --wait     waits until a started one has ended
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
state=$repo/.build/prepare-tests
mkdir -p "$state"

case ${1:-} in
    --start)
        # Held for the whole run: --wait takes it after.
        setsid flock -o "$state/lock" "$0" --run >"$state/log" 2>&1 </dev/null &
        echo "prepare-tests: started in the background (log: ${state#"$repo"/}/log)"
        ;;
    --wait)
        flock "$state/lock" true
        ;;
    --run)
        step() {
            local started=$SECONDS
            if "$@"; then
                echo "prepare-tests: $* done in $((SECONDS - started)) s"
            else
                echo "prepare-tests: $* failed after $((SECONDS - started)) s (make test's own step will try again)"
            fi
        }
        step "$repo/scripts/debian-root.sh" trixie amd64
        step "$repo/Tests/ha/venv.sh"
        step "$repo/rig/setup.sh"
        step "$repo/rig/system/setup.sh" trixie amd64
        ;;
    *)
        echo "usage: $0 --start | --wait" >&2
        exit 2
        ;;
esac
