#!/usr/bin/env python3
"""`ambience kiosk` with Debian's Chromium, headless: what the page itself sees.

Usage: Tests/browser/run.py AMBIENCE AMBIENCE-KIOSK [TEST…]   (ambience-serve beside the kiosk)

Page 1 (media queries only) is driven by `ambience kiosk`; page 2 (ambience.js) by `ambience
serve` alone, in a headless Chromium without the kiosk.

Each test starts its own simulated daemon, kiosk, browser and observer on loopback and stops
them; each has a time limit (BROWSER_TEST_TIMEOUT, default 120 s) on top of the limit of every
wait inside it, and fails rather than hangs. No test measures speed (make bench does)."""

import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from harness import Checks  # noqa: E402 - found through the path set above
from devtools_port import Page, port_of  # noqa: E402
from rig import CHROMIUM, HEADLESS, Rig, processes_in_group, state_of, wait_for  # noqa: E402

WAIT = 30  # seconds any single thing may take on two busy cores
GROUP_END = 10  # seconds for processes sent SIGKILL to be gone
SERVE = None  # ambience-serve, for page 2


def wait_state(rig, page, state, since=0):
    return rig.observer.wait(
        lambda reports: (lambda r: r if r and r["state"] == state else None)(state_of(reports, page, since)),
        WAIT, "page %s to see %s" % (page, state))


def wait_load(rig, page, since, state=None):
    def check(reports):
        for report in reports[since:]:
            if report["id"] == page and report["kind"] == "load" and (state is None or report["state"] == state):
                return report
        return None
    return rig.observer.wait(check, WAIT, "page %s to load%s" % (page, " in " + state if state else ""))


EVERY_STATE_IN_TURN = ["invert", "contrast", "regular", "contrast", "invert", "regular"]


def overrides_reach(rig, states, pages=("main",)):
    """Each state in turn, by override, seen by every page."""
    for state in states:
        since = rig.observer.count()
        rig.override(state)
        for page in pages:
            wait_state(rig, page, state, since)


def reload_keeps(rig, state):
    since = rig.observer.count()
    rig.observer.command("main", "reload")
    report = wait_load(rig, "main", since)
    assert report["state"] == state, report


def opened_window_follows(rig):
    """The main page shows contrast; a window it opens loads in it, then follows both ways."""
    since = rig.observer.count()
    rig.observer.command("main", "open child")
    report = wait_load(rig, "child", since)
    assert report["state"] == "contrast", report
    overrides_reach(rig, ["invert", "regular"], pages=("main", "child"))


def remake_runtime_directory(rig):
    """The daemon stopped, its runtime directory and the pipes in it gone and made again, as
    systemd's RuntimeDirectory= does."""
    rig.stop_daemon()
    subprocess.run(["rm", "-rf", rig.runtime], check=True)
    os.makedirs(rig.runtime)


def every_state_in_order_by_light(rig):
    """The daemon's own light path (simulate, lux on stdin) to the page's media queries."""
    rig.start_daemon("stdin")
    rig.light(300)
    rig.start_kiosk()
    wait_state(rig, "main", "regular")
    for lux, state in [(5, "invert"), (300, "regular"), (20000, "contrast"), (300, "regular"), (5, "invert")]:
        since = rig.observer.count()
        rig.light(lux)
        report = wait_state(rig, "main", state, since)
        assert report["kind"] == "change", report
        expected = {"invert": (True, False), "regular": (False, False), "contrast": (False, True)}[state]
        assert (report["dark"], report["more"]) == expected, report


def every_state_in_order_by_override(rig):
    rig.start_daemon()
    rig.start_kiosk()
    wait_state(rig, "main", "regular")
    overrides_reach(rig, EVERY_STATE_IN_TURN)


def a_reload_keeps_the_state(rig):
    rig.start_daemon()
    rig.start_kiosk()
    wait_state(rig, "main", "regular")
    rig.override("invert")
    wait_state(rig, "main", "invert")
    reload_keeps(rig, "invert")


def a_window_the_page_opens_follows(rig):
    rig.start_daemon()
    rig.override("contrast")
    rig.start_kiosk()
    wait_state(rig, "main", "contrast")
    opened_window_follows(rig)


