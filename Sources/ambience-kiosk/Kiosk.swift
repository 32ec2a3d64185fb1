import AmbienceClient
import AmbienceCore
import AmbienceKiosk
import AmbienceSystem
import AmbienceWayland

#if canImport(Glibc)
    import Glibc
#endif

/// The kiosk, a source of the event loop: one browser at a time on its DevTools pipe, and the
/// daemon's pipe, followed throughout. Its life has three phases, each a run of the loop that
/// the kiosk stops when the phase is over.
final class Kiosk: EventSource {
    /// How a browser's run ended.
    enum Ending {
        /// It exited by itself, after answering on the pipe or not.
        case exited(Subprocess.ExitStatus, answered: Bool)
        /// SIGTERM, SIGINT or SIGHUP came: it was ended, and the kiosk ends too.
        case stopped
        /// It never answered on its pipe in time: it was ended.
        case silent
    }

    let settings: KioskSettings
    let arguments: [String]
    private let clock = SystemClock()
    private let loop: EventLoop
    private var phase = Phase.waitingForState(until: 0)
    private let follower: PipeFollower
    private var states = StateFollower()
    private var appearance: Appearance?
    /// The display's white the lines last said, as gains over the pages; nil for none.
    private var white: DisplayGains?
    private var session = DevToolsSession()
    private var stopRequested = false
    private var lastPipeFailure: String?
    private var sawMissingPipe = false
    /// A Wayland session's outputs, for `[display] device = "wayland"`; measured at `outputsCheck`.
    private var outputs = SessionOutputs()
    private var outputsCheck = Double.infinity
    /// Why the outputs or the control pipe could not be reached, said once until it works again.
    private var outputsTrouble: String?
    private var reportTrouble: String?

    init(settings: KioskSettings, arguments: [String]) throws(Errno) {
        self.settings = settings
        self.arguments = arguments
        // A SIGCHLD ignored by whoever started the kiosk would be inherited, and Linux would
        // then reap the browser itself, leaving no status to wait for.
        signal(SIGCHLD, SIG_DFL)
        loop = EventLoop(
            waiter: SignalLoopWaiter(
                try SignalWaiter(signals: [SIGTERM, SIGINT, SIGHUP, SIGCHLD]), clock: clock))
        follower = PipeFollower(path: settings.pipe)
        loop.add(self)
    }

    /// What the loop is run for now.
    private enum Phase {
        /// Before the first browser, until a state has come or `until`.
        case waitingForState(until: Double)
        /// A browser runs.
        case browsing(BrowserRun)
        /// Between two browsers.
        case pausing(until: Double)
    }

    /// A browser's run: its deadlines, and how it ended once it has.
    private struct BrowserRun {
        let browser: Browser
        let answerDeadline: Double
        var killDeadline = Double.infinity
        var stopping = false
        var silent = false
        var ending: Ending?
    }

    /// The browser running now, if one is.
    private var runningBrowser: Browser? {
        if case .browsing(let run) = phase, run.ending == nil { return run.browser }
        return nil
    }

    /// Runs the loop through one phase.
    private func run(_ phase: Phase) {
        self.phase = phase
        loop.run()
    }

    /// Runs browsers until one ends the kiosk; returns the kiosk's exit status.
    func run() -> Int32 {
        if !awaitFirstState() { return 0 }
        var delay = settings.restartDelay
        while true {
            let started = clock.now
            let ending: Ending
            do {
                ending = try runBrowser()
            } catch {
                log(.error, "cannot run \(arguments[0]): \(error)")
                return 1
            }
            switch ending {
            case .stopped:
                return 0
            case .silent:
                log(
                    .error,
                    "\(arguments[0]) did not answer on its DevTools pipe within"
                        + " \(seconds(settings.answerTimeout)) s: ambience kiosk needs Chromium or Chrome"
                        + " (--remote-debugging-pipe); it was stopped")
                return 1
            case .exited(let status, answered: false):
                log(
                    .error,
                    "\(arguments[0]) \(describe(status)) before answering on its DevTools pipe:"
                        + " ambience kiosk needs Chromium or Chrome (--remote-debugging-pipe)")
                return 1
            case .exited(let status, answered: true):
                guard settings.restart else {
                    log(status.shellStatus == 0 ? .notice : .error, "\(arguments[0]) \(describe(status))")
                    return status.shellStatus
                }
                // A browser that ran a good while was no crash loop: start over with a short delay.
                if clock.now - started >= settings.restartDelayLimit { delay = settings.restartDelay }
                log(.warning, "\(arguments[0]) \(describe(status)); starting it again in \(seconds(delay)) s")
                if !pause(until: clock.now + delay) { return 0 }
                delay = min(delay * 2, settings.restartDelayLimit)
            }
        }
    }

