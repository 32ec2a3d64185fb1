#!/usr/bin/env python3
"""Process-level tests of `ambience serve` over real loopback sockets.

Usage: Tests/serve/run.py DIRECTORY-WITH-ambience-AND-ambience-serve

Each test starts what it needs: `ambience simulate` with a scratch configuration whose
`[pipes] paths` include serve's own pipe, and `ambience-serve` on a port the kernel picks. Every
wait has a deadline, and each test as a whole ends after SERVE_TEST_TIMEOUT seconds (default 60),
failing; what it started is killed either way.
"""
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks, wait_for  # noqa: E402 - found through the path set above

BIN = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug")
AMBIENCE = os.path.join(BIN, "ambience")
SERVE = os.path.join(BIN, "ambience-serve")
TEST_TIMEOUT = int(os.environ.get("SERVE_TEST_TIMEOUT", "60"))
WAIT = 15  # seconds any single expected thing may take


def eventually(condition, what, seconds=WAIT):
    return wait_for(condition, seconds, what)


class Setup:
    """A simulated daemon writing serve's pipe, and serve following it, in a scratch directory."""

    def __init__(self, serve_args=(), start_daemon=True):
        self.work = tempfile.mkdtemp(prefix="serve-test.")
        self.rt = os.path.join(self.work, "rt")
        self.config = os.path.join(self.work, "ambience.toml")
        with open(self.config, "w") as file:
            file.write(
                f'state_file = "{self.rt}/state.json"\n'
                f'control_pipe = "{self.rt}/control"\n'
                f'state_directory = "{self.work}/lib"\n'
                '[sensor]\nkind = "bh1750"\n'
                f'[pipes]\npaths = ["{self.rt}/state", "{self.rt}/serve"]\n'
                f'[serve]\npipe = "{self.rt}/serve"\nlisten = "127.0.0.1:0"\n'
            )
        self.daemon = None
        self.processes = []
        self.serve_log = os.path.join(self.work, "serve.err")
        try:
            if start_daemon:
                self.start_daemon()
            self.serve = self.spawn([SERVE, "--config", self.config, *serve_args], self.serve_log)
            self.port = int(
                eventually(
                    lambda: re.search(r"listening on http://127\.0\.0\.1:(\d+)/", self.log()), "serve to listen"
                ).group(1)
            )
        except BaseException:
            self.close()  # nothing started may outlive a setup that failed half-way
            raise

    def spawn(self, command, log):
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=open(log + ".out", "w"),
                                   stderr=open(log, "w"))
        self.processes.append(process)
        return process

    def start_daemon(self):
        # 5 lux for the whole test: invert, until overrides say otherwise.
        self.daemon = self.spawn(
            [AMBIENCE, "simulate", "--config", self.config, "--profile", "step:5:5:1000", "--end", "10m"],
            os.path.join(self.work, "daemon.err"))
        eventually(lambda: os.path.exists(os.path.join(self.rt, "control")), "the daemon's control pipe")

    def stop_daemon(self):
        self.daemon.send_signal(signal.SIGTERM)
        self.daemon.wait(WAIT)

    def log(self):
        try:
            with open(self.serve_log) as file:
                return file.read()
        except FileNotFoundError:
            return ""

    def override(self, state):
        """Writes the control line as `ambience override` does, without a process per line."""
        line = f"override {state}\n".encode()
        def sent():
            try:
                descriptor = os.open(os.path.join(self.rt, "control"), os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                return False
            try:
                return os.write(descriptor, line) == len(line)
            except BlockingIOError:
                return False
            finally:
                os.close(descriptor)
        eventually(sent, f"the daemon to take 'override {state}'")

    def close(self):
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait()
        shutil.rmtree(self.work, ignore_errors=True)

    # HTTP over raw sockets, so requests can be as broken as a test needs.
    def connect(self, receive_buffer=None):
        connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        connection.settimeout(WAIT)
        connection.connect(("127.0.0.1", self.port))
        return connection

    def request(self, raw):
        """Sends raw bytes, returns (status, headers, body) of the answer (closed after it)."""
        with self.connect() as connection:
            connection.sendall(raw)
            data = b""
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                data += chunk
                head, _, body = data.partition(b"\r\n\r\n")
                match = re.search(rb"\r\ncontent-length: *(\d+)", head, re.I)
                if match and len(body) >= int(match.group(1)):
                    break
        if not data:
            return None, {}, b""  # closed without an answer
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers, body

    def answer_or_close(self, raw, pause_after=None, end_output=False, seconds=5):
        """Sends raw bytes (with a pause after the first `pause_after` of them, when given; then
        shuts down this side's output when `end_output`); returns the statuses of the answers
        until the connection is closed ([] when closed without one). Fails when it is neither
        closed nor answered within `seconds`, far less than the 60 s idle timeout that holds a
        connection which sent nothing."""
        with self.connect() as connection:
            connection.settimeout(seconds)
            if pause_after is not None:
                connection.sendall(raw[:pause_after])
                time.sleep(0.3)
                raw = raw[pause_after:]
            data = b""
            try:
                connection.sendall(raw)
                if end_output:
                    connection.shutdown(socket.SHUT_WR)
                while chunk := connection.recv(65536):
                    data += chunk
            except ConnectionResetError:
                pass
            except socket.timeout:
                raise AssertionError(f"{raw!r}: neither answered nor closed in {seconds} s; got {data!r}")
        return [int(status) for status in re.findall(rb"HTTP/1\.1 (\d{3}) ", data)]

    def get(self, path, extra=""):
        return self.request(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n".encode())

    def state(self):
        status, _, body = self.get("/state")
        return json.loads(body)["state"] if status == 200 else None

    def stream(self, receive_buffer=None):
        return EventStream(self.connect(receive_buffer))


class EventStream:
    """An /events client: reads the chunked text/event-stream and splits it into events."""

    def __init__(self, connection):
        self.connection = connection
        connection.sendall(b"GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
        self.raw = b""
        self.text = ""
        self.headers = None

    def fileno(self):
        return self.connection.fileno()

    def pump(self):
        """Reads what is there; False at end of stream."""
        chunk = self.connection.recv(65536)
        if not chunk:
            return False
        self.raw += chunk
        if self.headers is None and b"\r\n\r\n" in self.raw:
            head, _, self.raw = self.raw.partition(b"\r\n\r\n")
            self.headers = head.decode("latin-1")
        while self.headers is not None:
            size_line, found, rest = self.raw.partition(b"\r\n")
            if not found:
                break
            size = int(size_line.split(b";")[0], 16)
            if len(rest) < size + 2:
                break
            self.text += rest[:size].decode()
            self.raw = rest[size + 2:]
        return True

    def events(self):
        """(name, data) of every whole event so far; comments and retry left out."""
        found = []
        for block in self.text.split("\n\n")[:-1]:
            fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
            if "event" in fields:
                found.append((fields["event"], json.loads(fields["data"])))
        return found

    def wait_for(self, condition, what, seconds=WAIT):
        deadline = time.monotonic() + seconds
        while not condition(self):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self], [], [], remaining)[0]:
                raise AssertionError(f"timed out waiting for {what}; got {self.text!r}")
            if not self.pump():
                raise AssertionError(f"the stream ended while waiting for {what}; got {self.text!r}")
        return self.events()

    def states(self):
        return [(name, data["state"]) for name, data in self.events() if name in ("current", "change")]

    def close(self):
        self.connection.close()


def wait_all(streams, condition, what, seconds=WAIT):
    deadline = time.monotonic() + seconds
    waiting = [stream for stream in streams if not condition(stream)]
    while waiting:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"timed out: {len(waiting)} of {len(streams)} streams still waiting for {what}")
        for stream in select.select(waiting, [], [], remaining)[0]:
            if not stream.pump():
                raise AssertionError(f"a stream ended while waiting for {what}")
        waiting = [stream for stream in waiting if not condition(stream)]


