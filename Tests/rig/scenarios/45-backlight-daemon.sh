# shellcheck shell=bash
# `ambience run` with [backlight] drives the test module's displays through the real kernel:
# its backlight class device (sysfs) in one run, its DDC/CI monitor (ddc:BUS, /dev/i2c-N) in
# another. The light moves the brightness to the curve's percent, `ambience brightness 40`
# holds 40 and `auto` gives it back; the monitor unplugged is one logged fault while the theme
# goes on, and replugged it is set again. The daemon runs as nobody, in the groups the package
# gives its user: i2c and gpio, and video for the backlight (whose attribute is given to video as
# udev/99-ambience.rules does; 40-displays checks the rule itself). Every wait is bounded; none
# measures the wall clock.

# A curve easy to read back: 20 % up to 10 lx, 80 % from 1000 lx; short smoothing and dwell,
# a fast ramp, so that a step takes about a second of the daemon's own time.
BACKLIGHT_DIM=20 BACKLIGHT_BRIGHT=80 BACKLIGHT_HELD=40
# Each wait: the dwell and ramp, the BH1750's own delay, the DDC/CI pace of one Set a second,
# and the emulated guest's slowness; a step that does not come within it fails the check.
BACKLIGHT_WAIT=15

# Writes DIR/ambience.toml for the BH1750 on the test adapter with [backlight] device = DEVICE.
backlight_config() {  # backlight_config DIR DEVICE
    daemon_config "$1" bh1750 "$BH1750_BUS" 0x23
    cat >>"$1/ambience.toml" <<EOF

[backlight]
device = "$2"
curve = [[10, $BACKLIGHT_DIM], [1000, $BACKLIGHT_BRIGHT]]
min = 5
max = 100
tau = 0.1
dwell = 0.5
deadband = 0.2
ramp = 100
EOF
    "$AMBIENCE" check --config "$1/ambience.toml" >/dev/null ||
        { echo "ambience check rejects $1/ambience.toml"; "$AMBIENCE" check --config "$1/ambience.toml"; return 1; }
}

# What each display shows, as a percent: the class device's raw value of 255, the monitor's of 100.
sysfs_percent_is() {  # sysfs_percent_is PERCENT
    local raw
    read -r raw <"$TEST_BACKLIGHT/brightness"
    [ "$raw" = $((($1 * 255 + 50) / 100)) ]
}
ddc_percent_is() {  # ddc_percent_is PERCENT
    local value
    read -r value <"$TEST_ADAPTER_PARAMETERS/ddc_brightness"
    [ "$value" = "$1" ]
}

# Waits until the display (through SHOWS, one of the two above) shows PERCENT.
display_reaches() {  # display_reaches DIR SHOWS PERCENT WHAT
    local start
    start=$(uptime_now)
    wait_for "$BACKLIGHT_WAIT" "$2" "$3" ||
        { echo "the display did not reach $3 % ($4)"; daemon_describe "$1"; return 1; }
    echo "# $3 % ($4) after $(seconds_since "$start")s"
}

# The light, the override and auto, on one display; the theme follows the light meanwhile.
follows_light_and_overrides() {  # follows_light_and_overrides DIR SHOWS
    local dir=$1 shows=$2
    display_reaches "$dir" "$shows" "$BACKLIGHT_DIM" "dark at start"
    wait_for 5 daemon_shows "$dir" invert || { daemon_describe "$dir"; return 1; }
    bh1750_light 20000
    display_reaches "$dir" "$shows" "$BACKLIGHT_BRIGHT" "sunlight"
    wait_for 10 daemon_shows "$dir" contrast || { daemon_describe "$dir"; return 1; }
    expect_exit 0 "$AMBIENCE" brightness "$BACKLIGHT_HELD" --control "$dir/control"
    display_reaches "$dir" "$shows" "$BACKLIGHT_HELD" "held"
    # The light changes the theme, not the held brightness.
    bh1750_light 5
    wait_for 10 daemon_shows "$dir" invert || { daemon_describe "$dir"; return 1; }
    "$shows" "$BACKLIGHT_HELD" || { echo "the override did not hold"; daemon_describe "$dir"; return 1; }
    expect_exit 0 "$AMBIENCE" brightness auto --control "$dir/control"
    display_reaches "$dir" "$shows" "$BACKLIGHT_DIM" "auto, dark"
    if ! log_has "$dir" '^<5>backlight: brightness held at 40 %' ||
        ! log_has "$dir" '^<5>backlight: brightness follows the light'; then
        daemon_describe "$dir"
        fail "the overrides are not in the log"
    fi
    # The pipe's lines carry the percent the display shows at the end of each fade.
    if ! grep -q "\"brightness\":$BACKLIGHT_BRIGHT" "$dir/pipe.out" ||
        ! grep -q "\"brightness\":$BACKLIGHT_HELD" "$dir/pipe.out"; then
        daemon_describe "$dir"
        fail "the pipe's lines lack the brightness"
    fi
}

