"""The Python drivers' side of the one test harness (Tests/lib/harness.sh is the shell's).

    wait_for(condition, seconds, what)   polls until condition() is true, returns its value;
                                         raises Failure naming what it waited for
    free_port()                          a loopback port the kernel picks, free when asked
    stop(process, seconds)               SIGTERM, then SIGKILL if it has not ended in time
    Checks(name, limit)                  runs checks, each within a time limit, and counts them:
      .check(name, function, *args, explain=None)  "ok   NAME (S s)" or "FAIL NAME (S s): why"
      .skip(name, reason)                          a check not made, and why
      .summary()                                   "NAME: N passed, N failed[, N skipped]"; the
                                                   exit status (1 when one failed or none passed)

A driver imports it with Tests/lib on its path:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

`python3 Tests/lib/harness.py free-port` prints a free port, for the shell runners.
"""
import contextlib
import signal
import socket
import subprocess
import sys
import time
import traceback


class Failure(AssertionError):
    """A check's own failure, saying why."""


class TimeLimit(Exception):
    """A check ran out of its time."""


def wait_for(condition, seconds, what, interval=0.05):
    deadline = time.monotonic() + seconds
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {seconds:g} s waiting for {what}")
        time.sleep(interval)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop(process, seconds=20):
    """Ends a subprocess.Popen: SIGTERM, and SIGKILL after SECONDS. Returns its exit status."""
    if process.poll() is None:
        process.terminate()
        try:
            return process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
    return process.wait(10)


@contextlib.contextmanager
def time_limit(seconds):
    """Raises TimeLimit in the block after SECONDS (None: no limit), through SIGALRM."""
    if not seconds:
        yield
        return

    def expired(*_):
        raise TimeLimit(f"timed out after {seconds} s")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class Checks:
    def __init__(self, name, limit=None):
        self.name, self.limit = name, limit
        self.passed = self.failed = self.skipped = 0
        self.failed_names = []

    def check(self, name, function, *args, explain=None):
        """Runs function(*args) within the limit; any exception fails it. explain() then shows
        what may say why (a log's tail). Returns whether it passed."""
        started = time.monotonic()
        try:
            with time_limit(self.limit):
                function(*args)
        except Exception as error:  # noqa: BLE001 - a time limit, an assertion, anything
            self.failed += 1
            self.failed_names.append(name)
            print(f"FAIL {name} ({time.monotonic() - started:.2f} s): {type(error).__name__}: {error}", flush=True)
            traceback.print_exc(limit=-3, file=sys.stdout)
            if explain:
                explain()
            sys.stdout.flush()
            return False
        self.passed += 1
        print(f"ok   {name} ({time.monotonic() - started:.2f} s)", flush=True)
        return True

    def skip(self, name, reason):
        self.skipped += 1
        print(f"skip {name}: {reason}", flush=True)

    def summary(self):
        if self.failed_names:
            print("failed: " + " ".join(self.failed_names))
        line = f"{self.name}: {self.passed} passed, {self.failed} failed"
        if self.skipped:
            line += f", {self.skipped} skipped"
        print(line, flush=True)
        if not self.passed and not self.failed:
            print("no check passed")
        return 1 if self.failed or not self.passed else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["free-port"]:
        print(free_port())
    else:
        sys.exit("usage: harness.py free-port")