# The tests. Each takes a fresh Setup unless it makes its own.

def state_follows_the_states(setup):
    eventually(lambda: setup.state() == "invert", "/state to say invert")
    status, headers, body = setup.get("/state")
    event = json.loads(body)
    assert event["event"] == "current" and headers["content-type"] == "application/json", (headers, body)
    assert headers["access-control-allow-origin"] == "*", headers
    for state in ["contrast", "regular", "invert"]:
        setup.override(state)
        eventually(lambda: setup.state() == state, f"/state to say {state}")


def state_before_the_first_event_is_503():
    setup = Setup(start_daemon=False)
    try:
        status, _, body = setup.get("/state")
        assert status == 503 and json.loads(body) == {"state": None}, (status, body)
        assert "waiting for" in setup.log(), setup.log()
        setup.start_daemon()
        eventually(lambda: setup.state() == "invert", "/state once the daemon runs")
    finally:
        setup.close()


def events_give_current_then_every_change_in_order(setup):
    eventually(lambda: setup.state() == "invert", "the first state")
    stream = setup.stream()
    stream.wait_for(lambda s: s.states(), "the current event")
    assert stream.text.startswith("retry: "), stream.text
    head = stream.headers.lower()
    assert "content-type: text/event-stream" in head and "cache-control: no-cache" in head, head
    assert stream.states() == [("current", "invert")], stream.states()
    for state in ["contrast", "regular", "invert", "contrast"]:
        setup.override(state)
        stream.wait_for(lambda s: s.states()[-1] == ("change", state), f"the change to {state}")
    assert stream.states() == [("current", "invert"), ("change", "contrast"), ("change", "regular"),
                               ("change", "invert"), ("change", "contrast")], stream.states()
    change = stream.events()[-1][1]
    assert change["previous"] == "invert" and change["reason"] == "override", change


