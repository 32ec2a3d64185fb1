#!/bin/bash
# Command-line tests of the built `ambience` binary: what a user sees (output lines, exit codes,
# error messages). Usage: Tests/cli/run.sh PATH-TO-AMBIENCE
# CLI_TESTS="NAME..." runs only the tests named (to show a check failing on a broken build).
set -uo pipefail
BIN=$(realpath "${1:-.build/debug/ambience}")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
passed=0 failed=0

# Each test a check of Tests/lib/harness.sh: ended after CHECK_TIMEOUT seconds (default 60)
# with everything it started, and then reported as failed.
HARNESS_LOGS=$WORK HARNESS_NAME=cli
# shellcheck source=Tests/lib/harness.sh
source "$ROOT/Tests/lib/harness.sh"

valid_json_lines() {  # every line of FILE is a JSON object with the protocol's keys
    python3 - "$1" <<'PY'
import json, re, sys
keys = ["event", "state", "previous", "animated", "reason", "lux", "filtered", "time",
        "override", "override_remaining_s", "fault", "brightness"]
for number, line in enumerate(open(sys.argv[1]), 1):
    event = json.loads(line)
    assert list(event) == keys, (number, line)
    assert event["event"] in ("change", "current", "fault", "recovered"), line
    assert event["state"] in (None, "invert", "regular", "contrast"), line
    time = event["time"]  # the trace's seconds in replay, wall-clock UTC from the daemon
    assert isinstance(time, (int, float)) or re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", time), line
PY
}

replay_day_is_valid_json() {
    "$BIN" replay "$ROOT/examples/day.csv" --interval 1 --fault-after 10 >"$WORK/day.jsonl"
    valid_json_lines "$WORK/day.jsonl"
    [ "$(grep -c '"event":"change"' "$WORK/day.jsonl")" -ge 5 ]
    grep -q '"event":"fault"' "$WORK/day.jsonl" || fail "no fault event"
    grep -q '"event":"recovered"' "$WORK/day.jsonl" || fail "no recovered event"
}

replay_reads_standard_input() {
    printf '0,1\n1,1\n' | "$BIN" replay - >"$WORK/out"
    grep -q '"state":"invert"' "$WORK/out"
}

malformed_row_exits_1_after_earlier_events() {
    printf 'seconds,lux\n0,300\n1,300\n2,oops\n3,300\n' >"$WORK/bad.csv"
    expect_exit 1 "$BIN" replay "$WORK/bad.csv"
    grep -q '"state":"regular"' "$WORK/out"
    grep -q 'line 4' "$WORK/err" || fail "the error names no line 4: $(cat "$WORK/err")"
    grep -q '2,oops' "$WORK/err" || fail "the error does not quote the row: $(cat "$WORK/err")"
}

unknown_option_is_usage_error() {
    expect_exit 2 "$BIN" replay --colour red - </dev/null
    grep -q "unknown option '--colour'" "$WORK/err"
}

missing_file_argument_is_usage_error() { expect_exit 2 "$BIN" replay; }
unknown_command_is_usage_error() { expect_exit 2 "$BIN" frobnicate; }

latency_below_2d_plus_p_is_configuration_error() {
    expect_exit 78 "$BIN" replay --dwell 5 --latency 10 --interval 1 - </dev/null
    grep -q -- '--latency: L (10.0 s)' "$WORK/err" || fail "the error does not name --latency and L: $(cat "$WORK/err")"
    grep -q '2D + P' "$WORK/err" || fail "the error does not give the bound 2D + P: $(cat "$WORK/err")"
    # A key the user never wrote.
    if grep -q 'timing.latency' "$WORK/err"; then fail "the error names timing.latency for --latency"; fi
}

unordered_thresholds_are_configuration_error() {
    expect_exit 78 "$BIN" replay --invert-regular 100,50 - </dev/null
    grep -q -- '--invert-regular: fall (100' "$WORK/err"
}

unreadable_file_is_runtime_error() {
    expect_exit 1 "$BIN" replay "$WORK/does-not-exist.csv"
    grep -q 'does-not-exist.csv' "$WORK/err"
}

empty_input_prints_nothing() {
    expect_exit 0 "$BIN" replay - </dev/null
    [ ! -s "$WORK/out" ]
}

