import AmbienceCore
import JSON

/// The kiosk's side of the Chrome DevTools Protocol on the browser's pipe, without the pipe:
/// messages in, messages out. It attaches to every page, existing and new (windows that pages
/// open included), and keeps each one's media features at the room's appearance.
///
/// At browser level `Target.setAutoAttach` with `flatten` attaches to the pages already open
/// and to each one created later, the later ones paused before their first script
/// (`waitForDebuggerOnStart`), so they never run a line in the wrong scheme: each page gets
/// its features, then `Runtime.runIfWaitingForDebugger`, in its own session. Each page then
/// auto-attaches to its out-of-process frames the same way, which get the features too.
///
/// With a white point on the lines, each tab's top frame is multiplied by the display's white
/// (`PageWhite`): evaluated in the document it shows, and registered for every document it
/// loads later, the registration before replaced.
public struct DevToolsSession: Sendable {
    /// What the session learned from one message that the program should say.
    public enum Notice: Equatable, Sendable {
        /// The browser answered for the first time: it speaks the protocol.
        case answered
        /// A command failed; the method and the browser's message.
        case failed(method: String, message: String)
        case pageAttached(targetID: String, url: String)
        case pageDetached(targetID: String)
        /// A page shows the browser's error page for `url` (its server down or not up yet, the
        /// network gone, the browser's network service restarting); it is loaded again after
        /// `retryIn` seconds. `tries`: the retries made so far, all failed.
        case pageUnreachable(url: String, retryIn: Double, tries: Int)
        /// A page that showed the error page has loaded, after `tries` retries.
        case pageLoaded(url: String, tries: Int)
        /// A message that is not JSON or not a protocol message.
        case unreadable(String)
    }

    public struct Reaction: Equatable, Sendable {
        /// The messages to send, in order, each without its NUL terminator.
        public var messages: [String] = []
        public var notices: [Notice] = []
    }

    /// The target types whose media features are set: tabs and windows, and the frames of
    /// other sites inside them, which run in processes of their own (site isolation) and do not
    /// follow their page's emulation.
    static let pageTypes: Set<String> = ["page", "iframe"]

    public private(set) var hasAnswered = false
    /// The sessions of the attached pages, by session id, with their target ids.
    public private(set) var pages: [String: String] = [:]
    public private(set) var appearance: Appearance?
    /// The script that puts the display's white on a page; nil while none was ever asked for.
    public private(set) var whiteScript: String?
    /// The tabs (sessions of top-level pages), which the white goes on: their frames, of this
    /// site or another, are under it.
    private var tabs: Set<String> = []
    /// Each tab's registered script for new documents, by session, to remove when replaced.
    private var newDocumentScripts: [String: String] = [:]
    private let overridesAutoDarkMode: Bool
    /// Pages showing the browser's error page, by session.
    private var unreachable: [String: UnreachablePage] = [:]

    private struct UnreachablePage {
        var url: String
        /// When it is loaded again; infinity while that load is under way.
        var due: Double
        var tries: Int
    }

    /// The wait before an error page's URL is loaded again: doubled at each failure, up to
    /// `retryLimit`. A kiosk that starts before its Home Assistant (a power cut takes both
    /// down) shows the page within a minute of the server's answering.
    public static let retryDelay = 5.0
    public static let retryLimit = 60.0
    private var nextID = 1
    /// The method of each command not answered yet, and the session it went to.
    private var waiting: [Int: (method: String, session: String?)] = [:]

    public init(overridesAutoDarkMode: Bool = false) {
        self.overridesAutoDarkMode = overridesAutoDarkMode
    }

    static let autoAttach: [(String, JSONValue)] = [
        ("autoAttach", .bool(true)), ("waitForDebuggerOnStart", .bool(true)), ("flatten", .bool(true)),
    ]

    /// The first message: attach to every page, now and later.
    public mutating func start() -> [String] {
        [command("Target.setAutoAttach", Self.autoAttach)]
    }

    /// The room's appearance changed: every page gets it.
    public mutating func show(_ appearance: Appearance) -> [String] {
        self.appearance = appearance
        return pages.keys.sorted().flatMap { commands(showing: appearance, in: $0) }
    }

