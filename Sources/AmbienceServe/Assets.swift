/// What `serve` gives browsers besides data: the script a page includes, and a page showing it.
public enum Assets {
    /// `<script src="http://127.0.0.1:8470/ambience.js"></script>`: sets `data-ambience` and
    /// `color-scheme` on the root element and dispatches `ambiencechange` on `document`; with a
    /// daemon's `[whitepoint]`, sets `--ambience-cct` and `--ambience-whitepoint` (kelvin, as
    /// numbers) on the root and dispatches `ambiencewhite` at each step of the white. It reads
    /// the events from the server it was loaded from, and keeps trying when that server is down,
    /// also at first load, when EventSource itself would give up.
    public static let script = #"""
        // ambience.js: the room's light as a theme. Served by `ambience serve`.
        (function () {
          "use strict";
          var source = document.currentScript && document.currentScript.src;
          var base = source ? new URL(".", source) : new URL("/", location.href);
          var root = document.documentElement;
          var current = null, stream = null, delay = 1000;
          var api = { state: null, previous: null, lux: null, cct: null, whitepoint: null };
          window.ambience = api;

          function apply(event) {
            var data;
            try { data = JSON.parse(event.data); } catch (error) { return; }
            if (data && "whitepoint" in data && data.whitepoint !== api.whitepoint) { white(data); }
            if (!data || typeof data.state !== "string" || data.state === current) { return; }
            var previous = current;
            current = data.state;
            api.state = data.state;
            api.previous = previous;
            api.lux = typeof data.lux === "number" ? data.lux : null;
            root.setAttribute("data-ambience", data.state);
            root.style.colorScheme = data.state === "invert" ? "dark" : "light";
            document.dispatchEvent(new CustomEvent("ambiencechange", {
              detail: { state: data.state, previous: previous, lux: api.lux }
            }));
          }

          function white(data) {
            api.cct = typeof data.cct === "number" ? data.cct : null;
            api.whitepoint = typeof data.whitepoint === "number" ? data.whitepoint : null;
            [["--ambience-cct", api.cct], ["--ambience-whitepoint", api.whitepoint]].forEach(function (p) {
              if (p[1] === null) { root.style.removeProperty(p[0]); } else { root.style.setProperty(p[0], String(p[1])); }
            });
            document.dispatchEvent(new CustomEvent("ambiencewhite", {
              detail: { cct: api.cct, whitepoint: api.whitepoint }
            }));
          }

          function connect() {
            stream = new EventSource(new URL("events", base).href);
            stream.addEventListener("current", apply);
            stream.addEventListener("change", apply);
            stream.addEventListener("open", function () { delay = 1000; });
            stream.addEventListener("error", function () {
              // EventSource retries by itself after a dropped stream, but gives up for good when
              // a connection cannot be made or is refused: then start over, backing off.
              if (stream.readyState !== EventSource.CLOSED) { return; }
              stream = null;
              setTimeout(connect, delay);
              delay = Math.min(delay * 2, 30000);
            });
          }
          connect();
        })();

        """#

    /// The page at `/`: the three themes, the one the room calls for marked.
    public static let index = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Ambience</title>
        <style>
          html { font: 18px/1.4 system-ui, sans-serif; }
          body { margin: 0; padding: 2rem; transition: background .4s, color .4s; }
          html[data-ambience="invert"] body { background: #111; color: #ddd; }
          html[data-ambience="regular"] body { background: #f4f4f0; color: #222; }
          html[data-ambience="contrast"] body { background: #fff; color: #000; font-weight: 600; }
          .themes { display: flex; gap: 1rem; flex-wrap: wrap; }
          .theme { flex: 1 1 10rem; padding: 1rem; border: 3px solid transparent; border-radius: .5rem; }
          .theme.invert { background: #111; color: #ddd; }
          .theme.regular { background: #f4f4f0; color: #222; }
          .theme.contrast { background: #fff; color: #000; font-weight: 600; border-color: #000; }
          html[data-ambience="invert"] .theme.invert,
          html[data-ambience="regular"] .theme.regular,
          html[data-ambience="contrast"] .theme.contrast { outline: 4px solid #e80; }
          code { font-size: .9em; }
        </style>
        </head>
        <body>
        <h1>Ambience</h1>
        <p>State: <strong id="state">waiting for the daemon…</strong> <span id="lux"></span></p>
        <div class="themes">
          <div class="theme invert"><b>invert</b><br>a dark room: light text on dark</div>
          <div class="theme regular"><b>regular</b><br>ordinary light</div>
          <div class="theme contrast"><b>contrast</b><br>sunlight: black on white, bold</div>
        </div>
        <p>A page of your own needs one line:
          <code id="line">&lt;script src="/ambience.js"&gt;&lt;/script&gt;</code></p>
        <script src="/ambience.js"></script>
        <script>
          document.getElementById("line").textContent =
            '<script src="' + new URL("/ambience.js", location.href).href + '"></' + 'script>';
          document.addEventListener("ambiencechange", function (event) {
            document.getElementById("state").textContent = event.detail.state;
            document.getElementById("lux").textContent =
              event.detail.lux === null ? "" : "(" + event.detail.lux + " lx)";
          });
        </script>
        </body>
        </html>

        """#
}
