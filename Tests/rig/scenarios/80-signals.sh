# shellcheck shell=bash
# Signals mid-run. SIGTERM: exit 0 with every indicator line set off, then released. SIGHUP: a
# new threshold changes behaviour without a restart; an invalid file is refused and the
# running configuration kept.

TRACING=/sys/kernel/tracing

# Records every GPIO value set from now on, with the process that set it (the kernel's
# gpio_value tracepoint: a value can only be set by the line's holder, while it holds it).
gpio_trace_start() {
    mountpoint -q "$TRACING" || mount -t tracefs nodev "$TRACING"
    echo 1 >"$TRACING/events/gpio/gpio_value/enable"
    : >"$TRACING/trace"
}

gpio_trace_stop() {
    echo 0 >"$TRACING/events/gpio/gpio_value/enable"
}

# The global GPIO number of gpio-sim's line 0.
gpio_sim_base() {
    local chip
    for chip in /sys/class/gpio/gpiochip*; do
        [ "$(cat "$chip/label")" = "$GPIO_SIM_LABEL" ] && { cat "$chip/base"; return 0; }
    done
    echo "no gpio-sim chip in /sys/class/gpio" >&2
    return 1
}

# What ambience set on gpio-sim's lines since gpio_trace_start, in order: "LINE=VALUE ...". The
# trace names the task by its command: `ambience run` is ambience-run once it has exec'd.
ambience_gpio_sets() {
    local base
    base=$(gpio_sim_base)
    sed -n 's/^ *ambience\(-run\)\{0,1\}-[0-9]* .* gpio_value: \([0-9]*\) set \([01]\)$/\2 \3/p' "$TRACING/trace" |
        awk -v base="$base" '$1 >= base && $1 < base + 8 { printf "%s%d=%d", sep, $1 - base, $2; sep = " " }'
    echo
}

line_unused() {  # line_unused LINE
    gpio_line_unused "$GPIO_CHIP" "$1"
}

sigterm_turns_every_line_off_then_releases_them() {
    local dir=$RIG_WORK/sigterm-$RANDOM line sets
    ambience_is_built
    bh1750_set_lux 20000
    daemon_config "$dir" bh1750 "$BH1750_BUS" 0x23
    daemon_start "$dir"
    wait_for 5 daemon_shows "$dir" contrast || { daemon_describe "$dir"; return 1; }
    # Two lines lit at the signal: the state's and, with the sensor gone, the fault line.
    # shellcheck disable=SC2064 # DIR is fixed now
    trap "bh1750_replug; gpio_trace_stop; daemon_kill '$dir'" EXIT
    bh1750_unplug
    wait_for "$(fault_bound)" daemon_shows "$dir" contrast 1 || { daemon_describe "$dir"; return 1; }
    expect_equal "ambience output" "$(gpio_line_info "$GPIO_CHIP" "$CONTRAST_LINE")" "the lit line (consumer, direction)"
    gpio_trace_start
    daemon_stop "$dir"
    gpio_trace_stop
    # Right after the exit: released lines fall back to their pull (down), so all read 0,
    # and none is held any more.
    expect_equal "$(levels_for none)" "$(indicator_levels)" "lines after the exit"
    for line in "$INVERT_LINE" "$REGULAR_LINE" "$CONTRAST_LINE" "$FAULT_LINE"; do
        line_unused "$line" || { gpio_line_info "$GPIO_CHIP" "$line"; return 1; }
    done
    # And before the release, the daemon itself set the lit line off: pull alone would not show it.
    sets=$(ambience_gpio_sets)
    [[ " $sets " == *" $CONTRAST_LINE=0 "* && " $sets " == *" $FAULT_LINE=0 "* ]] ||
        { echo "ambience's sets at shutdown: '$sets'"; return 1; }
    echo "# set by ambience at shutdown: $sets"
    [[ " $sets " != *"=1 "* ]] || { echo "a line set on at shutdown: '$sets'"; return 1; }
    log_has "$dir" '^<5>signal 15: shutting down'
    # The reader sees the end of the pipe.
    wait_for 5 reader_gone "$dir"
}

reader_gone() {  # reader_gone DIR
    ! kill -0 "$(cat "$1/reader")" 2>/dev/null
}

sighup_applies_a_new_threshold_without_a_restart() {
    local dir=$RIG_WORK/sighup-$RANDOM pid
    ambience_is_built
    bh1750_set_lux 300
    daemon_config "$dir" bh1750 "$BH1750_BUS" 0x23
    daemon_start "$dir"
    wait_for 5 daemon_shows "$dir" regular || { daemon_describe "$dir"; return 1; }
    pid=$(daemon_pid "$dir")
    # 300 lx is dark for the new invert|regular boundary.
    DAEMON_INVERT_REGULAR="{ fall = 400, rise = 600 }" daemon_config "$dir" bh1750 "$BH1750_BUS" 0x23
    light_step "$dir" invert "$BH1750_DELAY" daemon_signal "$dir" HUP
    log_has "$dir" '^<5>configuration reloaded'
    expect_equal "$pid" "$(daemon_pid "$dir")" "the daemon's pid after SIGHUP"
    expect_equal "regular invert" "$(pipe_states "$dir")" "states the (same) reader was told"

    # An invalid file (fall above rise) is refused, and the daemon goes on with the
    # configuration it runs: 1000 lx is above its rise of 600.
    sed -i 's/^invert_regular = .*/invert_regular = { fall = 700, rise = 600 }/' "$dir/ambience.toml"
    daemon_signal "$dir" HUP
    wait_for 5 log_has "$dir" '^<3>reload rejected, keeping the running configuration:$'
    # The same FILE:LINE: KEY: message line that `ambience check` prints.
    log_has "$dir" '^<3>.*ambience\.toml:[0-9]*: thresholds\.invert_regular: fall \(700(\.0)?\) must be below rise'
    light_step "$dir" regular "$BH1750_DELAY" bh1750_light 1000
    expect_equal "regular invert regular" "$(pipe_states "$dir")" "states the reader was told"
    daemon_stop "$dir"
}

check "SIGTERM (state and fault lit): exit 0, every line set off by the daemon, then released" sigterm_turns_every_line_off_then_releases_them
check "SIGHUP: a new threshold applies without a restart; an invalid file is refused" sighup_applies_a_new_threshold_without_a_restart
check_gpiod2 "libgpiod 2.x build: SIGTERM (state and fault lit) sets every line off, then releases them" sigterm_turns_every_line_off_then_releases_them
check_gpiod2 "libgpiod 2.x build: SIGHUP with a new threshold" sighup_applies_a_new_threshold_without_a_restart