random_input_never_crashes() {
    # Mangled traces: every run ends with 0 or 1, and whatever it printed is valid JSON lines.
    for seed in $(seq 1 60); do
        python3 - "$seed" >"$WORK/random.csv" <<'PY'
import random, sys
rng = random.Random(int(sys.argv[1]))
pieces = ["", "nan", "-1", "1e308", "1e-320", "0x10", "inf", "#", ",", " ", "\t", "\r", "é", "\x00", "9" * 400]
t = 0.0
for _ in range(rng.randrange(1, 300)):
    t += rng.choice([0, 0.01, 0.5, 1, 30])
    lux = rng.choice([str(rng.uniform(0, 1e5)), rng.choice(pieces)])
    line = f"{t},{lux}" if rng.random() < 0.97 else "".join(rng.choice(pieces) for _ in range(3))
    print(line)
PY
        rc=0
        "$BIN" replay "$WORK/random.csv" >"$WORK/out" 2>"$WORK/err" || rc=$?
        [ $rc = 0 ] || [ $rc = 1 ] || { echo "seed $seed: exit $rc"; cat "$WORK/err"; return 1; }
        [ ! -s "$WORK/out" ] || valid_json_lines "$WORK/out" || { echo "seed $seed: bad JSON"; return 1; }
    done
}

help_lists_commands() {
    "$BIN" --help | grep -q replay
    "$BIN" replay --help | grep -q -- '--latency'
}


# A short simulation: 5 lux, then 30 klx from 3 s on, 10 times faster than real time.
start_simulation() {  # start_simulation END [EXTRA...]: pid in $simulation, files in $WORK/rt
    local end=$1; shift
    rm -rf "$WORK/rt"
    "$BIN" simulate --profile step:5:30000:3 --speed 10 --end "$end" --runtime-dir "$WORK/rt" "$@" \
        >"$WORK/sim.out" 2>"$WORK/sim.err" &
    simulation=$!
    wait_for 10 test -p "$WORK/rt/state"
}

simulation_drives_the_pipe_and_the_state_file() {
    start_simulation 12s
    timeout 30 cat "$WORK/rt/state" >"$WORK/reader.jsonl" &
    local reader=$!
    wait $simulation
    wait $reader || fail "the reader of the pipe ended with status $?"
    valid_json_lines "$WORK/reader.jsonl"
    head -1 "$WORK/reader.jsonl" | grep -q '"event":"current"'
    tail -1 "$WORK/reader.jsonl" | grep -q '"state":"contrast","previous":"invert".*"reason":"light"'
    # Each line shows every state, the one it is in marked: "[●] contrast".
    grep -q '\[●\] invert .*(startup)$' "$WORK/sim.out" || fail "no switch to invert at startup: $(cat "$WORK/sim.out")"
    grep -q '\[●\] contrast .*(light)$' "$WORK/sim.out" || fail "no switch to contrast for the light: $(cat "$WORK/sim.out")"
    [ ! -e "$WORK/rt/state.json" ]  # a stopped daemon leaves no stale state behind
}

override_and_status_talk_to_the_running_daemon() {
    start_simulation 60s
    wait_for 10 test -s "$WORK/rt/state.json"
    "$BIN" status --state-file "$WORK/rt/state.json" | grep -q '"state":"invert"'
    "$BIN" override contrast for 10m --control "$WORK/rt/control"
    wait_for 5 grep -q '"reason":"override"' "$WORK/rt/state.json"
    wait_for 5 grep -q '^contrast until ' "$WORK/rt/lib/override"  # persisted, with its wall-clock end
    "$BIN" override auto --control "$WORK/rt/control"
    wait_for 5 grep -q '"reason":"auto"' "$WORK/rt/state.json"
    wait_for 5 test ! -e "$WORK/rt/lib/override"
    kill -TERM $simulation
    wait $simulation
}

override_without_a_daemon_says_so() {
    expect_exit 1 "$BIN" override invert --control "$WORK/no-such-control"
    grep -q 'not running' "$WORK/err"
    expect_exit 1 "$BIN" status --state-file "$WORK/no-such-state.json"
    grep -q 'not running' "$WORK/err"
    expect_exit 2 "$BIN" override dark
    # The bound is checked before the pipe is looked for: a usage error, the same words as MQTT's.
    expect_exit 2 "$BIN" override invert for 99999999999999999d --control "$WORK/no-such-control"
    grep -q "'99999999999999999d' is longer than the longest override, 365d (a year)" "$WORK/err"
}

