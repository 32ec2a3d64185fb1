"""The test's web server on loopback: serves the test pages and records what each page reports
seeing (POST /report), and hands each page its next command (GET /command?id=…, held until
there is one). Used by Tests/browser/run.py and scripts/bench-kiosk.sh."""

import http.server
import json
import os
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))


class Observer:
    def __init__(self, extra_files=None):
        self.reports = []
        self.commands = {}
        self.condition = threading.Condition()
        # While set, the pages are answered 503 with no body, as a proxy in front of a server
        # that is starting answers: Chromium shows its error page and does not reload it itself.
        self.unavailable = False
        self.files = {name: os.path.join(HERE, name[1:]) for name in [
            "/page1.html", "/page2.html", "/outer.html", "/white.html", "/report.js"]}
        self.files.update(extra_files or {})
        observer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *arguments):
                pass

            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                if url.path == "/command":
                    page = urllib.parse.parse_qs(url.query).get("id", ["main"])[0]
                    self.reply(200, observer.next_command(page, 10).encode(), "text/plain")
                elif url.path.endswith(".html") and observer.unavailable:
                    self.reply(503, b"", "text/plain")
                elif url.path in observer.files:
                    with open(observer.files[url.path], "rb") as file:
                        body = file.read()
                    kind = "text/html" if url.path.endswith(".html") else "text/javascript"
                    self.reply(200, body, kind + "; charset=utf-8")
                else:
                    self.reply(404, b"not found", "text/plain")

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                if self.path == "/report":
                    report = json.loads(body)
                    report["received"] = time.time() * 1000
                    with observer.condition:
                        observer.reports.append(report)
                        observer.condition.notify_all()
                self.reply(204, b"", "text/plain")

            def reply(self, status, body, kind):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:
                    pass  # a page that reloaded or closed while its command was held

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def command(self, page, text):
        with self.condition:
            self.commands.setdefault(page, []).append(text)
            self.condition.notify_all()

    def next_command(self, page, timeout):
        with self.condition:
            self.condition.wait_for(lambda: self.commands.get(page), timeout)
            queue = self.commands.get(page)
            return queue.pop(0) if queue else ""

    def wait(self, check, timeout, what):
        """Waits for check(reports) to return something other than None, and returns it."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                found = check(self.reports)
                if found is not None:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError("timed out after %g s waiting for %s; last reports: %s"
                                         % (timeout, what, self.reports[-6:]))
                self.condition.wait(remaining)

    def count(self):
        with self.condition:
            return len(self.reports)

    def latest(self, page):
        with self.condition:
            for report in reversed(self.reports):
                if report["id"] == page:
                    return report
        return None
