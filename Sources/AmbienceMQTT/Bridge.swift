import AmbienceCore

/// One message to the broker.
public struct Publication: Equatable, Sendable {
    public var topic: String
    public var payload: String
    public var retain: Bool

    public init(topic: String, payload: String, retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

/// What the bridge decided; the program does it (a broker client, the control pipe, stderr).
public enum BridgeAction: Equatable, Sendable {
    case publish(Publication)
    case subscribe(String)
    /// A line for the daemon's control pipe.
    case control(String)
    case warn(String)
    case note(String)
}

/// The bridge's decisions, free of I/O and clocks: the program feeds it the connection's ups and
/// downs, the daemon's event lines, the broker's messages and the monotonic time, and does what
/// it returns. Nothing is queued while offline: what was missed is replaced, on each connection,
/// by one fresh state.
public final class Bridge {
    public struct Settings: Sendable {
        public var topics: Topics
        /// Nil: discovery off, its documents removed.
        public var discovery: Discovery?
        public var perEntityDiscovery: Bool
        /// Every how many seconds the state is published again without news.
        public var republishInterval: Double
        /// The longest wait before announcing again after Home Assistant says `online`.
        public var announceJitter: Double

        public init(
            topics: Topics, discovery: Discovery?, perEntityDiscovery: Bool = false,
            republishInterval: Double = 60,
            announceJitter: Double = 3
        ) {
            self.topics = topics
            self.discovery = discovery
            self.perEntityDiscovery = perEntityDiscovery
            self.republishInterval = republishInterval
            self.announceJitter = announceJitter
        }
    }

    public let settings: Settings
    public private(set) var status = KioskStatus()
    public private(set) var isConnected = false
    private let random: () -> Double
    private var nextRepublish: Double?
    private var announceAt: Double?
    /// The daemon's pipe has a writer: what `status` says is current, worth publishing again.
    private var daemonWriting = false

    /// `random` returns a number in [0, 1): the delay before announcing again.
    public init(settings: Settings, random: @escaping () -> Double) {
        self.settings = settings
        self.random = random
    }

    private var topics: Topics { settings.topics }

    /// On every CONNACK: online, subscriptions, discovery, and a fresh state.
    public func connected(now: Double) -> [BridgeAction] {
        isConnected = true
        announceAt = nil
        var actions: [BridgeAction] = [
            .publish(Publication(topic: topics.status, payload: "online", retain: true))
        ]
        actions += [topics.overrideCommand, topics.groupOverrideCommand].map(BridgeAction.subscribe)
        if settings.discovery != nil { actions.append(.subscribe(topics.homeAssistantStatus)) }
        actions += announcement()
        if daemonWriting, status.state != nil { actions.append(publishState(now: now)) }
        return actions
    }

    /// The daemon closed its pipe (stopped, or restarting): its last state is no longer
    /// published again, so Home Assistant's lux goes unavailable (`expire_after`) if it stays away.
    public func daemonLeft() {
        daemonWriting = false
        nextRepublish = nil
    }

    public func disconnected() {
        isConnected = false
        nextRepublish = nil
        announceAt = nil
    }

    /// The clean shutdown's last word, before disconnecting: the will is for unclean ends.
    public func shuttingDown() -> [BridgeAction] {
        guard isConnected else { return [] }
        return [.publish(Publication(topic: topics.status, payload: "offline", retain: true))]
    }

    /// One line from the daemon's pipe: every event is published.
    public func eventLine(_ line: String, now: Double) -> [BridgeAction] {
        guard status.consume(line, now: now) else { return [] }
        daemonWriting = true
        guard isConnected else { return [] }
        return [publishState(now: now)]
    }

    /// A message on a subscribed topic.
    public func message(topic: String, payload: [UInt8], retained: Bool, now: Double) -> [BridgeAction] {
        if topic == topics.homeAssistantStatus {
            // A retained birth message is an old one, delivered on subscribing: just announced.
            guard String(decoding: payload, as: UTF8.self) == "online", !retained, settings.discovery != nil
            else {
                return []
            }
            // Home Assistant restarted: announce again, after a pause that spreads a fleet out.
            announceAt = now + settings.announceJitter * random()
            return []
        }
        guard topic == topics.overrideCommand || topic == topics.groupOverrideCommand else { return [] }
        if retained {
            // A retained command would strike again at every reconnect (and a group one on
            // every kiosk): commands are for now only.
            return [
                .warn(
                    "\(topic): ignored the retained command \(OverridePayload.quoted(payload));"
                        + " publish commands without retain (clear it with an empty retained message)")
            ]
        }
        switch OverridePayload.controlLine(payload) {
        case .success(let line):
            return [.note("\(topic): \(OverridePayload.quoted(payload))"), .control(line)]
        case .failure(let error):
            return [
                .warn(
                    "\(topic): ignored \(OverridePayload.quoted(payload)): \(error.message);"
                        + " expected auto, invert, regular or contrast, optionally 'for 30m'")
            ]
        }
    }

    /// The periodic state and a delayed announcement, when due.
    public func tick(now: Double) -> [BridgeAction] {
        guard isConnected else { return [] }
        var actions: [BridgeAction] = []
        if let due = announceAt, now >= due {
            announceAt = nil
            actions += announcement()
            if daemonWriting, status.state != nil { actions.append(publishState(now: now)) }
        }
        if let due = nextRepublish, now >= due, daemonWriting, status.state != nil {
            actions.append(publishState(now: now))
        }
        return actions
    }

    /// The next time `tick` has something to do.
    public var nextDeadline: Double? {
        [nextRepublish, announceAt].compactMap { $0 }.min()
    }

    private func publishState(now: Double) -> BridgeAction {
        nextRepublish = now + settings.republishInterval
        return .publish(Publication(topic: topics.state, payload: status.payload(now: now), retain: true))
    }

    /// The discovery documents, or their removal; the other style's topics are emptied, so that
    /// switching styles leaves no duplicate entities behind.
    private func announcement() -> [BridgeAction] {
        guard let discovery = settings.discovery else {
            let removal = Discovery(topics: topics, name: "")
            return removal.allTopics.map { .publish(Publication(topic: $0, payload: "", retain: true)) }
        }
        // The fleet's select only with device-based discovery (Home Assistant 2024.11 on).
        let documents =
            settings.perEntityDiscovery
            ? discovery.entityDocuments : [discovery.deviceDocument, discovery.groupDocument]
        let current = Set(documents.map(\.topic))
        let stale = discovery.allTopics.filter { !current.contains($0) }
        return stale.map { .publish(Publication(topic: $0, payload: "", retain: true)) }
            + documents.map { .publish(Publication(topic: $0.topic, payload: $0.payload, retain: true)) }
    }
}
