# shellcheck shell=bash
# The fixtures themselves, through the kernel's real interfaces and the stock tools: if these
# fail, the daemon's scenarios would fail for reasons that are not the daemon's.

# -- I2C buses --

i2c_dev_shows_both_buses() {
    [ -c "/dev/i2c-$TSL2561_BUS" ] || fail "no /dev/i2c-$TSL2561_BUS"
    [ -c "/dev/i2c-$BH1750_BUS" ] || fail "no /dev/i2c-$BH1750_BUS"
    i2cdetect -l >"$RIG_WORK/buses"
    grep -q "^i2c-$TSL2561_BUS.*SMBus stub driver" "$RIG_WORK/buses"
    grep -q "^i2c-$BH1750_BUS.*ambience-test-i2c" "$RIG_WORK/buses"
}

# i2cdetect prints the address in the grid where a chip acknowledges, "--" elsewhere.
i2cdetect_sees_the_chips_on_the_test_adapter() {
    i2cdetect -F "$BH1750_BUS" | grep -q '^I2C  *yes'
    i2cdetect -y "$BH1750_BUS" >"$RIG_WORK/grid"
    # 37 and 50: the DDC/CI monitor and its EDID (40-displays).
    expect_equal "10 23 29 37 39 44 50" "$(acknowledged_addresses <"$RIG_WORK/grid")" "addresses found"
}

# The cells of an i2cdetect grid that are neither "--" nor blank, on one line.
acknowledged_addresses() {
    sed -n 's/^[0-7]0://p' | tr -s ' ' '\n' | grep -v -e '^--$' -e '^$' | paste -sd ' '
}

# Plain I2C transfers, as the BH1750 needs: one opcode written, two bytes read back.
bh1750_plain_read_gives_the_knob_counts() {
    bh1750_set_counts 0x1234
    i2ctransfer -y "$BH1750_BUS" w1@0x23 0x01
    i2ctransfer -y "$BH1750_BUS" w1@0x23 0x10
    sleep 0.2 # H-res measurement time: 120 ms typical, 180 ms at most
    expect_equal "0x12 0x34" "$(i2ctransfer -y "$BH1750_BUS" r2@0x23)" "counts read"
}

# counts = lux x 1.2 x MTreg/69: 100 lx gives 120 at MTreg 69, 240 at MTreg 138 (0x8a,
# written as 0x40|0x8a>>5 then 0x60|0x8a&0x1f).
bh1750_counts_follow_lux_and_mtreg() {
    bh1750_set_lux 100
    i2ctransfer -y "$BH1750_BUS" w1@0x23 0x11 # H-res2 doubles the counts
    sleep 0.2
    expect_equal "0x00 0xf0" "$(i2ctransfer -y "$BH1750_BUS" r2@0x23)" "H-res2 at MTreg 69"
    i2ctransfer -y "$BH1750_BUS" w1@0x23 0x44
    i2ctransfer -y "$BH1750_BUS" w1@0x23 0x6a
    expect_equal 138 "$(bh1750_mtreg)" "MTreg"
    i2ctransfer -y "$BH1750_BUS" w1@0x23 0x10
    sleep 0.3 # 120 ms x 138/69
    expect_equal "0x00 0xf0" "$(i2ctransfer -y "$BH1750_BUS" r2@0x23)" "H-res at MTreg 138"
}

# SMBus byte-data on i2c-stub, as a TSL2561 driver does it: command byte 0x80|register.
tsl2561_id_reads_back_on_i2c_stub() {
    expect_equal 0x50 "$(i2cget -y "$TSL2561_BUS" 0x39 0x8a b)" "ID at 0x39"
    expect_equal 0x50 "$(i2cget -y "$TSL2561_BUS" 0x49 0x8a b)" "ID at 0x49"
    tsl2561_stub_set_counts 0x1234 0x0567
    expect_equal 0x1234 "$(i2cget -y "$TSL2561_BUS" 0x39 0xac w)" "CH0 by word"
    expect_equal 0x05 "$(i2cget -y "$TSL2561_BUS" 0x39 0x8f b)" "CH1 high byte"
    i2cset -y "$TSL2561_BUS" 0x39 0x80 0x03 b
    expect_equal 0x03 "$(i2cget -y "$TSL2561_BUS" 0x39 0x80 b)" "CONTROL after power-up"
}

