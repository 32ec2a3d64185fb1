"""What the browser tests and the kiosk bench share: a scratch configuration, the simulated
daemon (`ambience simulate`), `ambience kiosk` running headless Chromium, the observer, and
the process tree. Every wait has a timeout."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile

from observer import Observer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import stop, wait_for  # noqa: E402,F401 - found through the path set above; run.py and bench.py take wait_for from here

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
# Headless on a machine without a display or GPU, as root in CI (hence no sandbox); windows that
# pages open by script are allowed (a kiosk page opens them from a tap, which needs no flag).
HEADLESS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-popup-blocking",
            "--no-first-run", "--no-default-browser-check", "--window-size=480,300"]


class Rig:
    def __init__(self, ambience, kiosk, kiosk_table="", light=False, extra_files=None):
        self.ambience = ambience
        self.kiosk_binary = kiosk
        self.directory = tempfile.mkdtemp(prefix="ambience-browser-")
        self.runtime = os.path.join(self.directory, "rt")
        self.control = os.path.join(self.runtime, "control")
        self.pipe = os.path.join(self.runtime, "kiosk")
        self.observe = os.path.join(self.runtime, "observe")
        self.serve_pipe = os.path.join(self.runtime, "serve")
        self.serve = None
        self.serve_port = None
        self.browser = None
        self.config = os.path.join(self.directory, "ambience.toml")
        self.observer = Observer(extra_files)
        self.daemon = None
        self.kiosk = None
        self.kiosk_log = os.path.join(self.directory, "kiosk.log")
        # Fast light (a stdin profile) only when a test drives the states by lux.
        timing = "[filter]\ntau = 0.2\n[timing]\ndwell = 0.5\nlatency = 1.2\n" if light else ""
        with open(self.config, "w") as file:
            file.write(
                'state_file = "%s/state.json"\ncontrol_pipe = "%s"\nstate_directory = "%s/lib"\n'
                '[sensor]\nkind = "bh1750"\n%s[pipes]\npaths = ["%s", "%s", "%s"]\n[kiosk]\npipe = "%s"\n%s\n'
                % (self.runtime, self.control, self.directory, timing, self.pipe, self.observe,
                   self.serve_pipe, self.pipe, kiosk_table))
        os.makedirs(self.runtime)

    # The daemon ------------------------------------------------------------------------------

    def start_daemon(self, profile="noise:300:0", sensor=None):
        log = open(os.path.join(self.directory, "daemon.log"), "a")
        stdin = subprocess.PIPE if profile == "stdin" else subprocess.DEVNULL
        self.daemon = subprocess.Popen(
            [self.ambience, "simulate", "--config", self.config, "--profile", profile]
            + (["--sensor", sensor] if sensor else []),
            stdin=stdin, stdout=log, stderr=log, start_new_session=True)
        wait_for(lambda: os.path.exists(self.control) or None, 30, "the daemon's control pipe")

    def light(self, lux):
        self.daemon.stdin.write(b"%g\n" % lux)
        self.daemon.stdin.flush()

    def stop_daemon(self):
        if self.daemon:
            stop(self.daemon, 20)
        self.daemon = None

    def override(self, state):
        subprocess.run([self.ambience, "override", state, "--control", self.control], check=True, timeout=20,
                       stdout=subprocess.DEVNULL)

    # The kiosk -------------------------------------------------------------------------------

    def start_kiosk(self, page="/page1.html", browser=None, ignore_sigchld=False):
        command = [self.kiosk_binary, "--config", self.config, "--"]
        command += browser or [CHROMIUM] + HEADLESS + [
            "--user-data-dir=" + os.path.join(self.directory, "profile"), self.observer.url(page)]
        # As some launchers leave it: SIGCHLD ignored, which the kiosk inherits across exec.
        ignore = (lambda: signal.signal(signal.SIGCHLD, signal.SIG_IGN)) if ignore_sigchld else None
        self.kiosk = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=open(self.kiosk_log, "a"),
                                      stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=ignore)
        return self.kiosk

    def browser_pid(self, timeout=30):
        """The kiosk's child: the browser."""
        def child():
            try:
                with open("/proc/%d/task/%d/children" % (self.kiosk.pid, self.kiosk.pid)) as file:
                    pids = file.read().split()
            except OSError:
                return None
            return int(pids[0]) if pids else None
        return wait_for(child, timeout, "the browser process")

    def kiosk_output(self):
        with open(self.kiosk_log, errors="replace") as file:
            return file.read()

    # `ambience serve` and a browser of its own, for page 2 --------------------------------------

    def start_serve(self, serve_binary):
        """`ambience serve` on a port the kernel picks, told by its first line on stderr."""
        log_path = os.path.join(self.directory, "serve.log")
        self.serve = subprocess.Popen(
            [serve_binary, "--listen", "127.0.0.1:0", "--pipe", self.serve_pipe, "--config", self.config],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(log_path, "w"), start_new_session=True)

        def port():
            with open(log_path, errors="replace") as file:
                for line in file:
                    if "listening on http://127.0.0.1:" in line:
                        return int(line.split("listening on http://127.0.0.1:")[1].split("/")[0])
            return None
        self.serve_port = wait_for(port, 30, "ambience serve to listen")

    def start_browser(self, page):
        """Headless Chromium alone, without the kiosk: page 2 needs nothing but serve."""
        self.browser = subprocess.Popen(
            [CHROMIUM] + HEADLESS + ["--user-data-dir=" + os.path.join(self.directory, "profile"),
                                     self.observer.url(page)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(self.kiosk_log, "a"),
            start_new_session=True)

    # Teardown --------------------------------------------------------------------------------

    def close(self):
        groups = set()
        if self.kiosk:
            groups |= {self.kiosk.pid} | {group_of(pid) for pid in descendants(self.kiosk.pid)}
            if self.kiosk.poll() is None:
                self.kiosk.terminate()
                try:
                    self.kiosk.wait(20)
                except subprocess.TimeoutExpired:
                    pass
        for group in groups - {None}:
            try:
                os.killpg(group, signal.SIGKILL)
            except OSError:
                pass
        if self.kiosk and self.kiosk.poll() is None:
            self.kiosk.wait(10)
        for process in [self.browser, self.serve]:
            if process and process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                    process.wait(20)
                except (OSError, subprocess.TimeoutExpired):
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(10)
        self.stop_daemon()
        self.observer.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def group_of(pid):
    try:
        with open("/proc/%d/stat" % pid) as file:
            return int(file.read().rsplit(")", 1)[1].split()[2])
    except (OSError, IndexError, ValueError):
        return None


def processes_in_group(group):
    """The live processes of a process group (zombies waiting for init to reap them are gone)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as file:
                fields = file.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(entry))
    return found


def descendants(pid):
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as file:
                parent = int(file.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def state_of(reports, page, since=0):
    """The state page last reported, among reports from index `since` on."""
    for report in reversed(reports[since:]):
        if report["id"] == page:
            return report
    return None
