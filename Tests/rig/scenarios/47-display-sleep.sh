# shellcheck shell=bash
# `ambience run` with [display] puts the test module's displays to sleep and wakes them through
# the real kernel (docs/display-sleep.md): its backlight class device by bl_power, its DDC/CI
# monitor by VCP 0xD6 (ddc:BUS) as each of the module's four monitors (ddc_power_quirk 0 to 3).
# The room sleeps the backlight after 15 s of darkness (sleep_after = 0.25, the least there is)
# and the light wakes it; `ambience display off|on|auto` override it; a backlight that turns
# itself back on is put back to sleep once, then left on and reported on; a daemon killed while
# the room is dark and started again leaves the sleeping backlight asleep; a stopping daemon
# leaves it awake. The monitor sleeps in standby (2) whichever kind it is, and one that a read
# wakes is put back to sleep and read no more while it sleeps. What is checked is what the
# device shows (the module's backlight_power and ddc_power knobs) and what the reader and the
# state file are told ("display":"on"|"off"). The daemon runs as nobody, in the groups the
# package gives its user (video for bl_power, given to video as udev/99-ambience.rules does).
# Every wait is bounded; none measures the wall clock.

# The display helpers (display_sleep_config, display_becomes, log_says, ...) are in
# Tests/rig/daemon.sh, shared with 48-touch.sh.

# The 15 s of darkness (sleep_after = 0.25) before the backlight sleeps, and the same margin.
DISPLAY_DARK_WAIT=$((15 + DISPLAY_WAIT))

the_room_and_the_overrides_sleep_and_wake_the_backlight() {
    local dir=$RIG_WORK/display-backlight name=ambience-test video_gid bl_power=$TEST_BACKLIGHT/bl_power start
    ambience_is_built
    video_gid=$(getent group video | cut -d: -f3)
    rig_grant_device_groups
    chgrp "$video_gid" "$bl_power"
    chmod g+w "$bl_power"
    echo 0 >"$bl_power"
    bh1750_light "$DISPLAY_LIT"
    display_sleep_config "$dir" "$name"
    daemon_start "$dir" as_user "$I2C_GID,$GPIO_GID,$video_gid" --
    # shellcheck disable=SC2064 # DIR is fixed now
    trap "daemon_kill '$dir'; echo 0 >'$bl_power'" EXIT
    expect_equal "$NOBODY_UID" "$(stat -c %u "/proc/$(daemon_pid "$dir")")" "the daemon's user"
    display_becomes "$dir" backlight_power_is 0 on "lit at start"
    # The room: 15 s of darkness sleeps it, the light wakes it.
    bh1750_light "$DISPLAY_DARK"
    display_becomes "$dir" backlight_power_is 4 off "the room dark (sleep_after 15 s)" "$DISPLAY_DARK_WAIT"
    log_says "$dir" 1 "display $name: asleep (the room stayed dark)"
    # Killed asleep in the dark (a crash, a power cut: no stop wakes it) and started again: the
    # start reads bl_power first and leaves the display asleep, never waking it.
    daemon_kill "$dir"
    daemon_start "$dir" as_user "$I2C_GID,$GPIO_GID,$video_gid" --
    # shellcheck disable=SC2064 # DIR is fixed now
    trap "daemon_kill '$dir'; echo 0 >'$bl_power'" EXIT
    display_becomes "$dir" backlight_power_is 4 off "found asleep by the restarted daemon"
    display_stays "$dir" backlight_power_is 4 "asleep after the restart, in the dark"
    log_says "$dir" 1 "display $name: asleep (at start)"
    log_says "$dir" 0 "awake"
    bh1750_light "$DISPLAY_LIT"
    display_becomes "$dir" backlight_power_is 0 on "the light on (wake_after 1 s)"
    log_says "$dir" 1 "display $name: awake (the light came on)"
    # The overrides, in the lit room.
    display_command "$dir" off
    display_becomes "$dir" backlight_power_is 4 off "display off"
    display_command "$dir" auto
    display_becomes "$dir" backlight_power_is 0 on "display auto, lit"
    log_says "$dir" 1 "display $name: asleep (an override)"
    log_says "$dir" 1 "display $name: awake (back to the room)"
    # Turned on by someone else while held off: put back once, then left on and reported on.
    display_command "$dir" off
    display_becomes "$dir" backlight_power_is 4 off "display off again"
    start=$(uptime_now)
    echo 0 >"$bl_power"
    wait_for "$DISPLAY_WAIT" log_holds "$dir" "display $name turned itself back on: put back to sleep once" ||
        { echo "no put-back logged"; display_describe "$dir"; return 1; }
    display_becomes "$dir" backlight_power_is 4 off "put back to sleep"
    echo "# put back $(seconds_since "$start")s after root wrote bl_power 0 (checked every 5 s)"
    start=$(uptime_now)
    echo 0 >"$bl_power"
    wait_for "$DISPLAY_WAIT" log_holds "$dir" "display $name turned itself on again: left on" ||
        { echo "no giving up logged"; display_describe "$dir"; return 1; }
    echo "# left on: logged $(seconds_since "$start")s after root wrote bl_power 0 again"
    display_becomes "$dir" backlight_power_is 0 on "turned on again, left on"
    display_stays "$dir" backlight_power_is 0 "left on"
    display_lines_say "$dir" on || { echo "the lines do not say on"; display_describe "$dir"; return 1; }
    log_says "$dir" 1 "display $name turned itself back on: put back to sleep once"
    log_says "$dir" 1 "display $name turned itself on again: left on until the room next wakes it"
    # A stopping daemon leaves the display awake.
    display_command "$dir" auto
    display_command "$dir" off
    display_becomes "$dir" backlight_power_is 4 off "display off before the stop"
    daemon_stop "$dir"
    expect_equal 0 "$(test_backlight_power)" "backlight_power after the daemon stopped"
}

