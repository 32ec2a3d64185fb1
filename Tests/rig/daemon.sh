# shellcheck shell=bash
# Sourced by Tests/rig/guest.sh: helpers for scenarios that run `ambience` against the
# fixtures and look at what a user sees: the indicator lines in gpio-sim's sysfs, the lines a
# real reader (`cat`) got from the named pipe, the state file, the log and the exit status.
#
# A daemon lives in a directory DIR (under $RIG_WORK): DIR/ambience.toml its configuration,
# DIR/state the named pipe, DIR/state.json the state file, DIR/control the control pipe,
# DIR/log its stderr, DIR/pipe.out what the reader got.

# The gpio-sim lines every configuration uses.
INVERT_LINE=0
REGULAR_LINE=1
CONTRAST_LINE=2
FAULT_LINE=3

# Short timing, so a whole light sequence takes seconds: P, τ, D, L (≥ 2D + P) and the fault
# delay. Scenarios may change these (and the thresholds) before daemon_config.
DAEMON_INTERVAL=0.2
DAEMON_TAU=0.1
DAEMON_DWELL=0.5
DAEMON_LATENCY=1.5
DAEMON_FAULT_AFTER=1
DAEMON_INVERT_REGULAR="{ fall = 20, rise = 50 }"
DAEMON_REGULAR_CONTRAST="{ fall = 2500, rise = 5000 }"

# How long a fault may take to show: fault_after, the sample that notices it, and a second
# for the rig's polling.
fault_bound() {
    awk -v f="$DAEMON_FAULT_AFTER" -v p="$DAEMON_INTERVAL" 'BEGIN { print f + p + 1 }'
}

# ---- The sensors' light, as the scenarios set it ----

# Light setters, one word each, so light_sequence can take any of them.
bh1750_light() { bh1750_set_lux "$1"; }                      # LUX
tsl2561_adapter_light() { tsl2561_set_counts "${1%:*}" "${1#*:}"; }  # CH0:CH1
tsl2561_stub_light() { tsl2561_stub_set_counts "${1%:*}" "${1#*:}" 0x39; }  # CH0:CH1
veml7700_light() { veml7700_set_lux "$1"; }                  # LUX
tsl2591_light() { tsl2591_set_lux "$1"; }                    # LUX
opt3001_light() { opt3001_set_lux "$1"; }                    # LUX

# The test adapter's and i2c-stub's TSL2561 counts do not follow the gain, so automatic gain
# would read them as 16x less light: a fixed gain. 101 ms: quick, and 1.78 lx per CH0 count
# at CH1/CH0 = 0.1 (datasheet, T/FN/CL, scaled 16 × 322/81).
# shellcheck disable=SC2034 # these are for the scenarios
TSL2561_SETTINGS='gain = "1x"
integration = 101'
# Dark, indoor and sunlight for a TSL2561: about 3.9, 355 and 14 200 lx.
# shellcheck disable=SC2034
TSL2561_DARK=2:0 TSL2561_INDOOR=200:20 TSL2561_SUNLIGHT=8000:800

# The chips' own delay before their data show new light: the BH1750 in automatic ranging
# measures 442 ms at MTreg 254 (range 0) and may change range once more (663 ms at most);
# the TSL2561 integrates 101 ms (the stub's data change at once).
# shellcheck disable=SC2034
BH1750_DELAY=1.2 TSL2561_DELAY=0.3
# The chips the drivers range automatically, at their defaults:
# - VEML7700: the wait for the integration under way (880 ms at most, 800 ms in dim light),
#   then a range change's fresh integration (880 ms at most): 1.8 s.
# - TSL2591: 100 ms integrations (112 ms waited), up to three gain switches: 0.6 s.
# - OPT3001: 800 ms conversions. Light that outgrows the range makes the chip abort and retake
#   the conversion under way (up to 1.6 s to a result), and the driver, looking every 0.88 s,
#   may then find two looks without one and set the chip up again (0.88 s more): 3.5 s.
# shellcheck disable=SC2034
VEML7700_DELAY=1.8 TSL2591_DELAY=0.6 OPT3001_DELAY=3.5

# ---- Running the daemon ----

# The libgpiod 2.x build (Tests/rig/run.sh builds it on the host) and where its library is.
AMBIENCE_GPIOD2=${AMBIENCE_GPIOD2:-$PWD/.build/gpiod2/debug/ambience}
GPIOD2_LIBDIR=$(PKG_CONFIG_PATH=${GPIOD2_PREFIX:-/opt/libgpiod2}/lib/pkgconfig pkg-config --variable=libdir libgpiod 2>/dev/null)