brightness_is_checked_then_sent_like_an_override() {
    expect_exit 2 "$BIN" brightness 140 --control "$WORK/no-such-control"
    grep -q "'140' is not a brightness: use a whole percent 0 to 100, or auto" "$WORK/err"
    expect_exit 2 "$BIN" brightness 40 for 366d --control "$WORK/no-such-control"
    grep -q "'366d' is longer than the longest override, 365d (a year)" "$WORK/err"
    expect_exit 1 "$BIN" brightness auto --control "$WORK/no-such-control"
    grep -q 'not running' "$WORK/err"
}

watch_runs_the_command_on_each_change() {
    start_simulation 12s
    "$BIN" watch --pipe "$WORK/rt/state" --exec "echo \"\$AMBIENCE_PREVIOUS>\$AMBIENCE_STATE\" >>$WORK/watched" \
        >/dev/null 2>&1 &
    local watcher=$!
    wait $simulation
    wait_for 5 grep -q '>contrast$' "$WORK/watched" || { kill $watcher; return 1; }
    kill $watcher
    head -1 "$WORK/watched" | grep -q '^>invert$'
}

sigterm_shuts_the_simulation_down_cleanly() {
    start_simulation 1h
    wait_for 10 test -s "$WORK/rt/state.json"
    kill -TERM $simulation
    local code=0
    wait $simulation || code=$?
    [ $code = 0 ]
    grep -q 'shutting down' "$WORK/sim.err"
}

# The stdin profile with nothing to read: a descriptor at its end is always "readable", and a
# loop that kept watching it would spin. CPU time, not wall time: a spinning run uses about all
# of its 4 s even on a loaded machine; an idle one a small fraction.
simulate_stdin_at_its_end_idles() {
    python3 - "$BIN" "$WORK/stdin-end" <<'PY'
import resource, subprocess, sys
binary, directory = sys.argv[1], sys.argv[2]
subprocess.run(
    [binary, "simulate", "--profile", "stdin", "--end", "4", "--runtime-dir", directory],
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=40)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = usage.ru_utime + usage.ru_stime
print(f"CPU {cpu:.2f} s over 4 s of simulation")
assert cpu < 1.5, cpu
PY
}

# Lines typed together arrive in one read; each is taken, not only the first (the input stays
# open, so nothing but that read could bring the second line in).
simulate_stdin_takes_every_line_of_a_read() {
    { printf '300\n2\n'; sleep 5; } |
        "$BIN" simulate --profile stdin --end 30 --speed 10 --runtime-dir "$WORK/stdin-lines" \
            >/dev/null 2>"$WORK/stdin.err"
    grep -q '→ invert' "$WORK/stdin.err"
}

# Every kind of chip the configuration takes runs the whole pipeline, emulated.
simulate_drives_every_sensor_kind() {
    local kind
    for kind in bh1750 tsl2561 veml7700 tsl2591 opt3001 tcs34725; do
        "$BIN" simulate --sensor "$kind" --profile step:5:30000:10 --end 40 --speed 20 \
            --runtime-dir "$WORK/kind-$kind" >/dev/null 2>"$WORK/kind-$kind.err"
        grep -q "state none → invert (startup" "$WORK/kind-$kind.err" || { cat "$WORK/kind-$kind.err"; return 1; }
        grep -q "state invert → contrast (light" "$WORK/kind-$kind.err" || { cat "$WORK/kind-$kind.err"; return 1; }
    done
}

run_without_the_bus_explains_how_to_enable_i2c() {
    printf '[sensor]\nkind = "bh1750"\nbus = 99\n' >"$WORK/bus99.toml"
    expect_exit 1 "$BIN" run --config "$WORK/bus99.toml"
    grep -q '/dev/i2c-99' "$WORK/err" || fail "the error does not name /dev/i2c-99: $(cat "$WORK/err")"
    grep -q 'I2C enabled' "$WORK/err" || fail "the error does not say to enable I2C: $(cat "$WORK/err")"
}