# The test adapter's TSL2561 through the i2c core's SMBus emulation: data only after an
# integration (402 ms by default) since power-up.
tsl2561_on_the_test_adapter_integrates() {
    tsl2561_set_counts 1000 300
    expect_equal 0x50 "$(i2cget -y "$BH1750_BUS" 0x39 0x8a b)" "ID"
    i2cset -y "$BH1750_BUS" 0x39 0x81 0x00 b # 13.7 ms: full scale 5047
    i2cset -y "$BH1750_BUS" 0x39 0x80 0x03 b
    sleep 0.1
    expect_equal 0x03e8 "$(i2cget -y "$BH1750_BUS" 0x39 0xac w)" "CH0"
    expect_equal 0x012c "$(i2cget -y "$BH1750_BUS" 0x39 0xae w)" "CH1"
    tsl2561_set_counts 60000 300
    sleep 0.1
    expect_equal 0x13b7 "$(i2cget -y "$BH1750_BUS" 0x39 0xac w)" "CH0 clamped to 5047"
    grep -q '80:03' <<<"$(tsl2561_log)"
}

# The VEML7700 through SMBus word data (low byte first): ID, then powered on at 1x and
# 100 ms (0.0672 lx a count), ALS after an integration; unplugged it NACKs, replugged it is
# shut down again with ALS 0.
veml7700_on_the_test_adapter_integrates() {
    veml7700_set_lux 100
    expect_equal 0xc481 "$(i2cget -y "$BH1750_BUS" 0x10 0x07 w)" "ID"
    expect_equal 0x0001 "$(i2cget -y "$BH1750_BUS" 0x10 0x00 w)" "ALS_CONF_0 at power-on"
    veml7700_clear_log
    i2cset -y "$BH1750_BUS" 0x10 0x00 0x0000 w
    expect_equal 00:00:00 "$(veml7700_log)" "writes logged"
    sleep 0.15
    expect_equal 0x05d0 "$(i2cget -y "$BH1750_BUS" 0x10 0x04 w)" "ALS: 100 lx / 0.0672"
    veml7700_unplug
    if i2cget -y "$BH1750_BUS" 0x10 0x04 w; then echo "an unplugged VEML7700 answered"; return 1; fi
    veml7700_replug
    expect_equal 0x0001 "$(i2cget -y "$BH1750_BUS" 0x10 0x00 w)" "ALS_CONF_0 after replug"
    expect_equal 0x0000 "$(i2cget -y "$BH1750_BUS" 0x10 0x04 w)" "ALS after replug"
}

# The TSL2591 through command bytes 0xA0|register: ID, then at 25x and 600 ms (36.8 counts a
# lux), 100 lx with C1 at 30 % of C0 gives C0 = 100 x 36.8 / 0.7^2 = 7503, C1 = 2250, and
# AVALID, after an integration. SRESET (CONTROL bit 7) is a power-on reset.
tsl2591_on_the_test_adapter_integrates() {
    tsl2591_set_lux 100 30
    expect_equal 0x50 "$(i2cget -y "$BH1750_BUS" 0x29 0xb2 b)" "ID"
    i2cset -y "$BH1750_BUS" 0x29 0xa1 0x15 b
    i2cset -y "$BH1750_BUS" 0x29 0xa0 0x03 b
    expect_equal 0x00 "$(i2cget -y "$BH1750_BUS" 0x29 0xb3 b)" "STATUS before an integration"
    sleep 0.7
    expect_equal 0x01 "$(i2cget -y "$BH1750_BUS" 0x29 0xb3 b)" "STATUS: AVALID"
    expect_equal 0x1d4f "$(i2cget -y "$BH1750_BUS" 0x29 0xb4 w)" "C0DATA"
    expect_equal 0x08ca "$(i2cget -y "$BH1750_BUS" 0x29 0xb6 w)" "C1DATA"
    i2cset -y "$BH1750_BUS" 0x29 0xa1 0x80 b
    expect_equal 0x00 "$(i2cget -y "$BH1750_BUS" 0x29 0xa0 b)" "ENABLE after SRESET"
}

