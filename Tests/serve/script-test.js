// ambience.js in node with a fake DOM, EventSource and timers: the states it applies, the events
// it dispatches, and its reconnecting when the server is down at first load.
// Usage: node Tests/serve/script-test.js PATH-TO-ambience.js
"use strict";
const assert = require("assert");
const fs = require("fs");
const vm = require("vm");

const streams = [];
const timers = [];
class FakeEventSource {
  constructor(url) {
    this.url = url;
    this.readyState = FakeEventSource.CONNECTING;
    this.listeners = {};
    streams.push(this);
  }
  addEventListener(type, listener) {
    (this.listeners[type] = this.listeners[type] || []).push(listener);
  }
  emit(type, data) {
    for (const listener of this.listeners[type] || []) { listener(data === undefined ? {} : { data }); }
  }
}
FakeEventSource.CONNECTING = 0;
FakeEventSource.OPEN = 1;
FakeEventSource.CLOSED = 2;

const attributes = {};
const dispatched = [];
const properties = {};
const root = {
  setAttribute(name, value) { attributes[name] = value; },
  style: {
    setProperty(name, value) { properties[name] = value; },
    removeProperty(name) { delete properties[name]; },
  },
};
const document = {
  currentScript: { src: "http://127.0.0.1:8470/ambience.js" },
  documentElement: root,
  dispatchEvent(event) { dispatched.push(event); },
};
class CustomEvent {
  constructor(type, init) { this.type = type; this.detail = init.detail; }
}
const window = {};
vm.runInNewContext(fs.readFileSync(process.argv[2], "utf8"), {
  document, window, EventSource: FakeEventSource, CustomEvent, URL, JSON, Math,
  location: { href: "https://page.example/dashboard" },
  setTimeout: (callback, milliseconds) => timers.push({ callback, milliseconds }),
});

// It connects to the server it was loaded from, not the page's.
assert.strictEqual(streams.length, 1);
assert.strictEqual(streams[0].url, "http://127.0.0.1:8470/events");

// The server is down at first load: EventSource gives up (CLOSED); the script starts over,
// backing off.
streams[0].readyState = FakeEventSource.CLOSED;
streams[0].emit("error");
assert.deepStrictEqual(timers.map((t) => t.milliseconds), [1000]);
timers.shift().callback();
assert.strictEqual(streams.length, 2);
streams[1].readyState = FakeEventSource.CLOSED;
streams[1].emit("error");
assert.deepStrictEqual(timers.map((t) => t.milliseconds), [2000]);
timers.shift().callback();
const stream = streams[2];

// A dropped stream that EventSource retries itself (CONNECTING) is left to it.
stream.emit("error");
assert.strictEqual(timers.length, 0);
assert.strictEqual(streams.length, 3);

stream.readyState = FakeEventSource.OPEN;
stream.emit("open");
stream.emit("current", JSON.stringify({ event: "current", state: "regular", previous: null, lux: 80 }));
assert.strictEqual(attributes["data-ambience"], "regular");
assert.strictEqual(root.style.colorScheme, "light");
assert.strictEqual(dispatched.length, 1);
assert.strictEqual(dispatched[0].type, "ambiencechange");
assert.deepStrictEqual({ ...dispatched[0].detail }, { state: "regular", previous: null, lux: 80 });

stream.emit("change", JSON.stringify({ event: "change", state: "invert", previous: "regular", lux: 3.5 }));
assert.strictEqual(attributes["data-ambience"], "invert");
assert.strictEqual(root.style.colorScheme, "dark");
assert.deepStrictEqual({ ...dispatched[1].detail }, { state: "invert", previous: "regular", lux: 3.5 });

// The same state again (a reconnect's `current`), garbage, and a fault: nothing new.
stream.emit("current", JSON.stringify({ event: "current", state: "invert", lux: 4 }));
stream.emit("change", "not json");
stream.emit("change", JSON.stringify({ event: "change", state: null }));
assert.strictEqual(dispatched.length, 2);

stream.emit("change", JSON.stringify({ event: "change", state: "contrast", lux: null }));
assert.strictEqual(attributes["data-ambience"], "contrast");
assert.strictEqual(root.style.colorScheme, "light");
assert.deepStrictEqual({ ...dispatched[2].detail }, { state: "contrast", previous: "invert", lux: null });
assert.strictEqual(window.ambience.state, "contrast");
assert.strictEqual(window.ambience.previous, "invert");

// A daemon with [whitepoint]: each step of the white sets the root's properties and says so,
// the state unchanged; a line without the white keys leaves them alone; nulls remove them.
stream.emit("current", JSON.stringify({ event: "current", state: "contrast", cct: 2712, whitepoint: 4000 }));
assert.deepStrictEqual(properties, { "--ambience-cct": "2712", "--ambience-whitepoint": "4000" });
assert.strictEqual(dispatched[3].type, "ambiencewhite");
assert.deepStrictEqual({ ...dispatched[3].detail }, { cct: 2712, whitepoint: 4000 });
stream.emit("current", JSON.stringify({ event: "current", state: "contrast", cct: 2712, whitepoint: 4000 }));
stream.emit("current", JSON.stringify({ event: "current", state: "contrast" }));
assert.strictEqual(dispatched.length, 4);
stream.emit("current", JSON.stringify({ event: "current", state: "contrast", cct: null, whitepoint: null }));
assert.deepStrictEqual(properties, {});
assert.strictEqual(window.ambience.whitepoint, null);

// After a successful open the back-off starts from 1 s again.
stream.readyState = FakeEventSource.CLOSED;
stream.emit("error");
assert.deepStrictEqual(timers.map((t) => t.milliseconds), [1000]);
console.log("script: ok");
