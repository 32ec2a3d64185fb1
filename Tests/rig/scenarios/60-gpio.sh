# shellcheck shell=bash
# An indicator line already held by another process: `ambience run` refuses to start (exit 1)
# with an error naming the line and its consumer, and leaves every other line free.

a_busy_line_stops_the_start() {
    local dir=$RIG_WORK/busy holder line
    ambience_is_built
    bh1750_set_lux 300
    daemon_config "$dir" bh1750 "$BH1750_BUS" 0x23
    gpio_hold "$GPIO_CHIP" "$CONTRAST_LINE=1" &
    holder=$!
    # shellcheck disable=SC2064 # the holder's pid is fixed now
    trap "kill $holder 2>/dev/null" EXIT
    wait_for 5 gpio_sim_reads "$CONTRAST_LINE" 1
    # timeout: a daemon that starts anyway must fail this check, not hang it.
    expect_exit 1 timeout 20 "$AMBIENCE" run --config "$dir/ambience.toml"
    grep -q "gpio.lines.contrast: line $CONTRAST_LINE of $GPIO_CHIP ($GPIO_SIM_LABEL) is busy, held by 'gpioset'" \
        "$RIG_WORK/err" || { cat "$RIG_WORK/err"; return 1; }
    # The holder still has its line; the daemon took none of the others with it.
    expect_equal 1 "$(gpio_sim_value "$CONTRAST_LINE")" "the holder's line"
    for line in "$INVERT_LINE" "$REGULAR_LINE" "$FAULT_LINE"; do
        gpio_line_unused "$GPIO_CHIP" "$line" || { gpio_line_info "$GPIO_CHIP" "$line"; return 1; }
    done
}

check "a line held by gpioset: ambience run exits 1 naming the line and its consumer" a_busy_line_stops_the_start
check_gpiod2 "libgpiod 2.x build: a line held by gpioset" a_busy_line_stops_the_start
