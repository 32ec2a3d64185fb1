# shellcheck shell=sh
# Runs inside the raspi guest (rig/raspi/run.sh), as /guest.sh under busybox sh: the board profile
# against what the kernel and the upstream device tree name, the daemon's indicator lines through
# the real pin controller, read back with the kernel's own GPIO debug view, and `ambience probe`
# on the real BSC controller's driver. Prints "ok NAME" or "FAIL NAME: why" per check.
failed=0
# What the host's run.sh says of the board, on the kernel's command line.
setting() { sed -n "s/.*ambience\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
board=$(setting board) controller=$(setting i2c) line_count=$(setting lines) program=$(setting program)
profile=/usr/share/ambience/boards/$board.toml
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; failed=1; }
skip() { echo "skip $1"; }

for module in /modules/*.ko; do insmod "$module" || bad "$module loads"; done
sleep 1

# The profile's chip: the label gpiodetect shows, and its size.
chip=$(sed -n 's/^chip = "\(.*\)".*/\1/p' "$profile")
if gpiodetect | tee /tmp/chips | grep -q "\[$chip\] ($line_count lines)"; then
    ok "gpiodetect shows the profile's chip, [$chip], $line_count lines"
else
    cat /tmp/chips; bad "no [$chip] of $line_count lines"
fi

# The profile's lines, by offset: the device tree names each GPIO<offset> on the header.
lines=$(sed -n 's/^lines = { invert = \([0-9]*\), regular = \([0-9]*\), contrast = \([0-9]*\) }.*/\1 \2 \3/p' "$profile")
fault=$(sed -n 's/^fault = \([0-9]*\).*/\1/p' "$profile")
# gpioinfo takes the chip by its name, not its label: libgpiod 2's after -c, 1.6's (raspi0) alone.
name=$(sed -n "s/^\(gpiochip[0-9]*\) \[$chip\].*/\1/p" /tmp/chips)
gpioinfo -c "$name" >/tmp/lines 2>&1 || gpioinfo "$name" >/tmp/lines 2>&1
for offset in $lines $fault; do
    if grep -Eq "line +$offset:[[:space:]]+\"GPIO$offset\"" /tmp/lines; then
        ok "line $offset of $chip is named GPIO$offset"
    else
        head -n 30 /tmp/lines; bad "line $offset is not GPIO$offset"
    fi
done

# The header's I2C (GPIO2/GPIO3, i2c1 in the device tree at 0x7e804000) is the profile's bus.
bus=$(sed -n 's/^bus = \([0-9]*\).*/\1/p' "$profile")
adapter=$(cat "/sys/bus/i2c/devices/i2c-$bus/name" 2>/dev/null)
if [ -e "/dev/i2c-$bus" ] && readlink "/sys/bus/i2c/devices/i2c-$bus" | grep -q "$controller"; then
    ok "/dev/i2c-$bus is the header's BSC controller ($controller: '$adapter')"
else
    ls -l /sys/bus/i2c/devices/; bad "/dev/i2c-$bus is not the header's controller"
fi

# QEMU's BCM2838 (raspi4b) wires no interrupt of its BSC controllers to the GIC, and the driver
# waits for one on every transfer: after one read, the controller's count in /proc/interrupts
# says whether transfers can complete on this machine at all.
i2cget -y "$bus" 0x49 0 >/dev/null 2>&1
interrupts=$(grep "$controller" /proc/interrupts | awk '{ n = 0; for (i = 2; $i ~ /^[0-9]+$/; i++) n += $i; print n }')
no_program="the package's programs need Debian's armhf libc, ARMv7 code this core cannot run"
if [ "${interrupts:-0}" = 0 ]; then
    reason="no interrupt from $controller: this machine wires no BSC interrupt to the CPU"
    skip "i2cdetect finds QEMU's TMP105 at 0x49 ($reason)"
else
    if i2cdetect -y "$bus" | grep -q ' 49 '; then ok "i2cdetect finds QEMU's TMP105 at 0x49"; else i2cdetect -y "$bus"; bad "no 0x49"; fi
fi
if [ "$program" = no ]; then
    skip "ambience probe tells 0x49 apart ($no_program)"
elif [ "${interrupts:-0}" = 0 ]; then
    skip "ambience probe tells 0x49 apart ($reason)"
else
    # ambience probe on the real controller: 0x49 is one of the TSL2561's addresses; what answers
    # there is QEMU's TMP105, which probe must not take for one.
    if ambience probe --bus "$bus" >/tmp/probe 2>&1; then :; fi
    cat /tmp/probe
    if grep -q '0x49: answers.*not a TSL2560/TSL2561$' /tmp/probe; then
        ok "ambience probe sees what answers at 0x49 and takes it for no TSL2560/TSL2561"
    else
        bad "probe did not tell 0x49 apart"
    fi
fi

if [ "$program" = no ]; then
    # The Pi Zero's core: the pure core's replay, static, on its kernel; run.sh compares the sum.
    if [ "$(uname -m)" = armv6l ]; then ok "the kernel runs on an ARMv6 core (uname -m: armv6l)"; else bad "uname -m is $(uname -m)"; fi
    if /replay-armv6 </day.csv >/tmp/replay; then
        ok "the static replay ran the day: $(wc -l </tmp/replay) lines"
        echo "replay-sha256 $(sha256sum </tmp/replay | cut -d' ' -f1)"
    else
        bad "the static replay failed"
    fi
    skip "the daemon drives the profile's lines ($no_program)"
    exit $failed
fi

# The daemon on the profile: no sensor answers at 0x23, so the fault line lights; the pin
# controller holds it high, as the kernel's debug view of requested lines shows.
cat >/tmp/ambience.toml <<TOML
board = "$board"
[sensor]
kind = "bh1750"
TOML
ambience run --config /tmp/ambience.toml >/tmp/run.log 2>&1 &
daemon=$!
tries=0
held() { grep -Eq "\(GPIO$1 +\|ambience +\) out $2" /sys/kernel/debug/gpio; }  # held OFFSET hi|lo
until held "$fault" hi || [ $tries -ge 120 ]; do
    sleep 1; tries=$((tries + 1))
done
grep ambience /sys/kernel/debug/gpio
if held "$fault" hi; then
    ok "the daemon holds the fault line GPIO$fault high through $chip"
else
    cat /tmp/run.log; cat /sys/kernel/debug/gpio; bad "the fault line is not high"
fi
for offset in $lines; do
    if held "$offset" lo; then ok "the daemon holds GPIO$offset low (no reading, no state)"; else bad "GPIO$offset is not held low"; fi
done
kill "$daemon"; wait "$daemon"
if grep -q '|ambience' /sys/kernel/debug/gpio; then bad "the daemon kept its lines after SIGTERM"; else ok "SIGTERM released the lines"; fi
exit $failed
