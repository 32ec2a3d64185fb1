#!/usr/bin/env python3
"""A stand-in for Chromium on --remote-debugging-pipe, for the kiosk's own share of the latency:
answers every command, reports one page attached, and appends to LOG (AMBIENCE_FAKE_BROWSER_LOG)
the wall-clock milliseconds and the features of each Emulation.setEmulatedMedia it receives.
Takes (and ignores) any arguments, as a browser would."""

import json
import os
import time

log = open(os.environ["AMBIENCE_FAKE_BROWSER_LOG"], "a", buffering=1)
commands, replies = 3, 4
buffer = b""


def send(message):
    os.write(replies, json.dumps(message).encode() + b"\0")


while True:
    chunk = os.read(commands, 65536)
    if not chunk:
        break
    received = time.time() * 1000
    buffer += chunk
    *messages, buffer = buffer.split(b"\0")
    for text in messages:
        message = json.loads(text)
        if message["method"] == "Emulation.setEmulatedMedia":
            features = {f["name"]: f["value"] for f in message["params"]["features"]}
            log.write(json.dumps({"at": received, "features": features}) + "\n")
        send({"id": message["id"], "result": {}, **({"sessionId": message["sessionId"]} if "sessionId" in message else {})})
        if message["method"] == "Target.setAutoAttach" and "sessionId" not in message:
            send({"method": "Target.attachedToTarget", "params": {
                "sessionId": "PAGE", "waitingForDebugger": False,
                "targetInfo": {"targetId": "T", "type": "page", "url": "about:blank"}}})
