#!/usr/bin/env python3
"""Runs a daemon for a while and prints its resource figures as one JSON line, for
scripts/bench.sh (on the host and in the rig's guest alike).

    measure_daemon.py --seconds 60 --pipe DIR/state --conversion 0.181 \
        [--at 30:FILE:VALUE] -- COMMAND...

- first_event_ms: from just before the exec to the first state line on the command's stderr
  (a line with "→"), less --conversion (the sensor's first measurement, which the daemon must
  wait out whatever it is written in).
- cpu_percent and vcs_per_s: the steady state, between 5 s after the start and the end, from
  /proc/PID/task/*/schedstat (nanoseconds on a CPU) and voluntary_ctxt_switches.
- rss_mb: VmHWM (peak resident set) at the end.
- pss_mb and anon_mb: the peak, over the whole run, of the proportional set size (Pss: each
  resident page divided by the number of processes mapping it, so the binary's and the shared
  libraries' pages count in part) and of the anonymous memory (Anonymous: the private pages no
  file backs: heap, stacks, written data; what the process alone costs the machine). Sampled
  about once a second from /proc/PID/smaps_rollup (Linux 4.14 on); without it, summed from
  /proc/PID/smaps; without that, anon_mb is RssAnon from /proc/PID/status and pss_mb is null.
A reader keeps the named pipe drained throughout, as a kiosk would. --at writes VALUE to FILE
at that second (the rig's light knob).
"""
import argparse
import glob
import json
import os
import select
import signal
import subprocess
import sys
import time

WARM_UP = 5.0


def task_figures(pid):
    cpu_ns, switches = 0, 0
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            with open(task + "/schedstat") as file:
                cpu_ns += int(file.read().split()[0])
            with open(task + "/status") as file:
                for line in file:
                    if line.startswith("voluntary_ctxt_switches:"):
                        switches += int(line.split()[1])
        except FileNotFoundError:
            pass
    return cpu_ns, switches


def peak_rss_kb(pid):
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def memory_kb(pid):
    """(Pss, Anonymous) in kB now; Pss is None when the kernel cannot tell."""
    for name in ("smaps_rollup", "smaps"):
        try:
            pss, anon, seen = 0, 0, False
            with open(f"/proc/{pid}/{name}") as file:
                for line in file:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
                        seen = True
                    elif line.startswith("Anonymous:"):
                        anon += int(line.split()[1])
            if seen:
                return pss, anon
        except (FileNotFoundError, PermissionError):
            pass
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            if line.startswith("RssAnon:"):
                return None, int(line.split()[1])
    return None, 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pipe")
    parser.add_argument("--conversion", type=float, default=0)
    parser.add_argument("--at", action="append", default=[])
    parser.add_argument("command", nargs="+")
    options = parser.parse_args()
    actions = []
    for spec in options.at:
        second, path, value = spec.split(":", 2)
        actions.append((float(second), path, value))

    start = time.monotonic()
    process = subprocess.Popen(options.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    first_event = None
    reader = None
    pending = b""
    warm = None
    log = []
    peak_pss, peak_anon, sampled = None, 0, None
    while True:
        now = time.monotonic()
        elapsed = now - start
        if elapsed >= options.seconds or process.poll() is not None:
            break
        if sampled is None or now - sampled >= 1:
            try:
                pss, anon = memory_kb(process.pid)
                peak_pss = pss if peak_pss is None or pss is None else max(peak_pss, pss)
                peak_anon, sampled = max(peak_anon, anon), now
            except FileNotFoundError:
                pass
        if warm is None and elapsed >= WARM_UP:
            warm = (now, *task_figures(process.pid))
        for action in [a for a in actions if a[0] <= elapsed]:
            with open(action[1], "w") as file:
                file.write(action[2])
            actions.remove(action)
        if reader is None and options.pipe and os.path.exists(options.pipe):
            reader = os.open(options.pipe, os.O_RDONLY | os.O_NONBLOCK)
        watched = [process.stderr] + ([reader] if reader is not None else [])
        timeout = min([0.5, options.seconds - elapsed] + [a[0] - elapsed for a in actions])
        if warm is None:
            timeout = min(timeout, WARM_UP - elapsed)
        ready, _, _ = select.select(watched, [], [], max(timeout, 0.001))
        if process.stderr in ready:
            chunk = os.read(process.stderr.fileno(), 4096)
            stamp = time.monotonic()
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                log.append(line.decode(errors="replace"))
                if first_event is None and "→" in log[-1]:
                    first_event = stamp
        if reader is not None and reader in ready:
            os.read(reader, 65536)
    if process.poll() is not None:
        sys.exit(f"the command ended early ({process.returncode}): " + " | ".join(log[-5:]))
    end = (time.monotonic(), *task_figures(process.pid))
    rss = peak_rss_kb(process.pid)
    pss, anon = memory_kb(process.pid)
    peak_pss = None if pss is None or peak_pss is None else max(peak_pss, pss)
    peak_anon = max(peak_anon, anon)
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=10)
    steady = warm is not None and end[0] - warm[0] > 1
    wall = end[0] - warm[0] if steady else 1
    print(json.dumps({
        "first_event_ms": None if first_event is None else (first_event - start - options.conversion) * 1e3,
        "cpu_percent": (end[1] - warm[1]) / 1e9 / wall * 100 if steady else None,
        "vcs_per_s": (end[2] - warm[2]) / wall if steady else None,
        "rss_mb": rss / 1024,
        "pss_mb": None if peak_pss is None else peak_pss / 1024,
        "anon_mb": peak_anon / 1024,
        "events": sum("→" in line for line in log),
    }))


if __name__ == "__main__":
    main()
