#!/usr/bin/env python3
"""The program a Raspberry Pi user would write instead of ambience, for the benchmark's
comparison: a BH1750 read with smbus2 at 10 Hz, an exponential moving average, thresholds with
hysteresis and a minimum dwell, the state on GPIO lines (the gpiod 2.x Python bindings), as a
JSON line to a named pipe and atomically into a state file. Both libraries come from PyPI.

    ambience_peer.py --bus N --chip /dev/gpiochipN [--lines 0,1,2] [--dir /tmp/peer]

It is deliberately plain, as such scripts are: one loop, time.sleep to the next sample, the pipe
opened non-blocking (no reader: skipped; a full pipe: the line dropped).
"""
import argparse
import errno
import json
import math
import os
import signal
import stat
import sys
import time

import gpiod
from gpiod.line import Direction, Value
from smbus2 import SMBus, i2c_msg

ADDRESS = 0x23
POWER_ON, RESET, CONTINUOUS_H_RES = 0x01, 0x07, 0x10
MTREG = 69
# The BH1750's maximum H-res measurement time, as ambience waits it (180 ms + 1 ms).
CONVERSION_SECONDS = 0.181
INTERVAL, TAU, DWELL = 0.1, 2.0, 5.0
STATES = ["invert", "regular", "contrast"]
# (fall, rise) of the boundary above each state but the last: ambience's defaults.
BOUNDARIES = [(20.0, 50.0), (2500.0, 5000.0)]


def indicated(state, lux):
    index = STATES.index(state)
    while index < len(BOUNDARIES) and lux > BOUNDARIES[index][1]:
        index += 1
    while index > 0 and lux < BOUNDARIES[index - 1][0]:
        index -= 1
    return STATES[index]


class PipeWriter:
    def __init__(self, path):
        self.path = path
        self.fd = None
        if not os.path.exists(path):
            os.mkfifo(path, 0o660)
        elif not stat.S_ISFIFO(os.stat(path).st_mode):
            sys.exit(f"{path} exists and is not a FIFO")

    def write(self, line):
        if self.fd is None:
            try:
                self.fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as error:
                if error.errno == errno.ENXIO:  # no reader
                    return
                raise
        try:
            os.write(self.fd, line.encode())
        except BlockingIOError:
            pass  # pipe full: dropped
        except BrokenPipeError:
            os.close(self.fd)
            self.fd = None


def write_state_file(path, line):
    temporary = path + ".tmp"
    with open(temporary, "w") as file:
        file.write(line)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bus", type=int, required=True)
    parser.add_argument("--chip", required=True)
    parser.add_argument("--lines", default="0,1,2")
    parser.add_argument("--dir", default="/tmp/ambience-peer")
    options = parser.parse_args()
    os.makedirs(options.dir, exist_ok=True)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    running = [True]
    signal.signal(signal.SIGTERM, lambda *_: running.__setitem__(0, False))

    offsets = [int(offset) for offset in options.lines.split(",")]
    request = gpiod.request_lines(
        options.chip,
        consumer="ambience-peer",
        config={tuple(offsets): gpiod.LineSettings(direction=Direction.OUTPUT, output_value=Value.INACTIVE)},
    )
    pipe = PipeWriter(os.path.join(options.dir, "state"))
    state_file = os.path.join(options.dir, "state.json")

    bus = SMBus(options.bus)
    for command in (POWER_ON, RESET, 0x40 | MTREG >> 5, 0x60 | MTREG & 0x1F, CONTINUOUS_H_RES):
        bus.write_byte(ADDRESS, command)
    time.sleep(CONVERSION_SECONDS)

    state, filtered, last_time, last_switch = None, None, None, -math.inf
    next_sample = time.monotonic()
    while running[0]:
        now = time.monotonic()
        try:
            read = i2c_msg.read(ADDRESS, 2)
            bus.i2c_rdwr(read)
            high, low = list(read)
            lux = (high << 8 | low) / 1.2 * 69 / MTREG
        except OSError:
            lux = None
        if lux is not None:
            if filtered is None:
                filtered = lux
            else:
                filtered += (1 - math.exp(-(now - last_time) / TAU)) * (lux - filtered)
            last_time = now
            target = indicated(state or "regular", lux if state is None else filtered)
            if target != state and (state is None or now - last_switch >= DWELL):
                event = {
                    "event": "change", "state": target, "previous": state, "animated": state is not None,
                    "reason": "startup" if state is None else "light", "lux": round(lux, 2),
                    "filtered": round(filtered, 2),
                    "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + "Z",
                }
                print(f"state {state} → {target}", file=sys.stderr, flush=True)
                state, last_switch = target, now
                request.set_values(
                    {offset: Value.ACTIVE if STATES[i] == state else Value.INACTIVE for i, offset in enumerate(offsets)}
                )
                line = json.dumps(event) + "\n"
                pipe.write(line)
                write_state_file(state_file, line)
        next_sample += INTERVAL
        delay = next_sample - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        else:
            next_sample = time.monotonic()
    request.set_values({offset: Value.INACTIVE for offset in offsets})
    request.release()


if __name__ == "__main__":
    main()