# Runs a scenario function with the libgpiod 2.x build as the binary under test. Fails loudly
# when that build or its library is missing: a second run that cannot happen is a failure.
with_gpiod2() {  # with_gpiod2 FUNCTION [ARGS...]
    [ -x "$AMBIENCE_GPIOD2" ] || { echo "no libgpiod 2.x build at $AMBIENCE_GPIOD2"; return 1; }
    [ -e "$GPIOD2_LIBDIR/libgpiod.so.3" ] ||
        { echo "no libgpiod 2.x library (pkg-config for ${GPIOD2_PREFIX:-/opt/libgpiod2} says '$GPIOD2_LIBDIR')"; return 1; }
    AMBIENCE=$AMBIENCE_GPIOD2
    export LD_LIBRARY_PATH=$GPIOD2_LIBDIR
    # The build must really be the 2.x one, or this run proves nothing new.
    [[ "$(ldd "$AMBIENCE")" == *"libgpiod.so.3 => $GPIOD2_LIBDIR/"* ]] ||
        { echo "$AMBIENCE does not load libgpiod.so.3 from $GPIOD2_LIBDIR"; ldd "$AMBIENCE"; return 1; }
    "$@"
}

# The binary must exist: a missing one fails the checks that need it, never skips them.
ambience_is_built() {
    [ -x "$AMBIENCE" ] || { echo "no binary at $AMBIENCE: build it first (make build)"; return 1; }
}

# Seconds since boot, with the kernel's precision: the scenarios' stopwatch.
uptime_now() {
    cut -d' ' -f1 /proc/uptime
}

seconds_since() {  # seconds_since START: prints the elapsed time, 2 decimals
    awk -v start="$1" -v now="$(uptime_now)" 'BEGIN { printf "%.2f", now - start }'
}

# Writes DIR/ambience.toml: the given sensor, the gpio-sim lines, one pipe, everything in DIR.
# SENSOR_TABLE is TOML for [sensor.KIND] (settings the fixtures need, e.g. a fixed gain).
# For KIND iio, BUS is the IIO device's name and ADDRESS is not used.
daemon_config() {  # daemon_config DIR KIND BUS ADDRESS [SENSOR_TABLE]
    local dir=$1 kind=$2 bus=$3 address=$4 sensor_table=${5:-}
    local where="bus = $bus
address = $address"
    [ "$kind" != iio ] || where="device = \"$bus\""
    mkdir -p "$dir"
    # The daemon may run as nobody: it reads the configuration and makes its files here.
    chmod 0755 "$RIG_WORK"
    chown "$NOBODY_UID:$NOBODY_UID" "$dir"
    cat >"$dir/ambience.toml" <<EOF
state_file = "$dir/state.json"
control_pipe = "$dir/control"
state_directory = "$dir/lib"

[sensor]
kind = "$kind"
$where
interval = $DAEMON_INTERVAL
${sensor_table:+[sensor.$kind]
$sensor_table}

[filter]
tau = $DAEMON_TAU

[thresholds]
invert_regular = $DAEMON_INVERT_REGULAR
regular_contrast = $DAEMON_REGULAR_CONTRAST

[timing]
dwell = $DAEMON_DWELL
latency = $DAEMON_LATENCY
fault_after = $DAEMON_FAULT_AFTER

[gpio]
chip = "$GPIO_SIM_LABEL"
lines = { invert = $INVERT_LINE, regular = $REGULAR_LINE, contrast = $CONTRAST_LINE }
fault = $FAULT_LINE
active_low = false

[pipes]
paths = ["$dir/state"]
format = "json"
EOF
    "$AMBIENCE" check --config "$dir/ambience.toml" >/dev/null ||
        { echo "daemon_config: ambience check rejects $dir/ambience.toml"; return 1; }
}

