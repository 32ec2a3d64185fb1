#!/usr/bin/env python3
"""Reads the raw results scripts/bench.sh collected (one file of lines) and prints the one table:
each figure as the median of its runs with the spread (min–max), the Python peer's figures next
to ours from the same rig boot, and the ratios.

Lines understood:
  NAME MEDIAN MIN MAX UNIT RUNS         (AmbienceBench and the replay timing)
  host {json}                           (measure_daemon.py on `ambience simulate`)
  first {json}                          (measure_daemon.py, short runs for the first event)
  rig-result ours|peer {json}           (measure_daemon.py in the rig)
  size BYTES
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
    scalars, runs = {}, {"host": [], "first": [], "ours": [], "peer": []}
    size = None
    for line in open(sys.argv[1]):
        words = line.split(maxsplit=2)
        if not words:
            continue
        if words[0] in ("host", "first"):
            runs[words[0]].append(json.loads(line.split(maxsplit=1)[1]))
        elif words[0] == "rig-result":
            runs[words[1]].append(json.loads(words[2]))
        elif words[0] == "size":
            size = int(words[1])
        elif len(line.split()) == 6:
            name, median, low, high, unit, count = line.split()
            scalars[name] = (float(median), float(low), float(high), unit, int(count))

    def scalar(name, scale=1.0, digits=1):
        if name not in scalars:
            return "n/a"
        median, low, high, _, count = scalars[name]
        return f"{median * scale:.{digits}f} ({low * scale:.{digits}f}–{high * scale:.{digits}f}, n={count})"

    rows = [
        ("(a) engine throughput, in process", scalar("engine", 1e-6, 1) + " M samples/s", "", "", ""),
        ("(b) `ambience replay`, 1 M-row CSV", scalar("replay", 1e-6, 2) + " M rows/s", "", "", ""),
        ("(c) per sample: sensor on mock bus, filter, engine (no event)", scalar("pipeline", 1, 2) + " µs",
         "", "", ""),
        ("(c) per sample with an event to pipe, state file, GPIO", scalar("pipeline-event", 1, 0) + " µs",
         "", "", ""),
    ]
    daemon = [
        ("(d) CPU, steady state", "cpu_percent", 3, "% of a core", "< 0.1 %"),
        ("(d) peak RSS (VmHWM)", "rss_mb", 1, "MB", "≤ 5 MB"),
        ("(d) peak PSS (shared pages divided among their processes)", "pss_mb", 1, "MB", ""),
        ("(d) peak anonymous memory (private: heap, stacks, written data)", "anon_mb", 2, "MB", "≤ 1 MB"),
        ("(d) voluntary context switches", "vcs_per_s", 1, "/s", "10 + 1 (samples + pipe check)"),
    ]
    for label, key, digits, unit, target in daemon:
        host, _ = spread([r.get(key) for r in runs["host"]], digits)
        ours, ours_median = spread([r.get(key) for r in runs["ours"]], digits)
        peer, peer_median = spread([r.get(key) for r in runs["peer"]], digits)
        ratio = f"{peer_median / ours_median:.1f}×" if ours_median and peer_median else "n/a"
        rows.append((f"{label}, {unit}", host, ours, peer + f" — peer/ours {ratio}", target))
    host, _ = spread([r["first_event_ms"] for r in runs["first"] + runs["host"]], 1)
    ours, ours_median = spread([r["first_event_ms"] for r in runs["ours"]], 1)
    peer, peer_median = spread([r["first_event_ms"] for r in runs["peer"]], 1)
    ratio = f"{peer_median / ours_median:.1f}×" if ours_median and peer_median else "n/a"
    rows.append(("(e) start to first event, ms (conversion excluded)", host, ours,
                 peer + f" — peer/ours {ratio}", "< 20 ms"))
    rows.append(("(f) static-stdlib binary, stripped",
                 f"{size / 1e6:.2f} MB" if size else "n/a", "", "", "< 8 MB"))
    rows.append(("(g) longest sample while the pipe's reader is stopped", scalar("stall", 1, 2) + " ms",
                 "", "", ""))

    print("| figure | ours: in process / host `simulate` | ours in the rig: `run` | Python peer in the rig"
          " | target |")
    print("|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