check_names_file_line_and_key() {
    printf '[sensor]\nkind = "bh1750"\n[timing]\ndwell = 10\nlatency = 3\ncolour = 1\n' >"$WORK/bad.toml"
    expect_exit 78 "$BIN" check --config "$WORK/bad.toml"
    grep -q "bad.toml:5: timing.latency" "$WORK/err"
    grep -q "bad.toml:6: timing.colour" "$WORK/err"
    expect_exit 78 "$BIN" run --config "$WORK/bad.toml"
    expect_exit 78 "$BIN" check --config "$WORK/missing.toml"
}

# As the journal's stream: stderr is $WORK/err, and JOURNAL_STREAM names it as systemd would.
as_journal() {  # as_journal COMMAND... (stderr: $WORK/err)
    : >"$WORK/err"
    JOURNAL_STREAM=$(stat -L -c %d:%i "$WORK/err") "$@"
}

# Under systemd stderr is the journal, and journald takes each line's <N> prefix as its priority
# (a line without one is info): what ends a program must be <3> (err), or `journalctl -p err`
# never shows it, and no line of it may go without a prefix.
only_at_err() {  # only_at_err PATTERN: $WORK/err has PATTERN at err, and no line at info
    grep -q "^<3>.*$1" "$WORK/err" || { echo "no <3> line with '$1':"; cat "$WORK/err"; return 1; }
    if grep -v '^<[0-5]>' "$WORK/err"; then fail "lines above at info (or with no priority)"; fi
}

fatal_messages_of_every_program_go_out_at_err() {
    printf '[sensor]\nkind = "bh1750"\nbord = "raspberry-pi-4"\n' >"$WORK/typo.toml"
    as_journal expect_exit 78 "$BIN" run --config "$WORK/typo.toml"
    only_at_err "typo.toml:3: sensor.bord"
    printf '[sensor]\nkind = "bh1750"\nbus = 99\n' >"$WORK/bus99.toml"
    as_journal expect_exit 1 "$BIN" run --config "$WORK/bus99.toml"
    only_at_err "I2C enabled"
    as_journal expect_exit 2 "$BIN" replay --colour red - </dev/null
    only_at_err "unknown option '--colour'"
    printf '[serve]\nlisten_at = 1\n' >"$WORK/serve.toml"
    as_journal expect_exit 78 "$BIN" serve --config "$WORK/serve.toml"
    only_at_err "serve.toml:2: serve.listen_at"
    printf '[mqtt]\nbroker_url = 1\n' >"$WORK/mqtt.toml"
    as_journal expect_exit 78 "$BIN" mqtt --config "$WORK/mqtt.toml"
    only_at_err "mqtt.toml:2: mqtt.broker_url"
    printf '[kiosk]\nrestart = 1\n[kiosk.colour]\n' >"$WORK/kiosk.toml"
    as_journal expect_exit 78 "$BIN" kiosk --config "$WORK/kiosk.toml" -- true
    only_at_err "kiosk.toml:2: kiosk.restart"
    only_at_err "kiosk.toml:3: kiosk.colour"
    as_journal expect_exit 2 "$BIN" kiosk --colour
    only_at_err "unknown option '--colour'"
}

# Each program decodes its own table; check runs them all over the one file, [mqtt] included
# (and only when it is there: a kiosk without a broker is no fault).
check_checks_every_chip_table() {
    printf '[sensor]\nkind = "veml7700"\n[sensor.veml7700]\ngain = "1x"\nintegration = 300\n[sensor.opt3001]\nrange = 12\n[sensor.tsl2591]\nmode = 1\n[sensor.tcs34725]\nintegration = 100\n' >"$WORK/chips.toml"
    expect_exit 78 "$BIN" check --config "$WORK/chips.toml"
    grep -q "chips.toml:5: sensor.veml7700.integration: must be 25, 50, 100, 200, 400 or 800 (milliseconds), not 300" "$WORK/err"
    grep -q "chips.toml:7: sensor.opt3001.range: must be a full-scale range number from 0 to 11, not 12" "$WORK/err"
    grep -q "chips.toml:9: sensor.tsl2591.mode: unknown key; sensor.tsl2591 takes gain, integration" "$WORK/err"
    grep -q "chips.toml:11: sensor.tcs34725.integration: must be 24, 50, 101, 154 or 614 (milliseconds), not 100" "$WORK/err"
    printf '[sensor]\nkind = "tsl2591"\n[sensor.tsl2591]\ngain = "428x"\nintegration = 200\n' >"$WORK/tsl2591.toml"
    "$BIN" check --config "$WORK/tsl2591.toml" | grep -q 'gain = "428x"'
}

