# shellcheck shell=bash
# The displays the test module brings: its backlight class device takes writes through sysfs,
# and its DDC/CI monitor on the test adapter (0x37, EDID at 0x50) is one that Debian's ddcutil
# and `ambience probe` both find and agree about; unplugged it is gone for both, replugged back.
# Both sleep through their own interfaces: the backlight's bl_power reaches its driver, and
# the monitor's power mode (VCP 0xD6) is set and read by ddcutil, honestly and in the three
# ways real monitors get it wrong (the module's ddc_power_quirk); each check leaves the monitor
# honest and on.

the_backlight_class_device_takes_writes() {
    [ -d "$TEST_BACKLIGHT" ] || { echo "no $TEST_BACKLIGHT"; ls /sys/class/backlight; return 1; }
    expect_equal raw "$(cat "$TEST_BACKLIGHT/type")" "type"
    expect_equal 255 "$(cat "$TEST_BACKLIGHT/max_brightness")" "max_brightness"
    echo 200 >"$TEST_BACKLIGHT/brightness"
    expect_equal 200 "$(cat "$TEST_BACKLIGHT/actual_brightness")" "actual_brightness"
    expect_equal 200 "$(test_backlight_applied)" "what the driver applied"
    # Beyond the maximum the backlight class refuses the write.
    if echo 256 >"$TEST_BACKLIGHT/brightness" 2>/dev/null; then fail "the backlight took 256 of 255"; fi
    expect_equal 200 "$(test_backlight_applied)" "after a refused write"
}

# bl_power (0 on, 4 powered down) is handed to the driver, as the brightness is.
the_backlight_power_reaches_the_driver() {
    trap 'echo 0 >"$TEST_BACKLIGHT/bl_power"' EXIT
    expect_equal 0 "$(cat "$TEST_BACKLIGHT/bl_power")" "bl_power before"
    echo 4 >"$TEST_BACKLIGHT/bl_power"
    expect_equal 4 "$(test_backlight_power)" "the power the driver applied for bl_power 4"
    echo 0 >"$TEST_BACKLIGHT/bl_power"
    expect_equal 0 "$(test_backlight_power)" "the power the driver applied for bl_power 0"
}

# udev/99-ambience.rules gives the brightness attribute to `video` with g+w: `udevadm test`
# shows the commands it would run, which are run here as udev would; then a user in `video`
# may write the brightness, one outside it may not.
the_udev_rule_gives_video_the_brightness() {
    local video_gid
    video_gid=$(getent group video | cut -d: -f3)
    mkdir -p /run/udev/rules.d
    cp udev/99-ambience.rules /run/udev/rules.d/
    udevadm test --action=add "$TEST_BACKLIGHT" >"$RIG_WORK/udev.log" 2>&1 || { cat "$RIG_WORK/udev.log"; return 1; }
    # The commands udev would run: "run: 'CMD'" (systemd 252, Debian 12), "RUN{program} : CMD"
    # under "Queued commands:" (systemd 257, Debian 13's arm64 root).
    sed -n -e "s/^run: '\(.*\)'$/\1/p" -e 's/^ *RUN{program} : \(.*\)$/\1/p' "$RIG_WORK/udev.log" >"$RIG_WORK/udev.run"
    {
        grep -qx "/bin/chgrp video $TEST_BACKLIGHT/brightness" "$RIG_WORK/udev.run" &&
            grep -qx "/bin/chmod g+w $TEST_BACKLIGHT/brightness" "$RIG_WORK/udev.run"
    } || { echo "the rule's commands are not in udev's plan:"; cat "$RIG_WORK/udev.log"; return 1; }
    grep -F "$TEST_BACKLIGHT/brightness" "$RIG_WORK/udev.run" | sh -e
    expect_equal "$video_gid" "$(stat -Lc %g "$TEST_BACKLIGHT/brightness")" "the attribute's group"
    as_user "$video_gid" -- sh -c "echo 30 >$TEST_BACKLIGHT/brightness"
    expect_equal 30 "$(test_backlight_applied)" "written by a member of video"
    if as_user -- sh -c "echo 31 >$TEST_BACKLIGHT/brightness" 2>/dev/null; then
        fail "a user outside video wrote the brightness"
    fi
    expect_equal 30 "$(test_backlight_applied)" "after a write by a non-member"
}