daemon_drives_the_backlight_class_device() {
    local dir=$RIG_WORK/backlight-sysfs video_gid
    ambience_is_built
    video_gid=$(getent group video | cut -d: -f3)
    rig_grant_device_groups
    chgrp "$video_gid" "$TEST_BACKLIGHT/brightness"
    chmod g+w "$TEST_BACKLIGHT/brightness"
    bh1750_light 5
    echo 255 >"$TEST_BACKLIGHT/brightness"
    backlight_config "$dir" ambience-test
    daemon_start "$dir" as_user "$I2C_GID,$GPIO_GID,$video_gid" --
    expect_equal "$NOBODY_UID" "$(stat -c %u "/proc/$(daemon_pid "$dir")")" "the daemon's user"
    follows_light_and_overrides "$dir" sysfs_percent_is
    if log_has "$dir" 'backlight ambience-test: '; then daemon_describe "$dir"; fail "a backlight fault"; fi
    daemon_stop "$dir"
}

daemon_drives_the_ddc_monitor_through_unplug_and_replug() {
    local dir=$RIG_WORK/backlight-ddc sets faults
    ambience_is_built
    bh1750_light 5
    test_adapter_knob ddc_brightness 100
    backlight_config "$dir" "ddc:$BH1750_BUS"
    sets=$(ddc_sets)
    rig_grant_device_groups
    daemon_start "$dir" as_user "$I2C_GID,$GPIO_GID" --
    # shellcheck disable=SC2064 # DIR is fixed now
    trap "daemon_kill '$dir'; ddc_replug" EXIT
    follows_light_and_overrides "$dir" ddc_percent_is
    echo "# $(($(ddc_sets) - sets)) Set VCP messages for the whole run so far"
    # Off: the theme goes on, the fault is logged once.
    bh1750_light 20000
    wait_for 10 daemon_shows "$dir" contrast || { daemon_describe "$dir"; return 1; }
    ddc_unplug
    bh1750_light 5
    wait_for 10 daemon_shows "$dir" invert || { daemon_describe "$dir"; return 1; }
    wait_for 10 log_has "$dir" "^<4>ddc:$BH1750_BUS \(0x37\): no acknowledge at 0x37" ||
        { echo "no fault logged for the unplugged monitor"; daemon_describe "$dir"; return 1; }
    pause 3 # retries go on, once a second: none of them is logged again
    faults=$(grep -c "ddc:$BH1750_BUS (0x37): no acknowledge" "$dir/log")
    expect_equal 1 "$faults" "fault lines while unplugged" || { daemon_describe "$dir"; return 1; }
    bh1750_light 20000
    wait_for 10 daemon_shows "$dir" contrast || { daemon_describe "$dir"; return 1; }
    # Back: recovered once, and set to what the light now asks.
    ddc_replug
    display_reaches "$dir" ddc_percent_is "$BACKLIGHT_BRIGHT" "replugged, sunlight"
    expect_equal 1 "$(grep -c "ddc:$BH1750_BUS (0x37): recovered" "$dir/log")" "recovery lines" ||
        { daemon_describe "$dir"; return 1; }
    expect_equal 1 "$(grep -c "ddc:$BH1750_BUS (0x37): no acknowledge" "$dir/log")" "fault lines in all" || { daemon_describe "$dir"; return 1; }
    daemon_stop "$dir"
}

# Each check waits for several fades under emulation: more than the rig's default minute.
backlight_saved_timeout=$CHECK_TIMEOUT
CHECK_TIMEOUT=180
check "the daemon drives the backlight class device: light, override, auto" daemon_drives_the_backlight_class_device
check "the daemon drives the DDC/CI monitor: light, override, auto, unplug is one fault, replug recovers" \
    daemon_drives_the_ddc_monitor_through_unplug_and_replug
CHECK_TIMEOUT=$backlight_saved_timeout