def sixty_four_streams_all_get_every_event(setup):
    eventually(lambda: setup.state() == "invert", "the first state")
    streams = [setup.stream() for _ in range(64)]
    wait_all(streams, lambda s: s.states()[-1:] == [("current", "invert")], "current")
    setup.override("contrast")
    wait_all(streams, lambda s: s.states()[-1:] == [("change", "contrast")], "the change to contrast")
    assert eventually(lambda: setup.state() == "contrast", "/state beside 64 streams")
    for stream in streams:
        stream.close()


def a_client_that_stops_reading_is_dropped_without_delaying_others(setup):
    eventually(lambda: setup.state() == "invert", "the first state")
    stalled = setup.stream(receive_buffer=1024)  # sends its request, never reads again
    healthy = setup.stream()
    healthy.wait_for(lambda s: s.states(), "current")
    states = ["contrast", "regular"]
    changes = 0
    # Each change is ~200 bytes: a few hundred fill the stalled client's socket buffers and its
    # 16 KiB queue in serve. The healthy one must see every change as it comes meanwhile.
    while "dropped an event stream" not in setup.log():
        assert changes < 2000, "no drop after 2000 changes"
        state = states[changes % 2]
        setup.override(state)
        changes += 1
        healthy.wait_for(lambda s: len(s.states()) == changes + 1, f"change {changes}")
    assert [state for _, state in healthy.states()[1:]] == [states[i % 2] for i in range(changes)]
    # Dropped: once what was buffered is read, the connection ends.
    stalled.connection.settimeout(WAIT)
    try:
        while stalled.connection.recv(65536):
            pass
    except ConnectionResetError:
        pass
    # And the others go on.
    setup.override("invert")
    healthy.wait_for(lambda s: s.states()[-1] == ("change", "invert"), "a change after the drop")
    print(f"     (dropped after {changes} changes)")