ddcutil_detects_the_monitor_by_its_edid() {
    expect_exit 0 ddcutil detect
    if ! grep -q "/dev/i2c-$BH1750_BUS" "$RIG_WORK/out" || ! grep -q "Ambience DDC" "$RIG_WORK/out"; then
        cat "$RIG_WORK/out" "$RIG_WORK/err"
        fail "ddcutil detect did not find 'Ambience DDC' on /dev/i2c-$BH1750_BUS"
    fi
}

ddcutil_reads_what_it_wrote() {
    local sets
    sets=$(ddc_sets)
    expect_exit 0 ddcutil --bus "$BH1750_BUS" setvcp 10 73
    expect_equal 73 "$(ddc_brightness)" "the monitor's brightness"
    [ "$(ddc_sets)" -gt "$sets" ] || { echo "no Set VCP reached the monitor"; return 1; }
    expect_exit 0 ddcutil --bus "$BH1750_BUS" getvcp 10
    grep -Eq "current value = +73, max value = +100" "$RIG_WORK/out" || { cat "$RIG_WORK/out"; return 1; }
    # Set on the monitor's side (its buttons): ddcutil sees it.
    test_adapter_knob ddc_brightness 41
    expect_exit 0 ddcutil --bus "$BH1750_BUS" getvcp 10
    grep -Eq "current value = +41, max value = +100" "$RIG_WORK/out" || { cat "$RIG_WORK/out"; return 1; }
}

probe_lists_the_backlight_and_the_monitor() {
    ambience_is_built
    echo 100 >"$TEST_BACKLIGHT/brightness"
    test_adapter_knob ddc_brightness 64
    expect_exit 0 "$AMBIENCE" probe
    {
        grep -q "^backlight 'ambience-test' (/sys/class/backlight/ambience-test): brightness 100 of 255" \
            "$RIG_WORK/out" &&
            grep -q "^ddc:$BH1750_BUS (0x37): monitor 'Ambience DDC' (AMB 0x0037, by its EDID at 0x50): brightness 64 of 100 through DDC/CI" \
                "$RIG_WORK/out"
    } || { echo "probe printed:"; cat "$RIG_WORK/out"; return 1; }
    # ddcutil reads the same value probe did.
    expect_exit 0 ddcutil --bus "$BH1750_BUS" getvcp 10
    grep -Eq "current value = +64," "$RIG_WORK/out" || { cat "$RIG_WORK/out"; return 1; }
}

an_unplugged_monitor_is_gone_and_comes_back() {
    ambience_is_built
    trap ddc_replug EXIT
    test_adapter_knob ddc_brightness 55
    ddc_unplug
    expect_exit 0 "$AMBIENCE" probe --bus "$BH1750_BUS"
    if grep -q "^ddc:" "$RIG_WORK/out"; then cat "$RIG_WORK/out"; fail "probe lists the unplugged monitor"; fi
    if ddcutil --bus "$BH1750_BUS" getvcp 10 >"$RIG_WORK/out" 2>&1; then
        cat "$RIG_WORK/out"
        fail "ddcutil read the unplugged monitor"
    fi
    ddc_replug
    expect_exit 0 "$AMBIENCE" probe --bus "$BH1750_BUS"
    grep -q "^ddc:$BH1750_BUS (0x37): monitor 'Ambience DDC'.*brightness 55 of 100" "$RIG_WORK/out" ||
        { cat "$RIG_WORK/out"; return 1; }
    expect_exit 0 ddcutil --bus "$BH1750_BUS" getvcp 10
    grep -Eq "current value = +55," "$RIG_WORK/out" || { cat "$RIG_WORK/out"; return 1; }
}

