#!/usr/bin/env python3
"""The time from the daemon's event to the page's media query changing, through `ambience kiosk`
and headless Chromium: for each switch (an override), the event's own `time` (the daemon's wall
clock when it made the line) to the moment the page's matchMedia listener ran
(performance.timeOrigin + performance.now(), the same wall clock). Then the kiosk alone, to a
stand-in browser; then `ambience serve` to page 2's ambiencechange listener in a headless
Chromium without the kiosk (when ambience-serve is beside ambience-kiosk). Figures only.

Usage: Tests/browser/bench.py AMBIENCE AMBIENCE-KIOSK [SWITCHES]"""

import datetime
import json
import os
import statistics
import sys
import time

from rig import Rig, state_of, wait_for

STATES = ["invert", "regular", "contrast"]
WARMUP = 5


def event_time(line):
    """Milliseconds since the epoch of an event line's `time` (UTC, millisecond resolution)."""
    moment = datetime.datetime.strptime(line["time"], "%Y-%m-%dT%H:%M:%S.%fZ")
    return moment.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000


def measure(rig, switches):
    """Overrides in turn, after WARMUP unmeasured ones; each one's event time to page 1's or 2's report."""
    rig.observer.wait(lambda reports: state_of(reports, "main"), 60, "the page")
    state_file = os.path.join(rig.runtime, "state.json")
    latencies = []
    current = state_of(rig.observer.reports, "main")["state"]
    # The first switches after the page loaded meet a browser still settling (up to 150 ms
    # on a busy machine): WARMUP of them go unmeasured.
    for index in range(-WARMUP, switches):
        state = STATES[(STATES.index(current) + 1 + index % 2) % 3]
        since = rig.observer.count()
        rig.override(state)
        report = rig.observer.wait(
            lambda reports: (lambda r: r if r and r["state"] == state else None)(
                state_of(reports, "main", since)),
            30, "the page to see " + state)

        def change_line():
            with open(state_file) as file:
                line = json.loads(file.read())
            return line if line["event"] == "change" and line["state"] == state else None
        line = wait_for(change_line, 10, "the state file's change to " + state, interval=0.01)
        if index >= 0:
            latencies.append(report["at"] - event_time(line))
        current = state
        time.sleep(0.05)
    if os.environ.get("BENCH_VERBOSE"):
        print(" ".join("%.1f" % value for value in latencies), file=sys.stderr)
    return latencies


def summary(name, latencies):
    print("%s %.1f %.1f %.1f ms %d" % (
        name, statistics.median(latencies), min(latencies), max(latencies), len(latencies)))


def main(arguments):
    ambience, kiosk = os.path.abspath(arguments[0]), os.path.abspath(arguments[1])
    switches = int(arguments[2]) if len(arguments) > 2 else 60
    rig = Rig(ambience, kiosk)
    try:
        rig.start_daemon()
        rig.start_kiosk()
        summary("kiosk event-to-page", measure(rig, switches))
        with open("/proc/%d/status" % rig.kiosk.pid) as file:
            peak = next(line.split()[1] for line in file if line.startswith("VmHWM:"))
        print("kiosk peak RSS %.1f MB (the kiosk's own process, not the browser)" % (int(peak) / 1024))
    finally:
        rig.close()
    kiosk_alone(ambience, kiosk, switches)
    serve = os.path.join(os.path.dirname(kiosk), "ambience-serve")
    if os.path.exists(serve):
        rig = Rig(ambience, kiosk)
        try:
            rig.start_daemon()
            rig.start_serve(serve)
            rig.start_browser("/page2.html?serve=%d" % rig.serve_port)
            summary("serve event-to-page", measure(rig, switches))
        finally:
            rig.close()


def kiosk_alone(ambience, kiosk, switches):
    """The kiosk's own share: the event to the setEmulatedMedia command read by a stand-in browser."""
    rig = Rig(ambience, kiosk)
    log = os.path.join(rig.directory, "fake-browser.log")
    os.environ["AMBIENCE_FAKE_BROWSER_LOG"] = log
    try:
        rig.start_daemon()
        rig.start_kiosk(browser=[os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake-browser.py")])
        state_file = os.path.join(rig.runtime, "state.json")

        def received():
            try:
                with open(log) as file:
                    return [json.loads(line) for line in file]
            except FileNotFoundError:
                return []
        wait_for(lambda: received() or None, 30, "the first state at the stand-in browser")
        latencies = []
        current = "regular"
        for index in range(-WARMUP, switches):
            state = STATES[(STATES.index(current) + 1 + index % 2) % 3]
            count = len(received())
            rig.override(state)
            dark = "dark" if state == "invert" else "light"
            sent = wait_for(lambda: next((entry for entry in received()[count:]
                                          if entry["features"].get("prefers-color-scheme") == dark
                                          and ("prefers-contrast" in entry["features"]) == (state == "contrast")),
                                         None), 30, "the stand-in browser to get " + state)

            def change_line():
                with open(state_file) as file:
                    line = json.loads(file.read())
                return line if line["event"] == "change" and line["state"] == state else None
            line = wait_for(change_line, 10, "the state file's change to " + state, interval=0.01)
            if index >= 0:
                latencies.append(sent["at"] - event_time(line))
            current = state
            time.sleep(0.05)
        print("kiosk event-to-command %.1f %.1f %.1f ms %d" % (
            statistics.median(latencies), min(latencies), max(latencies), len(latencies)))
    finally:
        rig.close()


if __name__ == "__main__":
    main(sys.argv[1:])