    /// Starts the browser and serves it until it has ended and been reaped.
    private func runBrowser() throws(Errno) -> Ending {
        let browser = try Browser(arguments: arguments, environment: Environment.current)
        session = DevToolsSession(overridesAutoDarkMode: settings.overridesAutoDarkMode)
        if let appearance { _ = session.show(appearance) }
        if let white { _ = session.show(white: white) }
        browser.send(session.start())
        run(.browsing(BrowserRun(browser: browser, answerDeadline: clock.now + settings.answerTimeout)))
        guard case .browsing(let run) = phase, let ending = run.ending else { return .stopped }
        return ending
    }

    /// Before the first browser: when the daemon's pipe is there, its first state is waited for
    /// (a new reader gets its `current` line within about a second), so that the pages the
    /// browser opens at its start are given their scheme as they attach, rather than a moment
    /// after they have shown the browser's own. Without a pipe the browser starts at once.
    /// False when a signal ends the kiosk meanwhile.
    private func awaitFirstState() -> Bool {
        run(.waitingForState(until: clock.now + Self.firstStateWait))
        return !stopRequested
    }

    /// Long enough for the daemon to notice a new reader (its check runs every second).
    static let firstStateWait = 2.0

    /// Waits between two browsers, still following the pipe; false when a signal ends the kiosk.
    private func pause(until end: Double) -> Bool {
        run(.pausing(until: end))
        return !stopRequested
    }

    var interest: Interest {
        var interest = Interest(reading: follower.descriptors, deadline: wakeDeadline)
        switch phase {
        case .waitingForState(let end), .pausing(let end):
            interest.deadline = min(interest.deadline, end)
        case .browsing(let run):
            if let replies = run.browser.replies { interest.reading.append(replies) }
            interest.deadline = min(interest.deadline, run.killDeadline)
            if !session.hasAnswered, !run.stopping {
                interest.deadline = min(interest.deadline, run.answerDeadline)
            }
            if let retry = session.nextRetry { interest.deadline = min(interest.deadline, retry) }
            if run.browser.hasUnsent { interest.deadline = min(interest.deadline, clock.now + 0.02) }
        }
        return interest
    }

    func serve(_ wake: Wake) {
        if case .signal(let number) = wake, number != SIGCHLD { stopRequested = true }
        switch phase {
        case .waitingForState(let end):
            followPipe()
            if appearance != nil || sawMissingPipe || stopRequested || clock.now >= end { loop.stop() }
        case .pausing(let end):
            followPipe()
            if stopRequested || clock.now >= end { loop.stop() }
        case .browsing(var run):
            serveBrowser(run.browser)
            run.browser.send(session.retry(at: clock.now))
            followPipe()
            run.browser.flush()
            tend(&run)
            phase = .browsing(run)
            if run.ending != nil { loop.stop() }
        }
    }

    /// Reaps the browser when it has ended; ends it when the kiosk stops or it never answers,
    /// and kills what is left of it when it does not go.
    private func tend(_ run: inout BrowserRun) {
        let browser = run.browser
        if let status = try? Subprocess.reap(browser.process) {
            // Whatever it left behind in its process group (it may have been killed) goes too.
            browser.killAll()
            run.ending =
                stopRequested
                ? .stopped : run.silent ? .silent : .exited(status, answered: session.hasAnswered)
            return
        }
        if !run.stopping, stopRequested || (!session.hasAnswered && clock.now >= run.answerDeadline) {
            run.stopping = true
            run.silent = !stopRequested
            browser.terminate()
            run.killDeadline = clock.now + (run.silent ? min(settings.stopTimeout, 2) : settings.stopTimeout)
        }
        if clock.now >= run.killDeadline {
            browser.killAll()
            run.killDeadline = .infinity
        }
    }