# ---- The monitor's power mode, VCP 0xD6 (1 on, 2 standby, 3 suspend, 4 off, 5 off by button) ----

# The end of every power check (its EXIT trap): the monitor honest again, and on (its button).
ddc_power_restore() {
    ddc_power_quirk 0
    ddc_power 1
}

# ddcutil's getvcp d6 shows the mode SL as WORDS, e.g. 4 "DPM: Off, DPMS: Off" for
# "VCP code 0xd6 (Power mode                    ): DPM: Off, DPMS: Off (sl=0x04)".
ddcutil_shows_power_mode() {  # ddcutil_shows_power_mode SL WORDS
    expect_exit 0 ddcutil --bus "$BH1750_BUS" getvcp d6
    grep -Eq "^VCP code 0xd6 \(Power mode +\): $2 \(sl=0x0$1\)$" "$RIG_WORK/out" ||
        { echo "getvcp d6 does not show '$2 (sl=0x0$1)':"; cat "$RIG_WORK/out"; return 1; }
}

# An honest monitor: ddcutil's setvcp d6 (which reads the value back by default) puts it to
# sleep, getvcp d6 reads it so, setvcp d6 1 wakes it; its brightness is untouched meanwhile.
ddcutil_puts_the_monitor_to_sleep_and_wakes_it() {
    local sets brightness brightness_sets
    trap ddc_power_restore EXIT
    sets=$(ddc_power_sets) brightness=$(ddc_brightness) brightness_sets=$(ddc_sets)
    expect_exit 0 ddcutil --bus "$BH1750_BUS" setvcp d6 4
    expect_equal 4 "$(ddc_power)" "the power mode after setvcp d6 4"
    expect_equal $((sets + 1)) "$(ddc_power_sets)" "Set VCP 0xD6 messages taken"
    ddcutil_shows_power_mode 4 "DPM: Off, DPMS: Off"
    echo "# getvcp d6: $(grep "^VCP code 0xd6" "$RIG_WORK/out")"
    expect_exit 0 ddcutil --bus "$BH1750_BUS" setvcp d6 1
    expect_equal 1 "$(ddc_power)" "the power mode after setvcp d6 1"
    ddcutil_shows_power_mode 1 "DPM: On,  DPMS: Off"
    expect_equal "$brightness" "$(ddc_brightness)" "the brightness"
    expect_equal "$brightness_sets" "$(ddc_sets)" "Set VCP 0x10 messages taken"
}

# The sets below pass --noverify: ddcutil reads the value back after a set by default, which
# fails against a deaf monitor and one that reads standby, and is itself a read for quirk 3.

# Quirk 1, deaf when off: at 4 the monitor does not answer at 0x37 (its EDID at 0x50 still
# does), so ddcutil can neither read nor wake it; its button can. From standby, DDC/CI wakes it.
a_monitor_deaf_when_off_wakes_by_its_button_only() {
    local sets
    trap ddc_power_restore EXIT
    ddc_power_quirk 1
    sets=$(ddc_power_sets)
    expect_exit 0 ddcutil --bus "$BH1750_BUS" --noverify setvcp d6 4
    expect_equal 4 "$(ddc_power)" "the power mode after setvcp d6 4"
    expect_equal $((sets + 1)) "$(ddc_power_sets)" "Set VCP 0xD6 messages taken"
    if ddcutil --bus "$BH1750_BUS" getvcp d6 >"$RIG_WORK/out" 2>&1; then
        cat "$RIG_WORK/out"
        fail "ddcutil read a monitor that is off and deaf"
    fi
    if ddcutil --bus "$BH1750_BUS" --noverify setvcp d6 1 >"$RIG_WORK/out" 2>&1; then
        cat "$RIG_WORK/out"
        fail "ddcutil's setvcp d6 1 reached a monitor that is off and deaf"
    fi
    expect_equal 4 "$(ddc_power)" "the power mode after setvcp d6 1 to the deaf monitor"
    expect_exit 0 i2ctransfer -y "$BH1750_BUS" w1@0x50 0x00 r8
    expect_equal "0x00 0xff 0xff 0xff 0xff 0xff 0xff 0x00" "$(cat "$RIG_WORK/out")" "the EDID header, read while off"
    if i2ctransfer -y "$BH1750_BUS" r3@0x37 >"$RIG_WORK/out" 2>&1; then
        cat "$RIG_WORK/out"
        fail "0x37 answered while off"
    fi
    ddc_power 1
    ddcutil_shows_power_mode 1 "DPM: On,  DPMS: Off"
    expect_exit 0 ddcutil --bus "$BH1750_BUS" --noverify setvcp d6 2
    expect_equal 2 "$(ddc_power)" "the power mode after setvcp d6 2"
    expect_exit 0 ddcutil --bus "$BH1750_BUS" --noverify setvcp d6 1
    expect_equal 1 "$(ddc_power)" "the power mode after setvcp d6 1 from standby"
}

