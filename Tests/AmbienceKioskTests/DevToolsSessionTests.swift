import AmbienceCore
import AmbienceKiosk
import JSON
import Testing

/// A browser's side of the pipe, scripted: what it says, and what the session sent.
private struct ScriptedBrowser {
    var session: DevToolsSession
    var sent: [JSONValue] = []
    var notices: [DevToolsSession.Notice] = []
    /// The clock the session is given, in seconds.
    var now = 0.0

    init(overridesAutoDarkMode: Bool = false) {
        session = DevToolsSession(overridesAutoDarkMode: overridesAutoDarkMode)
        record(session.start())
    }

    mutating func record(_ messages: [String]) {
        sent += messages.map { try! JSONValue.parse($0) }
    }

    mutating func says(_ text: String) {
        let reaction = session.receive(Array(text.utf8), at: now)
        notices += reaction.notices
        record(reaction.messages)
    }

    mutating func show(_ appearance: Appearance) {
        record(session.show(appearance))
    }

    mutating func takeSent() -> [JSONValue] {
        defer { sent = [] }
        return sent
    }

    static func attached(_ session: String, type: String = "page", waiting: Bool, target: String = "T")
        -> String
    {
        #"{"method":"Target.attachedToTarget","params":{"sessionId":"\#(session)","targetInfo":{"targetId":"\#(target)","type":"\#(type)","url":"http://x/"},"waitingForDebugger":\#(waiting)}}"#
    }
}

private func features(_ message: JSONValue) -> [String] {
    (message["params"]?["features"]?.arrayValue ?? []).map {
        ($0["name"]?.stringValue ?? "") + ": " + ($0["value"]?.stringValue ?? "")
    }
}

@Suite struct DevToolsSessionTests {
    let dark = Appearance.defaultAppearance(for: .invert)
    let contrast = Appearance.defaultAppearance(for: .contrast)

    @Test func startsByAttachingToEveryPageFlatAndPaused() {
        var browser = ScriptedBrowser()
        let first = browser.takeSent()
        #expect(first.count == 1)
        #expect(first[0]["method"]?.stringValue == "Target.setAutoAttach")
        #expect(first[0]["sessionId"] == nil)
        #expect(first[0]["params"]?["autoAttach"]?.boolValue == true)
        #expect(first[0]["params"]?["waitForDebuggerOnStart"]?.boolValue == true)
        #expect(first[0]["params"]?["flatten"]?.boolValue == true)
    }

    @Test func theFirstReplyIsTheAnswer() {
        var browser = ScriptedBrowser()
        #expect(!browser.session.hasAnswered)
        browser.says(#"{"id":1,"result":{}}"#)
        #expect(browser.session.hasAnswered)
        #expect(browser.notices == [.answered])
    }

    @Test func aNewPageGetsTheFeaturesBeforeItRuns() {
        var browser = ScriptedBrowser()
        browser.show(dark)
        _ = browser.takeSent()
        browser.says(ScriptedBrowser.attached("S1", waiting: true))
        let sent = browser.takeSent()
        #expect(
            sent.map { $0["method"]?.stringValue } == [
                "Emulation.setEmulatedMedia", "Target.setAutoAttach", "Runtime.runIfWaitingForDebugger",
                "Page.enable", "Page.getFrameTree",
            ])
        #expect(sent.allSatisfy { $0["sessionId"]?.stringValue == "S1" })
        #expect(features(sent[0]) == ["prefers-color-scheme: dark"])
        #expect(sent[0]["params"]?["media"]?.stringValue == "")
        #expect(browser.notices == [.pageAttached(targetID: "T", url: "http://x/")])
    }