    private func serveBrowser(_ browser: Browser) {
        let (messages, dropped) = browser.receive()
        if dropped > 0 { log(.warning, "dropped \(dropped) oversized message(s) from the browser") }
        for message in messages {
            let reaction = session.receive(message, at: clock.now)
            for notice in reaction.notices {
                switch notice {
                case .answered, .pageAttached, .pageDetached: break
                case .pageUnreachable(let url, let retryIn, tries: 0):
                    // Said once; the retries after it are quiet until one works.
                    log(
                        .warning,
                        "\(url) could not be loaded (the browser shows its error page): loading it again in"
                            + " \(seconds(retryIn)) s, then at most every \(seconds(DevToolsSession.retryLimit)) s"
                    )
                case .pageUnreachable: break
                case .pageLoaded(let url, let tries):
                    log(.notice, "\(url) loaded after \(tries) \(tries == 1 ? "retry" : "retries")")
                case .failed(let method, let message):
                    log(.warning, "the browser refused \(method): \(message)")
                case .unreadable(let why): log(.warning, "unreadable message from the browser: \(why)")
                }
            }
            browser.send(reaction.messages)
        }
    }

    /// The pipe's next check, or the outputs'.
    private var wakeDeadline: Double { min(follower.wakeDeadline, outputsCheck) }

    /// Takes everything the pipe has now, acting on the newest state.
    private func followPipe() {
        tendOutputs()
        while true {
            let event: PipeFollower.Event
            do {
                event = try follower.next(timeout: 0)
            } catch {
                // Said once; the follower tries the path again at its next check.
                if lastPipeFailure != error.description { log(.warning, error.description) }
                lastPipeFailure = error.description
                return
            }
            switch event {
            case .timedOut:
                return
            case .missing:
                sawMissingPipe = true
                log(
                    .notice,
                    "waiting for \(settings.pipe) to appear (is the daemon running, and do its pipes.paths list it?)"
                )
            case .opened:
                lastPipeFailure = nil
            case .data(let bytes):
                let update = states.consume(bytes)
                let skipped = states.takeSkipped()
                if skipped > 0 {
                    log(.warning, "\(settings.pipe): " + LineFramer.skippedMessage(skipped))
                }
                if let display = states.takeDisplay() {
                    perform(outputs.line(display: display.power, asked: display.asked))
                }
                if let white = states.takeWhite() {
                    let gains = white.kelvin.map {
                        DisplayGains(kelvin: Double($0), native: settings.nativeWhite)
                    }
                    self.white = gains
                    if let browser = runningBrowser { browser.send(session.show(white: gains)) }
                }
                guard let update else { continue }
                let appearance = settings.appearance(for: update.state)
                self.appearance = appearance
                log(.info, update.state.rawValue)
                if let browser = runningBrowser { browser.send(session.show(appearance)) }
            case .closed:
                states.disconnected()
            }
        }
    }

    /// Measures the outputs when their check is due, while the lines ask anything of them.
    private func tendOutputs() {
        guard outputs.asked != nil else {
            outputsCheck = .infinity
            return
        }
        if outputsCheck == .infinity { outputsCheck = clock.now }
        guard clock.now >= outputsCheck else { return }
        outputsCheck = clock.now + SessionOutputs.checkInterval
        measure(WaylandOutputs.request(nil))
    }

    private func perform(_ actions: [SessionOutputs.Action]) {
        for action in actions {
            switch action {
            case .set(let power):
                log(.info, "outputs: \(power.rawValue), as the daemon asks")
                measure(WaylandOutputs.request(power))
            case .report(let power):
                do {
                    try DaemonControl.send(ControlLine.outputs(power), to: settings.controlPipe)
                    if reportTrouble != nil { log(.notice, "telling the daemon works again") }
                    reportTrouble = nil
                } catch {
                    if reportTrouble != error.description {
                        log(.warning, "cannot tell the daemon the outputs are \(power.rawValue): \(error)")
                    }
                    reportTrouble = error.description
                }
            }
        }
    }

    private func measure(_ answer: WaylandOutputs.Answer) {
        let before = outputs.measured
        switch answer {
        case .power(let power):
            if outputsTrouble != nil { log(.notice, "the compositor answers again") }
            outputsTrouble = nil
            perform(outputs.measured(power))
        case .noOutputs:
            outputsTrouble = nil
            perform(outputs.measured(nil))
        case .unavailable(let why):
            if outputsTrouble != why { log(.warning, "the session's outputs: " + why) }
            outputsTrouble = why
            perform(outputs.measured(nil))
        }
        if let now = outputs.measured, now != before {
            log(.notice, "the session's outputs are \(now.rawValue)")
        }
    }

    private func describe(_ status: Subprocess.ExitStatus) -> String {
        switch status {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "was ended by signal \(signal)"
        }
    }

    private func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

func log(_ priority: Logger.Priority, _ text: String) {
    Logger.standard.log(priority, "ambience kiosk: " + text)
}
