#!/usr/bin/env python3
"""Reads the raw results scripts/bench.sh collected (one file of lines) and prints the one table:
each figure as the median of its runs with the spread (min–max), the Python peer's figures next
to ours from the same rig boot, and the ratios.

Lines understood:
  NAME MEDIAN MIN MAX UNIT RUNS         (AmbienceBench and the replay timing)
  host {json}                           (measure_daemon.py on `ambience simulate`)
  first {json}                          (measure_daemon.py, short runs for the first event)
  rig-result ours|embedded|c|peer {json}  (measure_daemon.py in the rig: the static release build's
                                        `ambience run`, the Embedded `ambience-run`, the C floor, the
                                        Python peer)
  size BYTES, size-embedded BYTES, size-c BYTES   (stripped: the static `ambience`, the Embedded
                                        `ambience-run`, the C floor)
"""
import json
import statistics
import sys


def spread(values, digits):
    values = [v for v in values if v is not None]
    if not values:
        return "n/a", None
    median = statistics.median(values)
    text = f"{median:.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f}, n={len(values)})"
    return text, median


def main():
    scalars, runs = {}, {"host": [], "first": [], "ours": [], "embedded": [], "c": [], "peer": []}
    sizes = {}
    for line in open(sys.argv[1]):
        words = line.split(maxsplit=2)
        if not words:
            continue
        if words[0] in ("host", "first"):
            runs[words[0]].append(json.loads(line.split(maxsplit=1)[1]))
        elif words[0] == "rig-result":
            runs[words[1]].append(json.loads(words[2]))
        elif words[0].startswith("size"):
            sizes[words[0]] = int(words[1])
        elif len(line.split()) == 6:
            name, median, low, high, unit, count = line.split()
            scalars[name] = (float(median), float(low), float(high), unit, int(count))

    def scalar(name, scale=1.0, digits=1):
        if name not in scalars:
            return "n/a"
        median, low, high, _, count = scalars[name]
        return f"{median * scale:.{digits}f} ({low * scale:.{digits}f}–{high * scale:.{digits}f}, n={count})"

    def size(name, target=""):
        return f"{sizes[name] / 1e6:.3f} MB" if name in sizes else "n/a"

    blank = ("", "", "", "", "")
    rows = [
        ("(a) engine throughput, in process", scalar("engine", 1e-6, 1) + " M samples/s", *blank),
        ("(b) `ambience replay`, 1 M-row CSV", scalar("replay", 1e-6, 2) + " M rows/s", *blank),
        ("(c) per sample: sensor on mock bus, filter, engine (no event)", scalar("pipeline", 1, 2) + " µs", *blank),
        ("(c) per sample with an event to pipe, state file, GPIO", scalar("pipeline-event", 1, 0) + " µs", *blank),
    ]
    daemon = [
        ("(d) CPU, steady state", "cpu_percent", 3, "% of a core", "≤ 0.1 %"),
        ("(d) peak RSS (VmHWM)", "rss_mb", 2, "MB", "≤ 2 MB (`ambience-run`)"),
        ("(d) peak PSS (shared pages divided among their processes)", "pss_mb", 2, "MB", ""),
        ("(d) peak anonymous memory (private: heap, stacks, written data)", "anon_mb", 2, "MB", "≤ 1 MB"),
        ("(d) voluntary context switches", "vcs_per_s", 1, "/s", "10 + 1 (samples + pipe check)"),
    ]

    def columns(key, digits):
        cells, medians = [], {}
        for name in ("ours", "embedded", "c", "peer"):
            text, medians[name] = spread([r.get(key) for r in runs[name]], digits)
            cells.append(text)
        floor = medians["c"]
        for index, name in enumerate(("ours", "embedded", "peer")):
            if floor and medians[name]:
                cells[(0, 1, 3)[index]] += f" — {medians[name] / floor:.1f}× C"
        return cells

    for label, key, digits, unit, target in daemon:
        host, _ = spread([r.get(key) for r in runs["host"]], digits)
        rows.append((f"{label}, {unit}", host, *columns(key, digits), target))
    host, _ = spread([r["first_event_ms"] for r in runs["first"] + runs["host"]], 1)
    rows.append(("(e) start to first event, ms (conversion excluded)", host, *columns("first_event_ms", 1), "< 20 ms"))
    rows.append(("(f) binary, stripped", "", size("size"), size("size-embedded"), size("size-c"), "",
                 "≤ 1 MB (`ambience-run`)"))
    rows.append(("(g) longest sample while the pipe's reader is stopped", scalar("stall", 1, 2) + " ms", *blank))

    print("| figure | in process / host `simulate` (static build) | rig: static `ambience run` | rig: Embedded"
          " `ambience-run` | rig: the C floor | rig: the Python peer | target |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