# The OPT3001 through plain transfers (registers most significant byte first): IDs, then
# automatic range at 100 ms. 100 lx needs range 2 (163.8 lx): the first conversion, begun in
# range 0, is retaken there, so a result comes after two conversions: 2500 counts of 0.04 lx
# (at 100 ms no finer than 0.08 lx), with CRF, which the read clears.
opt3001_on_the_test_adapter_converts() {
    opt3001_set_lux 100
    # (i2ctransfer prints each read on a line of its own.)
    expect_equal "0x54 0x49 0x30 0x01" \
        "$(i2ctransfer -y "$BH1750_BUS" w1@0x44 0x7e r2 w1@0x44 0x7f r2 | paste -sd ' ')" "manufacturer and device IDs"
    expect_equal "0xc8 0x10" "$(i2ctransfer -y "$BH1750_BUS" w1@0x44 0x01 r2)" "CONFIGURATION at power-on"
    i2ctransfer -y "$BH1750_BUS" w3@0x44 0x01 0xc2 0x10 # automatic, 100 ms, single-shot
    sleep 0.3
    expect_equal "0xc0 0x90" "$(i2ctransfer -y "$BH1750_BUS" w1@0x44 0x01 r2)" "CONFIGURATION: CRF, back to shut-down"
    expect_equal "0xc0 0x10" "$(i2ctransfer -y "$BH1750_BUS" w1@0x44 0x01 r2)" "CRF cleared by the read"
    expect_equal "0x29 0xc4" "$(i2ctransfer -y "$BH1750_BUS" w1@0x44 0x00 r2)" "RESULT: E 2, 2500 counts"
    opt3001_unplug
    opt3001_replug
    expect_equal "0x00 0x00" "$(i2ctransfer -y "$BH1750_BUS" w1@0x44 0x00 r2)" "RESULT after replug"
}

# Unplugged: the address is not acknowledged (ENXIO). Plugged back in: a power-on reset, so
# reads give 0 until a driver powers it on and starts a measurement again.
bh1750_unplug_nacks_and_replug_resets() {
    bh1750_set_counts 0x0102
    i2ctransfer -y "$BH1750_BUS" w1@0x23 0x10
    bh1750_unplug
    expect_exit 1 i2ctransfer -y "$BH1750_BUS" r2@0x23
    grep -q 'No such device or address' "$RIG_WORK/err"
    if i2cget -y "$BH1750_BUS" 0x23; then fail "i2cget read an unplugged BH1750"; fi
    expect_equal "10 29 37 39 44 50" "$(i2cdetect -y "$BH1750_BUS" | acknowledged_addresses)" "addresses found"
    bh1750_replug
    bh1750_clear_log
    expect_equal "0x00 0x00" "$(i2ctransfer -y "$BH1750_BUS" r2@0x23)" "counts after replug"
    i2ctransfer -y "$BH1750_BUS" w1@0x23 0x01
    i2ctransfer -y "$BH1750_BUS" w1@0x23 0x10
    expect_equal "01 10" "$(bh1750_log)" "opcodes logged since replug"
    sleep 0.2
    expect_equal "0x01 0x02" "$(i2ctransfer -y "$BH1750_BUS" r2@0x23)" "counts after re-init"
}

# -- GPIO --