def a_frame_from_another_site_follows(rig):
    rig.start_daemon()
    rig.override("invert")
    rig.start_kiosk(page="/outer.html")
    wait_state(rig, "frame", "invert")
    for state in ["contrast", "regular"]:
        since = rig.observer.count()
        rig.override(state)
        wait_state(rig, "frame", state, since)


def expected_white_pixel(kelvin, native=6500):
    """What a white pixel becomes under the display's white at `kelvin`, worked out here apart
    from the Swift (docs/whitepoint.md, "The white on a display"): the white's chromaticity
    (CIE daylight from 4000 K; below, Krystek's Planckian locus moved by daylight's offset from
    it at 4000 K), linear sRGB gains relative to the native white, the largest 1, then sRGB's
    encoding into 0 to 255."""
    def daylight(t):
        x = (-4.6070e9 / t ** 3 + 2.9678e6 / t ** 2 + 0.09911e3 / t + 0.244063 if t <= 7000
             else -2.0064e9 / t ** 3 + 1.9018e6 / t ** 2 + 0.24748e3 / t + 0.237040)
        y = -3 * x * x + 2.87 * x - 0.275
        return 4 * x / (-2 * x + 12 * y + 3), 6 * y / (-2 * x + 12 * y + 3)

    def planck(t):
        u = (0.860117757 + 1.54118254e-4 * t + 1.28641212e-7 * t * t) / (1 + 8.42420235e-4 * t + 7.08145163e-7 * t * t)
        v = (0.317398726 + 4.22806245e-5 * t + 4.20481691e-8 * t * t) / (1 - 2.89741816e-5 * t + 1.61456053e-7 * t * t)
        return u, v

    def white(t):
        if t >= 4000:
            return daylight(t)
        (ju, jv), (pu, pv), (u, v) = daylight(4000), planck(4000), planck(t)
        return u + ju - pu, v + jv - pv

    def linear(uv):
        u, v = uv
        x, y = 3 * u / (2 * u - 8 * v + 4), 2 * v / (2 * u - 8 * v + 4)
        big_x, big_z = x / y, (1 - x - y) / y
        return (3.2406 * big_x - 1.5372 - 0.4986 * big_z, -0.9689 * big_x + 1.8758 + 0.0415 * big_z,
                0.0557 * big_x - 0.2040 + 1.0570 * big_z)

    ratios = [a / b for a, b in zip(linear(white(kelvin)), linear(white(native)))]
    gains = [r / max(ratios) for r in ratios]
    return tuple(round(255 * (12.92 * g if g <= 0.0031308 else 1.055 * g ** (1 / 2.4) - 0.055)) for g in gains)


def state_file(rig):
    try:
        with open(os.path.join(rig.runtime, "state.json")) as file:
            return json.load(file)
    except (OSError, ValueError):
        return None


