"""Seeded random light traces for replay, the same files on every run of every machine:
uneven spacing around 10 Hz, gaps, steps, ramps, lingering near the thresholds, noise from none
to heavy, darkness at 0 lux, sunlight, and runs of failed reads (nan or an empty field).
They are replayed on every architecture we ship, which must write the same bytes.

    python3 Tests/lib/random_traces.py DIR [COUNT [ROWS]]   writes DIR/random-01.csv ... (20, 30000)
"""

import random
import sys

THRESHOLDS = (20, 50, 2500, 5000)  # the defaults' bands, where a last bit could flip a decision


def trace(seed, rows):
    rng = random.Random(seed)
    lines = ["seconds,lux"]
    time = rng.uniform(0, 100000)
    jitter = rng.choice((0.0, 0.05, 0.3))
    style = rng.choice(("{:.6g}", "{:.2f}", "{!r}"))
    clock = rng.choice(("{:.3f}", "{:.6f}", "{!r}"))
    level = 10 ** rng.uniform(-2, 5)
    row = 0
    while row < rows:
        length = rng.randint(20, 600)
        kind = rng.choice(("hold", "step", "ramp", "near", "dark"))
        start, noise = level, rng.choice((0.0, 0.01, 0.05, 0.2))
        if kind in ("step", "ramp"):
            level = 10 ** rng.uniform(-2, 5)
        elif kind == "near":
            level = rng.choice(THRESHOLDS) * rng.uniform(0.9, 1.1)
        outage = 0
        for index in range(min(length, rows - row)):
            if kind == "ramp":
                value = start * (level / start) ** ((index + 1) / length)
            elif kind == "dark":
                value = 0.0 if rng.random() < 0.5 else rng.uniform(0, 0.5)
            else:
                value = level
            value *= 10 ** rng.gauss(0, noise)
            if outage == 0 and rng.random() < 0.002:
                outage = rng.randint(1, 120)  # up to 12 s of failed reads: faults and recoveries
            if outage > 0:
                outage -= 1
                lux = rng.choice(("nan", ""))
            else:
                lux = style.format(value)
            lines.append(clock.format(time) + "," + lux)
            time += 0.1 * (1 + rng.uniform(-jitter, jitter))
            if rng.random() < 0.002:
                time += rng.uniform(1, 20)  # a gap: past 5 tau the filter starts again
            row += 1
        if kind == "dark":
            level = 0.3
    return "\n".join(lines) + "\n"


def main():
    directory = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 30000
    for seed in range(1, count + 1):
        with open(f"{directory}/random-{seed:02d}.csv", "w") as file:
            file.write(trace(seed, rows))


main()