# Starts `ambience run` on DIR's configuration in the background, through WRAPPER if given
# (e.g. `as_user GIDS --`), then a `cat` reader on its pipe once the daemon has made it.
# Registers a trap that kills both when the check ends, however it ends.
daemon_start() {  # daemon_start DIR [WRAPPER...]
    local dir=$1
    shift
    : >"$dir/log"
    # Without the checks' ERR trap: the daemon's end (a kill, say) is no failure of the check.
    # The log stands in for the journal, as JOURNAL_STREAM names it: its lines carry the <N>
    # priorities the checks read (docs/daemon.md, "Logging").
    (
        trap - ERR
        # shellcheck disable=SC2094 # stat reads the log's inode; the daemon only writes it
        "$@" env JOURNAL_STREAM="$(stat -c %d:%i "$dir/log")" "$AMBIENCE" run --config "$dir/ambience.toml" 2>"$dir/log"
    ) &
    echo $! >"$dir/job"
    # shellcheck disable=SC2064 # DIR is fixed now
    trap "daemon_kill '$dir'" EXIT
    wait_for 10 daemon_made_its_pipe "$dir" || { cat "$dir/log"; return 1; }
    cat "$dir/state" >"$dir/pipe.out" &
    echo $! >"$dir/reader"
}

# The daemon made its pipe; a daemon that exited fails the wait at once.
daemon_made_its_pipe() {  # daemon_made_its_pipe DIR
    [ -p "$1/state" ] && return 0
    daemon_running "$1" || { echo "the daemon exited early:"; cat "$1/log"; exit 1; }
    return 1
}

# The daemon's process: the job itself, or the process the job's wrapper started (setpriv
# execs ambience in a child of the subshell that runs a shell-function wrapper). `ambience run`
# becomes ambience-run in the same process.
daemon_pid() {  # daemon_pid DIR
    local job
    job=$(cat "$1/job")
    case $(cat "/proc/$job/comm" 2>/dev/null) in
    ambience | ambience-run) echo "$job" ;;
    *) pgrep -P "$job" -x 'ambience(-run)?' ;;
    esac
}

daemon_running() {  # daemon_running DIR
    kill -0 "$(cat "$1/job")" 2>/dev/null
}

daemon_signal() {  # daemon_signal DIR SIGNAL
    local pid
    pid=$(daemon_pid "$1") || { echo "no ambience process for $1"; return 1; }
    kill -"$2" "$pid"
}

# SIGTERM, then the daemon's exit status must be 0 (the reader then sees end of file).
daemon_stop() {  # daemon_stop DIR
    local status=0
    daemon_signal "$1" TERM
    wait "$(cat "$1/job")" || status=$?
    expect_equal 0 "$status" "exit status after SIGTERM" || { cat "$1/log"; return 1; }
}

daemon_kill() {  # daemon_kill DIR: the trap's cleanup; quiet when already gone
    local file
    for file in job reader; do
        [ -s "$1/$file" ] || continue
        pkill -KILL -P "$(cat "$1/$file")" 2>/dev/null || true
        kill -KILL "$(cat "$1/$file")" 2>/dev/null || true
        # Gone for sure before the next check, which may want the same lines.
        wait "$(cat "$1/$file")" 2>/dev/null || true
    done
}

# ---- What the user sees ----
# Polled by `wait_for` while the daemon runs, so they start no process: under emulation a
# process costs tens of milliseconds of the two CPUs the daemon needs too. Each sets a variable.

# LEVELS: the indicator lines as gpio-sim reads them: invert regular contrast fault, "0 1 0 0".
read_levels() {
    local line value
    LEVELS=
    for line in "$INVERT_LINE" "$REGULAR_LINE" "$CONTRAST_LINE" "$FAULT_LINE"; do
        read -r value <"$GPIO_SIM_SYSFS/sim_gpio$line/value"
        LEVELS+=${LEVELS:+ }$value
    done
}

indicator_levels() {
    read_levels
    echo "$LEVELS"
}

# WANTED_LEVELS: the levels with STATE lit, and the fault line at FAULT (default 0).
wanted_levels() {  # wanted_levels STATE|none [FAULT]
    local state
    WANTED_LEVELS=
    for state in invert regular contrast; do
        if [ "$1" = "$state" ]; then WANTED_LEVELS+="1 "; else WANTED_LEVELS+="0 "; fi
    done
    WANTED_LEVELS+=${2:-0}
}

levels_for() {  # levels_for STATE|none [FAULT]
    wanted_levels "$@"
    echo "$WANTED_LEVELS"
}

lines_show() {  # lines_show STATE [FAULT]
    read_levels
    wanted_levels "$@"
    [ "$LEVELS" = "$WANTED_LEVELS" ]
}

