#!/bin/bash
# ambience serve's figures (docs/performance.md, "serve"): its RSS idle and with 64
# event streams open, and the time from an event line written to its pipe to the event read on
# a stream over loopback: median, 99th percentile and max over BENCH_SERVE_EVENTS events (default
# 500), for one stream and for the last of 64. The release build, as make release builds it.
# Figures only: nothing here fails on a slow machine. Not part of make bench (separate on
# purpose: it needs no rig); run it alone:  scripts/bench-serve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BENCH_BUILD:-.build/bench-serve}
EVENTS=${BENCH_SERVE_EVENTS:-500}
echo "bench-serve: release build of ambience-serve in $BUILD" >&2
scripts/release-build.sh --scratch-path "$BUILD" --product ambience-serve >/dev/null
bin=$(scripts/release-build.sh --scratch-path "$BUILD" --show-bin-path)
exec timeout 300 python3 - "$bin/ambience-serve" "$EVENTS" <<'PY'
import os, re, select, socket, statistics, subprocess, sys, tempfile, time

serve, events = sys.argv[1], int(sys.argv[2])
work = tempfile.mkdtemp(prefix="bench-serve.")
pipe = os.path.join(work, "serve")
os.mkfifo(pipe)
log = open(os.path.join(work, "serve.err"), "w+")
process = subprocess.Popen([serve, "--listen", "127.0.0.1:0", "--pipe", pipe, "--config", "/dev/null"],
                           stderr=log, stdout=subprocess.DEVNULL)
writer = os.open(pipe, os.O_WRONLY)  # waits until serve has opened the pipe
deadline = time.monotonic() + 10
while not (match := re.search(r"127\.0\.0\.1:(\d+)/", open(log.name).read())):
    assert time.monotonic() < deadline, "serve did not start"
    time.sleep(0.05)
port = int(match.group(1))

def rss_kib():
    with open(f"/proc/{process.pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))

def stream():
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    connection.setblocking(False)
    return connection

def read_until(connection, needle, buffers, timeout=10):
    deadline = time.monotonic() + timeout
    while needle not in buffers[connection]:
        select.select([connection], [], [], max(0, deadline - time.monotonic()))
        assert time.monotonic() < deadline, "no event"
        buffers[connection] += connection.recv(65536)

states = ["invert", "regular", "contrast"]
def line(number):
    return ('{"event":"change","state":"%s","previous":null,"animated":true,"reason":"light",'
            '"lux":%d,"filtered":1,"time":"2026-11-30T00:00:00.000Z"}\n' % (states[number % 3], number)).encode()

os.write(writer, line(0))
time.sleep(0.5)
idle = rss_kib()

def measure(count):
    connections = [stream() for _ in range(count)]
    buffers = {connection: b"" for connection in connections}
    for connection in connections:
        read_until(connection, b"event: current", buffers)
        buffers[connection] = b""
    delays = []
    for number in range(1, events + 1):
        start = time.perf_counter()
        os.write(writer, line(number))
        for connection in connections:
            read_until(connection, b'"lux":%d,' % number, buffers)
            buffers[connection] = b""
        delays.append((time.perf_counter() - start) * 1000)
    return connections, delays

def summary(delays):
    delays = sorted(delays)
    return "median %.3f ms, p99 %.3f ms, max %.3f ms" % (
        statistics.median(delays), delays[int(len(delays) * 0.99) - 1], delays[-1])

one, delays_one = measure(1)
print(f"serve RSS idle (one event seen): {idle / 1024:.1f} MiB")
print(f"event line written to the pipe -> event read on 1 stream ({events} events): {summary(delays_one)}")
for connection in one:
    connection.close()
many, delays_many = measure(64)
print(f"serve RSS with 64 streams open: {rss_kib() / 1024:.1f} MiB")
print(f"event line written to the pipe -> read on all of 64 streams ({events} events): {summary(delays_many)}")
process.terminate()
process.wait(10)
PY
