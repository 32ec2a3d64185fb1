# shellcheck shell=bash
# `ambience probe` against the real i2c-dev: the first scenarios of the binary itself.

# The binary must exist: a missing one fails the checks that need it, never skips them.
ambience_is_built() {
    [ -x "$AMBIENCE" ] || { echo "no binary at $AMBIENCE: build it first (make build)"; return 1; }
}

probe_names_the_bh1750() {
    ambience_is_built
    expect_exit 0 "$AMBIENCE" probe --bus "$BH1750_BUS"
    grep -q '0x23: BH1750' "$RIG_WORK/out"
}

# A bus where nothing answers: the test adapter with both its chips unplugged.
probe_on_an_empty_bus_exits_1() {
    ambience_is_built
    trap 'bh1750_replug; tsl2561_replug' EXIT
    bh1750_unplug
    tsl2561_unplug
    expect_exit 1 "$AMBIENCE" probe --bus "$BH1750_BUS"
    grep -q 'nothing answers' "$RIG_WORK/out"
}

check "ambience probe names the BH1750 on the test adapter" probe_names_the_bh1750
check "ambience probe on a bus with nothing exits 1" probe_on_an_empty_bus_exits_1