    /// The display's white changed (nil: the native white): every tab is multiplied by it.
    public mutating func show(white gains: DisplayGains?) -> [String] {
        // Pages never tinted need no word that they are not.
        if gains == nil, whiteScript == nil { return [] }
        let script = PageWhite.script(gains)
        guard script != whiteScript else { return [] }
        whiteScript = script
        return tabs.sorted().flatMap { commands(showing: script, in: $0) }
    }

    /// When the next error page is due to be loaded again.
    public var nextRetry: Double? { unreachable.values.map { $0.due }.min() }

    /// The error pages due at `now`, each loaded again at the URL it could not load.
    public mutating func retry(at now: Double) -> [String] {
        var messages: [String] = []
        for session in unreachable.keys.sorted() {
            guard let page = unreachable[session], page.due <= now else { continue }
            unreachable[session]?.due = .infinity
            unreachable[session]?.tries += 1
            messages.append(command("Page.navigate", [("url", .string(page.url))], session: session))
        }
        return messages
    }

    /// One message from the browser (without its NUL), arriving at `now` (the clock
    /// `nextRetry` and `retry(at:)` count in).
    public mutating func receive<Bytes: Collection<UInt8>>(_ bytes: Bytes, at now: Double) -> Reaction {
        var reaction = Reaction()
        let message: JSONValue
        do {
            message = try JSONValue.parse(bytes)
        } catch {
            reaction.notices.append(.unreadable(error.description))
            return reaction
        }
        if let id = message["id"]?.numberValue.flatMap({ Int(exactly: $0) }) {
            if !hasAnswered {
                hasAnswered = true
                reaction.notices.append(.answered)
            }
            let sent = waiting.removeValue(forKey: id)
            // A page found showing an error page when it was attached (the browser's first
            // tab, whose load failed before the kiosk was there to see it).
            if let sent, sent.method == Self.addScript, let session = sent.session, pages[session] != nil,
                let identifier = message["result"]?["identifier"]?.stringValue
            {
                // Replies come in the order sent: this one replaces the one before.
                if let replaced = newDocumentScripts.updateValue(identifier, forKey: session) {
                    reaction.messages.append(
                        command(
                            "Page.removeScriptToEvaluateOnNewDocument", [("identifier", .string(replaced))],
                            session: session))
                }
            }
            if let sent, sent.method == "Page.getFrameTree", let session = sent.session,
                unreachable[session] == nil,
                let url = message["result"]?["frameTree"]?["frame"]?["unreachableUrl"]?.stringValue
            {
                reaction.notices.append(failed(url, in: session, at: now))
            }
            if let error = message["error"], let sent {
                // A page that went away in between is no fault of anyone's.
                let gone = sent.session.map { pages[$0] == nil } ?? false
                if !gone {
                    let text = error["message"]?.stringValue ?? error.text
                    reaction.notices.append(.failed(method: sent.method, message: text))
                }
            }
            return reaction
        }
        guard let method = message["method"]?.stringValue else {
            reaction.notices.append(.unreadable("neither a reply nor an event: \(message.text.prefix(200))"))
            return reaction
        }
        let parameters = message["params"] ?? .object([])
        switch method {
        case "Target.attachedToTarget":
            guard let session = parameters["sessionId"]?.stringValue else { break }
            let target = parameters["targetInfo"]
            let type = target?["type"]?.stringValue ?? ""
            if Self.pageTypes.contains(type) {
                let targetID = target?["targetId"]?.stringValue ?? ""
                pages[session] = targetID
                reaction.notices.append(
                    .pageAttached(targetID: targetID, url: target?["url"]?.stringValue ?? ""))
                if let appearance { reaction.messages += commands(showing: appearance, in: session) }
                // Before the page runs: its first document is under the white too.
                if type == "page" {
                    tabs.insert(session)
                    if let whiteScript { reaction.messages += commands(showing: whiteScript, in: session) }
                }
                // Its frames from other sites are targets of its own, attached through it.
                reaction.messages.append(command("Target.setAutoAttach", Self.autoAttach, session: session))
            }
            // Whatever the type (workers, the browser's own UI), a target paused for the
            // debugger would otherwise wait forever.
            if parameters["waitingForDebugger"]?.boolValue == true {
                reaction.messages.append(command("Runtime.runIfWaitingForDebugger", [], session: session))
            }
            // A tab's navigations are watched for the error page, and what it shows now asked.
            if type == "page" {
                reaction.messages.append(command("Page.enable", [], session: session))
                reaction.messages.append(command("Page.getFrameTree", [], session: session))
            }
        case "Page.frameNavigated":
            // The tab's own frame, not one inside it.
            guard let session = message["sessionId"]?.stringValue, pages[session] != nil,
                let frame = parameters["frame"], frame["parentId"] == nil
            else { break }
            if let url = frame["unreachableUrl"]?.stringValue {
                reaction.notices.append(failed(url, in: session, at: now))
            } else if let page = unreachable.removeValue(forKey: session) {
                reaction.notices.append(.pageLoaded(url: page.url, tries: page.tries))
            }
        case "Target.detachedFromTarget":
            guard let session = parameters["sessionId"]?.stringValue,
                let targetID = pages.removeValue(forKey: session)
            else { break }
            unreachable[session] = nil
            tabs.remove(session)
            newDocumentScripts[session] = nil
            reaction.notices.append(.pageDetached(targetID: targetID))
        default:
            break
        }
        return reaction
    }