# A line held high by gpioset reads 1 in gpio-sim's sysfs; released, it falls back to its pull.
# (gpio_hold and gpio_get use the gpiod tools' 1.6 or 2.x syntax: see rig/guest/fixtures.sh.)
gpioset_drives_a_gpio_sim_line() {
    gpio_hold "$GPIO_CHIP" 3=1 &
    local holder=$!
    # shellcheck disable=SC2064 # the holder's pid is fixed now
    trap "kill $holder 2>/dev/null || true" EXIT # a failing check must not leave the line held
    wait_for 5 gpio_sim_reads 3 1
    expect_equal "gpioset output" "$(gpio_line_info "$GPIO_CHIP" 3)" "line 3 (consumer, direction)"
    expect_equal "unused input" "$(gpio_line_info "$GPIO_CHIP" 2)" "line 2 (consumer, direction)"
    expect_equal 0 "$(gpio_sim_value 2)" "a neighbouring line"
    kill "$holder"
    wait "$holder" || true
    wait_for 5 gpio_sim_reads 3 0
}

gpio_sim_pull_drives_an_input() {
    gpio_sim_pull 5 up
    expect_equal 1 "$(gpio_get "$GPIO_CHIP" 5)" "input pulled up"
    gpio_sim_pull 5 down
    expect_equal 0 "$(gpio_get "$GPIO_CHIP" 5)" "input pulled down"
}

# -- Permissions, as the udev rules will set them --

# nobody opens /dev/i2c-N and /dev/gpiochipN only when in the device's group.
devices_open_for_their_group_only() {
    local gpioinfo
    mapfile -t gpioinfo <<<"$(gpioinfo_chip "$GPIO_CHIP")"
    rig_grant_device_groups
    i2ctransfer -y "$BH1750_BUS" w1@0x23 0x10
    expect_exit 1 as_user -- i2ctransfer -y "$BH1750_BUS" r2@0x23
    grep -q 'Permission denied' "$RIG_WORK/err"
    expect_exit 1 as_user "$GPIO_GID" -- i2ctransfer -y "$BH1750_BUS" r2@0x23
    expect_exit 0 as_user "$I2C_GID" -- i2ctransfer -y "$BH1750_BUS" r2@0x23
    expect_exit 0 as_user "$I2C_GID" -- i2cget -y "$TSL2561_BUS" 0x39 0x8a b
    expect_exit 1 as_user "$I2C_GID" -- "${gpioinfo[@]}"
    expect_exit 0 as_user "$I2C_GID,$GPIO_GID" -- "${gpioinfo[@]}"
    expect_equal "$NOBODY_UID" "$(as_user -- id -u)" "user"
}

check "i2c-dev shows both buses" i2c_dev_shows_both_buses
check "i2cdetect sees the five chips and the monitor on the test adapter" i2cdetect_sees_the_chips_on_the_test_adapter
check "BH1750 plain read gives the knob's counts" bh1750_plain_read_gives_the_knob_counts
check "BH1750 counts follow lux and MTreg" bh1750_counts_follow_lux_and_mtreg
check "TSL2561 ID reads back on i2c-stub (SMBus byte-data)" tsl2561_id_reads_back_on_i2c_stub
check "TSL2561 on the test adapter integrates and saturates" tsl2561_on_the_test_adapter_integrates
check "BH1750 unplugged NACKs (ENXIO), replugged resets" bh1750_unplug_nacks_and_replug_resets
check "VEML7700 on the test adapter: ID, integrates, unplug NACKs, replug resets" veml7700_on_the_test_adapter_integrates
check "TSL2591 on the test adapter: ID, integrates with gain, AVALID, SRESET" tsl2591_on_the_test_adapter_integrates
check "OPT3001 on the test adapter: IDs, automatic range retaken, CRF, RESULT" opt3001_on_the_test_adapter_converts
check "gpioset drives a gpio-sim line while held" gpioset_drives_a_gpio_sim_line
check "gpio-sim pull drives an input" gpio_sim_pull_drives_an_input
check "an unprivileged user opens the devices only with their group" devices_open_for_their_group_only