def refusals_and_cors(setup):
    status, headers, _ = setup.request(b"POST /state HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
    assert status == 405 and headers["allow"] == "GET, OPTIONS", (status, headers)
    status, _, _ = setup.request(b"DELETE /events HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 405, status
    status, headers, _ = setup.get("/nothing")
    assert status == 404 and headers["access-control-allow-origin"] == "*", (status, headers)
    # A request line libmicrohttpd cannot split at all it closes without an answer (0.9.75).
    status, _, _ = setup.request(b"GARBAGE\r\n\r\n")
    assert status in (400, None), status
    status, _, _ = setup.request(b"GET /state\r\n\r\n")
    assert status == 400, status
    status, _, _ = setup.request(b"GET /state HTTP/1.1\r\nNo colon here\r\n\r\n")
    assert status == 400, status
    status, _, _ = setup.request(b"GET /st\x01ate HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 400, status
    status, _, _ = setup.get("/state", "X-Big: " + "b" * 9000 + "\r\n")
    assert status == 431, status
    status, _, _ = setup.get("/state", "X-Big: " + "b" * 100000 + "\r\n")
    assert status == 431, status
    status, _, _ = setup.get("/" + "a" * 3000)
    assert status == 414, status
    status, headers, body = setup.request(
        b"OPTIONS /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\nOrigin: https://dash.example\r\n"
        b"Access-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: last-event-id\r\n"
        b"Access-Control-Request-Private-Network: true\r\n\r\n")
    assert status == 204 and body == b"", (status, body)
    assert headers["access-control-allow-origin"] == "*", headers
    assert headers["access-control-allow-methods"] == "GET, OPTIONS", headers
    assert headers["access-control-allow-private-network"] == "true", headers
    assert headers["access-control-allow-headers"] == "last-event-id", headers
    status, headers, body = setup.get("/ambience.js")
    assert status == 200 and b"ambiencechange" in body and headers["content-type"].startswith("text/javascript")
    status, headers, body = setup.get("/")
    assert status == 200 and b'<script src="/ambience.js">' in body, (status, body[:100])


def a_nul_in_the_request_line_is_400(setup):
    """libmicrohttpd hands the method and the target over as C strings, which end at a NUL."""
    eventually(lambda: setup.state() == "invert", "the first state")
    for line in [b"GET /state\x00 HTTP/1.1", b"GET /state\x00/x HTTP/1.1", b"GET /state?\x00 HTTP/1.1",
                 b"GET\x00X /state HTTP/1.1", b"GET\x00 /state HTTP/1.1", b"GET /state%00 HTTP/1.1",
                 b"GET /st%00ate?x=1 HTTP/1.1"]:
        statuses = setup.answer_or_close(line + b"\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert statuses == [400], (line, statuses)
    # What lies beside those is answered as before.
    for line in [b"GET   /state HTTP/1.1", b"GET /st%61te HTTP/1.1", b"GET /state?x=%00 HTTP/1.1"]:
        statuses = setup.answer_or_close(line + b"\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert statuses == [200], (line, statuses)
    # On a kept-alive connection too.
    statuses = setup.answer_or_close(b"GET /state HTTP/1.1\r\nHost: x\r\n\r\n"
                                     b"GET /state\x00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert statuses == [200, 400], statuses


def a_first_line_that_begins_with_nul_is_closed_at_once(setup):
    """libmicrohttpd 0.9 takes such a line for an empty one and skips it, then waits for the
    request; serve sees it before the library reads it and closes the connection."""
    for raw, options in [(b"\x00\x01\x02\x03\r\n\r\n", {}), (b"\x00\xff\xfe\r\n", {}), (b"\x00", {}),
                         (b"\r\n\x00GET /state HTTP/1.1\r\nHost: x\r\n\r\n", {}),
                         (b"\r\n\x00\x01\r\n\r\n", {"pause_after": 2}), (b"\x00\x01\r\n", {"pause_after": 1}),
                         (b"\x00\x01\x02\x03\r\n\r\n", {"end_output": True})]:
        statuses = setup.answer_or_close(raw, **options)
        assert statuses in ([], [400]), (raw, options, statuses)
    # Empty lines before a request are allowed, and a NUL later in the first line is the
    # request line's (400 above).
    statuses = setup.answer_or_close(b"\r\n\r\nGET /state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 2)
    assert statuses in ([200], [503]), statuses


def the_script_applies_states_and_reconnects(setup):
    """ambience.js as served, in node with a fake DOM and EventSource (Tests/serve/script-test.js)."""
    status, _, body = setup.get("/ambience.js")
    assert status == 200, status
    path = os.path.join(setup.work, "ambience.js")
    with open(path, "wb") as file:
        file.write(body)
    test = os.path.join(os.path.dirname(os.path.abspath(__file__)), "script-test.js")
    result = subprocess.run(["node", test, path], capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 0, result.stdout + result.stderr


def a_quiet_stream_gets_a_comment_every_15_s(setup):
    stream = setup.stream()
    stream.wait_for(lambda s: ": keep-alive\n\n" in s.text, "the keep-alive comment", seconds=40)


def one_allowed_origin():
    setup = Setup(serve_args=["--origin", "https://dash.example:8123"])
    try:
        status, headers, _ = setup.get("/state")
        assert headers["access-control-allow-origin"] == "https://dash.example:8123", headers
        assert headers["vary"] == "Origin", headers
    finally:
        setup.close()


def malformed_requests_leave_other_clients_alone(setup):
    eventually(lambda: setup.state() == "invert", "the first state")
    stream = setup.stream()
    stream.wait_for(lambda s: s.states(), "current")
    idle = [setup.connect() for _ in range(8)]  # connected, never send a byte
    half = setup.connect()
    half.sendall(b"GET /state HTTP/1.1\r\nHost: x\r\nX-Half: ")  # a header section never finished
    for raw in [b"GARBAGE\r\n\r\n", b"\x00\xff\xfe\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
                b"GET /state HTTP/1.1\r\n" + b"X: y\r\n" * 5000 + b"\r\n", b"GET /" + b"a" * 70000]:
        with setup.connect() as connection:
            try:
                connection.sendall(raw)
                connection.shutdown(socket.SHUT_WR)
                connection.recv(65536)
            except OSError:
                # Refused requests may be closed (even reset) before this side is done: what
                # matters is the stream and the server beside them.
                pass
    setup.override("contrast")
    stream.wait_for(lambda s: s.states()[-1] == ("change", "contrast"), "the change beside malformed requests")
    assert setup.state() == "contrast"
    for connection in idle + [half]:
        connection.close()


def serve_follows_a_daemon_restart_that_makes_a_new_runtime_directory(setup):
    eventually(lambda: setup.state() == "invert", "the first state")
    stream = setup.stream()
    stream.wait_for(lambda s: s.states(), "current")
    setup.override("contrast")
    stream.wait_for(lambda s: s.states()[-1] == ("change", "contrast"), "contrast")
    setup.stop_daemon()
    shutil.rmtree(setup.rt)
    time.sleep(0.5)
    assert setup.state() == "contrast", "the last state is kept while the daemon is away"
    os.makedirs(setup.rt)
    setup.start_daemon()
    setup.override("regular")
    stream.wait_for(lambda s: s.states()[-1][1] == "regular", "the restarted daemon's state, on the same stream")
    eventually(lambda: setup.state() == "regular", "/state from the restarted daemon")
    assert setup.serve.poll() is None, "serve kept running"


def sigterm_ends_serve_cleanly(setup):
    eventually(lambda: setup.state() == "invert", "the first state")
    streams = [setup.stream() for _ in range(4)]
    wait_all(streams, lambda s: s.states(), "current")
    setup.serve.send_signal(signal.SIGTERM)
    assert setup.serve.wait(WAIT) == 0, setup.log()
    for stream in streams:
        stream.connection.settimeout(WAIT)
        try:
            while stream.connection.recv(65536):
                pass
        except ConnectionResetError:
            pass


def configuration_errors():
    work = tempfile.mkdtemp(prefix="serve-config.")
    try:
        path = os.path.join(work, "ambience.toml")
        with open(path, "w") as file:
            file.write('[sensor]\nkind = "bh1750"\n[serve]\nlisten = "8470"\ncolour = 1\n')
        result = subprocess.run([SERVE, "--config", path], capture_output=True, text=True, timeout=WAIT)
        assert result.returncode == 78, result
        assert f"{path}:4: serve.listen:" in result.stderr and f"{path}:5: serve.colour: unknown key" in result.stderr, result.stderr
        result = subprocess.run([AMBIENCE, "check", "--config", path], capture_output=True, text=True, timeout=WAIT)
        assert result.returncode == 78 and f"{path}:4: serve.listen:" in result.stderr, result
        with open(path, "w") as file:
            file.write('[sensor]\nkind = "bh1750"\n[serve]\nlisten = "127.0.0.1:8470"\nallowed_origin = "*"\n')
        result = subprocess.run([AMBIENCE, "check", "--config", path], capture_output=True, text=True, timeout=WAIT)
        assert result.returncode == 0, result
        result = subprocess.run([SERVE, "--listen", "0.0.0.0:8470"], capture_output=True, text=True, timeout=WAIT)
        assert result.returncode == 2 and "not a loopback address" in result.stderr, result
        result = subprocess.run([SERVE, "--config", os.path.join(work, "missing.toml")],
                                capture_output=True, text=True, timeout=WAIT)
        assert result.returncode == 78, result
        result = subprocess.run([SERVE, "--bogus"], capture_output=True, text=True, timeout=WAIT)
        assert result.returncode == 2, result
        result = subprocess.run([AMBIENCE, "serve", "--help"], capture_output=True, text=True, timeout=WAIT)
        assert result.returncode == 0 and "/ambience.js" in result.stdout, result
    finally:
        shutil.rmtree(work, ignore_errors=True)


TESTS = [
    state_follows_the_states, state_before_the_first_event_is_503, events_give_current_then_every_change_in_order,
    sixty_four_streams_all_get_every_event, a_client_that_stops_reading_is_dropped_without_delaying_others,
    refusals_and_cors, a_nul_in_the_request_line_is_400, the_script_applies_states_and_reconnects,
    a_quiet_stream_gets_a_comment_every_15_s, one_allowed_origin, malformed_requests_leave_other_clients_alone,
    a_first_line_that_begins_with_nul_is_closed_at_once,
    serve_follows_a_daemon_restart_that_makes_a_new_runtime_directory, sigterm_ends_serve_cleanly,
    configuration_errors,
]


def main():
    selected = sys.argv[2:]
    checks = Checks("serve", TEST_TIMEOUT)
    for test in TESTS:
        if selected and test.__name__ not in selected:
            continue
        setups = []

        def with_a_setup(test=test):
            if test.__code__.co_argcount:
                setups.append(Setup())
                test(setups[-1])
            else:
                test()

        def serves_log():
            if setups:
                print("     serve's log:\n" + "".join("     " + line for line in setups[-1].log().splitlines(True)[-10:]))
        try:
            checks.check(test.__name__, with_a_setup, explain=serves_log)
        finally:
            for setup in setups:
                setup.close()
    sys.exit(checks.summary())


if __name__ == "__main__":
    main()