    /// The page in `session` shows the error page for `url`: its next load is scheduled, each
    /// load again that failed doubling the wait, up to `retryLimit`.
    private mutating func failed(_ url: String, in session: String, at now: Double) -> Notice {
        let tries = unreachable[session]?.tries ?? 0
        var delay = Self.retryDelay
        for _ in 0..<min(tries, 8) { delay *= 2 }
        delay = min(delay, Self.retryLimit)
        unreachable[session] = UnreachablePage(url: url, due: now + delay, tries: tries)
        return .pageUnreachable(url: url, retryIn: delay, tries: tries)
    }

    private mutating func commands(showing appearance: Appearance, in session: String) -> [String] {
        let features = JSONValue.array(
            appearance.features.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
        var messages = [
            command(
                "Emulation.setEmulatedMedia", [("media", .string("")), ("features", features)],
                session: session)
        ]
        if overridesAutoDarkMode {
            // Without `enabled` the override is lifted: the browser's own setting again.
            let parameters: [(String, JSONValue)] =
                appearance.autoDarkMode.map { [("enabled", .bool($0))] } ?? []
            messages.append(command("Emulation.setAutoDarkModeOverride", parameters, session: session))
        }
        return messages
    }

    static let addScript = "Page.addScriptToEvaluateOnNewDocument"

    /// The white's script in the tab's document now, and in every one it loads later.
    private mutating func commands(showing script: String, in session: String) -> [String] {
        [
            command("Runtime.evaluate", [("expression", .string(script))], session: session),
            command(Self.addScript, [("source", .string(script))], session: session),
        ]
    }

    private mutating func command(
        _ method: String, _ parameters: [(String, JSONValue)], session: String? = nil
    )
        -> String
    {
        let id = nextID
        nextID += 1
        waiting[id] = (method, session)
        var members: [(String, JSONValue)] = [
            ("id", .number(Double(id))), ("method", .string(method)), ("params", .object(parameters)),
        ]
        if let session { members.append(("sessionId", .string(session))) }
        return JSONValue.object(members).text
    }
}

/// The pipe's framing: each message ends with a NUL byte.
public struct NULFrames: Sendable {
    /// Longer messages are dropped rather than kept growing (the kiosk asks for nothing large).
    public let limit: Int
    private var partial: [UInt8] = []
    private var skipping = false

    public init(limit: Int = 16 << 20) { self.limit = limit }

    /// The messages completed by `bytes`, and how many were dropped for their size.
    public mutating func consume<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> (
        messages: [[UInt8]], dropped: Int
    ) {
        var messages: [[UInt8]] = []
        var dropped = 0
        for byte in bytes {
            if byte == 0 {
                if skipping { dropped += 1 } else { messages.append(partial) }
                partial.removeAll(keepingCapacity: true)
                skipping = false
            } else if !skipping {
                partial.append(byte)
                if partial.count > limit {
                    partial.removeAll()
                    skipping = true
                }
            }
        }
        return (messages, dropped)
    }
}