# Quirk 2: off (4) reads as standby (2).
a_monitor_reading_standby_for_off() {
    trap ddc_power_restore EXIT
    ddc_power_quirk 2
    expect_exit 0 ddcutil --bus "$BH1750_BUS" --noverify setvcp d6 4
    expect_equal 4 "$(ddc_power)" "the power mode after setvcp d6 4"
    ddcutil_shows_power_mode 2 "DPM: Off, DPMS: Standby"
    expect_equal 4 "$(ddc_power)" "the power mode after getvcp d6"
}

# Quirk 3: any Get VCP wakes a sleeping monitor, after replying with the mode it had. So a
# read-back after a set passes and leaves the monitor on (ddcutil 1.4's setvcp reads back by
# default; 2.2, in the Arm rigs' Debian 13 roots, does not, and reads other codes before any).
a_monitor_woken_by_a_read() {
    trap ddc_power_restore EXIT
    ddc_power_quirk 3
    expect_exit 0 ddcutil --bus "$BH1750_BUS" --noverify setvcp d6 2
    expect_equal 2 "$(ddc_power)" "the power mode after setvcp d6 2"
    expect_exit 0 ddcutil --bus "$BH1750_BUS" getvcp 10
    expect_equal 1 "$(ddc_power)" "the power mode after one getvcp 10"
}

check "the module's backlight class device exists and takes writes" the_backlight_class_device_takes_writes
check "the backlight's bl_power reaches its driver (4, then 0)" the_backlight_power_reaches_the_driver
check "the udev rule gives the brightness attribute to video, g+w" the_udev_rule_gives_video_the_brightness
check "ddcutil detect finds the test adapter's monitor by its EDID name" ddcutil_detects_the_monitor_by_its_edid
check "ddcutil getvcp 10 reads what setvcp 10 wrote" ddcutil_reads_what_it_wrote
check "ambience probe lists the backlight and the DDC/CI monitor, as ddcutil reads it" probe_lists_the_backlight_and_the_monitor
check "an unplugged monitor is gone for probe and ddcutil, and back when replugged" an_unplugged_monitor_is_gone_and_comes_back
check "an honest monitor: ddcutil's setvcp d6 4 puts it to sleep, getvcp d6 reads it, d6 1 wakes it" ddcutil_puts_the_monitor_to_sleep_and_wakes_it
check "a monitor deaf when off (quirk 1): no DDC/CI reaches it at 4, its button wakes it, from standby d6 1 does" a_monitor_deaf_when_off_wakes_by_its_button_only
check "a monitor reading standby for off (quirk 2): getvcp d6 shows standby after setvcp d6 4" a_monitor_reading_standby_for_off
check "a monitor woken by a read (quirk 3): one getvcp after setvcp d6 2 leaves it on" a_monitor_woken_by_a_read