# PIPE_STATES: the states the reader was told (current and change lines), repeats folded;
# PIPE_STATE the last of them, PIPE_TIME the time of the line that told it.
read_pipe() {  # read_pipe DIR
    local line pattern='^\{"event":"(change|current)","state":"([a-z]+)".*"time":"([^"]*)"'
    PIPE_STATES='' PIPE_STATE='' PIPE_TIME=''
    while IFS= read -r line; do
        [[ $line =~ $pattern ]] || continue
        [ "${BASH_REMATCH[2]}" = "$PIPE_STATE" ] && continue
        PIPE_STATE=${BASH_REMATCH[2]}
        PIPE_TIME=${BASH_REMATCH[3]}
        PIPE_STATES+=${PIPE_STATES:+ }$PIPE_STATE
    done <"$1/pipe.out"
}

pipe_states() {  # pipe_states DIR
    read_pipe "$1"
    echo "$PIPE_STATES"
}

# The reader got an event line of this kind (fault, recovered, ...).
pipe_has_event() {  # pipe_has_event DIR EVENT
    local line
    while IFS= read -r line; do
        [[ $line == "{\"event\":\"$2\""* ]] && return 0
    done <"$1/pipe.out"
    return 1
}

# FILE_STATE: the state in the state file ("" while there is none).
read_state_file() {  # read_state_file DIR
    local line=
    FILE_STATE=
    [ -e "$1/state.json" ] && read -r line <"$1/state.json"
    [[ $line =~ \"state\":\"([a-z]+)\" ]] && FILE_STATE=${BASH_REMATCH[1]}
    return 0
}

within_percent() {  # within_percent PERCENT A B: |A - B| <= PERCENT % of B
    awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}

log_has() {  # log_has DIR EXTENDED-REGEX
    grep -Eq "$2" "$1/log"
}

# Lines, pipe and state file all show STATE (with the fault line at FAULT, default 0).
daemon_shows() {  # daemon_shows DIR STATE [FAULT]
    lines_show "$2" "${3:-0}" || return 1
    read_pipe "$1"
    [ "$PIPE_STATE" = "$2" ] || return 1
    read_state_file "$1"
    [ "$FILE_STATE" = "$2" ]
}

# Everything a user looks at, for a failing check's output.
daemon_describe() {  # daemon_describe DIR
    echo "lines (invert regular contrast fault): $(indicator_levels)"
    echo "pipe (the reader's lines):"
    sed 's/^/  /' "$1/pipe.out"
    echo "state file: $(cat "$1/state.json" 2>/dev/null)"
    echo "log:"
    sed 's/^/  /' "$1/log"
}

# Changes the light with SET_LIGHT... and waits until the daemon shows STATE everywhere.
# How long it took is printed beside the bound it is meant to meet, the latency bound L plus
# SENSOR_DELAY (the time the chip itself needs before its data show the new light, which L,
# counted from the first sample in the new zone, does not include): the time of the pipe line
# announcing STATE against the wall clock when the light changed. It is a measurement, not a
# check: on two shared cores an emulated guest is descheduled for seconds at a time, and the
# bound itself is checked in simulated time (EngineGuaranteeTests.latencyBoundIsMetInTheWorstCase).
# What fails here is a state that never comes: not within STATE_TIMEOUT seconds.
STATE_TIMEOUT=60
light_step() {  # light_step DIR STATE SENSOR_DELAY SET_LIGHT...
    local dir=$1 state=$2 delay=$3 changed bound took
    shift 3
    changed=$(date +%s.%N)
    "$@"
    if ! wait_for "$STATE_TIMEOUT" daemon_shows "$dir" "$state"; then
        echo "not $state everywhere within ${STATE_TIMEOUT}s of the light's change"
        daemon_describe "$dir"
        return 1
    fi
    read_pipe "$dir"
    bound=$(awk -v l="$DAEMON_LATENCY" -v d="$delay" 'BEGIN { print l + d }')
    took=$(awk -v changed="$changed" -v announced="$(date -d "$PIPE_TIME" +%s.%N)" \
        'BEGIN { printf "%.2f", announced - changed }')
    echo "# $state announced ${took}s after the light changed (bound ${bound}s)"
}

# A whole dark → indoor → sunlight → dark run of `ambience run` on one sensor: SETTER (one of
# the light setters above) sets each light, DELAY is the chip's own (see light_step). The state
# follows on lines, pipe and state file; the exit sets every line off.
light_sequence() {  # light_sequence NAME KIND BUS ADDRESS SENSOR_TABLE DELAY SETTER DARK INDOOR SUNLIGHT
    local dir=$RIG_WORK/$1 kind=$2 bus=$3 address=$4 table=$5 delay=$6 light=$7
    local dark=$8 indoor=$9 sunlight=${10}
    ambience_is_built
    "$light" "$dark" # the first sample sets the state at once, unanimated
    daemon_config "$dir" "$kind" "$bus" "$address" "$table"
    daemon_start "$dir"
    wait_for 5 daemon_shows "$dir" invert || { daemon_describe "$dir"; return 1; }
    log_has "$dir" '^<5>state none → invert \(startup, lux [0-9.]+'
    head -1 "$dir/pipe.out" | grep -q '"state":"invert",.*"animated":false' ||
        { echo "first line to the reader: $(head -1 "$dir/pipe.out")"; return 1; }
    light_step "$dir" regular "$delay" "$light" "$indoor"
    light_step "$dir" contrast "$delay" "$light" "$sunlight"
    light_step "$dir" invert "$delay" "$light" "$dark" # a jump over the regular band
    expect_equal "invert regular contrast invert" "$(pipe_states "$dir")" "states the reader was told"
    # Light changing is no fault: every sample in between was valid within fault_after.
    if pipe_has_event "$dir" fault; then echo "a fault on the way:"; daemon_describe "$dir"; return 1; fi
    grep -q '"event":"change","state":"contrast","previous":"regular","animated":true,"reason":"light"' \
        "$dir/pipe.out"
    log_has "$dir" '^<5>state contrast → invert \(light, lux [0-9.]+, filtered [0-9.]+\)'
    daemon_stop "$dir"
    expect_equal "$(levels_for none)" "$(indicator_levels)" "lines after the exit"
}

# The held state with the fault line lit, everywhere; the pipe and log say why.
shows_a_held_fault() {  # shows_a_held_fault DIR STATE
    daemon_shows "$1" "$2" 1 && pipe_has_event "$1" fault &&
        log_has "$1" "^<4>sensor fault: no valid sample for $DAEMON_FAULT_AFTER s; holding $2"
}

shows_recovered() {  # shows_recovered DIR STATE
    daemon_shows "$1" "$2" 0 && pipe_has_event "$1" recovered &&
        log_has "$1" "^<5>sensor recovered \\(lux [0-9.]+\\); state $2"
}

# The retry cooldown doubles while the chip stays away (0.25 s up to 8 s): the unplugged time
# here is short, so the next attempt comes within a few seconds.
RECOVERY_BOUND=8

# The sensor unplugged from a running daemon (DIR) that shows STATE, then plugged back in:
# a held fault, then recovered, and the reader told no other state. UNPLUG and REPLUG switch
# the chip; CLEAR_LOG clears its write log, so the log then shows what the daemon sent since.
unplug_and_replug() {  # unplug_and_replug DIR STATE UNPLUG REPLUG CLEAR_LOG
    local dir=$1 state=$2 start
    start=$(uptime_now)
    "$3"
    "$5" # while unplugged nothing reaches the chip, so the log shows only what follows the replug
    wait_for "$(fault_bound)" shows_a_held_fault "$dir" "$state" ||
        { echo "no held fault within $(fault_bound)s"; daemon_describe "$dir"; return 1; }
    echo "# fault shown after $(seconds_since "$start")s (fault_after $DAEMON_FAULT_AFTER s)"
    start=$(uptime_now)
    "$4"
    wait_for "$RECOVERY_BOUND" shows_recovered "$dir" "$state" ||
        { echo "not recovered within ${RECOVERY_BOUND}s"; daemon_describe "$dir"; return 1; }
    echo "# recovered after $(seconds_since "$start")s"
    # Held, never guessed: the reader was told no other state.
    expect_equal "$state" "$(pipe_states "$dir")" "states the reader was told"
}

# ---- [display]: the display's power (scenarios 47 and 48, docs/display-sleep.md) ----

# Each wait for the device and the lines: wake_after, the BH1750's own delay, the read-back (at
# once for bl_power, a second after the Set for a monitor) or the check every 5 s that sees a
# display turned on by someone else, and the emulated guest's slowness.
DISPLAY_WAIT=15
# How long a display must stay as it is to count as left alone: more than two of the daemon's
# checks every 5 s.
DISPLAY_STAYS=12
# The room: lit well above wake_above, dark well below sleep_below.
# shellcheck disable=SC2034 # these are for the scenarios
DISPLAY_LIT=300 DISPLAY_DARK=0

# Writes DIR/ambience.toml for the BH1750 on the test adapter with [display] device = DEVICE
# ([filter] tau is daemon_config's 0.1 s: the smoothed light falls below 3 lx within a second),
# and LINES, if given, at the end of [display] (e.g. "touch = false").
display_sleep_config() {  # display_sleep_config DIR DEVICE [LINES]
    daemon_config "$1" bh1750 "$BH1750_BUS" 0x23
    cat >>"$1/ambience.toml" <<EOF

[display]
device = "$2"
sleep_below = 3
wake_above = 10
sleep_after = 0.25
wake_after = 1
${3:-}
EOF
    "$AMBIENCE" check --config "$1/ambience.toml" >/dev/null ||
        { echo "ambience check rejects $1/ambience.toml"; "$AMBIENCE" check --config "$1/ambience.toml"; return 1; }
}

# What the device shows, from the module's knobs (polled: no process started).
backlight_power_is() {  # backlight_power_is VALUE: bl_power as the driver applied it (0 on, 4 off)
    local value
    read -r value <"$TEST_ADAPTER_PARAMETERS/backlight_power"
    [ "$value" = "$1" ]
}
ddc_power_is() {  # ddc_power_is MODE: the monitor's power mode (1 on, 2 standby, 4 off)
    local value
    read -r value <"$TEST_ADAPTER_PARAMETERS/ddc_power"
    [ "$value" = "$1" ]
}

# The reader's last line carrying the display, and the state file, both end with
# "display":"on|off".
display_lines_say() {  # display_lines_say DIR on|off
    local line last=
    while IFS= read -r line; do
        [[ $line == *'"display":"'* ]] && last=$line
    done <"$1/pipe.out"
    [[ $last == *"\"display\":\"$2\"}" ]] || return 1
    line=
    [ -e "$1/state.json" ] && { read -r line <"$1/state.json" || true; }
    [[ $line == *"\"display\":\"$2\"}" ]]
}

display_is() {  # display_is DIR SHOWS VALUE on|off: the device (SHOWS VALUE) and the lines agree
    "$2" "$3" && display_lines_say "$1" "$4"
}

# Everything a user looks at, and the displays' knobs.
display_describe() {  # display_describe DIR
    daemon_describe "$1"
    echo "backlight_power $(test_backlight_power), bl_power $(cat "$TEST_BACKLIGHT/bl_power")," \
        "ddc_power $(ddc_power), ddc_power_sets $(ddc_power_sets), ddc_power_quirk $(ddc_power_quirk)"
}

# Waits until the device shows VALUE and the lines say WORD, for at most SECONDS.
display_becomes() {  # display_becomes DIR SHOWS VALUE on|off WHAT [SECONDS]
    local start
    start=$(uptime_now)
    wait_for "${6:-$DISPLAY_WAIT}" display_is "$1" "$2" "$3" "$4" ||
        { echo "the display is not $4 ($2 $3): $5"; display_describe "$1"; return 1; }
    echo "# $4 ($2 $3), $5, after $(seconds_since "$start")s"
}

# The device shows VALUE at every look for DISPLAY_STAYS seconds.
display_stays() {  # display_stays DIR SHOWS VALUE WHAT
    local deadline
    read_uptime
    deadline=$((UPTIME_CS + DISPLAY_STAYS * 100))
    while [ "$UPTIME_CS" -le "$deadline" ]; do
        "$2" "$3" || { echo "the display left $3 ($2): $4"; display_describe "$1"; return 1; }
        pause 0.5
        read_uptime
    done
}

log_count() {  # log_count DIR TEXT: the log's lines holding TEXT
    grep -cF -- "$2" "$1/log" || true
}

log_holds() {  # log_holds DIR TEXT: a line of the log holds TEXT (not a pattern: names hold parentheses)
    grep -qF -- "$2" "$1/log"
}

# The line is in the log exactly COUNT times.
log_says() {  # log_says DIR COUNT TEXT
    local count
    count=$(log_count "$1" "$3")
    [ "$count" = "$2" ] || { echo "'$3' logged $count times, wanted $2"; display_describe "$1"; return 1; }
}

display_command() {  # display_command DIR WORDS...
    local dir=$1
    shift
    expect_exit 0 "$AMBIENCE" display "$@" --control "$dir/control"
}
