#!/usr/bin/env python3
"""Writes a compressed day of light (one minute of the day per second) as seconds,lux CSV:
night, dawn, a cloudy morning, sunlight on the screen at noon, a cloud passing, dusk, a lamp
in the evening, a sensor hiccup. Deterministic (seeded), so the demo's events never change."""
import math
import random

rng = random.Random(2026)
print("# A compressed day: second s is minute s of the day (s = 720 is noon).")
print("seconds,lux")
for minute in range(0, 1440):
    hour = minute / 60
    if hour < 6 or hour >= 22:
        lux = 2 + rng.uniform(-0.5, 0.5)  # night: a dark room
    elif hour < 7.5:
        lux = 2 + 400 * (hour - 6) / 1.5  # dawn
    elif hour < 11:
        lux = 400 + 150 * math.sin(hour * 3) + rng.uniform(-40, 40)  # cloudy morning
    elif hour < 15:
        lux = 30000 + rng.uniform(-3000, 3000)  # sunlight on the screen
        if 13 <= hour < 13.3:
            lux = 1500 + rng.uniform(-200, 200)  # a cloud passes
    elif hour < 19:
        lux = 600 + rng.uniform(-100, 100)  # afternoon indoors
    elif hour < 20:
        lux = 600 - 590 * (hour - 19)  # dusk
    else:
        lux = 150 + rng.uniform(-10, 10)  # a lamp in the evening
    if 1000 <= minute < 1012:
        print(f"{minute},nan")  # the sensor hiccups for twelve minutes
    else:
        print(f"{minute},{max(lux, 0):.2f}")