# The end of each monitor check (its EXIT trap): the monitor honest again, and on (its button).
display_monitor_restore() {
    ddc_power_quirk 0
    ddc_power 1
}

# A daemon on the monitor as it acts under QUIRK, in a lit room: `display off` puts it in
# standby (2), `display on` wakes it (1), the lines saying so each time. Under quirk 3 the
# monitor woken by the read-back is put back to sleep once and left unread while it sleeps.
# Each quirk gets a daemon of its own: what it learns of a monitor lasts its run.
display_monitor_off_and_on() {  # display_monitor_off_and_on QUIRK
    local quirk=$1 dir=$RIG_WORK/display-ddc-$1 name="ddc:$BH1750_BUS (0x37)"
    local wakes="ddc:$BH1750_BUS (0x37): reading its power wakes this monitor" offs=1 sets
    ddc_power_quirk "$quirk"
    ddc_power 1
    sets=$(ddc_power_sets)
    display_sleep_config "$dir" "ddc:$BH1750_BUS"
    daemon_start "$dir" as_user "$I2C_GID,$GPIO_GID" --
    # shellcheck disable=SC2064 # DIR is fixed now
    trap "daemon_kill '$dir'; display_monitor_restore" EXIT
    echo "# quirk $quirk"
    display_becomes "$dir" ddc_power_is 1 on "lit at start"
    display_command "$dir" off
    display_becomes "$dir" ddc_power_is 2 off "display off"
    if [ "$quirk" = 3 ]; then
        wait_for "$DISPLAY_WAIT" log_holds "$dir" "$wakes" ||
            { echo "the monitor that a read wakes was not found out"; display_describe "$dir"; return 1; }
        display_becomes "$dir" ddc_power_is 2 off "put back to sleep after its read woke it"
        display_stays "$dir" ddc_power_is 2 "asleep, unread"
        display_lines_say "$dir" off || { echo "the lines do not say off"; display_describe "$dir"; return 1; }
    fi
    display_command "$dir" on
    display_becomes "$dir" ddc_power_is 1 on "display on"
    if [ "$quirk" = 3 ]; then
        log_says "$dir" 1 "$wakes"
        # Asleep again, then stopped: the monitor wakes on the way out.
        display_command "$dir" off
        display_becomes "$dir" ddc_power_is 2 off "display off before the stop"
        offs=2
    fi
    log_says "$dir" "$offs" "display $name: asleep (an override)"
    log_says "$dir" 0 "turned itself"
    log_says "$dir" 0 "retrying every second"
    daemon_stop "$dir"
    expect_equal 1 "$(ddc_power)" "ddc_power after the daemon stopped"
    echo "# $(($(ddc_power_sets) - sets)) Set VCP 0xD6 messages for the run"
    display_monitor_restore
}

the_monitor_sleeps_in_standby_whatever_its_kind() {
    local quirk
    ambience_is_built
    rig_grant_device_groups
    trap display_monitor_restore EXIT
    bh1750_light "$DISPLAY_LIT"
    for quirk in 0 1 2; do
        display_monitor_off_and_on "$quirk"
    done
}

a_monitor_woken_by_a_read_sleeps_unread() {
    ambience_is_built
    rig_grant_device_groups
    trap display_monitor_restore EXIT
    bh1750_light "$DISPLAY_LIT"
    display_monitor_off_and_on 3
}

# The backlight's check waits out 15 s of darkness and two 5 s reads under emulation.
display_saved_timeout=$CHECK_TIMEOUT
CHECK_TIMEOUT=300
check "the daemon sleeps the backlight (bl_power 4) after 15 s of dark, wakes it in light, display off/auto; put back once, then left on; awake after a stop" \
    the_room_and_the_overrides_sleep_and_wake_the_backlight
check "display off puts the DDC/CI monitor in standby and display on wakes it, honest, deaf when off, reading standby for off (quirks 0-2)" \
    the_monitor_sleeps_in_standby_whatever_its_kind
check "a DDC/CI monitor that a read wakes (quirk 3) is put back to sleep once and left unread; awake after a stop" \
    a_monitor_woken_by_a_read_sleeps_unread
CHECK_TIMEOUT=$display_saved_timeout