def the_white_point_multiplies_the_page_and_leaves_its_layout_and_clicks(rig):
    """A warm room (a lamp at 100 lx, 2700 K, read by the emulated TCS34725) with strength 1:
    the kiosk's white page shows the white's pixel within 2/255; its fixed bar stays at the top
    through a scroll, and a click lands on the page's button. Then daylight: white again."""
    rig.start_daemon(profile="stdin", sensor="tcs34725")
    rig.light(100)
    profile = os.path.join(rig.directory, "profile")
    rig.start_kiosk(page="/white.html", browser=[CHROMIUM] + HEADLESS + [
        "--remote-debugging-port=0", "--hide-scrollbars", "--user-data-dir=" + profile,
        rig.observer.url("/white.html")])
    warm = wait_for(lambda: (state_file(rig) or {}).get("whitepoint"), WAIT, "a white on the lines")
    assert 2500 <= warm <= 2900, warm
    page = Page(port_of(profile, WAIT), "/white.html", WAIT)
    try:
        expected = expected_white_pixel(warm)
        shown = wait_for(lambda: (lambda p: p if all(abs(a - b) <= 2 for a, b in zip(p, expected)) else None)(
            page.pixel(5, 80)), WAIT, "the page at %s (2700 K is %s)" % (expected, page.pixel(5, 80)))
        assert shown[0] == 255 and shown[2] < 200, shown
        # The overlay takes no click and moves nothing: what is under a point is the page's own.
        assert page.evaluate("document.elementFromPoint(260, 150).id") == "button"
        page.evaluate("window.scrollTo(0, 800)")
        assert page.evaluate("document.getElementById('bar').getBoundingClientRect().top") == 0
        assert page.evaluate("document.elementFromPoint(5, 20).id") == "bar"
        page.evaluate("window.scrollTo(0, 0)")
        since = rig.observer.count()
        for kind in ("mousePressed", "mouseReleased"):
            page.call("Input.dispatchMouseEvent", {"type": kind, "x": 260, "y": 150, "button": "left", "clickCount": 1})
        rig.observer.wait(lambda reports: any(r["kind"] == "click" for r in reports[since:]), WAIT, "the click")
        # Daylight: the room's white is the panel's own, and the page is white again.
        rig.light(3000)
        wait_for(lambda: (state_file(rig) or {}).get("whitepoint") == 6500 or None, WAIT, "the native white")
        wait_for(lambda: (lambda p: p if all(v >= 253 for v in p) else None)(page.pixel(5, 80)), WAIT,
                 "a white page in daylight")
    finally:
        page.close()


def a_daemon_restart_with_a_new_runtime_directory(rig):
    rig.start_daemon()
    rig.override("contrast")
    rig.start_kiosk()
    wait_state(rig, "main", "contrast")
    browser = rig.browser_pid()
    remake_runtime_directory(rig)
    time.sleep(0.5)  # the kiosk keeps the last state while the daemon is away
    assert state_of(rig.observer.reports, "main")["state"] == "contrast"
    rig.start_daemon()
    overrides_reach(rig, ["invert"])
    assert rig.browser_pid() == browser, "the browser was restarted"
    assert rig.kiosk.poll() is None


def a_browser_crash_ends_the_kiosk_with_its_status(rig):
    rig.start_daemon()
    rig.start_kiosk()
    wait_state(rig, "main", "regular")
    browser = rig.browser_pid()
    os.kill(browser, signal.SIGKILL)
    status = rig.kiosk.wait(WAIT)
    assert status == 128 + signal.SIGKILL, (status, rig.kiosk_output())
    wait_for(lambda: True if not processes_in_group(browser) else None, WAIT, "the browser's processes to end")


def a_browser_crash_restarts_it_when_configured(rig):
    rig.start_daemon()
    rig.override("invert")
    rig.start_kiosk()
    wait_state(rig, "main", "invert")
    browser = rig.browser_pid()
    since = rig.observer.count()
    os.kill(browser, signal.SIGKILL)
    report = wait_load(rig, "main", since)
    assert report["state"] == "invert", report
    assert rig.browser_pid() != browser, "the same browser"
    group_ends(browser, "the crashed browser's processes")
    assert rig.kiosk.poll() is None
    since = rig.observer.count()
    rig.override("contrast")
    wait_state(rig, "main", "contrast", since)


def a_page_whose_server_is_not_up_yet_is_loaded_again(rig):
    """A kiosk that starts before its server: the page is answered 503 with no body, Chromium
    shows its error page (and, for this error, never loads it again itself); the kiosk loads
    the URL again, and once the server answers the page loads and follows the state."""
    rig.start_daemon()
    rig.override("invert")
    rig.observer.unavailable = True
    rig.start_kiosk()
    wait_for(lambda: "could not be loaded" in rig.kiosk_output() or None, WAIT, "the kiosk to see the error page")
    rig.observer.unavailable = False
    report = wait_load(rig, "main", 0)
    assert report["state"] == "invert", report
    wait_for(lambda: "loaded after" in rig.kiosk_output() or None, WAIT, "the kiosk to say the page loaded")
    since = rig.observer.count()
    rig.override("contrast")
    wait_state(rig, "main", "contrast", since)
    assert rig.kiosk.poll() is None


