# shellcheck shell=bash
# `ambience probe` against the real i2c-dev: it finds the sensors and tells them apart, and an
# address or a bus where nothing answers is reported as such, never as a missing bus.

# An address without a chip is not a missing bus (i2c-stub answers ENODEV there).
probe_blames_no_bus() {
    if grep -E 'no such I2C bus|is I2C enabled' "$RIG_WORK/out"; then fail "probe blamed the bus"; fi
}

# The test adapter has five: the BH1750 by behaviour, the others by their ID registers; the
# TSL2591 at 0x29, a TSL2561 address too, is told from a TSL2561. (35-new-chips checks the
# readings of the VEML7700, TSL2591 and OPT3001.)
probe_tells_the_chips_apart() {
    ambience_is_built
    bh1750_set_lux 300
    tsl2561_set_counts 1000 100
    veml7700_set_lux 300
    tsl2591_set_lux 300
    opt3001_set_lux 300
    expect_exit 0 "$AMBIENCE" probe --bus "$BH1750_BUS"
    {
        grep -q "^/dev/i2c-$BH1750_BUS 0x10: VEML7700 (by its ID register)" "$RIG_WORK/out" &&
            grep -q "^/dev/i2c-$BH1750_BUS 0x23: BH1750 (by behaviour" "$RIG_WORK/out" &&
            grep -q "^/dev/i2c-$BH1750_BUS 0x29: TSL2591 (by its ID register)" "$RIG_WORK/out" &&
            grep -q "^/dev/i2c-$BH1750_BUS 0x39: TSL2561.*by its ID register" "$RIG_WORK/out" &&
            grep -q "^/dev/i2c-$BH1750_BUS 0x44: OPT3001 (by its manufacturer and device ID registers)" "$RIG_WORK/out"
    } || { echo "probe printed:"; cat "$RIG_WORK/out"; return 1; }
    probe_blames_no_bus
    expect_equal 5 "$(grep -c "^/dev/i2c-$BH1750_BUS 0x" "$RIG_WORK/out")" "addresses reported" ||
        { cat "$RIG_WORK/out"; return 1; }
}

# i2c-stub (SMBus only): both TSL2561s, and the empty addresses left out quietly.
probe_finds_the_tsl2561s_on_i2c_stub() {
    ambience_is_built
    tsl2561_stub_reset 0x39
    tsl2561_stub_reset 0x49
    expect_exit 0 "$AMBIENCE" probe --bus "$TSL2561_BUS"
    grep -q "^/dev/i2c-$TSL2561_BUS 0x39: TSL2561" "$RIG_WORK/out"
    grep -q "^/dev/i2c-$TSL2561_BUS 0x49: TSL2561" "$RIG_WORK/out"
    probe_blames_no_bus || { cat "$RIG_WORK/out"; return 1; }
    expect_equal 2 "$(grep -c "^/dev/i2c-$TSL2561_BUS 0x" "$RIG_WORK/out")" "addresses reported" ||
        { cat "$RIG_WORK/out"; return 1; }
}

# A bus where nothing answers: the test adapter with all its chips unplugged.
probe_on_an_empty_bus_says_so_and_exits_1() {
    ambience_is_built
    trap 'bh1750_replug; tsl2561_replug; veml7700_replug; tsl2591_replug; opt3001_replug' EXIT
    bh1750_unplug
    tsl2561_unplug
    veml7700_unplug
    tsl2591_unplug
    opt3001_unplug
    expect_exit 1 "$AMBIENCE" probe --bus "$BH1750_BUS"
    grep -q "^/dev/i2c-$BH1750_BUS: nothing answers at 0x10, 0x23, 0x29, 0x39, 0x44, 0x45, 0x46, 0x47, 0x49, 0x5C" \
        "$RIG_WORK/out" ||
        { cat "$RIG_WORK/out"; return 1; }
    grep -q '^no sensor found' "$RIG_WORK/out"
    probe_blames_no_bus
}

# A bus that does not exist is the one case for the hint about enabling I2C.
probe_on_a_missing_bus_gives_the_hint() {
    ambience_is_built
    expect_exit 1 "$AMBIENCE" probe --bus 99
    grep -q '/dev/i2c-99: no such I2C bus.*is I2C enabled' "$RIG_WORK/out"
}

check "ambience probe tells the five chips on the test adapter apart" probe_tells_the_chips_apart
check "ambience probe finds both TSL2561s on i2c-stub, blames no bus" probe_finds_the_tsl2561s_on_i2c_stub
check "ambience probe on a bus with nothing says so and exits 1" probe_on_an_empty_bus_says_so_and_exits_1
check "ambience probe on a missing bus gives the I2C hint" probe_on_a_missing_bus_gives_the_hint
