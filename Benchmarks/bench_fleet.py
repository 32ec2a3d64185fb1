#!/usr/bin/env python3
"""The fleet figure of `make bench`: N kiosks, each `ambience simulate` and its `ambience mqtt`
bridge, on one mosquitto on loopback. One override published on the group topic
(PREFIX/all/override/set); the time from that publish to the last kiosk's new state seen on
MQTT, over several rounds; and each bridge's CPU and memory.

    bench_fleet.py --ambience BIN --bridge BIN [--kiosks 20] [--rounds 10] [--idle 20] --work DIR

Prints one JSON line. Latencies come from mosquitto_sub's receive timestamps (%U) against the
wall clock just before the publish line is handed to a running mosquitto_pub -l (no process
start in the measured time). CPU: time on a CPU from /proc/PID/task/*/schedstat over an idle window (the
60 s republication and the keepalive only) and over the rounds; memory: VmHWM and RssAnon.
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    """Nanoseconds on a CPU of every thread, from schedstat (clock ticks are too coarse here)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        total += int(open(f"/proc/{pid}/task/{task}/schedstat").read().split()[0])
    return total / 1e9


def status_kb(pid, key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ambience", required=True)
    parser.add_argument("--bridge", required=True)
    parser.add_argument("--kiosks", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--idle", type=float, default=20)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    port = free_port()
    processes = []

    def start(command, **kwargs):
        process = subprocess.Popen(command, **kwargs)
        processes.append(process)
        return process

    try:
        with open(f"{work}/broker.conf", "w") as f:
            f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        start(["mosquitto", "-c", f"{work}/broker.conf"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit("bench_fleet: the broker did not start")
                time.sleep(0.05)

        states = f"{work}/states.txt"
        subscriber = start(
            ["mosquitto_sub", "-p", str(port), "-t", "ambience/+/state", "-F", "%U %t %p"],
            stdout=open(states, "w"), stderr=subprocess.DEVNULL)
        bridges = []
        for index in range(args.kiosks):
            kiosk = f"{work}/kiosk{index}"
            os.makedirs(f"{kiosk}/run", exist_ok=True)
            with open(f"{kiosk}/ambience.toml", "w") as f:
                f.write(
                    f'state_file = "{kiosk}/run/state.json"\ncontrol_pipe = "{kiosk}/run/control"\n'
                    f'state_directory = "{kiosk}/lib"\n[sensor]\nkind = "bh1750"\ninterval = 0.5\n'
                    f'[pipes]\npaths = ["{kiosk}/run/mqtt"]\n'
                    f'[mqtt]\nbroker = "mqtt://127.0.0.1:{port}"\ndevice_id = "kiosk{index}"\n'
                    f'pipe = "{kiosk}/run/mqtt"\n')
            start([args.ambience, "simulate", "--config", f"{kiosk}/ambience.toml", "--profile", "noise:300:0"],
                  stdout=subprocess.DEVNULL, stderr=open(f"{kiosk}/daemon.log", "w"))
            bridges.append(start([args.bridge, "--config", f"{kiosk}/ambience.toml"],
                                 stdout=subprocess.DEVNULL, stderr=open(f"{kiosk}/bridge.log", "w")))

        def newest(after):
            """Each kiosk's first state line after `after`: {kiosk: (time, payload)}."""
            seen = {}
            for line in open(states):
                parts = line.split(" ", 2)
                if len(parts) < 3:
                    continue
                try:
                    stamp = float(parts[0])
                except ValueError:
                    continue
                kiosk = parts[1].split("/")[1]
                if stamp >= after and kiosk not in seen:
                    seen[kiosk] = (stamp, parts[2])
            return seen

        # Everyone up: a regular state from every kiosk.
        deadline = time.monotonic() + 60
        while len(newest(0)) < args.kiosks:
            if time.monotonic() > deadline:
                sys.exit(f"bench_fleet: only {len(newest(0))} of {args.kiosks} kiosks published a state")
            time.sleep(0.2)

        idle_start = {b.pid: cpu_seconds(b.pid) for b in bridges}
        time.sleep(args.idle)
        idle_cpu = [(cpu_seconds(b.pid) - idle_start[b.pid]) / args.idle * 100 for b in bridges]

        publisher = start(["mosquitto_pub", "-p", str(port), "-t", "ambience/all/override/set", "-l"],
                          stdin=subprocess.PIPE, text=True)
        time.sleep(1)
        latencies, firsts = [], []
        busy_start = {b.pid: cpu_seconds(b.pid) for b in bridges}
        busy_clock = time.monotonic()
        for round_index in range(args.rounds):
            wanted = ["invert", "contrast"][round_index % 2]
            sent = time.time()
            publisher.stdin.write(wanted + "\n")
            publisher.stdin.flush()
            deadline = time.monotonic() + 10
            while True:
                arrived = {k: v for k, v in newest(sent).items() if f'"state":"{wanted}"' in v[1]}
                if len(arrived) == args.kiosks:
                    break
                if time.monotonic() > deadline:
                    sys.exit(f"bench_fleet: round {round_index}: {len(arrived)} of {args.kiosks} kiosks changed")
                time.sleep(0.05)
            times = sorted(stamp - sent for stamp, _ in arrived.values())
            latencies.append(times[-1] * 1000)
            firsts.append(times[0] * 1000)
            time.sleep(1)
        busy_seconds = time.monotonic() - busy_clock
        busy_cpu = [(cpu_seconds(b.pid) - busy_start[b.pid]) / busy_seconds * 100 for b in bridges]
        hwm = [status_kb(b.pid, "VmHWM") / 1024 for b in bridges]
        anon = [status_kb(b.pid, "RssAnon") / 1024 for b in bridges]
        print(json.dumps({
            "kiosks": args.kiosks, "rounds": args.rounds,
            "last_ms_median": statistics.median(latencies), "last_ms_max": max(latencies),
            "last_ms_min": min(latencies), "first_ms_median": statistics.median(firsts),
            "idle_cpu_percent_median": statistics.median(idle_cpu), "idle_cpu_percent_max": max(idle_cpu),
            "rounds_cpu_percent_median": statistics.median(busy_cpu),
            "rss_mb_median": statistics.median(hwm), "rss_mb_max": max(hwm),
            "anon_mb_median": statistics.median(anon), "cpus": os.cpu_count(),
            "loadavg": open("/proc/loadavg").read().split()[:3],
        }))
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()


main()
