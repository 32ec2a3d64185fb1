# shellcheck shell=bash
# `ambience run` on each sensor the rig has: a dark → indoor → sunlight → dark sequence of
# readings drives the state, which the indicator lines (gpio-sim), a `cat` reading the named
# pipe and the state file all show, each step within the latency bound (see light_step).

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
check_gpiod2 "libgpiod 2.x build: BH1750 dark → indoor → sunlight → dark" bh1750_sequence
