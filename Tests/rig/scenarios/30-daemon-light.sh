# shellcheck shell=bash
# `ambience run` on each sensor the rig has: a dark → indoor → sunlight → dark sequence of
# readings drives the state, which the indicator lines (gpio-sim), a `cat` reading the named
# pipe and the state file all show, each step within the latency bound (see light_step).

light_sequence() {  # light_sequence NAME KIND BUS ADDRESS SENSOR_TABLE DELAY SETTER DARK INDOOR SUNLIGHT
    local dir=$RIG_WORK/$1 kind=$2 bus=$3 address=$4 table=$5 delay=$6 light=$7
    local dark=$8 indoor=$9 sunlight=${10}
    ambience_is_built
    "$light" "$dark" # the first sample sets the state at once, unanimated
    daemon_config "$dir" "$kind" "$bus" "$address" "$table"
    daemon_start "$dir"
    eventually 5 daemon_shows "$dir" invert || { daemon_describe "$dir"; return 1; }
    log_has "$dir" '^<5>state none → invert \(startup, lux [0-9.]+'
    head -1 "$dir/pipe.out" | grep -q '"state":"invert",.*"animated":false' ||
        { echo "first line to the reader: $(head -1 "$dir/pipe.out")"; return 1; }
    light_step "$dir" regular "$delay" "$light" "$indoor"
    light_step "$dir" contrast "$delay" "$light" "$sunlight"
    light_step "$dir" invert "$delay" "$light" "$dark" # a jump over the regular band
    expect_equal "invert regular contrast invert" "$(pipe_states "$dir")" "states the reader was told"
    grep -q '"event":"change","state":"contrast","previous":"regular","animated":true,"reason":"light"' \
        "$dir/pipe.out"
    log_has "$dir" '^<5>state contrast → invert \(light, lux [0-9.]+, filtered [0-9.]+\)'
    daemon_stop "$dir"
    expect_equal "$(levels_for none)" "$(indicator_levels)" "lines after the exit"
}

bh1750_sequence() {
    light_sequence bh1750 bh1750 "$BH1750_BUS" 0x23 "" "$BH1750_DELAY" bh1750_light 5 300 20000
}

tsl2561_stub_sequence() {
    tsl2561_stub_reset 0x39
    light_sequence tsl2561-stub tsl2561 "$TSL2561_BUS" 0x39 "$TSL2561_SETTINGS" "$TSL2561_DELAY" \
        tsl2561_stub_light "$TSL2561_DARK" "$TSL2561_INDOOR" "$TSL2561_SUNLIGHT"
}

tsl2561_adapter_sequence() {
    light_sequence tsl2561-adapter tsl2561 "$BH1750_BUS" 0x39 "$TSL2561_SETTINGS" "$TSL2561_DELAY" \
        tsl2561_adapter_light "$TSL2561_DARK" "$TSL2561_INDOOR" "$TSL2561_SUNLIGHT"
}

check "BH1750 (test adapter): dark → indoor → sunlight → dark on lines, pipe and state file" bh1750_sequence
check "TSL2561 (i2c-stub, SMBus): dark → indoor → sunlight → dark" tsl2561_stub_sequence
check "TSL2561 (test adapter): dark → indoor → sunlight → dark" tsl2561_adapter_sequence
check "libgpiod 2.x build: BH1750 dark → indoor → sunlight → dark" with_gpiod2 bh1750_sequence