    @Test func aPageOpenBeforeAttachingIsNotResumed() {
        var browser = ScriptedBrowser()
        browser.show(dark)
        _ = browser.takeSent()
        browser.says(ScriptedBrowser.attached("S1", waiting: false))
        #expect(
            browser.takeSent().map { $0["method"]?.stringValue } == [
                "Emulation.setEmulatedMedia", "Target.setAutoAttach", "Page.enable", "Page.getFrameTree",
            ])
    }

    @Test func withoutAStateYetAPageOnlyRuns() {
        var browser = ScriptedBrowser()
        _ = browser.takeSent()
        browser.says(ScriptedBrowser.attached("S1", waiting: true))
        #expect(
            browser.takeSent().map { $0["method"]?.stringValue } == [
                "Target.setAutoAttach", "Runtime.runIfWaitingForDebugger", "Page.enable", "Page.getFrameTree",
            ])
        browser.show(contrast)
        let sent = browser.takeSent()
        #expect(sent.count == 1)
        #expect(features(sent[0]) == ["prefers-color-scheme: light", "prefers-contrast: more"])
    }

    @Test func otherTargetsAreResumedButNotStyled() {
        var browser = ScriptedBrowser()
        browser.show(dark)
        _ = browser.takeSent()
        browser.says(ScriptedBrowser.attached("W", type: "service_worker", waiting: true))
        browser.says(ScriptedBrowser.attached("U", type: "browser_ui", waiting: false))
        let sent = browser.takeSent()
        #expect(sent.map { $0["method"]?.stringValue } == ["Runtime.runIfWaitingForDebugger"])
        #expect(sent.first?["sessionId"]?.stringValue == "W")
        #expect(browser.session.pages.isEmpty)
    }

    @Test func aStateGoesToEveryAttachedPageAndNotToDetachedOnes() {
        var browser = ScriptedBrowser()
        browser.says(ScriptedBrowser.attached("S1", waiting: false, target: "A"))
        browser.says(ScriptedBrowser.attached("S2", waiting: true, target: "B"))
        browser.says(ScriptedBrowser.attached("S3", waiting: true, target: "C"))
        browser.says(#"{"method":"Target.detachedFromTarget","params":{"sessionId":"S2","targetId":"B"}}"#)
        _ = browser.takeSent()
        browser.show(dark)
        let sent = browser.takeSent()
        #expect(sent.compactMap { $0["sessionId"]?.stringValue } == ["S1", "S3"])
        #expect(sent.allSatisfy { $0["method"]?.stringValue == "Emulation.setEmulatedMedia" })
        #expect(browser.notices.contains(.pageDetached(targetID: "B")))
    }

    @Test func messageIDsAreUniqueAndIncreasing() {
        var browser = ScriptedBrowser()
        browser.says(ScriptedBrowser.attached("S1", waiting: true))
        browser.show(dark)
        browser.show(contrast)
        let ids = browser.takeSent().compactMap { $0["id"]?.numberValue }
        #expect(ids == ids.sorted() && Set(ids).count == ids.count && ids.count == 7)
    }

    @Test func framesOfOtherSitesAreAttachedThroughTheirPageAndStyled() {
        var browser = ScriptedBrowser()
        browser.show(dark)
        browser.says(ScriptedBrowser.attached("P", waiting: false, target: "page"))
        let pageMessages = browser.takeSent().filter { $0["sessionId"]?.stringValue == "P" }
        let autoAttach = pageMessages.first { $0["method"]?.stringValue == "Target.setAutoAttach" }
        #expect(autoAttach?["params"]?["flatten"]?.boolValue == true)
        #expect(autoAttach?["params"]?["waitForDebuggerOnStart"]?.boolValue == true)
        // Flattened: the frame's attach event comes in the page's session, with a session of its own.
        browser.says(
            #"{"method":"Target.attachedToTarget","sessionId":"P","params":{"sessionId":"F","targetInfo":{"targetId":"frame","type":"iframe","url":"http://other/"},"waitingForDebugger":true}}"#
        )
        let sent = browser.takeSent()
        #expect(sent.allSatisfy { $0["sessionId"]?.stringValue == "F" })
        #expect(sent.first.map(features) == ["prefers-color-scheme: dark"])
        #expect(sent.last?["method"]?.stringValue == "Runtime.runIfWaitingForDebugger")
        browser.show(contrast)
        #expect(Set(browser.takeSent().compactMap { $0["sessionId"]?.stringValue }) == ["P", "F"])
    }

    @Test func autoDarkModeIsSetEveryTimeWhenAnyStateUsesIt() {
        var browser = ScriptedBrowser(overridesAutoDarkMode: true)
        browser.says(ScriptedBrowser.attached("S1", waiting: false))
        _ = browser.takeSent()
        browser.show(Appearance(features: [MediaFeature("prefers-color-scheme", "dark")], autoDarkMode: true))
        browser.show(Appearance(features: [MediaFeature("prefers-color-scheme", "light")], autoDarkMode: nil))
        let sent = browser.takeSent()
        #expect(
            sent.map { $0["method"]?.stringValue } == [
                "Emulation.setEmulatedMedia", "Emulation.setAutoDarkModeOverride",
                "Emulation.setEmulatedMedia", "Emulation.setAutoDarkModeOverride",
            ])
        #expect(sent[1]["params"] == .object([("enabled", .bool(true))]))
        // Lifted, not forced off: the browser's own setting again.
        #expect(sent[3]["params"] == .object([]))
    }

    @Test func aRefusalIsReportedUnlessItsPageIsGone() {
        var browser = ScriptedBrowser()
        browser.says(#"{"id":1,"result":{}}"#)
        browser.says(ScriptedBrowser.attached("S1", waiting: false, target: "A"))
        browser.says(ScriptedBrowser.attached("S2", waiting: false, target: "B"))
        browser.show(dark)  // ids 8 (S1) and 9 (S2), after each page's auto-attach and Page commands (2-7)
        browser.says(#"{"method":"Target.detachedFromTarget","params":{"sessionId":"S2"}}"#)
        browser.says(#"{"id":8,"error":{"code":-32000,"message":"no such feature"},"sessionId":"S1"}"#)
        browser.says(#"{"id":9,"error":{"code":-32001,"message":"Session not found"}}"#)
        #expect(
            browser.notices.filter { if case .failed = $0 { true } else { false } } == [
                .failed(method: "Emulation.setEmulatedMedia", message: "no such feature")
            ])
    }

    private static func navigated(_ session: String, unreachable: String? = nil, parent: String? = nil)
        -> String
    {
        let failed = unreachable.map { #","unreachableUrl":"\#($0)""# } ?? ""
        let frame = parent.map { #","parentId":"\#($0)""# } ?? ""
        let url = unreachable == nil ? "http://ha/" : "chrome-error://chromewebdata/"
        return
            #"{"method":"Page.frameNavigated","sessionId":"\#(session)","params":{"frame":{"id":"F1","url":"\#(url)"\#(failed)\#(frame)},"type":"Navigation"}}"#
    }

    @Test func anErrorPageIsLoadedAgainWaitingTwiceAsLongEachTimeUpToAMinute() {
        var browser = ScriptedBrowser()
        browser.says(ScriptedBrowser.attached("S1", waiting: false))
        _ = browser.takeSent()
        #expect(browser.session.nextRetry == nil)
        browser.now = 100
        browser.says(Self.navigated("S1", unreachable: "http://ha:8123/"))
        #expect(browser.notices.last == .pageUnreachable(url: "http://ha:8123/", retryIn: 5, tries: 0))
        #expect(browser.session.nextRetry == 105)
        #expect(browser.session.retry(at: 104.9).isEmpty)
        var waits: [Double] = []
        for _ in 0..<6 {
            let due = browser.session.nextRetry ?? .nan
            browser.record(browser.session.retry(at: due))
            let sent = browser.takeSent()
            #expect(sent.map { $0["method"]?.stringValue } == ["Page.navigate"])
            #expect(sent.first?["sessionId"]?.stringValue == "S1")
            #expect(sent.first?["params"]?["url"]?.stringValue == "http://ha:8123/")
            // While the load is under way nothing more is due.
            #expect(browser.session.nextRetry == .infinity)
            browser.now = due + 1
            browser.says(Self.navigated("S1", unreachable: "http://ha:8123/"))
            waits.append((browser.session.nextRetry ?? .nan) - browser.now)
        }
        #expect(waits == [10, 20, 40, 60, 60, 60])
        browser.says(Self.navigated("S1"))
        #expect(browser.notices.last == .pageLoaded(url: "http://ha:8123/", tries: 6))
        #expect(browser.session.nextRetry == nil)
    }

    @Test func aTabAlreadyShowingTheErrorPageWhenAttachedIsLoadedAgain() {
        var browser = ScriptedBrowser()
        browser.says(ScriptedBrowser.attached("S1", waiting: false))
        let tree = browser.takeSent().first { $0["method"]?.stringValue == "Page.getFrameTree" }
        let id = Int(tree?["id"]?.numberValue ?? 0)
        browser.now = 7
        browser.says(
            #"{"id":\#(id),"sessionId":"S1","result":{"frameTree":{"frame":{"id":"F1","url":"chrome-error://chromewebdata/","unreachableUrl":"http://ha:8123/"}}}}"#
        )
        #expect(browser.notices.last == .pageUnreachable(url: "http://ha:8123/", retryIn: 5, tries: 0))
        #expect(browser.session.nextRetry == 12)
    }

    @Test func aFrameInsideThePageOrADetachedPageIsNotLoadedAgain() {
        var browser = ScriptedBrowser()
        browser.says(ScriptedBrowser.attached("S1", waiting: false))
        browser.says(Self.navigated("S1", unreachable: "http://ad/", parent: "F0"))
        #expect(browser.session.nextRetry == nil)
        browser.says(Self.navigated("S1", unreachable: "http://ha:8123/"))
        #expect(browser.session.nextRetry == 5)
        browser.says(#"{"method":"Target.detachedFromTarget","params":{"sessionId":"S1"}}"#)
        #expect(browser.session.nextRetry == nil)
        #expect(browser.session.retry(at: 1000).isEmpty)
        // A page's navigation in a session the kiosk does not know is no page of its own.
        browser.says(Self.navigated("S9", unreachable: "http://ha:8123/"))
        #expect(browser.session.nextRetry == nil)
    }

    @Test func unreadableMessagesAreNoticedNotFatal() {
        var browser = ScriptedBrowser()
        browser.says("{not json")
        browser.says(#"{"result":{}}"#)
        browser.says(#"{"id":1,"result":{}}"#)
        #expect(browser.notices.count == 3)
        #expect(browser.notices.last == .answered)
    }
}

@Suite struct NULFramesTests {
    @Test func splitsAtNULAcrossReads() {
        var frames = NULFrames()
        #expect(frames.consume(Array("{\"a\"".utf8)).messages.isEmpty)
        let result = frames.consume(Array(":1}\0{}\0{".utf8))
        #expect(result.messages.map { String(decoding: $0, as: UTF8.self) } == ["{\"a\":1}", "{}"])
        #expect(frames.consume([0]).messages == [Array("{".utf8)])
    }

    @Test func dropsOversizedMessagesAndKeepsGoing() {
        var frames = NULFrames(limit: 4)
        let result = frames.consume(Array("123456789\0ok\0".utf8))
        #expect(result.dropped == 1)
        #expect(result.messages == [Array("ok".utf8)])
    }
}

@Suite struct BrowserCommandTests {
    @Test func addsThePipeAndAProfileRightAfterTheProgram() {
        #expect(
            BrowserCommand.arguments(["chromium", "--kiosk", "http://ha:8123"], profile: "/p")
                == ["chromium", "--remote-debugging-pipe", "--user-data-dir=/p", "--kiosk", "http://ha:8123"])
    }

    @Test func keepsWhatTheUserGave() {
        let given = ["chromium", "--user-data-dir", "/mine", "--remote-debugging-pipe", "URL"]
        #expect(BrowserCommand.arguments(given, profile: "/p") == given)
        #expect(BrowserCommand.userDataDirectory(in: ["c", "--user-data-dir=/x"]) == "/x")
        #expect(BrowserCommand.userDataDirectory(in: ["--user-data-dir=/x"]) == nil)
    }

    @Test func theDefaultProfileFollowsXDG() {
        #expect(
            BrowserCommand.defaultProfile(stateHome: "/s", home: "/home/pi", userID: 1000)
                == "/s/ambience/kiosk-browser")
        #expect(
            BrowserCommand.defaultProfile(stateHome: nil, home: "/home/pi", userID: 1000)
                == "/home/pi/.local/state/ambience/kiosk-browser")
        #expect(
            BrowserCommand.defaultProfile(stateHome: "relative", home: nil, userID: 1000)
                == "/tmp/ambience-kiosk-1000/browser")
    }
}

/// The display's white over the tabs: evaluated now and registered for later documents, the
/// registration before removed, frames left to their tab's, nothing for a daemon without one.
@Suite struct DevToolsSessionWhiteTests {
    let warm = DisplayGains(kelvin: 4000, native: 6500)

    @Test func aNewTabIsUnderTheWhiteBeforeItRunsAndItsFramesAreNot() {
        var browser = ScriptedBrowser()
        browser.record(browser.session.show(white: warm))
        _ = browser.takeSent()
        browser.says(ScriptedBrowser.attached("S1", waiting: true))
        let methods = browser.takeSent().map { $0["method"]?.stringValue ?? "" }
        #expect(
            Array(methods.prefix(4)) == [
                "Runtime.evaluate", "Page.addScriptToEvaluateOnNewDocument", "Target.setAutoAttach",
                "Runtime.runIfWaitingForDebugger",
            ])
        browser.says(ScriptedBrowser.attached("F1", type: "iframe", waiting: true, target: "F"))
        #expect(!browser.takeSent().contains { $0["method"]?.stringValue == "Runtime.evaluate" })
    }

    @Test func aChangeGoesToEveryTabAndReplacesItsRegistration() throws {
        var browser = ScriptedBrowser()
        browser.says(ScriptedBrowser.attached("S1", waiting: false))
        browser.says(ScriptedBrowser.attached("S2", waiting: false, target: "U"))
        _ = browser.takeSent()
        browser.record(browser.session.show(white: warm))
        let first = browser.takeSent()
        #expect(first.map { $0["sessionId"]?.stringValue ?? "" } == ["S1", "S1", "S2", "S2"])
        let script = try #require(first[0]["params"]?["expression"]?.stringValue)
        let gains = [warm.red, warm.green, warm.blue].map { EventLine.number($0) }
        #expect(script.contains("values=%27\(gains[0]) 0 0 0 0 0 \(gains[1]) 0 0 0 0 0 \(gains[2]) 0 0"))
        let added = Int(try #require(first[1]["id"]?.numberValue))
        browser.says(#"{"id":\#(added),"result":{"identifier":"1"}}"#)
        #expect(browser.takeSent().isEmpty, "the first registration replaces none")

        browser.record(browser.session.show(white: DisplayGains(kelvin: 4500, native: 6500)))
        let second = browser.takeSent()
        let again = Int(try #require(second[1]["id"]?.numberValue))
        browser.says(#"{"id":\#(again),"result":{"identifier":"2"}}"#)
        let removal = browser.takeSent()
        #expect(removal.map { $0["method"]?.stringValue } == ["Page.removeScriptToEvaluateOnNewDocument"])
        #expect(removal.first?["params"]?["identifier"]?.stringValue == "1")
        #expect(
            browser.session.show(white: DisplayGains(kelvin: 4500, native: 6500)).isEmpty, "the same white")
    }

    @Test func nativeWhiteEmptiesTheSheetAndNoWhiteSaysNothing() throws {
        var browser = ScriptedBrowser()
        browser.says(ScriptedBrowser.attached("S1", waiting: false))
        _ = browser.takeSent()
        #expect(browser.session.show(white: nil).isEmpty, "a daemon without a white point")
        browser.record(browser.session.show(white: warm))
        browser.record(browser.session.show(white: nil))
        let cleared = try #require(browser.takeSent().last?["params"]?["source"]?.stringValue)
        #expect(cleared.contains("w.rules='';"))
        #expect(PageWhite.script(.unity) == PageWhite.script(nil))
    }
}
