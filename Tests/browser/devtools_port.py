"""A second DevTools client, on the port a browser opens with --remote-debugging-port=0 beside
the kiosk's pipe: what the test reads of a page (its pixels, its layout) without going through
the program under test. A WebSocket of the smallest kind (RFC 6455: text frames out, masked;
frames in, unfragmented) and a PNG reader of the smallest kind, so that the tests need nothing
beyond Python's standard library."""

import base64
import json
import os
import socket
import struct
import time
import urllib.request
import zlib


def port_of(profile, timeout):
    """The port the browser wrote into its profile directory (DevToolsActivePort)."""
    deadline = time.monotonic() + timeout
    path = os.path.join(profile, "DevToolsActivePort")
    while time.monotonic() < deadline:
        try:
            with open(path) as file:
                first = file.readline().strip()
            if first:
                return int(first)
        except OSError:
            pass
        time.sleep(0.1)
    raise TimeoutError("no DevToolsActivePort in %s after %d s" % (profile, timeout))


class Page:
    """The browser's tab whose URL contains `part`, over its own WebSocket."""

    def __init__(self, port, part, timeout):
        deadline = time.monotonic() + timeout
        while True:
            with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port, timeout=timeout) as reply:
                targets = json.load(reply)
            found = [t for t in targets if t.get("type") == "page" and part in t.get("url", "")]
            if found:
                break
            if time.monotonic() > deadline:
                raise TimeoutError("no page with %r among %s" % (part, [t.get("url") for t in targets]))
            time.sleep(0.2)
        path = found[0]["webSocketDebuggerUrl"].split(str(port), 1)[1]
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                             "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
                             % (path, port, key)).encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += self.socket.recv(4096)
        head, self.buffer = answer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("no WebSocket: %r" % head[:200])
        self.next_id = 0

    def call(self, method, params=None):
        self.next_id += 1
        payload = json.dumps({"id": self.next_id, "method": method, "params": params or {}}).encode()
        mask = os.urandom(4)
        length = len(payload)
        header = bytes([0x81]) + (bytes([0x80 | length]) if length < 126
                                  else bytes([0x80 | 126]) + struct.pack(">H", length) if length < 65536
                                  else bytes([0x80 | 127]) + struct.pack(">Q", length))
        self.socket.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        while True:
            message = json.loads(self.frame())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message["result"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result["result"].get("value")

    def frame(self):
        def take(count):
            while len(self.buffer) < count:
                chunk = self.socket.recv(1 << 16)
                if not chunk:
                    raise RuntimeError("the browser closed the WebSocket")
                self.buffer += chunk
            taken, self.buffer = self.buffer[:count], self.buffer[count:]
            return taken
        first, second = take(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", take(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", take(8))[0]
        return take(length).decode()

    def pixel(self, x, y):
        """The (red, green, blue) the page shows at CSS pixel (x, y), as composited."""
        shot = self.call("Page.captureScreenshot", {
            "format": "png", "clip": {"x": x, "y": y, "width": 1, "height": 1, "scale": 1}})
        return png_pixels(base64.b64decode(shot["data"]))[0]

    def close(self):
        self.socket.close()


def png_pixels(data):
    """The first row's pixels of an 8-bit RGB or RGBA PNG, as (r, g, b) tuples."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat, width, channels = 8, b"", 0, 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, _, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "8-bit RGB or RGBA only"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    kind, row = raw[0], bytearray(raw[1:1 + stride])
    # The first row: None, Sub, Up (nothing above), Average and Paeth on no row above.
    if kind in (1, 3, 4):
        for i in range(channels, stride):
            left = row[i - channels]
            row[i] = (row[i] + (left if kind != 3 else left // 2)) & 0xFF
    return [tuple(row[i:i + 3]) for i in range(0, stride, channels)]
