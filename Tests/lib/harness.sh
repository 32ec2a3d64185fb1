# shellcheck shell=bash
# The one test harness, sourced by every shell runner on the host and every guest script (the
# real-kernel rig's, the system rig's, the Raspberry Pi machines' and the power cut's guests):
#
#   check [--timeout SECONDS] NAME COMMAND...   runs one check; prints "ok   NAME (S s)" or
#                                               "FAIL NAME (S s)" and the check's output
#   skip NAME REASON                            a check this run cannot make, and why
#   fail MESSAGE...                             says why and fails the check
#   wait_for SECONDS COMMAND...                 polls COMMAND until it succeeds, or fails naming
#                                               what it waited for; never waits longer
#   expect_exit WANT COMMAND...                 COMMAND's exit status is WANT; its output in
#                                               $HARNESS_LOGS/out and $HARNESS_LOGS/err
#   summary                                     "N passed, N failed[, N skipped]" alone on its
#                                               line; returns 1 when a check failed or none passed
#
# The checks are written so that set -e stops them at the first failure: `cmd || fail "why"` or
# `if cmd; then fail "why"; fi`, never `! cmd` nor `a && b` as a statement (set -e ignores a
# negated command and every part of an && list but the last).
#
# Each check runs in a subshell of its own process group, standard input from /dev/null (a check
# never reads the terminal); a watchdog ends the group after CHECK_TIMEOUT seconds (or the
# check's --timeout), so a hung check, the daemons and readers it started with it, is reported
# as failed and the run goes on. Whatever a check leaves running is killed when it ends.
#
# Settings, read when the library is sourced (set them before):
#   CHECK_TIMEOUT       seconds a check may take (60)
#   HARNESS_LOGS        the directory that holds each check's output (NAME.log); needed by check
#   HARNESS_NAME        the summary's label ("cli" gives "cli: 3 passed, 0 failed")
#   HARNESS_PREFIX      put before every line the harness prints ("rig: " on the system rig's
#                       console, where the host shows and reads only those lines)
#   HARNESS_SHOW        a passing check's output lines that start with this are shown ("# ")
#   HARNESS_FAIL_LINES  how many of a failing check's last lines are shown (empty: all)
#   HARNESS_ERREXIT     1 (the default): checks run under set -e, with an ERR trap that says
#                       where a command failed. 0: without set -e (the system rig's checks,
#                       written for it), and fail then ends the check at once
#   HARNESS_POLL        seconds between wait_for's tries (0.1)
#   HARNESS_COUNTS      a file the counts are kept in after each check and read back from when
#                       sourced: counts that outlive a reboot of the guest
CHECK_TIMEOUT=${CHECK_TIMEOUT:-60}
HARNESS_NAME=${HARNESS_NAME:-}
HARNESS_PREFIX=${HARNESS_PREFIX:-}
HARNESS_SHOW=${HARNESS_SHOW:-# }
HARNESS_FAIL_LINES=${HARNESS_FAIL_LINES:-}
HARNESS_ERREXIT=${HARNESS_ERREXIT:-1}
HARNESS_POLL=${HARNESS_POLL:-0.1}
HARNESS_COUNTS=${HARNESS_COUNTS:-}
passed=${passed:-0} failed=${failed:-0} skipped=${skipped:-0} failed_names=${failed_names:-}
if [ -n "$HARNESS_COUNTS" ] && [ -f "$HARNESS_COUNTS" ]; then
    # shellcheck source=/dev/null # written by harness_keep_counts
    . "$HARNESS_COUNTS"
fi

harness_say() {
    printf '%s%s\n' "$HARNESS_PREFIX" "$*"
}

fail() {  # fail MESSAGE...: says why, returns 1 (under set -e that ends the check)
    echo "$*"
    # Without set -e nothing else would stop the check.
    if [ -n "${HARNESS_IN_CHECK:-}" ] && [ "$HARNESS_ERREXIT" = 0 ]; then exit 1; fi
    return 1
}

# UPTIME_CS: seconds since boot in hundredths. Monotonic (a guest's clock may be set while it
# runs), and read without starting a process: under emulation each one costs milliseconds.
read_uptime() {
    local uptime
    read -r uptime _ </proc/uptime
    UPTIME_CS=$((10#${uptime/./}))
}

# HARNESS_CS: SECONDS (decimals allowed) in hundredths, without a process.
harness_centiseconds() {
    local whole=${1%%.*} fraction=
    [[ $1 != *.* ]] || fraction=${1#*.}
    fraction=${fraction}00
    HARNESS_CS=$((10#${whole:-0} * 100 + 10#${fraction:0:2}))
}

harness_elapsed() {  # harness_elapsed SINCE-CS: prints seconds since then, e.g. 1.05
    read_uptime
    local took=$((UPTIME_CS - $1))
    printf '%d.%02d' $((took / 100)) $((took % 100))
}

# Sleeps SECONDS without starting a process: a read that times out on a FIFO nobody writes. The
# FIFO is opened at the first pause of each shell (a check's own), so that only what that check
# starts inherits it.
pause() {  # pause SECONDS
    if [ "${HARNESS_PAUSE_PID:-}" != "$BASHPID" ]; then
        local fifo=${TMPDIR:-/tmp}/harness-pause.$BASHPID
        rm -f "$fifo"
        mkfifo "$fifo"
        exec {HARNESS_PAUSE_FD}<>"$fifo"
        rm -f "$fifo"
        HARNESS_PAUSE_PID=$BASHPID
    fi
    read -r -t "$1" -u "$HARNESS_PAUSE_FD" _ || true
}

# Polls until COMMAND succeeds, for at most SECONDS (decimals allowed), then fails saying what it
# waited for. COMMAND runs anew each time: poll a function (state_is regular), not an expanded
# $(...).
wait_for() {  # wait_for SECONDS COMMAND...
    local seconds=$1 deadline
    shift
    harness_centiseconds "$seconds"
    read_uptime
    deadline=$((UPTIME_CS + HARNESS_CS))
    until "$@"; do
        read_uptime
        if [ "$UPTIME_CS" -gt "$deadline" ]; then
            fail "timed out after $seconds s waiting for: $*"
            return 1
        fi
        pause "$HARNESS_POLL"
    done
}

# Runs COMMAND, expecting exit status WANT; its output is in $HARNESS_LOGS/out and .../err.
expect_exit() {  # expect_exit WANT COMMAND...
    local want=$1 got=0
    shift
    "$@" >"$HARNESS_LOGS/out" 2>"$HARNESS_LOGS/err" || got=$?
    [ "$got" != "$want" ] || return 0
    echo "$* exited $got, wanted $want; stdout and stderr:"
    cat "$HARNESS_LOGS/out" "$HARNESS_LOGS/err"
    return 1
}

# The ERR trap of checks: the command that failed and the functions it was in, innermost first.
# On standard error, so that a failure inside $(...) is not taken into its value.
harness_where() {
    local status=$? frame where=
    for ((frame = 1; frame < ${#FUNCNAME[@]} - 1; frame++)); do
        where+=" ${FUNCNAME[frame]}@${BASH_SOURCE[frame]#"$PWD/"}:${BASH_LINENO[frame - 1]}"
    done
    echo "failed (status $status): $BASH_COMMAND in$where" >&2
}

harness_keep_counts() {
    [ -n "$HARNESS_COUNTS" ] || return 0
    printf 'passed=%d\nfailed=%d\nskipped=%d\nfailed_names=%q\n' \
        "$passed" "$failed" "$skipped" "$failed_names" >"$HARNESS_COUNTS"
}

skip() {  # skip NAME REASON: a check this run cannot make, counted apart, saying why
    local name=$1 reason=${2:?skip $1: a skipped check says why}
    skipped=$((skipped + 1))
    harness_say "skip $name: $reason"
    harness_keep_counts
}

check() {  # check [--timeout SECONDS] NAME COMMAND...
    local limit=$CHECK_TIMEOUT
    if [ "$1" = --timeout ]; then
        limit=$2
        shift 2
    fi
    local name=$1 log test watchdog status=0 started took line
    shift
    log=${HARNESS_LOGS:?set HARNESS_LOGS to a scratch directory}/${name//[^A-Za-z0-9._-]/_}.log
    rm -f "$log.timed-out"
    read_uptime
    started=$UPTIME_CS
    # Monitor mode only while starting the two jobs: each gets a process group of its own.
    # Inside, it is turned off again so that what a check starts stays in the check's group.
    # The check is neither inside `if` nor before `||`, where bash ignores set -e.
    set -m
    (
        set +m
        HARNESS_IN_CHECK=1
        if [ "$HARNESS_ERREXIT" = 1 ]; then
            set -eE
            trap harness_where ERR
        fi
        "$@"
    ) </dev/null >"$log" 2>&1 &
    test=$!
    (
        set +m
        sleep "$limit"
        : >"$log.timed-out"
        # TERM first: the check's processes may clean up (a daemon removes its FIFOs).
        kill -TERM -- -"$test"
        sleep 5
        kill -KILL -- -"$test"
    ) </dev/null >/dev/null 2>&1 &
    watchdog=$!
    set +m
    # Quiet: bash would announce a killed job; the report below says it.
    wait "$test" 2>/dev/null || status=$?
    kill -KILL -- -"$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
    # Whatever the check left running (a reader, a daemon) goes with it.
    kill -KILL -- -"$test" 2>/dev/null
    took=$(harness_elapsed "$started")
    if [ -e "$log.timed-out" ]; then
        rm -f "$log.timed-out"
        status=124
        harness_say "FAIL $name ($took s): timed out after $limit s"
    elif [ "$status" = 0 ]; then
        passed=$((passed + 1))
        harness_say "ok   $name ($took s)"
        while IFS= read -r line || [ -n "$line" ]; do
            [[ $line != "$HARNESS_SHOW"* ]] || harness_say "     ${line#"$HARNESS_SHOW"}"
        done <"$log"
        harness_keep_counts
        return 0
    else
        harness_say "FAIL $name ($took s)"
    fi
    failed=$((failed + 1))
    failed_names+=" $name"
    if [ -n "$HARNESS_FAIL_LINES" ]; then
        tail -n "$HARNESS_FAIL_LINES" "$log"
    else
        cat "$log"
    fi | while IFS= read -r line || [ -n "$line" ]; do harness_say "     $line"; done
    harness_keep_counts
    return "$status"
}

# The closing line, alone, that the hosts and CI read; the failed checks named on the line
# before it.
summary() {
    [ -z "$failed_names" ] || harness_say "failed:$failed_names"
    local line="$passed passed, $failed failed"
    [ "$skipped" = 0 ] || line+=", $skipped skipped"
    harness_say "${HARNESS_NAME:+$HARNESS_NAME: }$line"
    [ "$failed" = 0 ] || return 1
    [ "$passed" -gt 0 ] || { harness_say "no check passed"; return 1; }
}
