#!/usr/bin/env python3
"""Screenshots of test page 1 in the three states, for the README: headless Chromium driven over
its own DevTools pipe with the feature sets `ambience kiosk` sends by default, each taken once
the page itself reported the state (so what is shown is what a kiosk page shows).

Usage: Tests/browser/screenshots.py OUTPUT-DIRECTORY   (writes kiosk-STATE.png)"""

import base64
import json
import os
import select
import subprocess
import sys
import tempfile
import time

from observer import Observer
from rig import CHROMIUM, HEADLESS, state_of

# As the kiosk's defaults (Sources/AmbienceKiosk/KioskSettings.swift).
FEATURES = {
    "invert": [("prefers-color-scheme", "dark")],
    "regular": [("prefers-color-scheme", "light")],
    "contrast": [("prefers-color-scheme", "light"), ("prefers-contrast", "more")],
}


class DevTools:
    def __init__(self, arguments):
        commands_read, self.commands = os.pipe()
        self.replies, replies_write = os.pipe()

        def descriptors():
            os.dup2(commands_read, 3)
            os.dup2(replies_write, 4)
        self.process = subprocess.Popen(arguments, pass_fds=(3, 4), preexec_fn=descriptors,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self.buffer = b""
        self.next_id = 0

    def call(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            for reply in self.messages(deadline):
                if reply.get("id") == self.next_id:
                    if "error" in reply:
                        raise RuntimeError("%s: %s" % (method, reply["error"]))
                    return reply["result"]

    def messages(self, deadline):
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no reply from the browser")
            if select.select([self.replies], [], [], remaining)[0]:
                chunk = os.read(self.replies, 1 << 20)
                if not chunk:
                    raise RuntimeError("the browser closed its pipe")
                self.buffer += chunk
        *whole, self.buffer = self.buffer.split(b"\0")
        return [json.loads(message) for message in whole]

    def close(self):
        self.process.kill()
        self.process.wait(10)


def main(output):
    os.makedirs(output, exist_ok=True)
    observer = Observer()
    profile = tempfile.mkdtemp(prefix="ambience-screenshots-")
    browser = DevTools([CHROMIUM] + HEADLESS + ["--remote-debugging-pipe", "--user-data-dir=" + profile,
                                                "--hide-scrollbars", "about:blank"])
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": 480, "height": 260, "deviceScaleFactor": 1, "mobile": False}, session)
        browser.call("Page.navigate", {"url": observer.url("/page1.html")}, session)
        for state, features in FEATURES.items():
            since = observer.count()
            browser.call("Emulation.setEmulatedMedia",
                         {"media": "", "features": [{"name": n, "value": v} for n, v in features]}, session)
            observer.wait(lambda reports: (lambda r: r if r and r["state"] == state else None)(
                state_of(reports, "main", since - 1 if since else 0)), 30, "the page in " + state)
            shot = browser.call("Page.captureScreenshot", {"format": "png"}, session)
            path = os.path.join(output, "kiosk-%s.png" % state)
            with open(path, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
            print(path)
    finally:
        browser.close()
        observer.close()
        subprocess.run(["rm", "-rf", profile])


if __name__ == "__main__":
    main(sys.argv[1])