def group_ends(group, what):
    """SIGKILL is delivered asynchronously: a killed process may be seen for a moment after
    kill(2) returns. One still there after GROUP_END seconds was never killed."""
    wait_for(lambda: True if not processes_in_group(group) else None, GROUP_END,
             "%s to end" % what)


def sigterm_leaves_no_browser_process(rig):
    rig.start_daemon()
    rig.start_kiosk()
    wait_state(rig, "main", "regular")
    since = rig.observer.count()
    rig.observer.command("main", "open child")
    wait_load(rig, "child", since)
    browser = rig.browser_pid()
    assert len(processes_in_group(browser)) > 1, "expected the browser's helper processes"
    rig.kiosk.send_signal(signal.SIGTERM)
    status = rig.kiosk.wait(WAIT)
    assert status == 0, (status, rig.kiosk_output())
    # The kiosk has reaped the browser and sent SIGKILL to its process group before it exits.
    group_ends(browser, "the browser's processes")


def a_browser_that_does_not_answer_is_an_error(rig):
    # A program that takes any arguments and never answers, and one that refuses them. The
    # silent one ignores SIGTERM and has a child that does too: only SIGKILL to its process
    # group, after the grace period, ends them both.
    silent = os.path.join(rig.directory, "silent-browser")
    with open(silent, "w") as file:
        file.write("#!/bin/sh\ntrap '' TERM\nsleep 1000 &\nexec sleep 1000\n")
    os.chmod(silent, 0o755)
    kiosk = rig.start_kiosk(browser=[silent])
    child = rig.browser_pid()
    status = kiosk.wait(WAIT)
    output = rig.kiosk_output()
    assert status == 1, (status, output)
    assert "did not answer on its DevTools pipe within 3 s" in output, output
    group_ends(child, "the silent browser's processes")
    kiosk = rig.start_kiosk(browser=["/bin/cat"])
    status = kiosk.wait(WAIT)
    output = rig.kiosk_output()
    assert status == 1, (status, output)
    assert "/bin/cat exited with status 1 before answering on its DevTools pipe" in output, output


def a_kiosk_started_with_sigchld_ignored_still_sees_its_browser_end(rig):
    rig.start_daemon()
    rig.start_kiosk(ignore_sigchld=True)
    wait_state(rig, "main", "regular")
    os.kill(rig.browser_pid(), signal.SIGKILL)
    status = rig.kiosk.wait(WAIT)
    assert status == 128 + signal.SIGKILL, (status, rig.kiosk_output())


def a_missing_browser_is_an_error(rig):
    kiosk = rig.start_kiosk(browser=["no-such-browser-anywhere", "--kiosk", "about:blank"])
    status = kiosk.wait(WAIT)
    output = rig.kiosk_output()
    assert status == 1, (status, output)
    assert "cannot run no-such-browser-anywhere: No such file or directory" in output, output