check_checks_every_program_table() {
    local table
    for table in "[kiosk]\nrestart_delay = 'soon'" "[serve]\nlisten = '10.0.0.1:80'" "[mqtt]\nbroker = 'http://x'"; do
        printf '[sensor]\nkind = "bh1750"\n%b\n' "$table" >"$WORK/table.toml"
        expect_exit 78 "$BIN" check --config "$WORK/table.toml" || return 1
        grep -q "table.toml:4: $(printf '%b' "$table" | sed -n '1s/\[\(.*\)\]/\1/p')\." "$WORK/err" || {
            echo "no fault of $table:"; cat "$WORK/err"; return 1
        }
    done
    printf '[sensor]\nkind = "bh1750"\n' >"$WORK/no-mqtt.toml"
    "$BIN" check --config "$WORK/no-mqtt.toml" | grep -q '^\[kiosk\]$'
}

# Every program's --help (declared once, with the command) agrees with the man pages' synopses
# and names and with the command table of docs/commands.md.
help_agrees_with_the_man_pages_and_the_readme() { "$HERE/help-agreement.py" "$BIN"; }

# One command line for every program: the same words for the same mistakes, and exit 2.
every_program_refuses_the_same_way() {
    local command option
    for command in check:--config serve:--listen mqtt:--pipe kiosk:--pipe; do
        option=${command#*:} command=${command%:*}
        as_journal expect_exit 2 "$BIN" "$command" --colour || return 1
        only_at_err "ambience $command: unknown option '--colour'" || return 1
        grep -q "^<3>usage: ambience $command" "$WORK/err" || { echo "no usage after it"; return 1; }
        as_journal expect_exit 2 "$BIN" "$command" "$option" || return 1
        only_at_err "ambience $command: $option needs a value" || return 1
    done
}

# Away from the journal a message is as written: `ambience check 2>&1 | less` and a cron mail
# show no <3>. With JOURNAL_STREAM naming the pipe (as systemd names the stream it connected),
# the pipe is the journal and gets the prefixes; a JOURNAL_STREAM inherited from a unit, naming
# another stream, does not.
through_a_pipe() {  # through_a_pipe OUT COMMAND...: stdout and stderr through a pipe to OUT; exit 78
    local out=$1 code=0
    shift
    "$@" 2>&1 | cat >"$out" || code=$?
    [ "$code" = 78 ] || { echo "exit $code, wanted 78:"; cat "$out"; return 1; }
}
prefixes_only_on_the_journals_stream() {
    printf '[sensor]\nkind = "bh1750"\nbord = 1\n' >"$WORK/piped.toml"
    through_a_pipe "$WORK/piped.out" "$BIN" check --config "$WORK/piped.toml"
    grep -q '^[^<].*piped.toml:3: sensor.bord' "$WORK/piped.out" || { echo "not as written through a pipe:"; cat "$WORK/piped.out"; return 1; }
    if grep -q '^<[0-9]>' "$WORK/piped.out"; then echo "prefixes through a pipe:"; cat "$WORK/piped.out"; return 1; fi
    through_a_pipe "$WORK/other.out" env JOURNAL_STREAM=1:1 "$BIN" check --config "$WORK/piped.toml"
    if grep -q '^<[0-9]>' "$WORK/other.out"; then echo "prefixes for another stream:"; cat "$WORK/other.out"; return 1; fi
    # The pipe's dev:ino, read by the piped command itself from its own stderr.
    # shellcheck disable=SC2016 # expanded by that sh, not this shell
    through_a_pipe "$WORK/journal.out" sh -c 'JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec "$0" check --config "$1"' \
        "$BIN" "$WORK/piped.toml"
    grep -q '^<3>.*piped.toml:3: sensor.bord' "$WORK/journal.out" || { echo "no <3> on the journal's stream:"; cat "$WORK/journal.out"; return 1; }
    if grep -v '^<[0-5]>' "$WORK/journal.out"; then echo "lines without a priority on the journal's stream"; return 1; fi
}

shipped_configuration_and_boards_are_valid() {
    "$BIN" check --config "$ROOT/config/ambience.toml" --boards "$ROOT/boards" >/dev/null
    "$BIN" check --config "$ROOT/examples/simulate.toml" >/dev/null
    for board in "$ROOT"/boards/*.toml; do
        printf 'board = "%s"\n[sensor]\nkind = "bh1750"\n' "$(basename "$board" .toml)" >"$WORK/board.toml"
        "$BIN" check --config "$WORK/board.toml" --boards "$ROOT/boards" >/dev/null
    done
}

# Under systemd the runtime directory goes with the daemon, and the restarted daemon makes a new
# pipe at the same path: watch must follow the path, not stay with the old pipe.
watch_follows_the_pipe_made_again_after_a_restart() {
    local rt=$WORK/restart
    daemon='' watcher=''  # not local: the trap runs when the test's subshell ends, after return
    trap 'kill $daemon $watcher 2>/dev/null || true' EXIT
    rm -rf "$rt"
    timeout 60 "$BIN" simulate --profile step:5:30000:30 --speed 1 --runtime-dir "$rt" \
        >/dev/null 2>"$WORK/first.err" &
    daemon=$!
    wait_for 10 test -p "$rt/state"
    timeout 60 "$BIN" watch --pipe "$rt/state" >"$WORK/watch.out" 2>"$WORK/watch.err" &
    watcher=$!
    wait_for 10 grep -qx invert "$WORK/watch.out"
    "$BIN" override contrast --control "$rt/control"
    wait_for 10 grep -qx contrast "$WORK/watch.out"
    kill -TERM $daemon
    wait $daemon
    rm -rf "$rt"
    timeout 60 "$BIN" simulate --profile step:5:30000:30 --speed 1 --runtime-dir "$rt" \
        >/dev/null 2>"$WORK/second.err" &
    daemon=$!
    wait_for 10 test -p "$rt/control"
    wait_for 10 "$BIN" override regular --control "$rt/control"
    wait_for 20 grep -qx regular "$WORK/watch.out" || { echo "watch printed:"; cat "$WORK/watch.out"; return 1; }
}

for test in replay_day_is_valid_json replay_reads_standard_input malformed_row_exits_1_after_earlier_events \
    unknown_option_is_usage_error missing_file_argument_is_usage_error unknown_command_is_usage_error \
    latency_below_2d_plus_p_is_configuration_error unordered_thresholds_are_configuration_error \
    unreadable_file_is_runtime_error empty_input_prints_nothing random_input_never_crashes help_lists_commands \
    simulation_drives_the_pipe_and_the_state_file override_and_status_talk_to_the_running_daemon \
    override_without_a_daemon_says_so brightness_is_checked_then_sent_like_an_override \
    watch_runs_the_command_on_each_change \
    sigterm_shuts_the_simulation_down_cleanly run_without_the_bus_explains_how_to_enable_i2c \
    check_names_file_line_and_key check_checks_every_chip_table check_checks_every_program_table \
    fatal_messages_of_every_program_go_out_at_err prefixes_only_on_the_journals_stream \
    shipped_configuration_and_boards_are_valid \
    help_agrees_with_the_man_pages_and_the_readme every_program_refuses_the_same_way \
    watch_follows_the_pipe_made_again_after_a_restart simulate_stdin_at_its_end_idles \
    simulate_stdin_takes_every_line_of_a_read simulate_drives_every_sensor_kind; do
    case " ${CLI_TESTS:-$test} " in *" $test "*) check "$test" "$test" ;; esac
done
if [ -n "${CLI_TESTS:-}" ]; then
    # A name that is no test's would otherwise pass as "0 passed, 0 failed".
    read -ra named <<<"$CLI_TESTS"
    if [ $((passed + failed)) != "${#named[@]}" ]; then
        echo "CLI_TESTS names a test that does not exist: $CLI_TESTS"
        failed=$((failed + 1))
    fi
else
    check the_harness_ends_hangs_and_counts "$HERE/harness-test.sh"
fi
summary