def usage_errors_are_exit_2(rig):
    def run(*words):
        return subprocess.run([rig.kiosk_binary, *words], capture_output=True, text=True, timeout=WAIT)
    for words, message in [((), "no browser given"), (("--bogus", "--", "chromium"), "unknown option '--bogus'"),
                           (("--pipe",), "--pipe needs a value")]:
        result = run(*words)
        assert result.returncode == 2 and message in result.stderr, (words, result)
    result = run("--help")
    assert result.returncode == 0 and "usage: ambience kiosk" in result.stdout, result
    # Through `ambience`, which runs the program beside it.
    result = subprocess.run([rig.ambience, "kiosk", "--help"], capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 0 and "usage: ambience kiosk" in result.stdout, result


def a_bad_kiosk_table_is_a_configuration_error(rig):
    with open(rig.config, "a") as file:
        file.write("restart = 3\n[kiosk.invert]\nprefers-color-scheme = \"dim\"\n")
    lines = open(rig.config).read().splitlines()
    kiosk = rig.start_kiosk(browser=["sleep", "100"])
    status = kiosk.wait(WAIT)
    output = rig.kiosk_output()
    assert status == 78, (status, output)
    assert "%s:%d: kiosk.restart: must be true or false" % (rig.config, lines.index("restart = 3") + 1) in output, output
    assert "kiosk.invert.prefers-color-scheme" in output, output
    check = subprocess.run([rig.ambience, "check", "--config", rig.config], capture_output=True, text=True,
                           timeout=WAIT)
    assert check.returncode == 78 and "kiosk.restart" in check.stderr, check


# Page 2: ambience.js from `ambience serve`, in Chromium without the kiosk -----------------------

def page2(rig):
    return "/page2.html?serve=%d" % rig.serve_port


def serve_every_state_in_order(rig):
    rig.start_daemon()
    rig.start_serve(SERVE)
    rig.start_browser(page2(rig))
    wait_state(rig, "main", "regular")
    overrides_reach(rig, EVERY_STATE_IN_TURN)


def serve_a_reload_keeps_the_state(rig):
    rig.start_daemon()
    rig.override("invert")
    rig.start_serve(SERVE)
    rig.start_browser(page2(rig))
    wait_state(rig, "main", "invert")
    reload_keeps(rig, "invert")


def serve_a_window_the_page_opens_follows(rig):
    rig.start_daemon()
    rig.override("contrast")
    rig.start_serve(SERVE)
    rig.start_browser(page2(rig))
    wait_state(rig, "main", "contrast")
    opened_window_follows(rig)


def serve_a_daemon_restart_with_a_new_runtime_directory(rig):
    rig.start_daemon()
    rig.override("contrast")
    rig.start_serve(SERVE)
    rig.start_browser(page2(rig))
    wait_state(rig, "main", "contrast")
    remake_runtime_directory(rig)
    rig.start_daemon()
    overrides_reach(rig, ["invert"])
    assert rig.serve.poll() is None


TESTS = [
    (every_state_in_order_by_light, {"light": True}),
    (every_state_in_order_by_override, {}),
    (a_reload_keeps_the_state, {}),
    (a_window_the_page_opens_follows, {}),
    (a_frame_from_another_site_follows, {}),
    (a_daemon_restart_with_a_new_runtime_directory, {}),
    (a_browser_crash_ends_the_kiosk_with_its_status, {}),
    (a_browser_crash_restarts_it_when_configured, {"kiosk_table": "restart = true\nrestart_delay = 0.2\n"}),
    (a_page_whose_server_is_not_up_yet_is_loaded_again, {}),
    (sigterm_leaves_no_browser_process, {}),
    (a_browser_that_does_not_answer_is_an_error, {"kiosk_table": "answer_timeout = 3\n"}),
    (a_kiosk_started_with_sigchld_ignored_still_sees_its_browser_end, {}),
    (a_missing_browser_is_an_error, {}),
    (usage_errors_are_exit_2, {}),
    (a_bad_kiosk_table_is_a_configuration_error, {}),
    (the_white_point_multiplies_the_page_and_leaves_its_layout_and_clicks, {
        "kiosk_table": "[whitepoint]\nstrength = 1\nwarmest = 2700\ndwell = 1\ntau = 0.3\nramp = 200\n"}),
    (serve_every_state_in_order, {}),
    (serve_a_reload_keeps_the_state, {}),
    (serve_a_window_the_page_opens_follows, {}),
    (serve_a_daemon_restart_with_a_new_runtime_directory, {}),
]



def main(arguments):
    global SERVE
    ambience, kiosk = os.path.abspath(arguments[0]), os.path.abspath(arguments[1])
    # ambience-serve beside ambience-kiosk, as the build puts them.
    SERVE = os.path.join(os.path.dirname(kiosk), "ambience-serve")
    chosen = arguments[2:]
    checks = Checks("browser tests", int(os.environ.get("BROWSER_TEST_TIMEOUT", "120")))
    for test, options in TESTS:
        if chosen and test.__name__ not in chosen:
            continue
        rigs = []

        def with_a_rig(test=test, options=options):
            rigs.append(Rig(ambience, kiosk, **options))
            test(rigs[-1])

        def kiosks_output():
            if rigs:
                print("     kiosk's output:\n" + "".join("       " + line for line in rigs[-1].kiosk_output().splitlines(True)[-15:]))
        try:
            checks.check(test.__name__, with_a_rig, explain=kiosks_output)
        finally:
            for rig in rigs:
                rig.close()
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
